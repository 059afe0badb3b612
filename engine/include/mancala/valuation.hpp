// The one-ply valuation step, written once for every part that values a
// position from its children: the table builders (level_values.hpp,
// acyclic_positions.hpp, cyclic_level.hpp), the search, the solver's
// principal variation, the prober and the verifier.
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

#include <algorithm>
#include <bit>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"

namespace mancala {

// Below every board value (|b| <= kMaxSeeds): the start of a maximum.
inline constexpr int kBelowEveryValue = -(kMaxSeeds + 1);

// The board value of a finished position: each row goes to its owner.
inline int finished_board_value(const Position& p) { return p.mover_row_sum() - p.opponent_row_sum(); }

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

// b(p) from one ply: child_value(child) gives the board value of every
// child in which the game goes on.  For the plain users (prober, verifier);
// the builders and the search use the pieces above inside their own loops.
template <class R, class ChildValue>
int one_ply_board_value(const Position& p, const ChildValue& child_value) {
  if (R::is_terminal(p)) return finished_board_value(p);
  const int before = p.store_difference();
  int best = kBelowEveryValue;
  for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
    Position c = p;
    const MoveResult r = R::play(c, std::countr_zero(rest));
    best = std::max(best, move_value(r.extra_turn, move_gain(c, r.extra_turn, before), r.game_over ? 0 : child_value(c)));
  }
  return best;
}

}  // namespace mancala
