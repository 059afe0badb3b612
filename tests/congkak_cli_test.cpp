// `mancala opening` and `mancala match` from the command line (the real
// binary, tests/cli_harness.hpp): the JSON they promise, the third check of
// the opening (every root entry equals `mancala solve` of the position that
// `--play` hands over), and bad input refused with one line and exit 2.
#include <string>

#include "cli_harness.hpp"

namespace {

using namespace cli_harness;


// "p/q" or "p" as a double, for comparing with the JSON numbers.
double fraction_value(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) return std::stod(text);
  return std::stod(text.substr(0, slash)) / std::stod(text.substr(slash + 1));
}

TEST(CliOpening, JsonHasTheValueMatrixStrategiesAndCounts) {
  for (const char* capture : {"always", "needs-opposite"}) {
    const json j = run_json({"opening", "--game", "congkak", "--capture", capture, "--pits", "4", "--seeds", "3"});
    SCOPED_TRACE(j.dump());
    ASSERT_TRUE(j.contains("value_exact"));
    EXPECT_NEAR(j["value"].get<double>(), fraction_value(j["value_exact"]), 1e-9);
    ASSERT_EQ(j["matrix"].size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
      ASSERT_EQ(j["matrix"][i].size(), 4u);
      for (std::size_t k = 0; k < 4; ++k)
        EXPECT_NEAR(j["matrix"][i][k].get<double>(), fraction_value(j["matrix_exact"][i][k]), 1e-9);
    }
    for (const char* side : {"south_strategy", "north_strategy"}) {
      double sum = 0;
      for (const auto& p : j[side]) sum += p.get<double>();
      EXPECT_NEAR(sum, 1.0, 1e-9) << side;
    }
    // The value lies between the best row minimum and the best column maximum.
    double lower = -1e9, upper = 1e9;
    for (std::size_t i = 0; i < 4; ++i) {
      double row_min = 1e9, col_max = -1e9;
      for (std::size_t k = 0; k < 4; ++k) {
        row_min = std::min(row_min, j["matrix"][i][k].get<double>());
        col_max = std::max(col_max, j["matrix"][k][i].get<double>());
      }
      lower = std::max(lower, row_min);
      upper = std::min(upper, col_max);
    }
    EXPECT_LE(lower, j["value"].get<double>() + 1e-9);
    EXPECT_GE(upper, j["value"].get<double>() - 1e-9);
    EXPECT_EQ(j["saddle_point"].is_null(), lower != upper);
    for (const char* count : {"opening_states", "simultaneous_decisions", "positions_solved", "nodes", "seconds"})
      EXPECT_TRUE(j.contains(count)) << count;
    // sequential_value is the value of the same board when South moves first.
    const json solved = run_json({"solve", "--game", "congkak", "--capture", capture, "--pits", "4", "--seeds", "3"});
    EXPECT_EQ(j["sequential_value"], solved["value"]);
  }
}

// The third check of the issue: every root entry whose opening is forced
// equals `mancala solve` of the position --play hands over (South's view).
TEST(CliOpening, RootEntriesEqualSolveOfTheHandedOverPositions) {
  int forced = 0;
  for (const auto& board : std::vector<Args>{{"--pits", "3", "--seeds", "3"}, {"--pits", "4", "--seeds", "2"}, {"--pits", "4", "--seeds", "3"}}) {
    const json root = run_json(cat({"opening", "--game", "congkak"}, board));
    const int m = std::stoi(board[1]);
    for (int i = 1; i <= m; ++i)
      for (int k = 1; k <= m; ++k) {
        const std::string pair = std::to_string(i) + "," + std::to_string(k);
        const json play = run_json(cat({"opening", "--game", "congkak", "--play", pair}, board));
        SCOPED_TRACE(play.dump());
        if (!play["over"].get<bool>()) {
          EXPECT_TRUE(play.contains("choosing"));
          continue;
        }
        ++forced;
        const json solved = run_json({"solve", "--game", "congkak", "--position", play["handover"].get<std::string>()});
        const int south = play["to_move"] == "south" ? solved["value"].get<int>() : -solved["value"].get<int>();
        EXPECT_EQ(play["value"].get<int>(), south);
        EXPECT_EQ(root["matrix_exact"][std::size_t(i - 1)][std::size_t(k - 1)].get<std::string>(), std::to_string(south));
      }
  }
  EXPECT_GT(forced, 5);
}

TEST(CliMatch, JsonHasTheValueStatesAndLine) {
  for (const char* opening : {"simultaneous", "sequential"}) {
    const json j = run_json({"match", "--game", "congkak", "--pits", "3", "--seeds", "2", "--opening", opening});
    SCOPED_TRACE(j.dump());
    EXPECT_NEAR(j["value"].get<double>(), fraction_value(j["value_exact"]), 1e-9);
    EXPECT_EQ(j["states"].size(), 2u * (12 - 2 * 2 + 1));  // South holds 2..10 of 12 stones, either starts
    for (const auto& s : j["states"]) {
      EXPECT_TRUE(s["value"] == 1 || s["value"] == 0 || s["value"] == -1);
      EXPECT_TRUE(s["starter"] == "south" || s["starter"] == "north");
    }
    ASSERT_FALSE(j["line"].empty());
    EXPECT_EQ(j["line"][0]["opening"].is_null(), std::string(opening) == "sequential");
    for (const char* field : {"line_end", "passes", "round_searches", "nodes", "seconds"}) EXPECT_TRUE(j.contains(field)) << field;
  }
}

TEST(CliCongkak, HelpWorks) {
  for (const char* cmd : {"opening", "match"}) {
    const RunResult r = run_mancala({cmd, "--help"});
    expect_success(r);
    EXPECT_TRUE(mentions(r.out, "Usage: mancala " + std::string(cmd)));
  }
}

TEST(CliCongkak, BadInputIsRefusedWithOneLine) {
  struct Case {
    Args args;
    std::vector<std::string> keywords;
  };
  const std::vector<Case> cases = {
      {{"opening", "--game", "kalah", "--pits", "3", "--seeds", "3"}, {"congkak"}},
      {{"opening", "--game", "oware", "--pits", "3", "--seeds", "3"}, {"congkak"}},
      {{"match", "--game", "brainking", "--pits", "3", "--seeds", "3"}, {"congkak"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--play", "0,1"}, {"hole"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--play", "1,4"}, {"hole"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--play", "1"}, {"two holes"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--play", "1,2,3"}, {"two holes"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--play", "a,b"}, {"a,b|move"}},
      {{"opening", "--game", "congkak", "--position", "2,0,2/2,2,2 0-0 s", "--play", "2,1"}, {"empty"}},
      {{"opening", "--game", "congkak", "--position", "0,0,0/2,2,2 0-0 s", "--play", "1,1"}, {"empty"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--timing", "staggered"}, {"timing"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--tables", "nowhere"}, {"tables"}},
      {{"opening", "--game", "congkak", "--pits", "16", "--seeds", "9"}, {"255"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--tt-mb", "-5"}, {"--tt-mb"}},
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--bogus"}, {"bogus"}},
      {{"match", "--game", "congkak", "--pits", "3", "--seeds", "2", "--opening", "staggered"}, {"--opening"}},
      {{"match", "--game", "congkak", "--pits", "3", "--seeds", "0"}, {"seed"}},
      {{"match", "--game", "congkak", "--pits", "16", "--seeds", "9"}, {"255"}},
      {{"match", "--game", "congkak", "--position", "2,2/2,2 0-0 s"}, {"--pits"}},
      {{"match", "--game", "congkak", "--pits", "3", "--seeds", "2", "--memo-mb", "-1"}, {"--memo-mb"}},
      {{"match", "--game", "congkak", "--pits", "3", "--seeds", "2", "--memo-mb", "99999999999999999"}, {"--memo-mb"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(command_line(c.args));
    expect_user_error(run_mancala(c.args), c.keywords);
  }
}

}  // namespace
