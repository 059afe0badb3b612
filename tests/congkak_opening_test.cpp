// Congkak's simultaneous opening (engine: congkak_opening.hpp; solver:
// opening_solver.hpp, matrix_game.hpp) against the oracle's own
// implementation of the lock-step model (tests/oracle/opening_oracle.hpp):
// values and root matrices of every start board up to 4x4, boards of every
// kind the notation allows (burnt holes, stores, empty rows), the forced
// hand-overs, the equilibrium test of every reported strategy, and the
// matrix games alone.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "congkak_variants.hpp"
#include "mancala/congkak_opening.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/matrix_game.hpp"
#include "mancala/solver/opening_solver.hpp"
#include "oracle/opening_oracle.hpp"

namespace {

using mancala::CongkakCapture;
using mancala::CongkakOpening;
using mancala::Game;
using mancala::OpeningState;
using mancala::Position;
using mancala::Ruleset;
using mancala::Side;
using mancala::solver::Rational;

using congkak_test::kVariants;
using congkak_test::Variant;

mancala::solver::SolveOptions small_solver() {
  mancala::solver::SolveOptions o;
  o.tt_megabytes = 16;
  return o;
}

// The engine's opening value and root matrix of a board.
mancala::solver::OpeningSolution engine_opening(const Ruleset& rules, const Position& board) {
  mancala::solver::StoreDifferenceValue leaves(rules, small_solver());
  mancala::solver::OpeningSolver solver(rules, leaves);
  return solver.solve(board);
}

std::string text(const Rational& r) { return mancala::solver::rational_text(r); }

// The engine's result equals the oracle's: value and every root entry.
void expect_same_opening(const Variant& v, const std::string& board_text, bool compare_matrix) {
  SCOPED_TRACE(std::string(v.name) + " " + board_text);
  const Position board = mancala::parse_position(board_text);
  const auto ours = engine_opening(v.rules, board);
  const auto theirs = oracle::opening(v.oracle_rules, oracle::parse(board_text));
  EXPECT_EQ(text(ours.value), oracle::fraction_text(theirs.value));
  if (!compare_matrix) return;
  const int m = board.m();
  ASSERT_EQ(int(ours.matrix.size()), m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const auto& entry = ours.matrix[std::size_t(i)][std::size_t(j)];
      ASSERT_TRUE(entry.has_value()) << "root entry " << i + 1 << "," << j + 1;
      EXPECT_EQ(text(*entry), oracle::fraction_text(theirs.root_matrix[std::size_t(i)][std::size_t(j)]))
          << "root entry " << i + 1 << "," << j + 1;
    }
}

std::string start_text(int m, int n) { return mancala::format_position(mancala::start_position(m, n)); }

TEST(OpeningValues, EqualTheOracleOnEveryStartBoardUpTo4x3) {
  for (const Variant& v : kVariants)
    for (int m = 1; m <= 4; ++m)
      for (int n = 1; n <= 4; ++n)
        if (m * n <= 12) expect_same_opening(v, start_text(m, n), true);
}

TEST(OpeningValues, EqualTheOracleOn4x4) {
  for (const Variant& v : kVariants) expect_same_opening(v, start_text(4, 4), true);
}

// Values that are not integers exist (the "mixed strategies"), so the
// comparison above covers the matrix games' fractions, not just saddle points.
TEST(OpeningValues, SomeBoardsNeedMixedStrategies) {
  const auto ours = engine_opening(kVariants[0].rules, mancala::start_position(4, 3));
  EXPECT_NE(boost::multiprecision::denominator(ours.value), 1);
  EXPECT_FALSE(ours.saddle_point.has_value());
}

// A random board of the notation: burnt holes, stores, rows possibly empty.
std::string random_board(std::mt19937& rng, int m) {
  std::uniform_int_distribution<int> seeds(0, 3), coin(0, 99);
  auto row = [&] {
    std::string r;
    for (int i = 0; i < m; ++i) {
      if (i) r += ',';
      r += coin(rng) < 15 ? std::string("x") : std::to_string(seeds(rng));
    }
    return r;
  };
  const std::string south = row(), north = row();
  return south + "/" + north + " " + std::to_string(seeds(rng)) + "-" + std::to_string(seeds(rng)) +
         (coin(rng) < 50 ? " s" : " n");
}

TEST(OpeningValues, EqualTheOracleOnRandomBoardsWithBurntHolesStoresAndEmptyRows) {
  std::mt19937 rng(20261201);
  int boards = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int m = 1 + int(rng() % 4);
    const std::string b = random_board(rng, m);
    const Position p = mancala::parse_position(b);
    if (p.total_seeds() > 16) continue;  // keeps the oracle quick
    ++boards;
    // The root matrix is compared where both rows can choose (the oracle
    // leaves entries of unchoosable holes at 0, the engine leaves them out).
    expect_same_opening(kVariants[trial % 2], b, false);
  }
  EXPECT_GT(boards, 200);
}

// The state machine alone: every first pair that the oracle finds forced ends
// in the same hand-over position, and the unforced ones stop at a choice.
TEST(OpeningStateMachine, ForcedHandoversEqualTheOracle) {
  std::mt19937 rng(7);
  std::vector<std::string> boards;
  for (int m = 1; m <= 5; ++m)
    for (int n = 1; n <= 5; ++n) boards.push_back(start_text(m, n));
  for (int k = 0; k < 300; ++k) boards.push_back(random_board(rng, 1 + int(rng() % 5)));
  int forced = 0, unforced = 0;
  for (const std::string& b : boards)
    for (const Variant& v : kVariants) {
      const CongkakOpening opening(v.rules);
      const Position p = mancala::parse_position(b);
      const OpeningState root = opening.start(p);
      if (!root.choosing(Side::South) || !root.choosing(Side::North)) continue;
      for (int i = 1; i <= p.m(); ++i)
        for (int j = 1; j <= p.m(); ++j) {
          if (!((opening.choices(root, Side::South) >> (i - 1)) & 1u) || !((opening.choices(root, Side::North) >> (j - 1)) & 1u))
            continue;
          SCOPED_TRACE(std::string(v.name) + " " + b + " play " + std::to_string(i) + "," + std::to_string(j));
          oracle::Board handover;
          const bool oracle_forced = oracle::forced_handover(v.oracle_rules, oracle::parse(b), i, j, handover);
          OpeningState s = root;
          opening.advance(s, i, j);
          ASSERT_EQ(s.over(), oracle_forced);
          if (oracle_forced) {
            ++forced;
            EXPECT_EQ(mancala::format_position(CongkakOpening::handover(s)), oracle::format(handover));
          } else {
            ++unforced;
          }
        }
    }
  EXPECT_GT(forced, 500);
  EXPECT_GT(unforced, 500);
}

// Written here, not taken from the solver: x and y are probability vectors and
// no pure reply of either player does better than v against them.
bool equilibrium(const std::vector<std::vector<oracle::Fraction>>& a, const std::vector<oracle::Fraction>& x,
                 const std::vector<oracle::Fraction>& y, const oracle::Fraction& v) {
  oracle::Fraction sx = 0, sy = 0;
  for (const auto& p : x) {
    if (p < 0) return false;
    sx += p;
  }
  for (const auto& p : y) {
    if (p < 0) return false;
    sy += p;
  }
  if (sx != 1 || sy != 1) return false;
  for (std::size_t j = 0; j < y.size(); ++j) {
    oracle::Fraction against_x = 0;
    for (std::size_t i = 0; i < x.size(); ++i) against_x += x[i] * a[i][j];
    if (against_x < v) return false;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    oracle::Fraction against_y = 0;
    for (std::size_t j = 0; j < y.size(); ++j) against_y += a[i][j] * y[j];
    if (against_y > v) return false;
  }
  return true;
}

oracle::Fraction to_oracle(const Rational& r) { return oracle::Fraction(r.str()); }

TEST(OpeningStrategies, PassTheEquilibriumTestAgainstTheOraclesRootMatrix) {
  int mixed = 0;
  for (const Variant& v : kVariants)
    for (int m = 2; m <= 4; ++m)
      for (int n = 1; n <= 4; ++n) {
        if (m * n > 12) continue;
        SCOPED_TRACE(std::string(v.name) + " " + std::to_string(m) + "x" + std::to_string(n));
        const auto ours = engine_opening(v.rules, mancala::start_position(m, n));
        const auto theirs = oracle::opening(v.oracle_rules, oracle::start(m, n));
        std::vector<oracle::Fraction> x, y;
        for (const Rational& p : ours.south_strategy) x.push_back(to_oracle(p));
        for (const Rational& p : ours.north_strategy) y.push_back(to_oracle(p));
        EXPECT_TRUE(equilibrium(theirs.root_matrix, x, y, to_oracle(ours.value)));
        // A reported saddle point is a pure equilibrium.
        if (ours.saddle_point) {
          const auto [i, j] = *ours.saddle_point;
          EXPECT_EQ(ours.south_strategy[std::size_t(i - 1)], 1);
          EXPECT_EQ(ours.north_strategy[std::size_t(j - 1)], 1);
        } else {
          ++mixed;
        }
      }
  EXPECT_GT(mixed, 0);
}

// The strategy test itself fails on a wrong strategy (so it can fail above).
TEST(OpeningStrategies, TheEquilibriumTestRejectsAWrongStrategy) {
  const std::vector<std::vector<oracle::Fraction>> pennies{{1, -1}, {-1, 1}};
  const oracle::Fraction half(1, 2);
  EXPECT_TRUE(equilibrium(pennies, {half, half}, {half, half}, 0));
  EXPECT_FALSE(equilibrium(pennies, {1, 0}, {half, half}, 0));
  EXPECT_FALSE(equilibrium(pennies, {half, half}, {half, half}, oracle::Fraction(1, 3)));
}

TEST(OpeningSolver, ValuesDoNotDependOnTheThreadCount) {
  // solve_opening shares the root entries out among workers, each with its
  // own memo and leaf solver; nothing of the solution may change.
  for (const Variant& v : kVariants) {
    auto solve = [&](int threads) {
      return mancala::solver::solve_opening(v.rules, mancala::start_position(4, 3), threads, [&] {
        return std::make_unique<mancala::solver::StoreDifferenceValue>(v.rules, small_solver());
      });
    };
    const auto one = solve(1);
    EXPECT_EQ(text(one.value), oracle::fraction_text(oracle::opening(v.oracle_rules, oracle::start(4, 3)).value));
    for (int threads : {2, 3}) {
      const auto many = solve(threads);
      EXPECT_EQ(text(many.value), text(one.value)) << threads << " threads";
      EXPECT_EQ(many.matrix, one.matrix) << threads << " threads";
      EXPECT_EQ(many.south_strategy, one.south_strategy) << threads << " threads";
      EXPECT_EQ(many.north_strategy, one.north_strategy) << threads << " threads";
    }
  }
}

TEST(OpeningStateMachine, IllegalChoicesAreRefused) {
  const CongkakOpening opening(kVariants[0].rules);
  const OpeningState root = opening.start(mancala::parse_position("2,0,2/2,2,x 0-0 s"));
  for (auto [i, j] : std::vector<std::pair<int, int>>{{0, 1}, {4, 1}, {2, 1}, {1, 0}, {1, 3}, {1, 4}}) {
    OpeningState s = root;
    EXPECT_THROW(opening.advance(s, i, j), mancala::InputError) << i << "," << j;
    EXPECT_EQ(s, root) << "a refused choice leaves the state alone";
  }
  EXPECT_THROW(CongkakOpening(Ruleset{.game = Game::Kalah}), mancala::InputError);
  EXPECT_THROW(mancala::parse_opening_timing("staggered"), mancala::InputError);
}

// ---------------------------------------------------------------------------
// Matrix games alone
// ---------------------------------------------------------------------------

TEST(MatrixGame, KnownGames) {
  using mancala::solver::solve_matrix_game;
  auto r = [](long long p, long long q = 1) { return Rational(p, q); };
  EXPECT_EQ(text(solve_matrix_game({{r(2), r(-1)}, {r(-1), r(1)}}).value), "1/5");
  EXPECT_EQ(text(solve_matrix_game({{r(1), r(-1)}, {r(-1), r(1)}}).value), "0");
  EXPECT_EQ(text(solve_matrix_game({{r(0), r(-1), r(1)}, {r(1), r(0), r(-1)}, {r(-1), r(1), r(0)}}).value), "0");
  const auto saddle = solve_matrix_game({{r(3), r(2)}, {r(1), r(0)}});
  EXPECT_EQ(text(saddle.value), "2");
  ASSERT_TRUE(saddle.saddle_point.has_value());
  EXPECT_EQ(*saddle.saddle_point, std::make_pair(0, 1));
  EXPECT_EQ(text(solve_matrix_game({{r(1, 3), r(-1, 7)}, {r(-2, 5), r(5, 11)}}).value),
            oracle::fraction_text(oracle::matrix_game_value({{oracle::Fraction(1, 3), oracle::Fraction(-1, 7)},
                                                              {oracle::Fraction(-2, 5), oracle::Fraction(5, 11)}})));
}

TEST(MatrixGame, RandomGamesEqualTheOraclesSupportEnumeration) {
  std::mt19937 rng(12345);
  int mixed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t rows = 1 + rng() % 5, cols = 1 + rng() % 5;
    // Few distinct entries make ties and degenerate games common; some
    // trials use fractions as the nested games of the opening do.
    const int spread = 1 + int(rng() % 4);
    const bool fractions = trial % 3 == 0;
    std::vector<std::vector<Rational>> a(rows, std::vector<Rational>(cols));
    std::vector<std::vector<oracle::Fraction>> b(rows, std::vector<oracle::Fraction>(cols));
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        const long long p = (long long)(rng() % (2 * spread + 1)) - spread;
        const long long q = fractions ? 1 + (long long)(rng() % 7) : 1;
        a[i][j] = Rational(p, q);
        b[i][j] = oracle::Fraction(p, q);
      }
    const auto ours = mancala::solver::solve_matrix_game(a);
    const oracle::Fraction v = oracle::matrix_game_value(b);
    ASSERT_EQ(text(ours.value), oracle::fraction_text(v)) << "trial " << trial;
    std::vector<oracle::Fraction> x, y;
    for (const Rational& p : ours.row_strategy) x.push_back(to_oracle(p));
    for (const Rational& p : ours.column_strategy) y.push_back(to_oracle(p));
    ASSERT_TRUE(equilibrium(b, x, y, v)) << "trial " << trial;
    mixed += !ours.saddle_point.has_value();
  }
  EXPECT_GT(mixed, 300);
}

}  // namespace
