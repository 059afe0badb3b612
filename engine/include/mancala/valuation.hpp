// The one-ply valuation step, written once for every part that values a
// position from its children: the table builders (level_values.hpp,
// acyclic_positions.hpp, cyclic_level.hpp), the search, the solver's
// principal variation, the prober and the verifier.  Each keeps its own loop
// over the moves (the builders and the search prefetch the children's
// values between playing the moves and reading the values); what a move is
// worth and what a finished position is worth are defined here only.
//
// Board values (b) count the seeds the player to move can still gain from the
// board, stores excluded.  A move changes the store difference, seen by the
// mover, by its gain; the child's board value is seen by the child's mover,
// who is the same player after an extra turn and the opponent otherwise:
//
//     value of a move = gain + b(child)   after an extra turn,
//                       gain - b(child)   otherwise,
//     b(p) = the best move's value, or each row to its owner when p is over.
//
// A move that ends the game has b(child) = 0 (its sweep is in the gain).
#pragma once

#include "mancala/position.hpp"

namespace mancala {

// Below every board value (|b| <= kMaxSeeds): the start of a maximum.
inline constexpr int kBelowEveryValue = -(kMaxSeeds + 1);

// The board value of a finished position: each row goes to its owner.
inline int finished_board_value(const Position& p) { return p.mover_row_sum() - p.opponent_row_sum(); }

// Final store difference (mover minus opponent) of a finished position.
inline int terminal_value(const Position& p) { return p.store_difference() + finished_board_value(p); }

// The gain of a move: the change of the store difference seen by the mover,
// from `before` (the store difference of the position the move was played
// in, mover first) to `child`, the position after the move.
inline int move_gain(const Position& child, bool extra_turn, int before) {
  return (extra_turn ? child.store_difference() : -child.store_difference()) - before;
}

// The value of a move to its mover, from its gain and the child's board value.
inline int move_value(bool extra_turn, int gain, int child_board_value) {
  return extra_turn ? gain + child_board_value : gain - child_board_value;
}

}  // namespace mancala
