#include <gtest/gtest.h>

#include <random>

#include "mancala/error.hpp"
#include "mancala/notation.hpp"

namespace mancala {
namespace {

TEST(Notation, KalahStart) {
  const Position p = parse_position("4,4,4,4,4,4/4,4,4,4,4,4 0-0 s");
  EXPECT_EQ(p.m(), 6);
  EXPECT_EQ(p.to_move, Side::South);
  EXPECT_EQ(p, start_position(6, 4));
}

TEST(Notation, PitsAreNumberedInTheOwnersSowingOrder) {
  const Position p = parse_position("1,2,3/4,5,6 7-8 n");
  EXPECT_EQ(p.seeds_at(Side::South, 1), 1);
  EXPECT_EQ(p.seeds_at(Side::South, 3), 3);
  EXPECT_EQ(p.seeds_at(Side::North, 1), 4);
  EXPECT_EQ(p.seeds_at(Side::North, 3), 6);
  EXPECT_EQ(p.store_of(Side::South), 7);
  EXPECT_EQ(p.store_of(Side::North), 8);
  // North moves: the mover-relative board starts with north's row.
  EXPECT_EQ(p.pits[0], 4);
  EXPECT_EQ(p.pits[3], 1);
  EXPECT_EQ(p.store[0], 8);
}

TEST(Notation, RoundTripOfHandPickedPositions) {
  for (const char* text : {"4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", "0/0 0-0 n", "255/0 0-0 s", "0,x,7,x/x,0,0,3 12-9 n",
                           "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0-0 s"}) {
    EXPECT_EQ(format_position(parse_position(text)), text);
  }
}

TEST(Notation, RoundTripOfRandomPositions) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 5000; ++trial) {
    const int m = 1 + int(rng() % kMaxPitsPerSide);
    Position p;
    p.pits_per_side = std::uint8_t(m);
    p.to_move = rng() % 2 ? Side::North : Side::South;
    int budget = kMaxSeeds;
    for (int i = 0; i < 2 * m; ++i) {
      if (rng() % 7 == 0) {
        p.burnt |= 1u << i;
        continue;
      }
      const int c = int(rng() % std::min(budget + 1, 20));
      p.pits[i] = std::uint8_t(c);
      budget -= c;
    }
    for (int s = 0; s < 2; ++s) {
      const int c = int(rng() % (budget + 1));
      p.store[s] = std::uint8_t(c);
      budget -= c;
    }
    const std::string text = format_position(p);
    const Position back = parse_position(text);
    EXPECT_EQ(back, p) << text;
    EXPECT_EQ(format_position(back), text);
  }
}

TEST(Notation, FlipKeepsTheAbsoluteBoard) {
  Position p = parse_position("1,x,3/4,5,x 7-8 s");
  p.flip();
  EXPECT_EQ(format_position(p), "1,x,3/4,5,x 7-8 n");
  p.flip();
  EXPECT_EQ(format_position(p), "1,x,3/4,5,x 7-8 s");
}

TEST(Notation, MalformedPositionsAreRefusedWithTheReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected"},
      {"4,4/4,4 0-0", "side to move"},
      {"4,4/4,4 0-0 s extra", "too many fields"},
      {"4,4/4,4  0-0 s", "too many fields"},
      {"4,4/4,4 0-0 w", "side to move"},
      {"4,4,4/4,4 0-0 s", "different lengths"},
      {"4,a/4,4 0-0 s", "not a number"},
      {"4,-1/4,4 0-0 s", "not a number"},
      {"04,4/4,4 0-0 s", "leading zero"},
      {"4,,4/4,4,4 0-0 s", "empty"},
      {"4,4 4,4 0-0 s", "too many fields"},
      {"4,4 0-0 s", "'<south row>/<north row>'"},
      {"4,4/4,4/4,4 0-0 s", "'<south row>/<north row>'"},
      {"4,4/4,4 00 s", "'<south store>-<north store>'"},
      {"4,4/4,4 -1-0 s", "not negative"},
      {"4,4/4,4 1-0-0 s", "not negative"},
      {"256,0/0,0 0-0 s", "limit"},
      {"1000,0/0,0 0-0 s", "limit"},
      {"200,0/0,56 0-0 s", "limit"},
      {"0,0/0,0 200-56 s", "limit"},
      {"0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0-0 s", "limit"},
      {"4,x4/4,4 0-0 s", "not a number"},
  };
  for (const auto& [text, reason] : cases) {
    try {
      parse_position(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << text << " -> " << e.what();
    }
  }
}

TEST(Notation, BurntHolesOnlyInCongkak) {
  const Position p = parse_position("1,x/1,1 0-0 s");
  EXPECT_NO_THROW(validate_for(Ruleset{.game = Game::Congkak}, p));
  for (Game g : {Game::Kalah, Game::BrainKing, Game::Oware})
    EXPECT_THROW(validate_for(Ruleset{.game = g}, p), InputError);
}

TEST(Ruleset, DigestRoundTrip) {
  const Ruleset all[] = {
      {.game = Game::Kalah}, {.game = Game::Kalah, .empty_capture = true}, {.game = Game::BrainKing},
      {.game = Game::Oware}, {.game = Game::Oware, .grand_slam = GrandSlam::Forbidden},
      {.game = Game::Oware, .grand_slam = GrandSlam::CaptureAll}, {.game = Game::Congkak},
      {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite}};
  for (const Ruleset& r : all) EXPECT_EQ(parse_digest(r.digest()), r) << r.digest();
  EXPECT_EQ((Ruleset{.game = Game::Kalah, .empty_capture = true}.digest()), "kalah+empty-capture");
  EXPECT_THROW(parse_digest("chess"), InputError);
  EXPECT_THROW(parse_digest("oware+empty-capture"), InputError);
  EXPECT_THROW(parse_digest("oware+grand-slam=no-capture"), InputError);  // not canonical
}

}  // namespace
}  // namespace mancala
