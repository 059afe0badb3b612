// The value of Congkak's simultaneous opening (engine: congkak_opening.hpp)
// under optimal mixed strategies.
//
// The opening is a finite game tree of states between ticks.  At a state
// where one player chooses, the value is the plain max (South) or min
// (North) over its holes; where both choose at once it is the value of the
// matrix game of what follows each pair of choices (matrix_game.hpp, exact
// rationals); where the opening is over it is the value of the position
// handed to alternating play, given by a HandoverValue (the exact solver's
// final store difference for `mancala opening`, the match outcome for
// `mancala match`).  Values are South's: expected final store difference
// (South minus North), or expected match outcome.  States are memoised by
// their whole content, so transpositions within the opening are solved once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mancala/congkak_opening.hpp"
#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/solver/matrix_game.hpp"
#include "mancala/solver/solver.hpp"

namespace mancala::solver {

// A hash of every field of a position (pits, stores, burnt holes, side to
// move), for the memos of the opening and match solvers.
struct PositionHash {
  std::size_t operator()(const Position& p) const;
};

// South's value of a position handed to alternating play after the opening
// (its to_move is the player who moves first; a row may be empty, in which
// case the round is over at once).
class HandoverValue {
 public:
  virtual ~HandoverValue() = default;
  virtual Rational south_value(const Position& handover) = 0;
  // For the counts of a solution: distinct positions valued, search nodes.
  virtual std::uint64_t positions_solved() const { return 0; }
  virtual std::uint64_t nodes() const { return 0; }
};

// Final store difference under perfect play, from the exact Solver; each
// position is solved once.
class StoreDifferenceValue : public HandoverValue {
 public:
  StoreDifferenceValue(const Ruleset& rules, const SolveOptions& options);
  Rational south_value(const Position& handover) override;
  int solve_mover(const Position& p);  // final store difference for the player to move
  std::uint64_t positions_solved() const override { return solved_; }
  std::uint64_t nodes() const override { return nodes_; }
  const Solver& solver() const { return solver_; }

 private:
  Solver solver_;
  std::unordered_map<Position, int, PositionHash> cache_;
  std::uint64_t solved_ = 0, nodes_ = 0;
};

struct OpeningCounts {
  std::uint64_t states = 0;        // distinct opening states valued
  std::uint64_t simultaneous = 0;  // simultaneous decisions (matrix games) solved
  std::uint64_t exact_simplex = 0;  // of which GLPK's floating-point basis needed the exact simplex
  std::uint64_t handovers = 0;     // distinct finished openings valued
  std::uint64_t positions_solved = 0;  // positions after the opening valued (HandoverValue's count)
  std::uint64_t nodes = 0;             // their search nodes
  OpeningCounts& operator+=(const OpeningCounts& o);
};

struct OpeningSolution {
  Rational value;  // South's equilibrium value
  // The root decision: South's first hole (row) against North's (column),
  // 1..m each; nullopt for a hole that cannot be chosen (empty or burnt).
  std::vector<std::vector<std::optional<Rational>>> matrix;
  std::vector<Rational> south_strategy, north_strategy;  // probability of hole 1..m
  std::optional<std::pair<int, int>> saddle_point;       // 1-based holes of a pure equilibrium
  OpeningCounts counts;
};

// Running totals for a progress line, shared by the workers of one solve and
// read from another thread.
struct OpeningTally {
  std::atomic<std::uint64_t> states{0};     // opening states valued
  std::atomic<std::uint64_t> handovers{0};  // finished openings valued
};

class OpeningSolver {
 public:
  // `tally`, if given, counts the work as it is done (for progress lines).
  OpeningSolver(const Ruleset& rules, HandoverValue& handover, OpeningTiming timing = OpeningTiming::LockStep,
                OpeningTally* tally = nullptr);

  // The opening from `board` with both players about to choose.
  // `progress(done, total)` is called after each root entry.
  OpeningSolution solve(const Position& board, const std::function<void(int, int)>& progress = {});

  // South's value of one state (memoised across calls).
  Rational value(const OpeningState& s);

  // Plays optimal choices from s until the opening is over: a lone chooser's
  // best hole, and at a simultaneous choice each side's likeliest hole of an
  // optimal mixed strategy.
  OpeningState follow(OpeningState s);

  const CongkakOpening& opening() const { return opening_; }
  // The counts so far, the HandoverValue's included.
  OpeningCounts counts() const;

  // The solution from the root matrix's entries (rows South's choosable
  // holes, columns North's, both 1-based and ascending).
  static OpeningSolution root_solution(int pits, const std::vector<int>& south, const std::vector<int>& north,
                                       const std::vector<std::vector<Rational>>& entries);

 private:
  // The value of a state where someone chooses, and the holes of the line:
  // a lone chooser's best, or each side's likeliest of an optimal mix.
  struct Decision {
    Rational value;
    int south_hole = 0, north_hole = 0;  // 0 for a side that does not choose
    bool simultaneous = false, exact_simplex = false;
  };
  Decision decide(const OpeningState& s);

  CongkakOpening opening_;
  HandoverValue& handover_;
  OpeningTally* tally_;
  std::unordered_map<std::string, Rational> memo_;
  OpeningCounts counts_;
};

// The opening with its root entries shared out among `threads` workers, each
// with its own memo and its own HandoverValue from `make_leaves`.  States
// below different root entries are then valued apart (a transposition across
// two entries is solved twice), so the counts are sums over the workers; the
// values never depend on the thread count.  `progress(done, total)` may be
// called from any worker, never from two at once.
OpeningSolution solve_opening(const Ruleset& rules, const Position& board, int threads,
                              const std::function<std::unique_ptr<HandoverValue>()>& make_leaves,
                              OpeningTiming timing = OpeningTiming::LockStep,
                              const std::function<void(int, int)>& progress = {}, OpeningTally* tally = nullptr);

}  // namespace mancala::solver
