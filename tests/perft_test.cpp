// Frozen perft counts: a change to any rule shows up here first.  The counts
// were produced by the engine and agree with the independent oracle's perft
// (checked again below on the shallower depths).
#include <gtest/gtest.h>

#include <vector>

#include "mancala/engine.hpp"
#include "mancala/notation.hpp"
#include "oracle/oracle.hpp"

namespace {

using namespace mancala;
using Counts = std::vector<std::uint64_t>;

struct Frozen {
  const char* name;
  Ruleset rules;
  oracle::Rules oracle_rules;
  int pits, seeds;
  Counts counts;
};

const Frozen kFrozen[] = {
    {"kalah_6x4", {.game = Game::Kalah}, {"kalah"}, 6, 4, {6, 35, 185, 942, 4690, 23233, 114430, 563055}},
    {"kalah_empty_capture_6x4", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, 6, 4,
     {6, 35, 185, 942, 4685, 23169, 113959, 559885}},
    {"brainking_6x4", {.game = Game::BrainKing}, {"brainking"}, 6, 4, {6, 35, 185, 942, 4712, 23452, 115883, 572138}},
    {"oware_6x4", {.game = Game::Oware}, {"oware"}, 6, 4, {6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872}},
    {"congkak_7x7", {.game = Game::Congkak}, {"congkak"}, 7, 7, {7, 36, 230, 1406, 8293}},
    {"congkak_needs_opposite_7x7", {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
     {"congkak", false, "no-capture", true}, 7, 7, {7, 36, 230, 1406, 8295}},
    // Small boards reach the ends of games, grand slams and burnt-out rows.
    {"kalah_3x2", {.game = Game::Kalah}, {"kalah"}, 3, 2, {3, 8, 19, 40, 81, 150, 265, 431, 656, 948, 1266, 1605}},
    {"kalah_empty_capture_3x2", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, 3, 2,
     {3, 8, 19, 40, 81, 148, 257, 404, 578, 770, 908, 983}},
    {"brainking_3x2", {.game = Game::BrainKing}, {"brainking"}, 3, 2, {3, 8, 19, 40, 81, 153, 290, 515, 827, 1304, 1912, 2672}},
    {"oware_3x2", {.game = Game::Oware}, {"oware"}, 3, 2,
     {3, 6, 14, 32, 66, 154, 318, 687, 1435, 2918, 6061, 12173, 24769, 50142}},
    {"oware_forbidden_3x2", {.game = Game::Oware, .grand_slam = GrandSlam::Forbidden}, {"oware", false, "forbidden"}, 3, 2,
     {3, 6, 14, 32, 66, 152, 312, 664, 1373, 2735, 5530, 10956, 21813, 43324}},
    {"oware_capture_all_3x2", {.game = Game::Oware, .grand_slam = GrandSlam::CaptureAll}, {"oware", false, "capture-all"}, 3, 2,
     {3, 6, 12, 29, 60, 143, 299, 643, 1331, 2663, 5431, 10736, 21509, 42686}},
    {"congkak_3x2", {.game = Game::Congkak}, {"congkak"}, 3, 2, {3, 7, 13, 25, 37, 48, 41, 32, 16, 2}},
    {"congkak_needs_opposite_3x2", {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
     {"congkak", false, "no-capture", true}, 3, 2, {3, 7, 13, 26, 39, 52, 57, 52, 38, 30}},
};

class Perft : public testing::TestWithParam<Frozen> {};

TEST_P(Perft, FrozenCounts) {
  const Frozen& f = GetParam();
  EXPECT_EQ(perft(f.rules, start_position(f.pits, f.seeds), int(f.counts.size())), f.counts);
}

TEST_P(Perft, OracleAgreesOnTheShallowerDepths) {
  const Frozen& f = GetParam();
  const int depth = std::min<int>(int(f.counts.size()), f.pits * f.seeds > 20 ? 6 : int(f.counts.size()));
  const Counts expected(f.counts.begin(), f.counts.begin() + depth);
  EXPECT_EQ(oracle::perft(f.oracle_rules, oracle::start(f.pits, f.seeds), depth), expected);
}

INSTANTIATE_TEST_SUITE_P(Boards, Perft, testing::ValuesIn(kFrozen),
                         [](const testing::TestParamInfo<Frozen>& i) { return std::string(i.param.name); });

}  // namespace
