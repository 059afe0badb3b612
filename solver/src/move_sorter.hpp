// Move ordering (internal header): the order score of a child and the sort of
// a node's children by it.  The search tries the children in this order, so
// the order decides how soon a cut-off comes, never a value.  Every weight
// was chosen by measurement; the figures, with the commits they were taken
// at, are in results/README.md, "Move-ordering and search-parameter
// measurements".
//
// The transposition table's best move is not among them: the search plays
// and searches it alone first (search.hpp, "staged").  Highest first:
//   - children of known value (the game ended, or the child is inside the
//     endgame tables), best value first, then by pit: they cost nothing and
//     may settle the node before any search;
//   - then the others by the sum of
//       2^16 for an extra turn,
//       64 a seed of gain,
//       -8 a reply left to the opponent (a player behind, plain moves),
//       3 a seed of material (a player behind, or a node expected to fail low),
//       the pit (mover-relative, 0-based: the nearest the store is highest).
#pragma once

#include <algorithm>
#include <cstdint>

#include "mancala/position.hpp"

namespace mancala::solver::detail {

// What the order of a node's children depends on at the node.
struct OrderNode {
  bool behind;      // the mover is behind in the stores
  bool expect_cut;  // the node's window asks the mover for no gain from the board (hi_window <= 0)
};

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

class MoveSorter {
 public:
  static constexpr int kExact = 1 << 24;
  static constexpr int kExtraTurn = 1 << 16;
  static constexpr int kPerSeedOfGain = 64;
  static constexpr int kPerReply = 8;
  static constexpr int kPerSeedOfMaterial = 3;

  // Among moves of equal gain, a player behind in the stores does best to
  // leave the opponent the fewest replies (a narrow tree to get through),
  // and one level or ahead to play the pit nearest the store first.  The
  // same rule for a player level in the stores, or for both players at
  // every score, cost far more nodes than it saved.  An extra turn leaves
  // the mover, not the opponent, to reply, so it is not counted.
  static bool counts_replies(const OrderNode& node, bool exact, bool extra_turn) {
    return node.behind && !exact && !extra_turn;
  }

  // Material: the seeds a move leaves on the mover's side against the
  // opponent's, weighed at 3 per seed of difference (so it can outweigh up
  // to 2 seeds of gain), for a player behind in the stores and at nodes
  // expected to fail low.  At the others it took the pit order's place and
  // cost up to twice the nodes on boards of 3 seeds a pit.  Heavier weights
  // for a player behind fall off a cliff.
  static bool weighs_material(const OrderNode& node, bool exact) { return !exact && (node.behind || !node.expect_cut); }

  // `child` is the position after a move of the node's mover, holding
  // `seeds` on the board; the mover is child's mover after an extra turn and
  // its opponent otherwise.
  static int material(const Position& child, bool extra_turn, int seeds) {
    return 2 * (extra_turn ? child.mover_row_sum() : child.opponent_row_sum()) - seeds;
  }

  // A pure function of its inputs; higher is tried first.  Inlined: a call
  // of its own for every child showed in the search's instruction counts.
  [[gnu::always_inline]] static int order(const OrderNode& node, const OrderChild& c) {
    if (c.exact) return kExact + c.exact_value * kPerSeedOfGain + c.pit;
    int o = (c.extra_turn ? kExtraTurn : 0) + c.gain * kPerSeedOfGain + c.pit;
    if (counts_replies(node, c.exact, c.extra_turn)) o -= kPerReply * c.replies;
    if (weighs_material(node, c.exact)) o += kPerSeedOfMaterial * c.material;
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
