// Shared transposition table of board-value bounds.
//
// Keys are lossless: the 64-bit BoardIndex key of the mover-relative board
// (stores excluded: they never influence play), compared in full, so a
// collision in the cluster index can never turn into a wrong value.  For a
// Congkak root whose two rows' burnt holes differ, one mover-relative board
// stands for two positions, and the solver sets bit 63 (north_key_bit) in
// the keys of those with North to move; board keys stay below it.
//
// Layout: 64-byte clusters (one cache line) of four entries with an explicit
// replacement rule.  A store for a key already in the cluster updates its
// entry in place (unless that entry is of a deeper search, which is kept).
// A new key takes an empty slot if there is one; otherwise it evicts an
// entry of an iterative-deepening (cut-off) search before any exact one,
// and among those the one whose subtree was smallest (the bit width of its
// node count), the first such slot on a tie.  Each cluster has a spinlock:
// readers and writers copy whole entries under it, so a torn entry can never
// be read, whatever the number of threads.  With two cores the lock is
// almost never contended.  A table that one thread alone uses (a solve on one
// thread) takes no lock: the locked exchange is a full barrier, a cost on
// every probe and store.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace mancala::solver {

struct Bounds {
  int lower;
  int upper;
  int move;  // best move (mover-relative pit), or -1
};

// Entries hold exact bounds (depth kExactDepth) or the bounds of a search
// cut off at a depth, with a heuristic at its leaves (iterative deepening).
// A probe narrows bounds only with entries of at least the depth it asks
// for, so an exact search never reads a heuristic bound; it does read their
// best moves.
constexpr int kExactDepth = 255;

class TranspositionTable {
 public:
  static constexpr int kNoMove = -1;

  // Throws InputError if `megabytes` exceeds the machine's memory or cannot be
  // mapped.  `shared`: several threads probe and store at once (then every
  // cluster access is under its lock).
  explicit TranspositionTable(std::size_t megabytes, bool shared = true);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Narrows `b` with the stored bounds of `key` if they are of `depth` or
  // deeper, and sets b.move from any entry of `key`; returns false if `key`
  // has no entry, or one of less depth.
  bool probe(std::uint64_t key, Bounds& b, int depth = kExactDepth) const;
  // Stores bounds of a search of `depth` (merged with what is there for the
  // same key and depth; a deeper entry wins).  `work` is a measure of the
  // subtree's size, used for replacement.
  void store(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth = kExactDepth);

  void clear();
  // Asks for key's cluster ahead of a probe.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&cluster_of(key)); }
  std::size_t clusters() const { return clusters_; }
  std::size_t bytes() const { return clusters_ * sizeof(Cluster); }

 private:
  struct alignas(64) Cluster {
    std::atomic<std::uint32_t> lock;
    std::uint8_t depth[4];  // kExactDepth, or an iterative-deepening search's depth
    std::uint16_t meta[4];  // bits 0-4 move+1 (0 none), bits 5-15 work+1 (0 = empty slot)
    std::uint64_t key[4];
    std::int16_t lower[4];
    std::int16_t upper[4];
  };
  static_assert(sizeof(Cluster) == 64);

  Cluster& cluster_of(std::uint64_t key) const {
    return table_[(key * 0x9E3779B97F4A7C15ull) >> shift_];
  }

  Cluster* table_ = nullptr;
  bool shared_ = true;
  std::size_t clusters_ = 0;
  int shift_ = 64;
};

}  // namespace mancala::solver
