// The brute-force match oracle: multi-round Congkak matches, solved as one
// graph.  Written from the rule text only, on top of oracle::play; it does not
// use the engine or the solver.
//
// A match is a series of rounds.  Round 1 starts from the start position (m
// holes a side, n stones each).  A round is ordinary alternating Congkak until
// a move empties a row (oracle::play then sweeps the rows into the stores).
// Between rounds each player holds the stones in their store: South s, North
// T - s (T = 2mn).  A player holding fewer than n stones loses the match.
// Otherwise each player refills their own holes from hole 1 on, n stones a
// hole; a hole that cannot get n stones is burnt for the round, leftover stones
// stay in the store.  The next round is started by the loser of the round just
// played (fewer stones); after a tied round by the player who did not start it.
// The starter of a round is the player who made its first move; with the
// simultaneous opening of round 1, the player who moves first once the
// opening is over.  Players play to win the match (+1 win, 0 draw, -1 loss);
// a match that perfect players would keep going forever is a draw.
//
// Method (deliberately different from the project's fixpoint over round
// states): every position of the whole match is one node of a single graph, a
// node being (board with burnt holes and stores, side to move, starter of the
// current round), plus two terminal nodes "South wins" and "North wins".  The
// edges are the legal moves; a round-ending move leads straight to the next
// round's start node, or to a terminal node.  All nodes reachable from the
// start nodes are enumerated breadth-first (string keys), and the graph is
// solved by plain retrograde win/loss analysis; nodes never resolved are draws.
// Cycles between rounds are handled by construction.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

// The value of one between-round state: South holds south_stones stones, and
// south_starts says who makes the first move of the round.  -1, 0, +1 for South.
struct MatchStateOutcome {
  int south_stones;
  bool south_starts;
  int south_value;
};

struct MatchResult {
  // South's match value as fraction text: "1", "0", "-1", or "p/q" (lowest
  // terms) with the simultaneous opening.
  std::string value;
  // Every between-round state: south stones s with n <= s <= T - n, both
  // starters, sorted by (s, south_starts) (North starts before South starts).
  std::vector<MatchStateOutcome> states;
  // Diagnostic: the number of nodes of the match graph, the two terminal
  // nodes included.
  std::size_t nodes = 0;
};

// rules.game must be "congkak" (needs_opposite either way); m >= 1, n >= 1.
// simultaneous_opening = false: round 1 starts with South to move, i.e. from the
// state (m*n, South starts).
// simultaneous_opening = true: round 1 begins with oracle::opening (see
// opening_oracle.hpp), whose leaf valuation is the match value of the hand-over
// node (board, first mover to move, round starter = first mover).  A hand-over
// board with an empty row ends round 1 right there: it is swept, and the match
// goes on as after any round end.
// Throws std::runtime_error once the graph has more than max_nodes nodes,
// std::invalid_argument for bad arguments.
MatchResult match(const Rules& rules, int m, int n, bool simultaneous_opening, std::size_t max_nodes = 5'000'000);

}  // namespace oracle
