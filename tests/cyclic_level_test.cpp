// Oware's predecessor generation ("unmoves"), which the cyclic-level
// retrograde analysis relies on: on every board of small levels, the
// predecessors it lists are exactly the positions with a legal in-level move
// (no capture, game goes on) into the child, each once.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <set>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/cyclic_level.hpp"

namespace {

using namespace mancala;

template <class R>
void expect_unmoves_invert_moves(int m, int max_seeds) {
  const tables::BoardIndex index(2 * m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) {
    // child rank -> predecessor ranks, from playing every move forwards
    std::map<std::uint64_t, std::multiset<std::uint64_t>> forward, backward;
    Position p;
    p.pits_per_side = std::uint8_t(m);
    for (std::uint64_t rank = 0; rank < index.level_size(k); ++rank) {
      index.unrank(rank, k, p.pits.data());
      if (R::is_terminal(p)) continue;
      for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
        Position c = p;
        const MoveResult res = R::play(c, std::countr_zero(rest));
        if (res.game_over || c.board_seeds() != k) continue;
        forward[index.rank(c.pits.data(), k)].insert(rank);
      }
    }
    for (std::uint64_t rank = 0; rank < index.level_size(k); ++rank) {
      index.unrank(rank, k, p.pits.data());
      tables::for_each_in_level_predecessor<R>(p, [&](const Position& q) {
        EXPECT_EQ(q.board_seeds(), k);
        backward[rank].insert(index.rank(q.pits.data(), k));
      });
    }
    ASSERT_EQ(forward, backward) << R::ruleset().digest() << " m=" << m << " k=" << k;
  }
}

TEST(OwareUnmoves, ListExactlyTheInLevelPredecessors) {
  for (int m = 1; m <= 4; ++m) {
    const int seeds = m == 4 ? 8 : 12;
    expect_unmoves_invert_moves<OwareRules<GrandSlam::NoCapture>>(m, seeds);
    expect_unmoves_invert_moves<OwareRules<GrandSlam::Forbidden>>(m, seeds);
    expect_unmoves_invert_moves<OwareRules<GrandSlam::CaptureAll>>(m, seeds);
  }
}

}  // namespace
