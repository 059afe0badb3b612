// Stopping a solve (SolveOptions::stop): what a stopped solve reports is
// proven, a stop during the level-table build keeps no partial levels, and a
// solver that was stopped gives the same values afterwards as a fresh one
// (aborted searches store nothing).  Also the progress status the command
// line draws from: the level being built never exceeds the top level, and
// the search's own time is counted apart from the build's.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "mancala/engine.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/solver.hpp"

namespace {

using namespace mancala;
using namespace std::chrono_literals;

const Ruleset kKalah{.game = Game::Kalah};

// The value by a fresh solver, without level tables.
int fresh_value(const Ruleset& rules, const Position& p) {
  solver::Solver s(rules, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = 0});
  return s.solve(p).value;
}

TEST(SolveStop, RaisedBeforehandProvesOnlyTheTrivialBounds) {
  std::atomic<bool> stop{true};
  const Position p = parse_position("3,3,3,3/3,3,3,3 2-1 n");
  solver::Solver s(kKalah, {.threads = 1, .tt_megabytes = 16, .stop = &stop});
  const solver::SolveResult r = s.solve(p);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.lower, p.store_difference() - p.board_seeds());
  EXPECT_EQ(r.upper, p.store_difference() + p.board_seeds());
  EXPECT_TRUE(r.pv.empty());
  EXPECT_TRUE(s.stopped());
}

// A stop raised mid-search on two threads splitting at every node: the
// workers of a split's tasks are new, and below a split none may search the
// 1024 nodes at which a worker checks the flag, so a split checks it before
// each child.  Kalah(5,4) (3.3 M nodes on one thread; more when split
// everywhere) is stopped by a watcher once 20,000 nodes are counted; were
// the flag missed, the solve would run to its end and be complete.
TEST(SolveStop, AStopReachesASplitSearch) {
  std::atomic<bool> stop{false};
  const Position p = parse_position("4,4,4,4,4/4,4,4,4,4 0-0 s");
  solver::Solver s(kKalah, {.threads = 2, .tt_megabytes = 16, .level_table_seeds = 0, .parallel_split_above_tables = -64, .stop = &stop});
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done && s.status().nodes < 20'000) std::this_thread::sleep_for(100us);
    stop = true;
  });
  const solver::SolveResult r = s.solve(p);
  done = true;
  watcher.join();
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(s.stopped());
}

// Stops after each number of tests in turn: the bounds always hold the
// value, narrow as tests finish, and the same solver, asked again without
// the stop, finds the fresh solver's value.
TEST(SolveStop, BoundsAfterEachTestHoldTheValueAndTheSolverStaysSound) {
  for (const char* text : {"4,4,4,4/4,4,4,4 0-0 s", "5,0,3,2,1/0,4,4,1,2 3-6 n", "3,3,3,3,3/3,3,3,3,3 0-0 s"}) {
    const Position p = parse_position(text);
    for (const bool levels : {false, true}) {
      solver::SolveOptions o{.threads = 1, .tt_megabytes = 16, .level_table_seeds = levels ? -1 : 0};
      const int value = fresh_value(kKalah, p);
      solver::Solver counting(kKalah, o);
      const int tests = counting.solve(p).tests;
      int last_width = 2 * p.board_seeds() + 1;
      for (int after = 0; after <= tests; ++after) {
        solver::SolveOptions stopping = o;
        stopping.test_stop_after_tests = after;
        solver::Solver s(kKalah, stopping);
        const solver::SolveResult r = s.solve(p);
        SCOPED_TRACE(std::string(text) + " after " + std::to_string(after) + " tests");
        if (after == tests) {
          EXPECT_TRUE(r.complete);
          EXPECT_EQ(r.value, value);
          continue;
        }
        EXPECT_FALSE(r.complete);
        EXPECT_LE(r.lower, value);
        EXPECT_GE(r.upper, value);
        EXPECT_LE(r.upper - r.lower, last_width);
        if (after > 0) {
          EXPECT_LT(r.upper - r.lower, 2 * p.board_seeds());
        }
        last_width = r.upper - r.lower;
      }
    }
  }
}

TEST(SolveStop, AStoppedSolverGivesTheFreshValuesAfterwards) {
  // Stop mid-search at several points (node counts), then solve again and
  // analyze with the same solver, whose table holds what the stopped
  // searches stored.
  // Kalah(5,3) takes some tens of milliseconds: most stops land mid-search.
  const Position p = parse_position("3,3,3,3,3/3,3,3,3,3 0-0 s");
  const int value = fresh_value(kKalah, p);
  for (const int threads : {1, 2}) {
    std::atomic<bool> stop{false};
    solver::Solver s(kKalah, {.threads = threads, .tt_megabytes = 16, .level_table_seeds = 0, .stop = &stop});
    for (const auto delay : {500us, 2000us, 8000us, 30000us}) {
      stop = false;
      std::thread stopper([&] {
        std::this_thread::sleep_for(delay);
        stop = true;
      });
      const solver::SolveResult r = s.solve(p);
      stopper.join();
      if (!r.complete) {
        EXPECT_LE(r.lower, value);
        EXPECT_GE(r.upper, value);
        if (r.best_move) {
          EXPECT_TRUE(legal_moves(kKalah, p) >> (r.best_move - 1) & 1);
        }
      } else {
        EXPECT_EQ(r.value, value);
      }
      stop = false;
      EXPECT_EQ(s.solve(p).value, value) << threads << " threads, stopped after " << delay.count() << " us";
    }
    // And every child, against fresh solvers.
    for (const solver::MoveValue& m : s.analyze(p)) {
      Position c = p;
      const MoveResult played = apply_move(kKalah, c, m.move);
      const int child = fresh_value(kKalah, c);
      EXPECT_EQ(m.value, played.extra_turn ? child : -child) << "move " << m.move;
    }
  }
}

TEST(SolveStop, AStopDuringTheLevelBuildKeepsNoPartialLevels) {
  // Kalah(6,3) with 14-seed level tables, which take a noticeable time to
  // build; stop as soon as the build is seen, then solve with the same
  // solver: its levels are built afresh, not taken from the stopped build.
  const Position big = parse_position("3,3,3,0,0,0/3,3,3,0,0,0 9-9 s");
  const Position small = parse_position("0,1,0,2,0,1/1,0,2,0,0,1 10-14 s");
  std::atomic<bool> stop{false};
  solver::Solver s(kKalah, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = 14, .stop = &stop});
  std::atomic<bool> done{false}, saw_build{false};
  std::thread watcher([&] {
    while (!done) {
      const solver::SolveStatus st = s.status();
      if (st.building_level >= 0) {
        EXPECT_GE(st.top_level, st.building_level) << "the level being built is above the top level";
        saw_build = true;
        stop = true;
      }
      std::this_thread::sleep_for(50us);
    }
  });
  const solver::SolveResult r = s.solve(big);
  done = true;
  watcher.join();
  if (!saw_build) GTEST_SKIP() << "the level tables were built before the watcher saw them";
  EXPECT_FALSE(r.complete);
  stop = false;
  EXPECT_EQ(s.solve(small).value, fresh_value(kKalah, small));
  EXPECT_EQ(s.solve(big).value, fresh_value(kKalah, big));
}

TEST(SolveStatus, TheSearchTimeExcludesTheLevelBuild) {
  const Position p = start_position(5, 4);
  solver::Solver s(kKalah, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = 14});
  std::atomic<bool> done{false};
  double longest_build = 0, first_search = -1;
  const auto t0 = std::chrono::steady_clock::now();
  std::thread watcher([&] {
    while (!done) {
      const solver::SolveStatus st = s.status();
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (st.building_level >= 0) longest_build = t;
      if (st.building_level < 0 && st.search_seconds > 0 && first_search < 0) first_search = st.search_seconds;
      std::this_thread::sleep_for(100us);
    }
  });
  s.solve(p);
  done = true;
  watcher.join();
  if (longest_build == 0 || first_search < 0) GTEST_SKIP() << "no snapshot of both phases";
  // The search clock starts when the build ends: its first reading is far
  // below the time the build had already taken.
  EXPECT_LT(first_search, longest_build);
}

}  // namespace
