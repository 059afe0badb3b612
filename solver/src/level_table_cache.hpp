// The levels a solver solved in memory, kept for its next solve (internal
// header).  analyze solves every child of a position, and a batch of
// positions shares one board, so the next solve usually needs the same
// levels.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "mancala/ruleset.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/tables/level_values.hpp"

namespace mancala::solver::detail {

// Levels 0..max_seeds() of one ruleset, for boards of pits_per_side() pits a
// side, held in memory, as the solver's endgame tables.
class LevelTables : public EndgameTables {
 public:
  virtual int pits_per_side() const = 0;
};

// LevelValues<R> as LevelTables; it owns the values.
template <class R>
class LevelValuesProbe final : public LevelTables {
 public:
  LevelValuesProbe(int pits_per_side, int top) : values_(pits_per_side, top) {}

  // Builds the levels up to `top`, telling on_level(k) before level k;
  // throws tables::BuildStopped when `stop` (optional) is raised meanwhile.
  template <class OnLevel>
  void build(int top, const OnLevel& on_level, const std::atomic<bool>* stop) {
    values_.stop_when(stop);
    while (values_.built_seeds() < top) {
      on_level(values_.built_seeds() + 1);
      values_.build_next();
    }
  }

  int pits_per_side() const override { return values_.pits_per_side(); }
  int max_seeds() const override { return values_.built_seeds(); }
  bool probe(const Position& p, int& board_value) const override {
    const int seeds = p.board_seeds();
    if (p.m() != values_.pits_per_side() || seeds > values_.built_seeds()) return false;
    board_value = values_.value(p.pits.data(), seeds);
    return true;
  }
  const std::int8_t* level_values(int pits_per_side, int seeds) const override {
    if (pits_per_side != values_.pits_per_side() || seeds < 0 || seeds > values_.built_seeds()) return nullptr;
    return values_.level(seeds).data();
  }

 private:
  tables::LevelValues<R> values_;
};

// At most one set of levels, with the ruleset it was built for.
class LevelTableCache {
 public:
  // The levels kept, if they are of `rules`, for boards of `pits_per_side`
  // pits a side, and end at `top` (or above it, when `more_serve`: levels
  // above the ones needed cost nothing once built, unless the caller fixed
  // the count); null otherwise.
  const LevelTables* find(const Ruleset& rules, int pits_per_side, int top, bool more_serve) const {
    if (!levels_ || rules_ != rules || levels_->pits_per_side() != pits_per_side) return nullptr;
    const int kept = levels_->max_seeds();
    return kept == top || (kept > top && more_serve) ? levels_.get() : nullptr;
  }

  // Builds levels 0..top of ruleset R (whose Ruleset is `rules`) for boards of
  // `pits_per_side` pits a side in place of the ones kept, telling
  // on_level(k) before level k.  The old levels are freed first, so that the
  // two never take memory together.
  // A build stopped by `stop` throws tables::BuildStopped and keeps nothing.
  template <class R, class OnLevel>
  const LevelTables& build(const Ruleset& rules, int pits_per_side, int top, const OnLevel& on_level,
                           const std::atomic<bool>* stop = nullptr) {
    levels_.reset();
    auto levels = std::make_unique<LevelValuesProbe<R>>(pits_per_side, top);
    levels->build(top, on_level, stop);
    rules_ = rules;
    levels_ = std::move(levels);
    return *levels_;
  }

 private:
  Ruleset rules_;
  std::unique_ptr<LevelTables> levels_;
};

}  // namespace mancala::solver::detail
