// The command line as researchers use it: --version and the version in
// every JSON object, `mancala help CMD`, --moves on show/solve/analyze/probe,
// batch probing from stdin, probing without --game, --threads and the
// range checks of numbers, stopping a solve early (the hidden
// --test-stop-after-tests and --time-limit; the signals are in
// solve_stop_test.sh), and `play` from a script.  The real binary runs
// through cli_harness.hpp.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <sstream>

#include "cli_harness.hpp"
#include "temp_dir.hpp"

namespace {

using namespace cli_harness;

// Tables private to this test process: Kalah 3 pits, levels 0..12, built
// on first use and removed when the process ends.
const std::string& tables_path() {
  static const TempDir dir{"mancala_conventions_tables"};  // also removes a dead process's
  static const std::string path = dir.path().string();
  return path;
}
const std::string& kalah_tables() {
  static const bool built = [] {
    const RunResult r =
        run_mancala({"build", "--game", "kalah", "--pits", "3", "--max-seeds", "12", "--out", tables_path(), "--quiet"}, 60s);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return true;
  }();
  (void)built;
  return tables_path();
}

// "mancala X.Y.Z (commit <12 hex digits>[+dirty])\n", or "(commit unknown)".
bool is_version_line(const std::string& line) {
  const std::string head = "mancala ";
  if (line.rfind(head, 0) != 0 || line.empty() || line.back() != '\n') return false;
  const std::size_t space = line.find(' ', head.size());
  if (space == std::string::npos) return false;
  const std::string version = line.substr(head.size(), space - head.size());
  int dots = 0;
  for (const char c : version) {
    if (c == '.') ++dots;
    else if (c < '0' || c > '9') return false;
  }
  if (dots != 2) return false;
  const std::string rest = line.substr(space);
  const std::string open = " (commit ";
  if (rest.rfind(open, 0) != 0 || rest.substr(rest.size() - 2) != ")\n") return false;
  std::string commit = rest.substr(open.size(), rest.size() - open.size() - 2);
  if (commit == "unknown") return true;
  if (commit.size() > 6 && commit.substr(commit.size() - 6) == "+dirty") commit.resize(commit.size() - 6);
  return commit.size() == 12 && commit.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string version_line() {
  const RunResult r = run_mancala({"--version"});
  expect_success(r);
  return r.out;
}

// ---------------------------------------------------------------------------
// Versions and help
// ---------------------------------------------------------------------------

TEST(Version, PrintsVersionAndCommit) {
  const std::string line = version_line();
  EXPECT_TRUE(is_version_line(line)) << line;
  const RunResult v = run_mancala({"-V"});
  EXPECT_EQ(v.out, line);
}

TEST(Version, EveryJsonObjectCarriesTheVersion) {
  const std::string line = version_line();
  const std::string version = line.substr(8, line.find(' ', 8) - 8);
  for (const Args& args : {Args{"show"}, Args{"solve", "--pits", "3", "--seeds", "2", "--tt-mb", "4"},
                           Args{"perft", "--depth", "2"}, Args{"bench", "--set", "quick", "--tt-mb", "4"}}) {
    const json j = run_json(args);
    EXPECT_EQ(j.value("version", ""), version) << j.dump();
    EXPECT_TRUE(j.contains("schema_version") && j["schema_version"].is_number_integer()) << j.dump();
    EXPECT_TRUE(j.contains("commit")) << j.dump();
  }
}

TEST(Help, HelpCommandIsTheCommandsHelp) {
  for (const std::string cmd : {"solve", "probe", "play", "build"}) {
    const RunResult a = run_mancala({"help", cmd});
    const RunResult b = run_mancala({cmd, "--help"});
    expect_success(a);
    EXPECT_EQ(a.out, b.out) << cmd;
    EXPECT_EQ(a.out.rfind("Usage: mancala " + cmd, 0), 0u) << a.out;
  }
  expect_user_error(run_mancala({"help", "frobnicate"}), {"unknown command", "frobnicate"});
  expect_user_error(run_mancala({"help", "solve", "probe"}), {"help takes one command"});
}

TEST(Help, TopLevelHelpListsTheExitStatuses) {
  const RunResult r = run_mancala({"--help"});
  expect_success(r);
  for (const std::string status : {"  0 ", "  1 ", "  2 ", "  3 ", "  4 "}) EXPECT_TRUE(mentions(r.out, status)) << status;
}

// ---------------------------------------------------------------------------
// --moves: the position after the moves, as apply computes it
// ---------------------------------------------------------------------------

std::string applied(const Args& start, const std::string& moves) {
  const RunResult r = run_mancala(cat(cat({"apply"}, start), {"--moves", moves}));
  expect_success(r);
  return lines_of(r.out).empty() ? "" : lines_of(r.out).front();
}

TEST(Moves, ShowSolveAnalyzeProbeActOnThePositionAfterTheMoves) {
  const Args start = {"--pits", "3", "--seeds", "2"};
  for (const std::string moves : {"1", "2,1", "3,1,2"}) {
    const std::string after = applied(start, moves);
    ASSERT_FALSE(after.empty());
    const Args with_moves = cat(start, {"--moves", moves});
    EXPECT_EQ(run_json(cat({"show"}, with_moves))["position"], after) << moves;
    const json solved_after = run_json({"solve", "--position", after, "--tt-mb", "4"});
    const json solved = run_json(cat(cat({"solve"}, with_moves), {"--tt-mb", "4"}));
    EXPECT_EQ(solved["position"], after);
    EXPECT_EQ(solved["value"], solved_after["value"]) << moves;
    const json analyzed = run_json(cat(cat({"analyze"}, with_moves), {"--tt-mb", "4"}));
    EXPECT_EQ(analyzed["position"], after);
    EXPECT_EQ(analyzed["value"], solved_after["value"]);
    const json probed = run_json(cat(cat({"probe", "--tables", kalah_tables()}, with_moves), {}));
    EXPECT_EQ(probed["position"], after);
    EXPECT_EQ(probed["value"], solved_after["value"]) << moves;
  }
}

TEST(Moves, AnIllegalMoveIsNamedWithItsPlace) {
  // South's 1 (2 seeds: no extra turn), North's 1, then South's emptied 1.
  expect_user_error(run_mancala({"show", "--pits", "3", "--seeds", "2", "--moves", "1,1,1"}), {"move 3 of --moves"});
  expect_user_error(run_mancala({"solve", "--pits", "3", "--seeds", "2", "--moves", "9"}), {"move 1 of --moves"});
  expect_user_error(run_mancala({"analyze", "--pits", "3", "--seeds", "2", "--moves", "1,,2"}), {"malformed move list"});
  expect_user_error(run_mancala({"show", "--pits", "3", "--seeds", "2", "--moves", "-1"}), {"malformed move list"});
}

// ---------------------------------------------------------------------------
// probe: the ruleset from the tables, and batch probing from stdin
// ---------------------------------------------------------------------------

TEST(Probe, ReadsTheRulesetFromTheTables) {
  const json j = run_json({"probe", "--tables", kalah_tables(), "--position", "1,2,0/0,1,2 3-4 n"});
  EXPECT_EQ(j["ruleset"], "kalah");
  const json s = run_json({"solve", "--position", "1,2,0/0,1,2 3-4 n", "--tt-mb", "4"});
  EXPECT_EQ(j["value"], s["value"]);
  EXPECT_EQ(j["best_move"], s["best_move"]);
  expect_user_error(run_mancala({"probe", "--tables", kalah_tables(), "--game", "oware", "--position", "1,2,0/0,1,2 3-4 n"}),
                    {"built for ruleset 'kalah'", "oware"});
  expect_user_error(
      run_mancala({"probe", "--tables", kalah_tables(), "--empty-capture", "--position", "1,2,0/0,1,2 3-4 n"}),
      {"kalah+empty-capture"});
  expect_user_error(run_mancala({"probe", "--tables", kalah_tables(), "--position", "1,2/0,1 3-4 n"}), {"pits a side"});
}

TEST(Probe, BatchFromStdinWritesOneJsonLineEach) {
  const std::vector<std::string> positions = {"1,2,0/0,1,2 3-4 n", "2,2,2/2,0,0 0-0 s", "0,0,0/1,1,0 5-5 s",
                                              "0,0,0/0,0,0 6-6 s", "1,1,1/1,1,1 0-2 n"};
  std::string input = "# a comment, then the positions\n\n";
  for (const auto& p : positions) input += p + "\n";
  const RunResult r = run_mancala_input({"probe", "--tables", kalah_tables()}, input);
  expect_success(r);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), positions.size()) << describe(r);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const json got = json::parse(lines[i]);
    const json one = run_json({"probe", "--tables", kalah_tables(), "--position", positions[i]});
    EXPECT_EQ(got["position"], positions[i]);
    EXPECT_EQ(got["value"], one["value"]) << positions[i];
    EXPECT_EQ(got["best_move"], one["best_move"]) << positions[i];
    EXPECT_EQ(got["moves"], one["moves"]) << positions[i];
    EXPECT_EQ(got["ruleset"], one["ruleset"]) << positions[i];  // once missing from the lines
    ASSERT_TRUE(got["ruleset"].is_string());
    const json solved = run_json({"solve", "--position", positions[i], "--tt-mb", "4"});
    EXPECT_EQ(got["value"], solved["value"]) << positions[i];
  }
}

TEST(Probe, ANulByteInALineKeepsTheWholeMessage) {
  const RunResult r = run_mancala_input({"probe", "--tables", kalah_tables()}, std::string("1,2,0/0,1,2\0 3-4 n\n", 19));
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(r.exit_code, 2);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u);
  const std::string error = json::parse(lines[0])["error"].get<std::string>();
  EXPECT_TRUE(mentions(error, "3-4 n")) << error;  // the text after the NUL, and the reason after it
  EXPECT_TRUE(mentions(error, "malformed position")) << error;
  EXPECT_EQ(lines_of(r.err).size(), 1u);
  EXPECT_TRUE(mentions(r.err, "3-4 n")) << r.err;
}

TEST(Probe, BatchReportsBadLinesAndGoesOn) {
  const std::string input = "1,2,0/0,1,2 3-4 n\nnot a position\n9,9,9/9,9,9 0-0 s\n2,2,2/2,0,0 0-0 s\n";
  const RunResult r = run_mancala_input({"probe", "--tables", kalah_tables()}, input);
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(r.exit_code, 2);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(json::parse(lines[0]).contains("value"));
  EXPECT_EQ(json::parse(lines[1])["line"], 2);
  EXPECT_TRUE(json::parse(lines[1]).contains("error"));
  EXPECT_TRUE(mentions(json::parse(lines[2])["error"].get<std::string>(), "reach"));
  EXPECT_TRUE(json::parse(lines[3]).contains("value"));
  EXPECT_EQ(lines_of(r.err).size(), 1u);
  EXPECT_TRUE(mentions(r.err, "2 of the input lines")) << r.err;
}

// ---------------------------------------------------------------------------
// --threads and numbers
// ---------------------------------------------------------------------------

TEST(Threads, ZeroIsEveryCoreAndSlurmIsRespected) {
  const json all = run_json({"solve", "--pits", "3", "--seeds", "2", "--tt-mb", "4"});
  EXPECT_GE(all["threads"].get<int>(), 1);
  EXPECT_EQ(run_json({"solve", "--pits", "3", "--seeds", "2", "--tt-mb", "4", "--threads", "0"})["threads"], all["threads"]);
  ::setenv("SLURM_CPUS_PER_TASK", "3", 1);
  const json slurm = run_json({"solve", "--pits", "3", "--seeds", "2", "--tt-mb", "4"});
  const json opening = run_json({"opening", "--pits", "2", "--seeds", "2", "--tt-mb", "4"});
  ::unsetenv("SLURM_CPUS_PER_TASK");
  EXPECT_EQ(slurm["threads"], 3);
  EXPECT_EQ(opening["threads"], 3);
  EXPECT_EQ(run_json({"solve", "--pits", "3", "--seeds", "2", "--tt-mb", "4", "--threads", "2"})["threads"], 2);
}

TEST(Threads, TheBuildRecordsItsThreadsAndCommit) {
  const TempDir work{"mancala_conventions_build"};
  const std::string dir = work.path().string();
  const RunResult r = run_mancala({"build", "--pits", "2", "--max-seeds", "3", "--out", dir, "--threads", "1", "--quiet"});
  expect_success(r);
  std::ifstream in(dir + "/build_times.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "ruleset,pits_per_side,level,positions,seconds,passes,threads,commit");
  const std::string line = version_line();
  const std::string commit = line.substr(line.find("(commit ") + 8, line.find(')') - line.find("(commit ") - 8);
  // ruleset, pits, level 0, 1 position, seconds, 1 pass, 1 thread, commit
  std::vector<std::string> fields;
  std::istringstream cells(row);
  for (std::string f; std::getline(cells, f, ',');) fields.push_back(f);
  ASSERT_EQ(fields.size(), 8u) << row;
  EXPECT_EQ(fields[0] + "," + fields[1] + "," + fields[2] + "," + fields[3], "kalah,2,0,1") << row;
  EXPECT_GE(std::stod(fields[4]), 0.0) << row;
  EXPECT_EQ(fields[5] + "," + fields[6] + "," + fields[7], "1,1," + commit) << row;
}

TEST(Numbers, NegativeAndAbsurdNumbersAreRefused) {
  const Args small = {"--pits", "3", "--seeds", "2"};
  expect_user_error(run_mancala(cat({"solve", "--tt-mb", "-5"}, small)), {"--tt-mb", "-5"});
  expect_user_error(run_mancala(cat({"solve", "--threads", "-1"}, small)), {"--threads", "-1"});
  expect_user_error(run_mancala(cat({"solve", "--threads", "5000"}, small)), {"--threads", "5000"});
  expect_user_error(run_mancala(cat({"solve", "--time-limit", "-1"}, small)), {"--time-limit"});
  expect_user_error(run_mancala(cat({"solve", "--time-limit", "0"}, small)), {"--time-limit"});
  expect_user_error(run_mancala(cat({"solve", "--time-limit", "nan"}, small)), {"--time-limit"});
  expect_user_error(run_mancala(cat({"solve", "--time-limit", "1e300"}, small)), {"--time-limit", "got 1e+300"});  // not 300 digits
  expect_user_error(run_mancala(cat({"solve", "--time-limit", "soon"}, small)), {"--time-limit"});
  expect_user_error(run_mancala({"build", "--pits", "2", "--max-seeds", "-3", "--out", "x"}), {"--max-seeds"});
  expect_user_error(run_mancala({"build", "--pits", "2", "--max-seeds", "3", "--out", "x", "--threads", "-2"}), {"--threads"});
  expect_user_error(run_mancala(cat({"play", "--tt-mb", "-5"}, small)), {"--tt-mb"});
  expect_user_error(run_mancala(cat({"opening", "--threads", "-4", "--game", "congkak"}, small)), {"--threads"});
}

// ---------------------------------------------------------------------------
// Stopping a solve: what it prints is proven
// ---------------------------------------------------------------------------

TEST(SolveStop, BoundsAfterSomeTestsHoldTheValue) {
  // A board whose value is far from the first guess takes several tests.
  const std::vector<std::pair<Args, int>> boards = {{{"--pits", "4", "--seeds", "4"}, 32},
                                                    {{"--pits", "5", "--seeds", "3"}, 30},
                                                    {{"--game", "oware", "--pits", "3", "--seeds", "3"}, 18}};
  for (const auto& [board, seeds] : boards) {
    const json exact = run_json(cat(cat({"solve"}, board), {"--tt-mb", "16", "--threads", "1"}), 60s);
    const int value = exact["value"];
    const int tests = exact["tests"];
    for (int after = 0; after < tests; ++after) {
      const RunResult r = run_mancala(
          cat(cat({"solve"}, board), {"--tt-mb", "16", "--threads", "1", "--json", "--test-stop-after-tests", std::to_string(after)}),
          60s);
      SCOPED_TRACE(describe(r));
      ASSERT_EQ(r.exit_code, 4) << "a stopped solve exits with status 4";
      const json j = json::parse(r.out);
      EXPECT_EQ(j["complete"], false);
      EXPECT_EQ(j["stopped_by"], "test stop");
      EXPECT_LE(j["lower"].get<int>(), value);
      EXPECT_GE(j["upper"].get<int>(), value);
      // Each finished test narrowed the bounds from [-seeds, seeds].
      if (after > 0) {
        EXPECT_LT(j["upper"].get<int>() - j["lower"].get<int>(), 2 * seeds);
      }
      if (j["value"].is_number()) {
        EXPECT_EQ(j["value"], value);
      }
      if (j["best_move_proven"].get<bool>()) {
        EXPECT_EQ(j["pv"].front(), j["best_move"]);
      }
    }
  }
}

TEST(SolveStop, ATimeLimitStopsALongSolve) {
  // Kalah(6,4) takes many seconds; a 0.3 s limit ends it with its bounds.
  const RunResult r = run_mancala({"solve", "--tt-mb", "64", "--threads", "1", "--time-limit", "0.3", "--json"}, 20s);
  SCOPED_TRACE(describe(r));
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 4);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["stopped_by"], "time limit");
  EXPECT_LE(j["lower"].get<int>(), 48);
  EXPECT_GE(j["upper"].get<int>(), -48);
  const RunResult text = run_mancala({"analyze", "--pits", "6", "--seeds", "4", "--tt-mb", "64", "--threads", "1", "--time-limit", "0.3"}, 20s);
  EXPECT_EQ(text.exit_code, 4) << describe(text);
  EXPECT_TRUE(mentions(text.out, "stopped by time limit")) << describe(text);
}

// ---------------------------------------------------------------------------
// play
// ---------------------------------------------------------------------------

std::vector<json> events(const RunResult& r) {
  std::vector<json> out;
  for (const auto& line : lines_of(r.out)) out.push_back(json::parse(line, nullptr, false));
  return out;
}

TEST(Play, TheEngineAgainstItselfEndsWithTheSolvedValue) {
  for (const Args& board : {Args{"--pits", "3", "--seeds", "3"}, Args{"--pits", "4", "--seeds", "2", "--empty-capture"},
                            Args{"--game", "oware", "--pits", "3", "--seeds", "2"}, Args{"--game", "congkak", "--pits", "3", "--seeds", "2"}}) {
    const json solved = run_json(cat(cat({"solve"}, board), {"--tt-mb", "16"}));
    const RunResult r = run_mancala(cat(cat({"play", "--side", "none", "--json", "--tt-mb", "16"}, board), {}), 60s);
    expect_success(r);
    const auto ev = events(r);
    ASSERT_FALSE(ev.empty());
    const json& end = ev.back();
    EXPECT_EQ(end["event"], "end") << describe(r);
    // South starts, so the value of the start is South's.
    EXPECT_EQ(end["south_minus_north"], solved["value"]) << describe(r);
    for (const json& e : ev) EXPECT_TRUE(e.contains("version")) << e.dump();
  }
}

TEST(Play, AScriptedGameWithHintUndoAndQuit) {
  const RunResult r = run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--json", "--tt-mb", "4"}, "hint\n1\nundo\n3\nquit\n");
  expect_success(r);
  const auto ev = events(r);
  std::vector<std::string> kinds;
  for (const json& e : ev)
    if (e.contains("event")) kinds.push_back(e["event"]);
  ASSERT_FALSE(ev.empty());
  // The first object is the start position; hint gives every legal move.
  EXPECT_EQ(ev.front()["position"], "2,2,2/2,2,2 0-0 s");
  auto hint = std::find_if(ev.begin(), ev.end(), [](const json& e) { return e.value("event", "") == "hint"; });
  ASSERT_NE(hint, ev.end());
  EXPECT_EQ((*hint)["moves"].size(), 3u);
  const json analyzed = run_json({"analyze", "--pits", "3", "--seeds", "2", "--tt-mb", "4"});
  EXPECT_EQ((*hint)["moves"], analyzed["moves"]);
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "undo"), kinds.end());
  EXPECT_EQ(kinds.back(), "quit");
  // After undo the human's 3 is played from the start again.
  auto undo = std::find_if(ev.begin(), ev.end(), [](const json& e) { return e.value("event", "") == "undo"; });
  EXPECT_EQ((*undo)["position"], "2,2,2/2,2,2 0-0 s");
}

// A session that has printed the game so far: exit status 2 and one error
// line naming the problem (stdout holds the game up to there).
void expect_session_error(const RunResult& r, const std::string& keyword) {
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines_of(r.err).size(), 1u);
  EXPECT_EQ(r.err.rfind("mancala: error: ", 0), 0u);
  EXPECT_TRUE(mentions(r.err, keyword)) << keyword;
}

// A NUL byte in a scripted line: the message keeps its reason (a C string
// would end at the NUL, leaving "mancala: error: '").
TEST(Play, ANulByteInAScriptKeepsTheReason) {
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, std::string("\0\n", 2)),
                       "not a pit number");
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, std::string("1\0x\n", 4)),
                       "not a pit number");
}

TEST(Play, AnIllegalMoveFromAScriptIsBadInput) {
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, "7\n"), "7");
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, "resign\n"), "resign");
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, "undo\n"), "nothing to undo");
  // South's 1, the engine's reply, then South's emptied 1 again.
  expect_session_error(run_mancala_input({"play", "--pits", "3", "--seeds", "2", "--tt-mb", "4"}, "1\n1\n"), "empty");
  expect_user_error(run_mancala({"play", "--pits", "3", "--seeds", "2", "--side", "east"}), {"--side", "east"});
}

TEST(Play, TheEngineAsSouthMovesFirstAndEndOfInputLeavesTheGame) {
  const RunResult r = run_mancala({"play", "--pits", "3", "--seeds", "2", "--side", "n", "--json", "--tt-mb", "4"});
  expect_success(r);
  const auto ev = events(r);
  ASSERT_GE(ev.size(), 3u);
  auto move = std::find_if(ev.begin(), ev.end(), [](const json& e) { return e.value("event", "") == "move"; });
  ASSERT_NE(move, ev.end());
  EXPECT_EQ((*move)["by"], "engine");
  EXPECT_EQ((*move)["side"], "south");
  EXPECT_EQ(ev.back()["event"], "unfinished");
}

}  // namespace
