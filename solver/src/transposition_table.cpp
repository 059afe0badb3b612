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

constexpr unsigned kMoveBits = 5;
unsigned meta_move(std::uint16_t meta) { return meta & ((1u << kMoveBits) - 1); }
unsigned meta_work(std::uint16_t meta) { return meta >> kMoveBits; }

}  // namespace

TranspositionTable::TranspositionTable(std::size_t megabytes, bool shared) : shared_(shared) {
  const std::size_t physical = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
  const std::size_t bytes = megabytes << 20;
  if (megabytes == 0) throw InputError("--tt-mb must be at least 1");
  if (megabytes > (std::size_t(1) << 40) || bytes > physical)
    throw InputError("transposition table of " + std::to_string(megabytes) + " MB exceeds the machine's memory (" +
                     std::to_string(physical >> 20) + " MB)");
  // A power of two of clusters, so the index is the top bits of a hash.
  clusters_ = std::bit_floor(bytes / sizeof(Cluster));
  shift_ = 64 - std::countr_zero(clusters_);
  // Anonymous mapping: zero pages arrive lazily, so a big table costs nothing
  // until it is used.
  void* mem = mmap(nullptr, clusters_ * sizeof(Cluster), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw InputError("cannot allocate a transposition table of " + std::to_string(megabytes) + " MB");
  madvise(mem, clusters_ * sizeof(Cluster), MADV_HUGEPAGE);
  table_ = static_cast<Cluster*>(mem);
}

TranspositionTable::~TranspositionTable() {
  if (table_) munmap(table_, clusters_ * sizeof(Cluster));
}

void TranspositionTable::clear() {
  madvise(table_, clusters_ * sizeof(Cluster), MADV_DONTNEED);  // back to zero pages
}

bool TranspositionTable::probe(std::uint64_t key, Bounds& b, int depth) const {
  Cluster& c = cluster_of(key);
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

void TranspositionTable::store(std::uint64_t key, int lower, int upper, int move, unsigned work, int depth) {
  Cluster& c = cluster_of(key);
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
    // Evict the entry of least worth: a heuristic one (it only holds a move
    // hint) before an exact one, then the smallest subtree.
    auto worth = [&](int i) { return (c.depth[i] == kExactDepth ? 1u << 16 : 0u) + meta_work(c.meta[i]); };
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
