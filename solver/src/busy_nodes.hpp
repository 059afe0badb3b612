// ABDADA's marks (internal header): the nodes some thread is searching right
// now, and the flag that abandons a search.  The marks only steer the threads
// apart; they never decide a value (see search.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mancala::solver::detail {

// Raised to abandon a search: another thread finished the same test first,
// or (`external`, SolveOptions::stop) the solver's caller asked it to stop.
struct StopFlag {
  std::atomic<bool> raised{false};
  const std::atomic<bool>* external = nullptr;
  bool any() const {
    return raised.load(std::memory_order_relaxed) || (external && external->load(std::memory_order_relaxed));
  }
};

// Thrown out of a search (and out of the solve's principal variation) when
// the caller's stop flag was raised: nothing the aborted search saw is used.
struct SearchStopped {};

// Nodes that some thread is searching right now (ABDADA's "busy" mark).  It
// only steers the threads apart, it never decides a value: a lost or
// mistaken mark costs time, not correctness, so a small lossy table of
// atomics serves.
class BusyNodes {
 public:
  explicit BusyNodes(bool used) : slots_(used ? kSlots : 0) {}
  void enter(std::uint64_t key) { slot(key).store(key + 1, std::memory_order_relaxed); }
  void leave(std::uint64_t key) {
    std::uint64_t mine = key + 1;
    slot(key).compare_exchange_strong(mine, 0, std::memory_order_relaxed);
  }
  bool busy(std::uint64_t key) const { return slot(key).load(std::memory_order_relaxed) == key + 1; }
  // Marks left by searches that were abandoned.
  void clear() {
    for (auto& s : slots_) s.store(0, std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kSlots = std::size_t(1) << 16;
  std::atomic<std::uint64_t>& slot(std::uint64_t key) const {
    return slots_[std::size_t((key * 0x9E3779B97F4A7C15ull) >> 48)];
  }
  mutable std::vector<std::atomic<std::uint64_t>> slots_;
};

// Marks a node busy for as long as it is being searched.
class BusyMark {
 public:
  BusyMark(BusyNodes* busy, std::uint64_t key) : busy_(busy), key_(key) {
    if (busy_) busy_->enter(key_);
  }
  ~BusyMark() {
    if (busy_) busy_->leave(key_);
  }
  BusyMark(const BusyMark&) = delete;
  BusyMark& operator=(const BusyMark&) = delete;

 private:
  BusyNodes* busy_;
  std::uint64_t key_;
};

}  // namespace mancala::solver::detail
