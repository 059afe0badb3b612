// Hand-worked examples, one or more for every rule of every ruleset, each
// worked out on paper from the rule texts (seeds 000-004) before being run.
#include <gtest/gtest.h>

#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"

namespace mancala {
namespace {

Ruleset kalah(bool empty_capture = false) { return Ruleset{.game = Game::Kalah, .empty_capture = empty_capture}; }
Ruleset brainking() { return Ruleset{.game = Game::BrainKing}; }
Ruleset oware(GrandSlam g = GrandSlam::NoCapture) { return Ruleset{.game = Game::Oware, .grand_slam = g}; }
Ruleset congkak(CongkakCapture c = CongkakCapture::Always) { return Ruleset{.game = Game::Congkak, .congkak_capture = c}; }

struct Played {
  std::string position;
  MoveResult result;
};

Played play(const Ruleset& r, const std::string& pos, int pit) {
  Position p = parse_position(pos);
  const MoveResult res = apply_move(r, p, pit);
  return {format_position(p), res};
}

// --- Kalah ---------------------------------------------------------------

TEST(Kalah, LastSeedInOwnStoreGivesAnotherMove) {
  const Played p = play(kalah(), "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", 3);
  EXPECT_EQ(p.position, "4,4,0,5,5,5/4,4,4,4,4,4 1-0 s");
  EXPECT_TRUE(p.result.extra_turn);
  EXPECT_FALSE(p.result.game_over);
}

TEST(Kalah, NorthSowsItsOwnRowTowardsItsStore) {
  const Played p = play(kalah(), "4,4,4,4,4,4/4,4,4,4,4,4 0-0 n", 4);
  EXPECT_EQ(p.position, "5,4,4,4,4,4/4,4,4,0,5,5 0-1 s");
}

TEST(Kalah, CaptureTakesLastSeedAndOppositeHouse) {
  // South pit 3 faces north pit 4 (6+1-3).
  const Played p = play(kalah(), "0,1,0,0,0,2/0,0,0,5,0,1 0-0 s", 2);
  EXPECT_EQ(p.position, "0,0,0,0,0,2/0,0,0,0,0,1 6-0 n");
}

TEST(Kalah, NoCaptureWhenOppositeHouseIsEmpty) {
  const Played p = play(kalah(), "0,1,0,0,0,2/0,0,0,0,0,1 0-0 s", 2);
  EXPECT_EQ(p.position, "0,0,1,0,0,2/0,0,0,0,0,1 0-0 n");
}

TEST(Kalah, EmptyCaptureTakesTheLoneSeed) {
  const Played p = play(kalah(true), "0,1,0,0,0,2/0,0,0,0,0,1 0-0 s", 2);
  EXPECT_EQ(p.position, "0,0,0,0,0,2/0,0,0,0,0,1 1-0 n");
}

TEST(Kalah, ThirteenSeedsLapIntoTheOriginAndCapture) {
  // 13 = one lap of 6 + store + 6: every pit +1, store +1, last seed back in
  // the emptied origin pit 3, which faces north pit 4 (now 1).
  const Played p = play(kalah(), "0,0,13,0,0,0/1,0,0,0,0,0 0-0 s", 3);
  EXPECT_EQ(p.position, "1,1,0,1,1,1/2,1,1,0,1,1 3-0 n");
}

TEST(Kalah, SowingSkipsTheOpponentsStore) {
  // 8 seeds from pit 6: own store, north 1..6, (not north's store), south 1;
  // south 1 was empty and faces north 6, which now holds 1: capture 2.
  const Played p = play(kalah(), "0,1,0,0,0,8/1,0,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(p.position, "0,1,0,0,0,0/2,1,1,1,1,0 3-0 n");
}

TEST(Kalah, EmptyRowEndsTheGameAndRowsGoToTheirOwners) {
  // The last seed reaches the store, but south's row is now empty: the game
  // ends, north's 3 seeds go to north, and a game-ending move passes the turn.
  const Played p = play(kalah(), "0,0,0,0,0,1/1,2,0,0,0,0 3-4 s", 6);
  EXPECT_EQ(p.position, "0,0,0,0,0,0/0,0,0,0,0,0 4-7 n");
  EXPECT_TRUE(p.result.game_over);
  EXPECT_FALSE(p.result.extra_turn);
}

TEST(Kalah, PositionWithAnEmptyRowIsTerminal) {
  const Position p = parse_position("0,0,0/2,1,0 5-1 s");
  EXPECT_TRUE(is_terminal(kalah(), p));
  EXPECT_EQ(legal_moves(kalah(), p), 0u);
  EXPECT_EQ(terminal_value(p), 5 - (1 + 3));
}

// --- BrainKing -----------------------------------------------------------

TEST(BrainKing, CaptureTakesOnlyTheOppositeHouse) {
  const Played p = play(brainking(), "0,1,0,0,0,2/0,0,0,5,0,1 0-0 s", 2);
  EXPECT_EQ(p.position, "0,0,1,0,0,2/0,0,0,0,0,1 5-0 n");
}

TEST(BrainKing, EmptyOwnRowDoesNotEndTheGameWhileTheOpponentCanMove) {
  const Played bk = play(brainking(), "0,0,0,0,0,2/1,0,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(bk.position, "0,0,0,0,0,0/2,0,0,0,0,0 1-0 n");
  EXPECT_FALSE(bk.result.game_over);
  // The same move ends a Kalah game.
  const Played k = play(kalah(), "0,0,0,0,0,2/1,0,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(k.position, "0,0,0,0,0,0/0,0,0,0,0,0 1-2 n");
  EXPECT_TRUE(k.result.game_over);
}

TEST(BrainKing, GameEndsWhenThePlayerToMoveHasNoSeeds) {
  // Last seed in the store: south would move again but has no seeds.
  const Played p = play(brainking(), "0,0,0,0,0,1/0,0,0,0,0,1 0-0 s", 6);
  EXPECT_EQ(p.position, "0,0,0,0,0,0/0,0,0,0,0,0 1-1 n");
  EXPECT_TRUE(p.result.game_over);
  EXPECT_TRUE(is_terminal(brainking(), parse_position("0,0,0/1,2,3 0-0 s")));
  EXPECT_FALSE(is_terminal(brainking(), parse_position("1,2,3/0,0,0 0-0 s")));
}

// --- Oware ---------------------------------------------------------------

TEST(Oware, TwelveSeedsSkipTheOriginHouse) {
  // 12 seeds over the 11 other houses: one each, and the 12th in pit 2.
  const Played p = play(oware(), "12,0,0,0,0,0/1,1,1,1,1,1 0-0 s", 1);
  EXPECT_EQ(p.position, "0,2,1,1,1,1/2,2,2,2,2,2 0-0 n");
}

TEST(Oware, CaptureRunsBackwardsOverTwosAndThrees) {
  // North 1,2,3 become 2,3,2: all captured (north 6 keeps its seed).
  const Played p = play(oware(), "0,0,0,0,0,3/1,2,1,0,0,1 0-0 s", 6);
  EXPECT_EQ(p.position, "0,0,0,0,0,0/0,0,0,0,0,1 7-0 n");
}

TEST(Oware, CaptureStopsAtAHouseThatIsNotTwoOrThree) {
  const Played p = play(oware(), "0,0,0,0,0,3/1,4,1,0,0,1 0-0 s", 6);
  EXPECT_EQ(p.position, "0,0,0,0,0,0/2,5,0,0,0,1 2-0 n");
}

TEST(Oware, NoCaptureOnOwnRow) {
  const Played p = play(oware(), "0,1,0,0,0,0/1,1,1,1,1,1 0-0 s", 2);
  EXPECT_EQ(p.position, "0,0,1,0,0,0/1,1,1,1,1,1 0-0 n");
}

TEST(Oware, GrandSlamCapturesNothingByDefault) {
  const Played p = play(oware(), "1,0,0,0,0,2/1,1,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(p.position, "1,0,0,0,0,0/2,2,0,0,0,0 0-0 n");
}

TEST(Oware, GrandSlamCaptureAll) {
  // Everything is taken; north then has no seeds and no move: game over.
  const Played p = play(oware(GrandSlam::CaptureAll), "0,0,0,0,0,2/1,1,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(p.position, "0,0,0,0,0,0/0,0,0,0,0,0 4-0 n");
  EXPECT_TRUE(p.result.game_over);
}

TEST(Oware, GrandSlamForbiddenWhileAnotherMoveExists) {
  const Ruleset r = oware(GrandSlam::Forbidden);
  Position p = parse_position("1,0,0,0,0,2/1,1,0,0,0,0 0-0 s");
  EXPECT_EQ(legal_moves(r, p), 0b000001u);
  EXPECT_THROW(apply_move(r, p, 6), InputError);
  // When every move is a grand slam, it is played and captures nothing.
  // North (2,2 on pits 1,2) must then feed south and cannot: north takes 4.
  const Played only = play(r, "0,0,0,0,0,2/1,1,0,0,0,0 0-0 s", 6);
  EXPECT_EQ(only.position, "0,0,0,0,0,0/0,0,0,0,0,0 0-4 n");
  EXPECT_TRUE(only.result.game_over);
}

TEST(Oware, MustFeedAnEmptyRow) {
  const Ruleset r = oware();
  Position p = parse_position("0,0,0,0,1,1/0,0,0,0,0,0 0-0 s");
  EXPECT_EQ(legal_moves(r, p), 0b100000u);  // pit 5 stays on south's row
  EXPECT_THROW(apply_move(r, p, 5), InputError);
}

TEST(Oware, CannotFeedEndsTheGameAndTheMoverTakesItsRow) {
  const Ruleset r = oware();
  const Position p = parse_position("1,0,0,0,0,0/0,0,0,0,0,0 3-2 s");
  EXPECT_TRUE(is_terminal(r, p));
  EXPECT_EQ(terminal_value(p), 3 + 1 - 2);
  // The move that leaves north unable to feed is game-ending: north takes its row.
  const Played end = play(r, "0,0,0,0,0,3/1,2,1,0,1,0 0-0 s", 6);
  EXPECT_EQ(end.position, "0,0,0,0,0,0/0,0,0,0,0,0 7-1 n");
  EXPECT_TRUE(end.result.game_over);
}

TEST(Oware, MoreThanHalfIsReportedButPlayGoesOn) {
  const Position p = parse_position("1,1,0,0,0,0/0,0,0,1,1,1 25-19 s");
  EXPECT_EQ(decided(p), Decided::MoverWins);
  EXPECT_FALSE(is_terminal(oware(), p));
  EXPECT_EQ(decided(parse_position("1,1,0,0,0,0/0,0,0,1,1,1 20-19 n")), Decided::No);
}

// --- Congkak -------------------------------------------------------------

TEST(Congkak, RelayLiftsAnOccupiedHoleAndEndsInTheStore) {
  // 1 seed into pit 2 (occupied) -> lift 2: pit 3, store: another move.
  const Played p = play(congkak(), "1,1,0/1,0,0 0-0 s", 1);
  EXPECT_EQ(p.position, "0,0,1/1,0,0 1-0 s");
  EXPECT_TRUE(p.result.extra_turn);
}

TEST(Congkak, RelayThroughTheOpponentsRowEndsInTheirEmptyHole) {
  // Pit 3's 2 seeds: store (1), north 1 (1 -> 2, occupied): lift 2 ->
  // north 2 (1 -> 2), north 3 (0 -> 1): empty hole on their row, turn ends.
  const Played p = play(congkak(), "1,0,2/1,1,0 0-0 s", 3);
  EXPECT_EQ(p.position, "1,0,0/0,2,1 1-0 n");
  EXPECT_FALSE(p.result.extra_turn);
}

TEST(Congkak, EmptyOwnHoleCapturesSeedAndOppositeHole) {
  // Pit 3 faces north pit 1.  South's row then holds pit 2's 2 seeds; north's
  // row is empty, so the round ends and south's row goes to south.
  const Played p = play(congkak(), "2,1,0/1,0,0 0-0 s", 1);
  EXPECT_EQ(p.position, "0,0,0/0,0,0 4-0 n");
  EXPECT_TRUE(p.result.game_over);
}

TEST(Congkak, NeedsOppositeLeavesTheLoneSeed) {
  const Played always = play(congkak(), "1,0,0/0,0,1 0-0 s", 1);
  EXPECT_EQ(always.position, "0,0,0/0,0,0 1-1 n");
  const Played needs = play(congkak(CongkakCapture::NeedsOpposite), "1,0,0/0,0,1 0-0 s", 1);
  EXPECT_EQ(needs.position, "0,1,0/0,0,1 0-0 n");
}

TEST(Congkak, SowingSkipsTheOpponentsStore) {
  // 5 seeds from pit 3: store, north 1..3, (not north's store), south 1: an
  // empty own hole facing north 3 (now 2): capture 3.
  const Played p = play(congkak(), "0,1,5/1,1,1 0-0 s", 3);
  EXPECT_EQ(p.position, "0,1,0/2,2,0 4-0 n");
}

TEST(Congkak, BurntHolesAreSkippedAndCannotBeChosen) {
  const Played always = play(congkak(), "1,x,0/0,0,1 0-0 s", 1);
  EXPECT_EQ(always.position, "0,x,0/0,0,0 1-1 n");
  const Played needs = play(congkak(CongkakCapture::NeedsOpposite), "1,x,0/0,0,1 0-0 s", 1);
  EXPECT_EQ(needs.position, "0,x,1/0,0,1 0-0 n");
  Position p = parse_position("1,x,2/0,0,1 0-0 s");
  EXPECT_EQ(legal_moves(congkak(), p), 0b101u);
  EXPECT_THROW(apply_move(congkak(), p, 2), InputError);
}

// --- Common --------------------------------------------------------------

TEST(Moves, IllegalMovesLeaveThePositionUnchanged) {
  const Position start = parse_position("4,0,4/4,4,4 0-0 s");
  for (int pit : {0, 2, 4, -1, 100}) {
    Position p = start;
    EXPECT_THROW(apply_move(kalah(), p, pit), InputError) << pit;
    EXPECT_EQ(p, start);
  }
}

TEST(Moves, NoMoveIsLegalOnceTheGameIsOver) {
  Position p = parse_position("0,0,0/0,0,0 10-8 n");
  for (const Ruleset& r : {kalah(), brainking(), oware(), congkak()}) {
    EXPECT_TRUE(is_terminal(r, p));
    EXPECT_THROW(apply_move(r, p, 1), InputError);
  }
}

TEST(Moves, MoveListParsing) {
  EXPECT_EQ(parse_move_list("3,1,6"), (std::vector<int>{3, 1, 6}));
  EXPECT_TRUE(parse_move_list("").empty());
  for (const char* bad : {"3,,1", "a", "3,", ",3", "-1", "1 2", "99999", "01", "3,00", "007"}) EXPECT_THROW(parse_move_list(bad), InputError) << bad;
}

TEST(Start, BoardLimits) {
  EXPECT_EQ(format_position(start_position(6, 4)), "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s");
  EXPECT_EQ(format_position(start_position(1, 0)), "0/0 0-0 s");
  EXPECT_THROW(start_position(0, 4), InputError);
  EXPECT_THROW(start_position(17, 1), InputError);
  EXPECT_THROW(start_position(6, -1), InputError);
  EXPECT_THROW(start_position(16, 8), InputError);  // 256 seeds
  EXPECT_NO_THROW(start_position(16, 7));
}

}  // namespace
}  // namespace mancala
