// Which null-window tests find an exact value, and in what order.
//
// The solver finds the board value b by tests "is b >= g?", each a
// null-window search that returns a fail-soft bound.  The schedule keeps the
// proven range [lower, upper] and proposes the next g.
//
// Order.  A test far from the value is cheap (a weak bound is easy to
// prove); a test just above it is the expensive one, and it cannot be
// avoided.  What remains to choose is what runs before it, which also
// decides what the transposition table holds when it runs.  So the schedule
// is MTD(f) from the guess 0: it steps one lattice unit at a time toward the
// value, and it doubles the step after `kSteadySteps` steps in one direction
// so that a value far from 0 still takes O(log) tests.  Once a test has
// failed on each side (the value is bracketed), it bisects what is left.
// Measured on one thread (node counts, the sum over the tests), against
// bisection of [-seeds, seeds]:
//   Kalah(5,6) empty capture, 25-seed tables: 504 M -> 404 M nodes
//     (bisection's failing tests >= 14 and >= 6 cost 34 M and 157 M);
//   Kalah(6,4) empty capture, 16-seed tables: 30.1 M -> 27.4 M;
//   Kalah(6,3) 2.98 M -> 2.81 M; BrainKing(5,4) 10.8 M -> 10.1 M;
//   Kalah(4,6) empty capture 4.45 M -> 3.96 M; Kalah(5,4) 5.83 M -> 5.80 M.
// Doubling after 3 steps instead of 6 overshot Kalah(6,4) (value 10) with a
// failing test at 18 and cost 40 M.
//
// Parity.  In the acyclic rulesets every seed on the board ends in a store,
// so b has the parity of the seeds on the board: the lattice unit is 2 and
// bounds round to the lattice, which halves the tests.
#pragma once

#include <algorithm>

namespace mancala::solver {

class NullWindowSchedule {
 public:
  static constexpr int kSteadySteps = 6;

  // b lies in [-seeds, seeds]; `parity`: b = seeds (mod 2).  The first test
  // is at `guess` (rounded up onto the lattice).
  NullWindowSchedule(int seeds, bool parity, int guess = 0)
      : unit_(parity ? 2 : 1), lower_(-seeds), upper_(seeds), next_(round_up(guess)) {}

  bool done() const { return lower_ >= upper_; }
  int lower() const { return lower_; }
  int upper() const { return upper_; }
  int value() const { return lower_; }  // once done()

  // The next test "b >= g" (lower < g <= upper, so it always narrows).
  int next_test() const {
    if (bracketed_) {
      const int units = (upper_ - lower_) / unit_;
      return lower_ + unit_ * ((units + 1) / 2);
    }
    return std::clamp(next_, lower_ + unit_, upper_);
  }

  // The fail-soft result `v` of the test "b >= g": b >= v if v >= g, else b <= v.
  void record(int g, int v) {
    const bool holds = v >= g;
    if (holds)
      lower_ = std::max(lower_, round_up(v));
    else
      upper_ = std::min(upper_, round_down(v));
    const int direction = holds ? 1 : -1;
    if (last_direction_ != 0 && direction != last_direction_) bracketed_ = true;
    run_ = direction == last_direction_ ? run_ + 1 : 1;
    last_direction_ = direction;
    const int step = unit_ * (run_ <= kSteadySteps ? 1 : 1 << std::min(run_ - kSteadySteps, 24));
    next_ = holds ? lower_ + step : upper_ - step + unit_;
  }

 private:
  // Onto the lattice lower_ + k * unit_ (the seeds' parity).
  int round_up(int v) const { return v + ((v - lower_) % unit_ != 0 ? 1 : 0); }
  int round_down(int v) const { return v - ((v - lower_) % unit_ != 0 ? 1 : 0); }

  int unit_;
  int lower_, upper_;
  int next_;
  int run_ = 0;
  int last_direction_ = 0;
  bool bracketed_ = false;
};

}  // namespace mancala::solver
