// Multi-round Congkak matches (engine: congkak_match.hpp) solved for the
// match outcome: +1 South wins, 0 draw, -1 South loses.
//
// A state between rounds is (stones South holds, who starts); North holds
// the rest.  A round is searched from the state's start position (burnt holes
// and all) with alpha-beta on the three outcomes; a move that ends the round
// scores the outcome of the state it leads to (or the end of the match: a
// player who cannot fill a hole loses).
//
// Cycles.  Rounds can lead back to a state already seen, so the outcomes are
// a fixpoint, computed as two attractors at once: every state starts
// unresolved and scores 0; pass after pass, each unresolved state's round is
// searched with the outcomes known so far, and a state whose round is a
// forced win (+1) or loss (-1) is resolved, in order.  A state resolved
// n-th only relies on states resolved before it, so its win is reached in
// finitely many rounds.  When a pass resolves nothing, neither player can
// force a win from the states left, and each can keep the other from one:
// endless play, a draw.  (Resolving a state changes the leaves of later
// searches, so the round memo is cleared each time.)
//
// The first round may open with the simultaneous opening (opening_solver.hpp):
// its value is then an expectation of the outcomes under optimal mixed
// strategies, and the player who moved first once the opening was over counts
// as the round's starter for the tie rule.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/solver/matrix_game.hpp"
#include "mancala/solver/opening_solver.hpp"

namespace mancala::solver {

struct MatchStateOutcome {
  int south_stones;
  Side starter;
  int south_value;  // +1, 0, -1
  int order;        // resolution order (1 = first), 0 for a draw
};

// One round of the principal line.
struct MatchRound {
  std::optional<std::pair<int, int>> opening;  // first holes (South, North) of a simultaneous opening
  Position start;                              // after the opening, if any; to_move is the starter
  std::vector<std::pair<Side, int>> moves;     // the round's moves, 1-based pits
  int south_after = 0, north_after = 0;        // stones each holds when it ends
};

struct MatchSolution {
  Rational value;  // South's match value
  std::vector<MatchStateOutcome> states;  // every state both players can fill a hole in, by (stones, starter)
  std::vector<MatchRound> line;
  std::string line_end;  // how the principal line ends
  std::optional<OpeningSolution> opening;  // the first round's simultaneous opening
  std::uint64_t nodes = 0;         // round-search nodes
  std::uint64_t round_searches = 0;
  int passes = 0;
  double seconds = 0;
};

struct MatchProgress {
  int pass;
  int resolved, states;
  std::uint64_t nodes;
};

class MatchSolver {
 public:
  // Throws InputError unless `rules` is Congkak and the board fits the engine.
  // `memo_megabytes` bounds the round search's memo (it is cleared when full).
  MatchSolver(const Ruleset& rules, int pits_per_side, int seeds_per_hole, std::size_t memo_megabytes = 1024);
  ~MatchSolver();

  MatchSolution solve(bool simultaneous_opening, const std::function<void(const MatchProgress&)>& progress = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::solver
