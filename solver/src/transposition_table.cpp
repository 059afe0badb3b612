#include "mancala/solver/transposition_table.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <string>

#include "mancala/error.hpp"

namespace mancala::solver {

namespace {

// The cluster's lock, taken only when the table is shared (null: not).
class SpinLock {
 public:
  explicit SpinLock(std::atomic<std::uint32_t>* word) : word_(word) {
    if (!word_) return;
    while (word_->exchange(1, std::memory_order_acquire))
      while (word_->load(std::memory_order_relaxed)) {
      }
  }
  ~SpinLock() {
    if (word_) word_->store(0, std::memory_order_release);
  }
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

 private:
  std::atomic<std::uint32_t>* word_;
};

// The wide layout: four entries, their keys in full, a lock.
struct WideCluster {
  std::atomic<std::uint32_t> lock;
  std::uint8_t depth[4];  // kExactDepth, or an iterative-deepening search's depth
  std::uint16_t meta[4];  // bits 0-4 move+1 (0 none), bits 5-15 work+1 (0 = empty slot)
  std::uint64_t key[4];
  std::int16_t lower[4];
  std::int16_t upper[4];
};
static_assert(sizeof(WideCluster) == 64);

constexpr unsigned kMoveBits = 5;
unsigned meta_move(std::uint16_t meta) { return meta & ((1u << kMoveBits) - 1); }
unsigned meta_work(std::uint16_t meta) { return meta >> kMoveBits; }

// The compact layout: eight entries of one word each, no lock.
//   bits  0-28  residue (the mixed key's low bits)
//   bits 29-36  lower + 128
//   bits 37-44  upper + 128
//   bits 45-49  move + 1 (0 none)
//   bits 50-55  work + 1 (0 = empty slot)
//   bits 56-63  depth
struct CompactEntry {
  static constexpr int kLower = TranspositionTable::kResidueBits;
  static constexpr int kUpper = kLower + 8;
  static constexpr int kMove = kUpper + 8;
  static constexpr int kWork = kMove + 5;
  static constexpr int kDepth = kWork + 6;
  static_assert(kDepth + 8 == 64);
  static constexpr unsigned kMaxWork = 62;

  static std::uint64_t make(std::uint64_t residue, int lower, int upper, int move, unsigned work_plus_one, int depth) {
    return residue | std::uint64_t(lower + 128) << kLower | std::uint64_t(upper + 128) << kUpper |
           std::uint64_t(move + 1) << kMove | std::uint64_t(work_plus_one) << kWork | std::uint64_t(depth) << kDepth;
  }
  static int lower(std::uint64_t e) { return int(e >> kLower & 255) - 128; }
  static int upper(std::uint64_t e) { return int(e >> kUpper & 255) - 128; }
  static int move(std::uint64_t e) { return int(e >> kMove & 31) - 1; }
  static unsigned work(std::uint64_t e) { return unsigned(e >> kWork & 63); }  // work + 1; 0: empty
  static int depth(std::uint64_t e) { return int(e >> kDepth); }
};

struct CompactCluster {
  std::atomic<std::uint64_t> entry[8];
};
static_assert(sizeof(CompactCluster) == 64);

// What an entry is worth keeping, from its work + 1 (0: an empty slot) and
// depth: the bit width of its subtree's node count, plus kExactWorkBonus
// for an exact entry.  A cut-off (iterative-deepening) entry only holds a
// move hint, but the deepening's hints high in the tree order the first
// exact tests: evicting every cut-off entry before any exact one (the rule
// before this one) let a test's many small exact entries wipe them out once
// the table filled, and the tests' nodes blew up.  With a bonus of 8 bits,
// a cut-off entry outlives only exact entries of subtrees about 256 times
// smaller than its own.  Nodes on one thread, before -> after: Kalah(5,6) empty capture
// with 24-seed tables and 256 MiB 94.7 M -> 61.4 M (60.4 M with 1024 MiB,
// unchanged there); with 23-seed tables and 256 MiB 199.0 M -> 136.2 M;
// Kalah(6,4) empty capture with 15-seed tables and 16 / 32 / 64 MiB
// 61.0 / 53.5 / 29.3 M -> 35.0 / 32.4 / 30.0 M (results/README.md, "Cut-off
// entries kept by their work").
constexpr unsigned kExactWorkBonus = 8;
unsigned entry_worth(unsigned work_plus_one, int depth) {
  return work_plus_one + (depth == kExactDepth ? kExactWorkBonus : 0);
}

}  // namespace

TranspositionTable::TranspositionTable(std::size_t megabytes, bool shared) : shared_(shared) {
  const std::size_t physical = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
  const std::size_t bytes = megabytes << 20;
  if (megabytes == 0) throw InputError("--tt-mb must be at least 1");
  if (megabytes > (std::size_t(1) << 40) || bytes > physical)
    throw InputError("transposition table of " + std::to_string(megabytes) + " MB exceeds the machine's memory (" +
                     std::to_string(physical >> 20) + " MB)");
  // A power of two of clusters, so the index is the top bits of a hash.
  clusters_ = std::bit_floor(bytes / kClusterBytes);
  cluster_bits_ = std::countr_zero(clusters_);
  residue_bits_ = 64 - cluster_bits_;
  // Anonymous mapping: zero pages arrive lazily, so a big table costs nothing
  // until it is used.
  void* mem = mmap(nullptr, clusters_ * kClusterBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw InputError("cannot allocate a transposition table of " + std::to_string(megabytes) + " MB");
  madvise(mem, clusters_ * kClusterBytes, MADV_HUGEPAGE);
  table_ = static_cast<Line*>(mem);
}

TranspositionTable::~TranspositionTable() {
  if (table_) munmap(table_, clusters_ * kClusterBytes);
}

void TranspositionTable::clear() {
  madvise(table_, clusters_ * kClusterBytes, MADV_DONTNEED);  // back to zero pages
}

void TranspositionTable::configure(int key_bits, int max_value) {
  key_bits = std::clamp(key_bits, 1, 64);
  const bool compact = key_bits - cluster_bits_ <= kResidueBits && max_value <= kMaxCompactValue;
  const int bits = compact ? key_bits : 64;
  if (compact == compact_ && bits == key_bits_) return;
  clear();
  compact_ = compact;
  key_bits_ = bits;
  key_mask_ = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  residue_bits_ = std::max(bits - cluster_bits_, 0);
}

bool TranspositionTable::probe(std::uint64_t key, Bounds& b, int depth) const {
  return compact_ ? probe_compact(key, b, depth) : probe_wide(key, b, depth);
}

void TranspositionTable::store(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth) {
  if (compact_)
    store_compact(key, lower, upper, move, work, depth);
  else
    store_wide(key, lower, upper, move, work, depth);
}

bool TranspositionTable::probe_compact(std::uint64_t key, Bounds& b, int depth) const {
  const std::uint64_t mixed = mix(key);
  const auto& c = *reinterpret_cast<const CompactCluster*>(table_ + cluster_index(mixed));
  const std::uint64_t residue_mask = (std::uint64_t(1) << residue_bits_) - 1;
  const std::uint64_t residue = mixed & residue_mask;
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t e = c.entry[i].load(std::memory_order_relaxed);
    if ((e & residue_mask) == residue && CompactEntry::work(e) != 0) {
      b.move = CompactEntry::move(e);
      if (CompactEntry::depth(e) < depth) return false;
      b.lower = std::max(b.lower, CompactEntry::lower(e));
      b.upper = std::min(b.upper, CompactEntry::upper(e));
      return true;
    }
  }
  return false;
}

void TranspositionTable::store_compact(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth) {
  const std::uint64_t mixed = mix(key);
  auto& c = *reinterpret_cast<CompactCluster*>(table_ + cluster_index(mixed));
  const std::uint64_t residue_mask = (std::uint64_t(1) << residue_bits_) - 1;
  const std::uint64_t residue = mixed & residue_mask;
  unsigned w = std::min(work, CompactEntry::kMaxWork) + 1;
  std::uint64_t e[8];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) e[i] = c.entry[i].load(std::memory_order_relaxed);
  int slot = -1;
  for (int i = 0; i < 8; ++i) {
    if ((e[i] & residue_mask) == residue && CompactEntry::work(e[i]) != 0) {
      if (CompactEntry::depth(e[i]) > depth) return;  // a deeper search's bounds are worth more
      if (CompactEntry::depth(e[i]) == depth) {
        // Same position and depth: both bounds are true, keep the tighter of each.
        lower = std::max(lower, CompactEntry::lower(e[i]));
        upper = std::min(upper, CompactEntry::upper(e[i]));
        w = std::max(w, CompactEntry::work(e[i]));
      }
      if (move < 0) move = CompactEntry::move(e[i]);
      slot = i;
      break;
    }
  }
  if (slot < 0) {
    // Evict the entry of least worth (entry_worth; an empty slot is worth
    // 0); of equals, the first.  Worth and index in one key each, so that
    // the least is found without a branch.
    std::uint64_t least = ~std::uint64_t(0);
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t worth = entry_worth(CompactEntry::work(e[i]), CompactEntry::depth(e[i]));
      least = std::min(least, worth << 3 | unsigned(i));
    }
    slot = int(least & 7);
  }
  c.entry[slot].store(CompactEntry::make(residue, lower, upper, move, w, depth), std::memory_order_relaxed);
}

bool TranspositionTable::probe_wide(std::uint64_t key, Bounds& b, int depth) const {
  auto& c = *reinterpret_cast<WideCluster*>(table_ + cluster_index(mix(key)));
  SpinLock guard(shared_ ? &c.lock : nullptr);
  for (int i = 0; i < 4; ++i) {
    if (c.key[i] == key && meta_work(c.meta[i]) != 0) {
      b.move = int(meta_move(c.meta[i])) - 1;
      if (c.depth[i] < depth) return false;
      b.lower = std::max(b.lower, int(c.lower[i]));
      b.upper = std::min(b.upper, int(c.upper[i]));
      return true;
    }
  }
  return false;
}

void TranspositionTable::store_wide(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth) {
  auto& c = *reinterpret_cast<WideCluster*>(table_ + cluster_index(mix(key)));
  unsigned w = std::min(work, (1u << (16 - kMoveBits)) - 2) + 1;
  SpinLock guard(shared_ ? &c.lock : nullptr);
  int slot = -1;
  for (int i = 0; i < 4; ++i) {
    if (c.key[i] == key && meta_work(c.meta[i]) != 0) {
      if (c.depth[i] > depth) return;  // a deeper search's bounds are worth more
      if (c.depth[i] == depth) {
        // Same position and depth: both bounds are true, keep the tighter of each.
        lower = std::max(lower, int(c.lower[i]));
        upper = std::min(upper, int(c.upper[i]));
        w = std::max(w, meta_work(c.meta[i]));
      }
      if (move < 0) move = int(meta_move(c.meta[i])) - 1;
      slot = i;
      break;
    }
  }
  if (slot < 0) {
    // Evict the entry of least worth (entry_worth); of equals, the first.
    auto worth = [&](int i) { return entry_worth(meta_work(c.meta[i]), c.depth[i]); };
    slot = 0;
    for (int i = 1; i < 4; ++i)
      if (worth(i) < worth(slot)) slot = i;
  }
  c.key[slot] = key;
  c.lower[slot] = std::int16_t(lower);
  c.upper[slot] = std::int16_t(upper);
  c.meta[slot] = std::uint16_t((w << kMoveBits) | unsigned(move + 1));
  c.depth[slot] = std::uint8_t(depth);
}

}  // namespace mancala::solver
