// The children a builder that holds only a slice of the levels asks other
// processes for in one request round, and what each answer is folded into
// (acyclic_slice.hpp, cyclic_slice.hpp; tables/mpi/ sends them).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

// A move whose child's value another process holds: the position it is
// played from (an index of the asker's choosing: its offset in the slice,
// or in a batch) and what it gains.
struct WaitingMove {
  std::uint64_t offset;
  std::int16_t gain;
  bool extra_turn;
};

// The children asked of other processes in one round, grouped by owner:
// keys[r][j] (value_key(), any order, repeats allowed) is the child of
// waiting[r][j].  Owner r answers keys[r] with one value each, in order.
struct ExitRequests {
  explicit ExitRequests(int parts) : keys(std::size_t(parts)), waiting(std::size_t(parts)) {}
  std::vector<std::vector<std::uint64_t>> keys;
  std::vector<std::vector<WaitingMove>> waiting;
  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& k : keys) n += k.size();
    return n;
  }
  void clear() {
    for (auto& k : keys) k.clear();
    for (auto& w : waiting) w.clear();
  }
  void append(ExitRequests& more) {
    for (std::size_t r = 0; r < keys.size(); ++r) {
      keys[r].insert(keys[r].end(), more.keys[r].begin(), more.keys[r].end());
      waiting[r].insert(waiting[r].end(), more.waiting[r].begin(), more.waiting[r].end());
    }
  }
};

// f(move, value) for every waiting move of `req` and its answer (every
// owner's answers, concatenated in owner order); answers that do not match
// the requests one for one, or an unknown value among them, are a logic
// error.
template <class F>
void for_each_answer(const ExitRequests& req, std::span<const std::int8_t> answers, F&& f) {
  std::size_t at = 0;
  for (const auto& waiting : req.waiting) {
    if (answers.size() - at < waiting.size()) throw std::logic_error("request round: too few answers");
    for (const WaitingMove& w : waiting) {
      const std::int8_t v = answers[at++];
      if (v == kUnknownValue) throw std::logic_error("request round: an unknown value in an answer");
      f(w, v);
    }
  }
  if (at != answers.size()) throw std::logic_error("request round: too many answers");
}

}  // namespace mancala::tables
