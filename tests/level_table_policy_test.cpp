// The solver's choice of levels to solve in memory before a search
// (solver/src/level_table_policy.hpp, internal): Oware roots get their full
// tables (every level up to the root's) when those fit the memory budget,
// which is what puts the Oware start positions in reach; below the budget
// the old 2^28-board rule stands, and the acyclic rulesets are unaffected.
#include <gtest/gtest.h>

#include <cstdint>

#include "level_table_policy.hpp"
#include "mancala/tables/board_index.hpp"

namespace {

using namespace mancala;

// C(n, r), computed here independently of BoardIndex.
std::uint64_t choose(int n, int r) {
  __extension__ typedef unsigned __int128 u128;  // GCC's; -Wpedantic accepts it so marked
  u128 c = 1;
  for (int i = 1; i <= r; ++i) c = c * unsigned(n - r + i) / unsigned(i);
  return std::uint64_t(c);
}

TEST(LevelTablePolicy, FullTablesOfAnOwareStartWhenTheyFit) {
  // Oware 4x5: 40 seeds over 8 pits.  Levels 0..39 hold C(47, 8) boards,
  // a byte each; level 40, C(47, 7), is built with 2-byte cells and
  // frontier lists of at most 1/8 byte a board, which its values replace.
  const tables::BoardIndex keys(8, 40);
  const std::uint64_t top = choose(47, 7);
  const std::uint64_t need = choose(47, 8) + 2 * top + top / 8;
  EXPECT_EQ(solver::detail::cyclic_levels_bytes(keys, 40), need);
  EXPECT_EQ(solver::detail::automatic_level_top(keys, 40, true, need), 40);
  const int fallback = solver::detail::automatic_level_top(keys, 40, true, need - 1);
  EXPECT_LT(fallback, 40) << "one byte short of the budget: the full tables are not chosen";
  // The fallback is the largest top whose levels (C(top + 8, 8) boards)
  // fit 2^28 boards.
  EXPECT_LE(choose(fallback + 8, 8), std::uint64_t(1) << 28);
  EXPECT_GT(choose(fallback + 9, 8), std::uint64_t(1) << 28);
  // The acyclic rulesets do not take the Oware rule.
  EXPECT_EQ(solver::detail::automatic_level_top(keys, 40, false, ~std::uint64_t(0)),
            solver::detail::automatic_level_top(keys, 40, false, 0));
}

TEST(LevelTablePolicy, TheBudgetDefaultsToHalfThePhysicalMemory) {
  solver::SolveOptions o;
  EXPECT_GT(solver::detail::full_table_budget(o), std::uint64_t(1) << 28);
  o.full_table_bytes = 12345;
  EXPECT_EQ(solver::detail::full_table_budget(o), 12345u);
}

}  // namespace
