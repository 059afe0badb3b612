// `mancala opening` and `mancala match` from the command line (the real
// binary, tests/cli_harness.hpp): the JSON they promise, the third check of
// the opening (every root entry equals `mancala solve` of the position that
// `--play` hands over), and bad input refused with one line and exit 2.
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "cli_harness.hpp"
#include "temp_dir.hpp"

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

// A cluster run: every root entry a separate `--entry i,j` job, the root then
// solved from their JSON lines with --entries, gives the solution of one run.
TEST(CliOpening, EntriesSolvedApartGiveTheSameSolution) {
  const Args board = {"--pits", "4", "--seeds", "3", "--capture", "needs-opposite"};
  const json whole = run_json(cat({"opening"}, board));
  const std::string path = (std::filesystem::temp_directory_path() / ("mancala_entries_" + std::to_string(::getpid()))).string();
  {
    std::ofstream out(path);
    for (int i = 4; i >= 1; --i)  // any order, a duplicate line too
      for (int k = 1; k <= 4; ++k) out << run_json(cat({"opening", "--entry", std::to_string(i) + "," + std::to_string(k)}, board)).dump() << "\n";
    out << run_json(cat({"opening", "--entry", "1,1"}, board)).dump() << "\n\n";
  }
  const json joined = run_json(cat({"opening", "--entries", path}, board));
  for (const char* key : {"value_exact", "matrix_exact", "south_strategy_exact", "north_strategy_exact", "saddle_point", "sequential_value"})
    EXPECT_EQ(joined[key], whole[key]) << key;
  std::filesystem::remove(path);
}

// Table files (shared by every worker) change the work, never a value.
TEST(CliOpening, TablesChangeNoValue) {
  const TempDir work{"mancala_opening_tables"};
  const std::string dir = work.path().string();
  expect_success(run_mancala({"build", "--game", "congkak", "--pits", "4", "--max-seeds", "10", "--out", dir, "--quiet"}));
  const Args board = {"opening", "--pits", "4", "--seeds", "3", "--threads", "2"};
  const json plain = run_json(board);
  const json tabled = run_json(cat(board, {"--tables", dir}));
  for (const char* key : {"value_exact", "matrix_exact", "south_strategy_exact", "north_strategy_exact", "sequential_value"})
    EXPECT_EQ(tabled[key], plain[key]) << key;
  EXPECT_NE(tabled["nodes"], plain["nodes"]) << "the tables were not used";
}

TEST(CliOpening, BadEntriesFilesAreRefused) {
  const Args board = {"opening", "--pits", "2", "--seeds", "2"};
  const std::string dir = (std::filesystem::temp_directory_path() / ("mancala_bad_entries_" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir);
  std::vector<std::string> good;
  for (int i = 1; i <= 2; ++i)
    for (int k = 1; k <= 2; ++k) good.push_back(run_json(cat(board, {"--entry", std::to_string(i) + "," + std::to_string(k)})).dump());
  auto file = [&](const std::string& name, const std::vector<std::string>& lines) {
    const std::string path = dir + "/" + name;
    std::ofstream out(path);
    for (const auto& l : lines) out << l << "\n";
    return path;
  };
  auto with = [&](std::size_t k, const std::string& key, const json& value) {
    json j = json::parse(good[k]);
    j[key] = value;
    std::vector<std::string> lines = good;
    lines[k] = j.dump();
    return lines;
  };
  std::vector<std::string> missing(good.begin(), good.end() - 1), conflict = good;
  json changed = json::parse(good[0]);
  changed["value_exact"] = "1/3";
  conflict.push_back(changed.dump());
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {file("missing", missing), {"no entry 2,2"}},
      {file("conflict", conflict), {"second, different value"}},
      {file("notjson", {"{", good[1]}), {"line 1", "not a json object"}},
      {file("noentry", {"{\"value_exact\": \"1\"}"}), {"line 1", "entry"}},
      {file("zeroden", with(0, "value_exact", "1/0")), {"value_exact"}},
      {file("text", with(0, "value_exact", "one")), {"value_exact"}},
      {file("number", with(0, "value_exact", 1)), {"value_exact"}},
      // 8 seeds in play: no store difference beyond 8 either way.
      {file("huge", with(0, "value_exact", "99999999999999999999999999999999/1")), {"value_exact", "store difference"}},
      {file("beyond", with(0, "value_exact", "17/2")), {"value_exact", "store difference"}},
      {file("below", with(0, "value_exact", "-9")), {"value_exact", "store difference"}},
      {file("range", with(0, "entry", json::array({3, 1}))), {"entry"}},
      {file("board", with(0, "board", "1,1/1,1 0-0 s")), {"another board"}},
      {file("ruleset", with(0, "ruleset", "congkak+capture=needs-opposite")), {"another board"}},
      {dir + "/absent", {"cannot read"}},
  };
  for (const auto& [path, keywords] : cases) {
    SCOPED_TRACE(path);
    expect_user_error(run_mancala(cat(board, {"--entries", path})), keywords);
  }
  expect_user_error(run_mancala(cat(board, {"--entry", "1,1", "--play", "1,1"})), {"exclude"});
  expect_user_error(run_mancala(cat(board, {"--entry", "3,1"})), {"--entry", "hole"});
  std::filesystem::remove_all(dir);
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
      {{"opening", "--game", "congkak", "--pits", "3", "--seeds", "2", "--tables", "nowhere"}, {"nowhere"}},
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
