// The null-window schedule finds every value, with informative tests only,
// in the documented order.
#include "mancala/solver/null_window_schedule.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using mancala::solver::NullWindowSchedule;

// A stand-in for the search: the fail-soft result of "b >= g" for a board
// value b.  `weakest`: the bound just proves the answer (g, or g - 1);
// otherwise it is b itself (the tightest a fail-soft search can return).
int answer(int b, int g, bool weakest) {
  if (!weakest) return b;
  return b >= g ? g : g - 1;
}

std::vector<int> tests_for(int seeds, bool parity, int b, bool weakest) {
  NullWindowSchedule s(seeds, parity);
  std::vector<int> tests;
  while (!s.done()) {
    const int g = s.next_test();
    EXPECT_GT(g, s.lower());
    EXPECT_LE(g, s.upper());
    tests.push_back(g);
    s.record(g, answer(b, g, weakest));
    if (tests.size() > 200) break;
  }
  EXPECT_EQ(s.value(), b);
  return tests;
}

TEST(NullWindowSchedule, FindsEveryValueWithAFewTests) {
  for (const bool parity : {true, false})
    for (int seeds = 1; seeds <= 72; ++seeds)
      for (int b = -seeds; b <= seeds; ++b) {
        if (parity && (b - seeds) % 2 != 0) continue;
        for (const bool weakest : {true, false}) {
          const auto tests = tests_for(seeds, parity, b, weakest);
          // Steady steps, then doubling, then bisection: O(log seeds) beyond the steady steps.
          EXPECT_LE(tests.size(), std::size_t(2 * NullWindowSchedule::kSteadySteps + 16))
              << "seeds " << seeds << " value " << b << " parity " << parity;
        }
      }
}

TEST(NullWindowSchedule, StepsFromZeroTowardTheValue) {
  // Kalah(6,4): 48 seeds, value 10.  Bisection would test 0, 24, 12, 6, 8, 10.
  EXPECT_EQ(tests_for(48, true, 10, true), (std::vector<int>{0, 2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(tests_for(48, true, -4, true), (std::vector<int>{0, -2, -4}));
  // Odd seeds: the lattice is odd.
  EXPECT_EQ(tests_for(7, true, 3, true), (std::vector<int>{1, 3, 5}));
  // Without parity (Oware) the unit is 1.
  EXPECT_EQ(tests_for(12, false, 2, true), (std::vector<int>{0, 1, 2, 3}));
}

TEST(NullWindowSchedule, DoublesTheStepFarFromZeroThenBisects) {
  // Value 40 of 60 seeds: seven unit steps hold (0..12), then steps of 4, 8,
  // 16 hold, the step of 32 (clamped to 60) fails, and bisection of [40, 58]
  // ends it.
  EXPECT_EQ(tests_for(60, true, 40, true), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 16, 24, 40, 60, 50, 44, 42}));
}

}  // namespace
