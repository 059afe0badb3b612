// The multi-round Congkak match, worked by hand on a 2x1 board.
#include <gtest/gtest.h>

#include "mancala/congkak_match.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"

namespace mancala {
namespace {

const Ruleset kCongkak{.game = Game::Congkak};

TEST(CongkakMatch, RoundEndRefillsBurnsAndLetsTheLoserStart) {
  CongkakMatch match(kCongkak, 2, 1);
  EXPECT_EQ(format_position(match.position()), "1,1/1,1 0-0 s");
  // South 2: the seed reaches the store, another move.
  EXPECT_TRUE(match.play(2).extra_turn);
  EXPECT_EQ(format_position(match.position()), "1,0/1,1 1-0 s");
  // South 1: into empty pit 2, facing north pit 1: capture 2.  South's row is
  // empty, the round ends; north's last seed goes to north.
  EXPECT_TRUE(match.play(1).game_over);
  // South 3, north 1.  Refill one seed a hole: south fills both holes (1
  // left in store), north fills pit 1 and pit 2 burns.  North lost: starts.
  EXPECT_EQ(match.round(), 2);
  EXPECT_FALSE(match.over());
  EXPECT_EQ(match.round_starter(), Side::North);
  EXPECT_EQ(format_position(match.position()), "1,1/1,x 1-0 n");
  EXPECT_EQ(match.seeds_of(Side::South) + match.seeds_of(Side::North), 4);
  // North 1: pit 2 is burnt and skipped, the seed goes to north's store.
  // North's row is empty: the round ends.
  EXPECT_THROW(match.play(2), InputError);
  EXPECT_TRUE(match.play(1).game_over);
  EXPECT_EQ(match.round(), 3);
}

TEST(CongkakMatch, EndsWhenAPlayerCannotFillOneHole) {
  CongkakMatch match(kCongkak, 1, 2);  // 2/2 0-0 s
  // South 1: store, north 1 (occupied, 3): lift 3 -> (north's store is
  // skipped) south 1, store, north 1 (empty after the lift): turn ends.
  EXPECT_FALSE(match.play(1).extra_turn);
  EXPECT_EQ(format_position(match.position()), "1/1 2-0 n");
  // North 1: the seed reaches north's store; north's row is empty, the round
  // ends and south's seed goes to south: 3-1.  North cannot fill a hole of 2.
  EXPECT_TRUE(match.play(1).game_over);
  EXPECT_TRUE(match.over());
  EXPECT_EQ(match.seeds_of(Side::South), 3);
  EXPECT_EQ(match.seeds_of(Side::North), 1);
  EXPECT_THROW(match.play(1), InputError);
}

TEST(CongkakMatch, OnlyForCongkak) {
  EXPECT_THROW(CongkakMatch(Ruleset{.game = Game::Kalah}, 6, 4), InputError);
  EXPECT_THROW(CongkakMatch(kCongkak, 0, 4), InputError);
}

}  // namespace
}  // namespace mancala
