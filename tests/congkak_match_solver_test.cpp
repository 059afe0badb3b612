// Multi-round Congkak matches (solver: match_solver.hpp) against the
// oracle's own solution (tests/oracle/match_oracle.hpp), which builds the
// whole match as one graph of positions and solves it by retrograde analysis
// instead of the solver's fixpoint over round states: the match value and
// every state's outcome on the smallest boards, both capture rules, both
// openings; the principal line; bad input.
#include <gtest/gtest.h>

#include <string>

#include "congkak_variants.hpp"
#include "mancala/congkak_match.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/match_solver.hpp"
#include "oracle/match_oracle.hpp"

namespace {

using mancala::CongkakCapture;
using mancala::Game;
using mancala::Ruleset;
using mancala::Side;

using congkak_test::kVariants;
using congkak_test::Variant;

const std::pair<int, int> kBoards[] = {{1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 2}, {2, 3}, {3, 1},
                                       {3, 2}, {3, 3}, {4, 1}, {4, 2}, {3, 4}, {3, 5}};

TEST(MatchValues, EqualTheOracleOnTheSmallestBoards) {
  int draws = 0, wins = 0;
  for (const Variant& v : kVariants)
    for (const auto& [m, n] : kBoards)
      for (bool simultaneous : {false, true}) {
        SCOPED_TRACE(std::string(v.name) + " " + std::to_string(m) + "x" + std::to_string(n) +
                     (simultaneous ? " simultaneous" : " sequential"));
        mancala::solver::MatchSolver solver(v.rules, m, n, 64);
        const auto ours = solver.solve(simultaneous);
        const auto theirs = oracle::match(v.oracle_rules, m, n, simultaneous);
        EXPECT_EQ(mancala::solver::rational_text(ours.value), theirs.value);
        ASSERT_EQ(ours.states.size(), theirs.states.size());
        for (const auto& t : theirs.states) {
          const Side starter = t.south_starts ? Side::South : Side::North;
          bool found = false;
          for (const auto& s : ours.states)
            if (s.south_stones == t.south_stones && s.starter == starter) {
              found = true;
              EXPECT_EQ(s.south_value, t.south_value) << t.south_stones << " stones, South starts: " << t.south_starts;
              draws += s.south_value == 0;
              wins += s.south_value != 0;
              // A won or lost state is resolved in order; a draw never is.
              EXPECT_EQ(s.order == 0, s.south_value == 0);
            }
          EXPECT_TRUE(found) << t.south_stones << " stones, South starts: " << t.south_starts;
        }
      }
  // Both kinds of outcome occur, so the comparison covers the cycles' draws.
  EXPECT_GT(draws, 20);
  EXPECT_GT(wins, 20);
}

// The principal line is a real match: each round starts where the rules put
// it after the one before, and it ends the way the value says.
TEST(MatchLine, FollowsTheRulesAndEndsAsTheValueSays) {
  for (const Variant& v : kVariants)
    for (const auto& [m, n] : kBoards) {
      SCOPED_TRACE(std::string(v.name) + " " + std::to_string(m) + "x" + std::to_string(n));
      mancala::solver::MatchSolver solver(v.rules, m, n, 64);
      const auto sol = solver.solve(false);
      ASSERT_FALSE(sol.line.empty());
      EXPECT_EQ(sol.line.front().start, mancala::start_position(m, n));
      for (std::size_t k = 0; k < sol.line.size(); ++k) {
        const auto& r = sol.line[k];
        // Replaying the round's moves from its start ends it with its result.
        mancala::Position p = r.start;
        bool over = false;
        for (std::size_t i = 0; i < r.moves.size(); ++i) {
          ASSERT_EQ(p.to_move, r.moves[i].first);
          over = mancala::apply_move(v.rules, p, r.moves[i].second).game_over;
          ASSERT_EQ(over, i + 1 == r.moves.size());
        }
        EXPECT_EQ(p.store_of(Side::South), r.south_after);
        EXPECT_EQ(p.store_of(Side::North), r.north_after);
        if (k + 1 < sol.line.size()) {
          const Side next = mancala::next_round_starter(r.south_after, r.north_after, r.start.to_move);
          EXPECT_EQ(sol.line[k + 1].start, mancala::congkak_round_start(m, n, r.south_after, r.north_after, next));
        }
      }
      const auto& last = sol.line.back();
      const int value = int(sol.value.convert_to<double>());
      if (value > 0) {
        EXPECT_LT(last.north_after, n);
      } else if (value < 0) {
        EXPECT_LT(last.south_after, n);
      } else {
        EXPECT_NE(sol.line_end.find("repeats"), std::string::npos) << sol.line_end;
      }
    }
}

TEST(MatchSolver, BadBoardsAreRefused) {
  EXPECT_THROW(mancala::solver::MatchSolver(Ruleset{.game = Game::Kalah}, 3, 3), mancala::InputError);
  EXPECT_THROW(mancala::solver::MatchSolver(kVariants[0].rules, 3, 0), mancala::InputError);
  EXPECT_THROW(mancala::solver::MatchSolver(kVariants[0].rules, 0, 3), mancala::InputError);
  EXPECT_THROW(mancala::solver::MatchSolver(kVariants[0].rules, 16, 8), mancala::InputError);
}

}  // namespace
