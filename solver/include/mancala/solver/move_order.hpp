// The weights of the search's move order, and the text form that names them.
//
// The search tries a node's children best first (solver/src/move_sorter.hpp
// says how a child is scored): children of known value first, then the
// transposition table's move, then the others by the sum of 64 a seed of
// gain, an extra turn's bonus, a weight a seed of material, minus a weight a
// reply left to the opponent, and a weight a pit.  The four weights differ by
// the node's kind: whether its mover is behind in the stores, and whether its
// window expects a cut-off.  Each ruleset has an order tuned on its own node
// counts (tuned_move_order); SolveOptions::move_order replaces it, for
// experiments with the order itself (scripts/tune_move_order.py).  The order
// never changes a value, only the nodes searched.
//
// Text form: 16 integers separated by commas, the four weights (extra_turn,
// per_reply, per_seed_of_material, per_pit) of the level player's nodes
// expected to fail low, of its nodes expected to cut off, then of the player
// behind's, in that order: "256,8,5,8,384,4,0,2,256,24,6,8,384,8,3,2".
// Each integer is in its plain form (no '+', no leading zero, no "-0"), so
// that a text the parser takes prints back the same.
#pragma once

#include <string>

#include "mancala/ruleset.hpp"

namespace mancala::solver {

// The weights at one kind of node (a seed of gain weighs 64).  A weight of 0
// leaves its input uncomputed.
struct NodeWeights {
  int extra_turn;            // added for an extra turn
  int per_reply;             // taken off a reply left to the opponent (not after an extra turn:
                             // then the mover, not the opponent, replies)
  int per_seed_of_material;  // added a seed of material (the mover's row against the opponent's)
  int per_pit;               // added a pit towards the store (mover-relative, 0-based)
};

// What the order of a node's children depends on at the node.
struct OrderNode {
  bool behind;      // the mover is behind in the stores
  bool expect_cut;  // the node's window asks the mover for no gain from the board
};

// The weights by the node's kind.
struct OrderWeights {
  NodeWeights level_fail_low, level_cut, behind_fail_low, behind_cut;
  constexpr const NodeWeights& at(const OrderNode& n) const {
    return n.behind ? (n.expect_cut ? behind_cut : behind_fail_low) : (n.expect_cut ? level_cut : level_fail_low);
  }
};

// The bounds of a weight that a caller may set (parse_move_order checks
// them): wide enough for any order worth trying, narrow enough that a
// child's score never overflows or reaches a child of known value.
inline constexpr int kMaxExtraTurnWeight = 1 << 16;
inline constexpr int kMaxOrderWeight = 4096;  // |per_reply|, |per_seed_of_material|, |per_pit|

// The order the search uses for `rules` unless told otherwise.
const OrderWeights& tuned_move_order(const Ruleset& rules);

// Throws InputError naming the first weight out of its bounds.
void check_move_order(const OrderWeights& w);

// The text form above; parse_move_order throws InputError naming what is
// wrong (the count, a field that is not an integer, a weight out of bounds).
std::string format_move_order(const OrderWeights& w);
OrderWeights parse_move_order(const std::string& text);

}  // namespace mancala::solver
