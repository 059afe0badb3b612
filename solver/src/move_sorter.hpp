// Move ordering (internal header): the order score of a child and the sort of
// a node's children by it.  The search tries the children in this order, so
// the order decides how soon a cut-off comes, never a value.  Every weight
// was chosen by measurement; the figures, with the commits they were taken
// at, are in results/README.md ("Move-ordering and search-parameter
// measurements", "The move order tuned for empty capture", "... for
// standard Kalah" and "... for BrainKing").
//
// The transposition table's best move is not among them: the search plays
// and searches it alone first (search.hpp, "staged").  Highest first:
//   - children of known value (the game ended, or the child is inside the
//     endgame tables), best value first, then by pit: they cost nothing and
//     may settle the node before any search;
//   - then the others by the sum of
//       64 a seed of gain,
//       a bonus for an extra turn,
//       a weight a seed of material (the seeds on the mover's row against
//         the opponent's after the move),
//       minus a weight a reply left to the opponent (plain moves only),
//       a weight a pit (mover-relative, 0-based: the nearest the store is highest),
//     with the weights of the node's kind (OrderWeights).
//   - Of equal scores, the pit nearest the store first (MoveSorter::sort).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/solver/move_order.hpp"

namespace mancala::solver::detail {

// The weights' types (NodeWeights, OrderNode, OrderWeights) are public, in
// mancala/solver/move_order.hpp: a caller may replace the order
// (SolveOptions::move_order).

// What the order of one child depends on.
struct OrderChild {
  int pit;           // mover-relative, 0-based
  bool exact;        // the move's value is known now (game over, or the child is in the tables)
  int exact_value;   // the move's value, when `exact`
  bool extra_turn;   // the mover moves again
  int gain;          // change of the store difference, seen by the mover
  int replies;       // the opponent's legal moves after the move; read only if counts_replies()
  int material;      // seeds on the mover's row minus the opponent's, after the move;
                     // read only if weighs_material()
};

// Every ruleset without an order of its own.  An extra turn first, at any
// gain.  Replies count only for a player behind: among moves of equal gain,
// one behind does best to leave the opponent the fewest (a narrow tree to
// get through); the same rule for a player level in the stores, or at every
// score, cost far more nodes than it saved.  Material at 3 a seed for a
// player behind and at nodes expected to fail low: at the others it took
// the pit order's place and cost up to twice the nodes on boards of 3 seeds
// a pit; heavier weights for a player behind fall off a cliff.
inline constexpr OrderWeights kDefaultOrder{
    .level_fail_low = {.extra_turn = 1 << 16, .per_reply = 0, .per_seed_of_material = 3, .per_pit = 1},
    .level_cut = {.extra_turn = 1 << 16, .per_reply = 0, .per_seed_of_material = 0, .per_pit = 1},
    .behind_fail_low = {.extra_turn = 1 << 16, .per_reply = 8, .per_seed_of_material = 3, .per_pit = 1},
    .behind_cut = {.extra_turn = 1 << 16, .per_reply = 8, .per_seed_of_material = 3, .per_pit = 1},
};

// Kalah with empty capture, tuned on its node counts (results/README.md,
// "The move order tuned for empty capture"): an extra turn weighs a few
// seeds of gain (4 at nodes expected to fail low, 6 at nodes expected to
// cut off) rather than coming first at any gain; replies count at nodes
// expected to fail low at every score, and three times as much for a player
// behind, and a level player's cut nodes break ties by them (4 a reply,
// two pits' worth: 13-17% fewer nodes on Kalah(6,4), where 8 a reply cost
// 17% more); material weighs more at nodes expected to fail low; and the
// pit weighs an eighth of a seed of gain there, a thirty-second at nodes
// expected to cut off.  The same kind of weights (an earlier set) cost
// standard Kalah(6,5) 6.8% more nodes: standard Kalah has its own.
inline constexpr OrderWeights kEmptyCaptureOrder{
    .level_fail_low = {.extra_turn = 256, .per_reply = 8, .per_seed_of_material = 5, .per_pit = 8},
    .level_cut = {.extra_turn = 384, .per_reply = 4, .per_seed_of_material = 0, .per_pit = 2},
    .behind_fail_low = {.extra_turn = 256, .per_reply = 24, .per_seed_of_material = 6, .per_pit = 8},
    .behind_cut = {.extra_turn = 384, .per_reply = 8, .per_seed_of_material = 3, .per_pit = 2},
};

// Standard Kalah, tuned the same way on its own boards (results/README.md,
// "The move order tuned for standard Kalah"): an extra turn weighs 6 seeds
// of gain (4 for a player behind at a node expected to fail low); replies
// count at every kind of node, most for a player behind at a node expected
// to fail low and least for one behind at a node expected to cut off; a
// little material at a level player's cut nodes, none at a player
// behind's.  The empty-capture order cost this game more nodes on
// Kalah(6,5), this one fewer.
inline constexpr OrderWeights kStandardKalahOrder{
    .level_fail_low = {.extra_turn = 384, .per_reply = 16, .per_seed_of_material = 3, .per_pit = 1},
    .level_cut = {.extra_turn = 384, .per_reply = 24, .per_seed_of_material = 1, .per_pit = 1},
    .behind_fail_low = {.extra_turn = 256, .per_reply = 32, .per_seed_of_material = 3, .per_pit = 4},
    .behind_cut = {.extra_turn = 384, .per_reply = 8, .per_seed_of_material = 0, .per_pit = 2},
};

// BrainKing, tuned the same way on its own boards (results/README.md, "The
// move order tuned for BrainKing"): an extra turn weighs 4 seeds of gain (3
// at a level player's cut nodes), except for a player behind at a node
// expected to cut off, where it still comes first at any gain; replies
// count at nodes expected to fail low (24 a reply) and for a player behind
// at cut nodes; material only for a level player at fail-low nodes and for
// a player behind at cut nodes.
inline constexpr OrderWeights kBrainKingOrder{
    .level_fail_low = {.extra_turn = 256, .per_reply = 24, .per_seed_of_material = 3, .per_pit = 1},
    .level_cut = {.extra_turn = 192, .per_reply = 0, .per_seed_of_material = 0, .per_pit = 1},
    .behind_fail_low = {.extra_turn = 256, .per_reply = 24, .per_seed_of_material = 0, .per_pit = 1},
    .behind_cut = {.extra_turn = 1 << 16, .per_reply = 16, .per_seed_of_material = 3, .per_pit = 1},
};

// The order of ruleset R.
template <class R>
constexpr const OrderWeights& order_weights() {
  if constexpr (std::is_same_v<R, KalahRules<true>>) return kEmptyCaptureOrder;
  if constexpr (std::is_same_v<R, KalahRules<false>>) return kStandardKalahOrder;
  if constexpr (std::is_same_v<R, BrainKingRules>) return kBrainKingOrder;
  return kDefaultOrder;
}

class MoveSorter {
 public:
  static constexpr int kExact = 1 << 24;
  static constexpr int kPerSeedOfGain = 64;

  static bool counts_replies(const NodeWeights& w, bool exact, bool extra_turn) {
    return w.per_reply != 0 && !exact && !extra_turn;
  }
  static bool weighs_material(const NodeWeights& w, bool exact) { return w.per_seed_of_material != 0 && !exact; }

  // `child` is the position after a move of the node's mover, holding
  // `seeds` on the board; the mover is child's mover after an extra turn and
  // its opponent otherwise.
  static int material(const Position& child, bool extra_turn, int seeds) {
    return 2 * (extra_turn ? child.mover_row_sum() : child.opponent_row_sum()) - seeds;
  }

  // A pure function of its inputs; higher is tried first.  Inlined: a call
  // of its own for every child showed in the search's instruction counts.
  [[gnu::always_inline]] static int order(const NodeWeights& w, const OrderChild& c) {
    if (c.exact) return kExact + c.exact_value * kPerSeedOfGain + c.pit;
    int o = (c.extra_turn ? w.extra_turn : 0) + c.gain * kPerSeedOfGain + c.pit * w.per_pit;
    if (counts_replies(w, c.exact, c.extra_turn)) o -= w.per_reply * c.replies;
    if (weighs_material(w, c.exact)) o += w.per_seed_of_material * c.material;
    return o;
  }

  // seq[0..n) := label[0..n) (n <= kMaxPitsPerSide; labels ascending, below
  // 32: the children's indices), highest order[i] first; of equal orders,
  // the higher label first.  Sorted as 64-bit keys (order, then label)
  // without moving the children, so that the same orders always give the
  // same sequence whatever the sort; faster than sorting the children
  // themselves, with the same nodes.  The labels ride in the keys, so the
  // caller maps no positions back to children.
  static void sort(const int* order, const std::uint8_t* label, int n, std::uint8_t* seq) {
    std::uint64_t keys[kMaxPitsPerSide];
    for (int i = 0; i < n; ++i) keys[i] = (std::uint64_t(std::uint32_t(order[i] + (1 << 28))) << 5) | std::uint64_t(label[i]);
    sort_keys(keys, n);
    for (int i = 0; i < n; ++i) seq[i] = std::uint8_t(keys[i] & 31);
  }

  // keys[0..n) in descending order.  Six or fewer (the usual boards) by a
  // branch-free network of the fewest comparators for n (a node has four
  // children on average: padding every node to the network of six cost
  // twice the comparisons); more by std::sort.
  static void sort_keys(std::uint64_t* keys, int n) {
    auto ce = [&](int a, int b) {
      const std::uint64_t x = keys[a], y = keys[b];
      keys[a] = x > y ? x : y;
      keys[b] = x > y ? y : x;
    };
    switch (n) {
      case 0:
      case 1:
        return;
      case 2:
        ce(0, 1);
        return;
      case 3:
        ce(1, 2); ce(0, 2); ce(0, 1);
        return;
      case 4:
        ce(0, 1); ce(2, 3); ce(0, 2); ce(1, 3); ce(1, 2);
        return;
      case 5:
        ce(0, 1); ce(3, 4); ce(2, 4); ce(2, 3); ce(1, 4);
        ce(0, 3); ce(0, 2); ce(1, 3); ce(1, 2);
        return;
      case 6:
        ce(0, 5); ce(1, 3); ce(2, 4); ce(1, 2); ce(3, 4); ce(0, 3);
        ce(2, 5); ce(0, 1); ce(2, 3); ce(4, 5); ce(1, 2); ce(3, 4);
        return;
      default:
        std::sort(keys, keys + n, [](std::uint64_t a, std::uint64_t b) { return a > b; });
    }
  }

  // The number of moves in a mask (at most 16 bits).  std::popcount is a
  // libgcc call on x86-64 without -mpopcnt, which showed in the search's
  // profile.
  static int count_moves(MoveMask moves) {
    std::uint32_t x = moves - ((moves >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return int((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
  }
};

}  // namespace mancala::solver::detail
