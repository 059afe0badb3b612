// SolveOptions::search_stats: the counts of what the search's nodes did.
// Counting must not change the search (the same value, nodes and tests as
// a solve without it), every node must be counted once (the kinds add up to
// SolveResult::nodes, on one thread, on two splitting everywhere, and in a
// stopped solve), and the counts must be the ones they say (no more nodes
// failing high than expected to, no more on their first child than at all;
// each kind that a solve's options make possible seen, each they rule out
// not).
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "mancala/notation.hpp"
#include "mancala/solver/solver.hpp"

namespace {

using namespace mancala;

struct Case {
  std::string name;
  Ruleset rules;
  std::string position;
};

std::vector<Case> cases() {
  return {
      {"kalah", {.game = Game::Kalah}, "3,3,3,3/3,3,3,3 0-0 s"},
      {"kalah_empty_capture", {.game = Game::Kalah, .empty_capture = true}, "3,2,4,0,3/1,3,3,2,2 2-1 n"},
      {"brainking", {.game = Game::BrainKing}, "3,3,3,3/3,3,3,3 0-0 s"},
      {"oware", {.game = Game::Oware}, "2,1,2/1,2,1 0-0 s"},
      {"congkak", {.game = Game::Congkak}, "3,3,3,3/3,3,3,3 0-0 s"},
      {"congkak_burnt", {.game = Game::Congkak}, "3,0,3,x/4,3,x,3 3-0 s"},
  };
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The level tables of options_for's solves.
int counted_level_top(const Case& c) { return c.rules.game == Game::Oware ? 2 : 0; }

solver::SolveOptions options_for(const Case& c, bool stats) {
  solver::SolveOptions o{.threads = 1, .tt_megabytes = 4, .deepening_depth = 6, .search_stats = stats};
  // Oware searched above small level tables, so that its cycles (and their
  // repetitions) are met; the others search without level tables.
  o.level_table_seeds = counted_level_top(c);
  o.oware_search_below_levels = true;
  return o;
}

// A counted solve of the case's position, its options changed by `change`.
template <class Change>
solver::SolveResult counted_solve(const Case& c, const Change& change) {
  solver::SolveOptions o = options_for(c, true);
  change(o);
  solver::Solver s(c.rules, o);
  return s.solve(parse_position(c.position));
}

std::uint64_t kinds_sum(const solver::SearchStats& s) {
  return s.terminal + s.from_tables + s.horizon + s.repetition + s.settled_by_entry + s.interior + s.abandoned;
}

// What holds of the counts of any solve, finished or not.
void expect_consistent(const solver::SearchStats& s, std::uint64_t nodes, const std::string& what) {
  EXPECT_EQ(kinds_sum(s), nodes) << what;
  EXPECT_EQ(std::accumulate(s.interior_by_seeds.begin(), s.interior_by_seeds.end(), std::uint64_t(0)), s.interior) << what;
  EXPECT_LE(s.expected_cut, s.interior) << what;
  EXPECT_LE(s.expected_cut_failed_high, s.expected_cut) << what;
  EXPECT_LE(s.expected_cut_first_child, s.expected_cut_failed_high) << what;
  EXPECT_LE(s.expected_all_failed_high, s.interior - s.expected_cut) << what;
  EXPECT_LE(s.entry_move_failed_high, s.with_entry_move) << what;
  EXPECT_LE(s.with_entry_move, s.interior) << what;
}

class SearchStatsTest : public testing::TestWithParam<Case> {};

TEST_P(SearchStatsTest, CountingChangesNothingAndCountsEveryNodeOnce) {
  const Case& c = GetParam();
  const Position p = parse_position(c.position);
  solver::Solver plain(c.rules, options_for(c, false));
  solver::Solver counted(c.rules, options_for(c, true));
  const solver::SolveResult a = plain.solve(p);
  const solver::SolveResult b = counted.solve(p);
  ASSERT_TRUE(a.complete && b.complete);
  EXPECT_EQ(b.value, a.value);
  EXPECT_EQ(b.pv, a.pv);
  EXPECT_EQ(b.nodes, a.nodes);
  ASSERT_EQ(b.test_log.size(), a.test_log.size());
  for (std::size_t i = 0; i < a.test_log.size(); ++i) EXPECT_EQ(b.test_log[i].nodes, a.test_log[i].nodes) << "test " << i;

  // Nothing counted unless asked.
  EXPECT_EQ(kinds_sum(a.search_stats), 0u);
  EXPECT_TRUE(a.search_stats.interior_by_seeds.empty());

  const solver::SearchStats& s = b.search_stats;
  expect_consistent(s, b.nodes, c.name);
  EXPECT_EQ(s.abandoned, 0u) << "one thread, never stopped";
  EXPECT_GT(s.interior, 0u);
  EXPECT_GE(s.children_valued, s.interior) << "every interior node values a child";
  // Interior nodes have more seeds than the level tables and no more than the root.
  ASSERT_FALSE(s.interior_by_seeds.empty());
  EXPECT_EQ(s.interior_by_seeds.size(), std::size_t(p.board_seeds()) + 1) << "the root is interior";
  for (int k = 0; k <= counted_level_top(c); ++k) EXPECT_EQ(s.interior_by_seeds[std::size_t(k)], 0u) << "seeds " << k;
  // The deepening's depths end at a horizon (Oware never deepens); a
  // repetition only in Oware.
  if (c.rules.game == Game::Oware) {
    EXPECT_EQ(s.horizon, 0u);
    EXPECT_GT(s.repetition, 0u);
  } else {
    EXPECT_GT(s.horizon, 0u);
    EXPECT_EQ(s.repetition, 0u);
  }
}

TEST_P(SearchStatsTest, WithoutDeepeningNoNodeReachesAHorizon) {
  const Case& c = GetParam();
  const solver::SolveResult r = counted_solve(c, [](solver::SolveOptions& o) { o.deepening_depth = 0; });
  expect_consistent(r.search_stats, r.nodes, c.name);
  EXPECT_EQ(r.search_stats.horizon, 0u);
}

// Two threads splitting at every node: helpers' counts are added as their
// workers end, and the nodes a refutation elsewhere cut short are counted
// as abandoned.
TEST_P(SearchStatsTest, EveryNodeIsCountedOnTwoThreads) {
  const Case& c = GetParam();
  const solver::SolveResult r = counted_solve(c, [](solver::SolveOptions& o) {
    o.threads = 2;
    o.parallel_split_above_tables = -64;
  });
  ASSERT_TRUE(r.complete);
  solver::Solver one(c.rules, options_for(c, false));
  EXPECT_EQ(r.value, one.solve(parse_position(c.position)).value);
  expect_consistent(r.search_stats, r.nodes, c.name);
}

TEST_P(SearchStatsTest, AStoppedSolveCountsEveryNodeItSearched) {
  const Case& c = GetParam();
  const solver::SolveResult r = counted_solve(c, [](solver::SolveOptions& o) { o.test_stop_after_tests = 1; });
  expect_consistent(r.search_stats, r.nodes, c.name);
  EXPECT_GT(r.search_stats.interior, 0u);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SearchStatsTest, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

// The counts that tell the move order's success apart from its failure are
// not all equal on a real solve: some nodes expected to cut off fail low,
// some cut off only on a later child, some expected to fail low cut off, and
// the table's move sometimes fails.  (Were a count computed from another,
// these would be equal.)  Kalah(4,4), no tables.
TEST(SearchStats, TheMoveOrdersCountsDifferOnARealSolve) {
  solver::Solver s({.game = Game::Kalah}, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = 0, .search_stats = true});
  const solver::SolveResult r = s.solve(parse_position("4,4,4,4/4,4,4,4 0-0 s"));
  const solver::SearchStats& st = r.search_stats;
  expect_consistent(st, r.nodes, "kalah(4,4)");
  EXPECT_LT(st.expected_cut_failed_high, st.expected_cut);
  EXPECT_LT(st.expected_cut_first_child, st.expected_cut_failed_high);
  EXPECT_GT(st.expected_all_failed_high, 0u);
  EXPECT_LT(st.expected_all_failed_high, st.interior - st.expected_cut);
  EXPECT_LT(st.entry_move_failed_high, st.with_entry_move);
  EXPECT_GT(st.entry_move_failed_high, 0u);
  EXPECT_GT(st.settled_by_entry, 0u);
  EXPECT_GT(st.children_valued, st.interior);
}

// Adding counts sums every field, and the seeds' list grows to the longer.
TEST(SearchStats, AddSumsEveryCount) {
  solver::SearchStats a, b;
  std::uint64_t solver::SearchStats::*fields[] = {
      &solver::SearchStats::terminal, &solver::SearchStats::from_tables, &solver::SearchStats::horizon,
      &solver::SearchStats::repetition, &solver::SearchStats::settled_by_entry, &solver::SearchStats::interior,
      &solver::SearchStats::abandoned, &solver::SearchStats::expected_cut, &solver::SearchStats::expected_cut_failed_high,
      &solver::SearchStats::expected_cut_first_child, &solver::SearchStats::expected_all_failed_high,
      &solver::SearchStats::with_entry_move, &solver::SearchStats::entry_move_failed_high, &solver::SearchStats::children_valued};
  std::uint64_t k = 1;
  for (auto f : fields) {
    a.*f = k;
    b.*f = 100 * k;
    ++k;
  }
  a.interior_by_seeds = {1, 2};
  b.interior_by_seeds = {10, 20, 30};
  a.add(b);
  k = 1;
  for (auto f : fields) {
    EXPECT_EQ(a.*f, 101 * k) << "field " << k;
    ++k;
  }
  EXPECT_EQ(a.interior_by_seeds, (std::vector<std::uint64_t>{11, 22, 30}));
  b.add(solver::SearchStats{});
  EXPECT_EQ(b.interior_by_seeds, (std::vector<std::uint64_t>{10, 20, 30}));
}

}  // namespace
