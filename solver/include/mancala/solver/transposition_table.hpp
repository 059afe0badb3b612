// Shared transposition table of board-value bounds.
//
// Keys are lossless: the BoardIndex key of the mover-relative board (stores
// excluded: they never influence play), so a collision in the cluster index
// can never turn into a wrong value.  For a Congkak root whose two rows'
// burnt holes differ, one mover-relative board stands for two positions,
// and the solver sets bit 63 (north_key_bit) in the keys of those with
// North to move; board keys stay below it.
//
// Two layouts of a 64-byte cluster (one cache line), chosen by the keys'
// width and the values' range (configure):
//
//  - Compact: eight entries of one 64-bit word each.  The key's K bits are
//    mixed by a bijection of [0, 2^K) (a multiplication by an odd constant
//    modulo 2^K); the top bits of the mix pick the cluster and the entry
//    keeps the rest (the residue), so cluster and residue give the key back:
//    the entry is still lossless.  Used when the residue fits 29 bits and
//    every value fits 8 bits (Kalah(6,6) with 256 MiB: 48-bit keys, a
//    22-bit cluster index, 26-bit residues).  An entry is one aligned word,
//    read and written whole, so threads share it without a lock: a reader
//    sees an old entry or a new one, never a mix, and every entry ever
//    written holds true bounds of its own key.
//  - Wide: four entries of a full 64-bit key, 16-bit bounds and a
//    spinlock a cluster (held only when several threads share the table),
//    for wider keys (Congkak's north bit, boards beyond 2^49 positions a
//    cluster count) or values beyond 127.
//
// Twice the entries in the same memory is what the compact layout is for:
// the same solve needs half the table, and the kernel zeroes (and a
// virtual machine's host backs) half the pages (results/README.md, "A
// compact transposition table, and endgame tables in memory").
//
// Replacement, the same in both: a store for a key already in the cluster
// updates its entry in place (unless that entry is of a deeper search,
// which is kept).  A new key takes an empty slot if there is one;
// otherwise it evicts the entry whose subtree was smallest (the bit width
// of its node count), an exact entry counting 8 bits more than an
// iterative-deepening (cut-off) one, the first such slot on a tie (see
// entry_worth in transposition_table.cpp).
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
  // The compact layout's entry: residue, lower, upper, move + 1, work + 1, depth.
  static constexpr int kResidueBits = 29;
  static constexpr int kMaxCompactValue = 127;

  // Throws InputError if `megabytes` exceeds the machine's memory or cannot be
  // mapped.  `shared`: several threads probe and store at once (then every
  // wide cluster access is under its lock).  The table starts wide, for any
  // key; configure() may make it compact.
  explicit TranspositionTable(std::size_t megabytes, bool shared = true);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Every key of the coming probes and stores is below 2^key_bits, and every
  // value within [-max_value, max_value].  Picks the layout (compact when
  // both fit it) and clears the table if that layout or key width differs
  // from the last call's.
  void configure(int key_bits, int max_value);
  bool compact() const { return compact_; }

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
  void prefetch(std::uint64_t key) const { __builtin_prefetch(table_ + cluster_index(mix(key))); }
  std::size_t clusters() const { return clusters_; }
  std::size_t bytes() const { return clusters_ * kClusterBytes; }
  // Entries the table can hold.
  std::size_t capacity() const { return clusters_ * (compact_ ? 8 : 4); }

 private:
  static constexpr std::size_t kClusterBytes = 64;
  struct alignas(64) Line {
    unsigned char bytes[kClusterBytes];
  };

  // The bijection of [0, 2^key_bits): a multiplication by an odd constant,
  // modulo 2^key_bits (the wide layout: modulo 2^64, key_mask_ all ones).
  std::uint64_t mix(std::uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) & key_mask_; }
  std::size_t cluster_index(std::uint64_t mixed) const { return std::size_t(mixed >> residue_bits_); }

  bool probe_compact(std::uint64_t key, Bounds& b, int depth) const;
  void store_compact(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth);
  bool probe_wide(std::uint64_t key, Bounds& b, int depth) const;
  void store_wide(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth);

  Line* table_ = nullptr;
  bool shared_ = true;
  bool compact_ = false;
  std::size_t clusters_ = 0;
  int cluster_bits_ = 0;
  int key_bits_ = 64;
  std::uint64_t key_mask_ = ~std::uint64_t(0);
  int residue_bits_ = 64;  // key_bits_ - cluster_bits_, at least 0
};

}  // namespace mancala::solver
