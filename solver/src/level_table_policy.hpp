// How many levels the solver solves in memory before a search (internal
// header): the automatic choice and SolveOptions::level_table_seeds.
#pragma once

#include <cstdint>

#include "mancala/solver/solver.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::solver::detail {

// Oware's cycles make plain search exponential (results that meet a
// repetition cannot be stored), so Oware solves first compute every level
// that fits this budget by retrograde analysis.
inline constexpr std::uint64_t kOwareLevelBudget = std::uint64_t(1) << 28;
// The acyclic rulesets build levels of up to 2^25 boards (one memoized pass,
// seconds), when the root has this many more seeds than the top level: a
// smaller margin made Kalah(5,4) slower (results/README.md, "Move-ordering
// and search-parameter measurements").
inline constexpr std::uint64_t kAcyclicLevelBudget = std::uint64_t(1) << 25;
inline constexpr int kAcyclicMargin = 24;

// The memory the levels 0..top of a cyclic ruleset take while the last one is
// built in memory (LevelValues): 1 byte a board of every level below it, and
// the retrograde sweep's working bytes of the top level (cyclic_level.hpp),
// which its values replace.
std::uint64_t cyclic_levels_bytes(const tables::BoardIndex& keys, int top);
// SolveOptions::full_table_bytes resolved (0: half the physical memory).
std::uint64_t full_table_budget(const SolveOptions& options);

// The last level (all boards with up to that many seeds) that the automatic
// choice solves in memory before searching a root of `seeds` seeds on the
// board, or -1 for none.  `keys` indexes the root's board width up to at
// least `seeds`; `cycles`: the ruleset's moves can repeat a position (Oware),
// whose full tables (every level up to `seeds`) are chosen when
// cyclic_levels_bytes() of them is within `full_bytes`.
int automatic_level_top(const tables::BoardIndex& keys, int seeds, bool cycles, std::uint64_t full_bytes);

// The same under SolveOptions::level_table_seeds.  Throws InputError for an
// Oware count below the automatic one (unless
// SolveOptions::oware_search_below_levels).
int level_table_top(const tables::BoardIndex& keys, int seeds, bool cycles, const SolveOptions& options);

}  // namespace mancala::solver::detail
