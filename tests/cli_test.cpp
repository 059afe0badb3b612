// Tests of the `mancala` command line: they run the real binary (MANCALA_BIN)
// through the harness of cli_harness.hpp and check its output, its exit
// status and the error contract stated there.
//
// Adding a subcommand: add a row to commands() below (its name, the arguments
// a minimal valid call needs, the keys of its --json object).  The per-command
// tests (help, --json, error routing) then cover it, and
// CliTopLevel.EveryCommandInTheUsageHasARowInTheCommandTable fails until the
// row exists.  Its own content tests and bad-input cases go into new TESTs and
// into user_error_cases().
#include <algorithm>
#include <filesystem>
#include <set>

#include "cli_harness.hpp"
#include "temp_dir.hpp"
#include "mancala/engine.hpp"
#include "mancala/notation.hpp"

namespace {

using namespace cli_harness;

// The harness itself: a process that does not finish is killed and reported.
TEST(CliHarness, TimeoutKillsAHungProcess) {
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = run_mancala({"perft", "--depth", "60"}, 300ms);  // would run for ages
  EXPECT_TRUE(r.timed_out) << describe(r);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
}

TEST(CliHarness, ArgumentsArePassedExactly) {
  // One argument holding spaces and quotes reaches the program unsplit.
  const RunResult r = run_mancala({"show", "--game", "it's \"kalah\""});
  expect_user_error(r, {"it's \"kalah\""});
}

// ---------------------------------------------------------------------------
// The subcommands
// ---------------------------------------------------------------------------

struct CommandSpec {
  std::string name;
  Args required;                       // arguments of a minimal valid call (keep it fast)
  std::vector<std::string> json_keys;  // keys its --json object must have
  bool game_options = true;            // takes --game/--position/--pits/--seeds/...
  std::string given_position_key = "position";  // --json key that echoes --position
  Args small_board = {};  // added when no --position is given (keeps solver calls fast)
  Args setup = {};        // a mancala command run first (e.g. building the tables it reads)
  bool output_is_json_lines = false;  // its plain output is JSON lines too (batch)
  // --json prints one object an event (play), the first one echoing the
  // position: the tests read that first object.
  bool json_events = false;
};

// The command's --json object, or with json_events its first event.
json command_json(const CommandSpec& c, Args args) {
  if (!c.json_events) return run_json(args);
  args.push_back("--json");
  const RunResult r = run_mancala(args, 60s);
  expect_success(r);
  const auto lines = lines_of(r.out);
  EXPECT_FALSE(lines.empty()) << describe(r);
  for (const auto& line : lines) EXPECT_TRUE(json::parse(line, nullptr, false).is_object()) << line;
  return lines.empty() ? json::object() : json::parse(lines.front(), nullptr, false);
}

// A table directory private to this test process.
// (TempDir: removed at exit, and at start if a dead process of the same id
// left one.)
const std::string& cli_tables() {
  static const TempDir dir{"mancala_cli_tables"};
  static const std::string path = dir.path().string();
  return path;
}
const Args kBuildCliTables = {"build", "--game", "oware", "--pits", "2", "--max-seeds", "4", "--out", cli_tables(), "--quiet"};

// A one-command batch manifest private to this test process (written on
// first use), and an empty one.
std::string write_temp_file(const std::string& stem, const std::string& content) {
  const std::string path = (std::filesystem::temp_directory_path() / (stem + std::to_string(::getpid()))).string();
  FILE* f = std::fopen(path.c_str(), "w");
  if (f) {
    std::fputs(content.c_str(), f);
    std::fclose(f);
  }
  return path;
}
const std::string& cli_manifest() {
  static const std::string path = write_temp_file("mancala_cli_manifest_", "# one command\nshow --pits 3 --seeds 2\n");
  return path;
}
const std::string& cli_empty_manifest() {
  static const std::string path = write_temp_file("mancala_cli_empty_manifest_", "# nothing but a comment\n\n");
  return path;
}
struct RemoveCliManifests {
  // Creating the paths first makes them outlive this object (statics are
  // destroyed in reverse order of construction).
  RemoveCliManifests() {
    cli_manifest();
    cli_empty_manifest();
  }
  ~RemoveCliManifests() {
    std::filesystem::remove(cli_manifest());
    std::filesystem::remove(cli_empty_manifest());
  }
} remove_cli_manifests;

const std::vector<CommandSpec>& commands() {
  static const std::vector<CommandSpec> table{
      {"show", {}, {"position", "game", "ruleset", "pits_per_side", "to_move", "south", "north", "terminal", "legal_moves"}},
      {"moves", {}, {"position", "ruleset", "moves"}},
      {"apply", {"--moves", "3"}, {"position", "start", "played", "terminal", "legal_moves", "ruleset"}, true, "start"},
      {"perft", {"--depth", "1"}, {"position", "ruleset", "depth", "counts"}},
      {"solve", {"--tt-mb", "16"}, {"value", "result", "best_move", "pv", "nodes", "seconds", "test_log"}, true, "position", {"--pits", "3", "--seeds", "2"}},
      {"analyze", {"--tt-mb", "16"}, {"position", "moves", "value", "nodes", "seconds"}, true, "position", {"--pits", "3", "--seeds", "2"}},
      {"bench", {"--tt-mb", "16", "--set", "quick"}, {"signature", "nodes", "seconds", "cases"}, false},
      {"build", {"--game", "oware", "--pits", "2", "--max-seeds", "4", "--out", cli_tables(), "--quiet"},
       {"ruleset", "pits_per_side", "max_seeds", "positions", "levels"}, false},
      {"probe", {"--tables", cli_tables(), "--game", "oware", "--position", "1,1/0,2 3-1 s"},
       {"position", "value", "best_move", "moves"}, false, "position", {}, kBuildCliTables},
      {"verify", {cli_tables(), "--quiet"}, {"ok", "ruleset", "max_seeds"}, false, "position", {}, kBuildCliTables},
      {"info", {cli_tables()}, {"ruleset", "levels"}, false, "position", {}, kBuildCliTables},
      {"convert", {cli_tables(), "--quiet"}, {"ruleset", "compression", "bytes", "bits_per_position", "levels"}, false, "position", {},
       kBuildCliTables},
      {"opening", {"--tt-mb", "16"},
       {"board", "ruleset", "value", "value_exact", "matrix", "south_strategy", "north_strategy", "saddle_point",
        "sequential_value", "opening_states", "simultaneous_decisions", "positions_solved", "nodes", "seconds"},
       true, "board", {"--pits", "3", "--seeds", "2"}},
      {"match", {"--pits", "2", "--seeds", "2"},
       {"ruleset", "value", "value_exact", "states", "line", "line_end", "passes", "nodes", "seconds"}, false},
      // --all: the manifest's one command even when the tests run in a Slurm array task.
      {"play", {"--side", "none", "--tt-mb", "16"},
       {"position", "ruleset", "to_move", "legal_moves", "version", "schema_version"}, true, "position",
       {"--pits", "3", "--seeds", "2"}, {}, false, true},
      {"batch", {"--manifest", cli_manifest(), "--all"},
       {"command", "line", "index", "exit_status", "commit", "host", "threads", "seconds", "peak_rss_mib", "started",
        "position", "legal_moves"},
       false, "position", {}, {}, true},
  };
  return table;
}

std::string param_name(const testing::TestParamInfo<CommandSpec>& info) { return info.param.name; }

void PrintTo(const CommandSpec& c, std::ostream* os) { *os << c.name; }

const std::string kKalahStart = "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s";

// ---------------------------------------------------------------------------
// 1. Top level and help
// ---------------------------------------------------------------------------

TEST(CliTopLevel, HelpPrintsUsageListingEveryCommand) {
  for (const std::string flag : {"--help", "-h", "help"}) {
    const RunResult r = run_mancala({flag});
    expect_success(r);
    SCOPED_TRACE(describe(r));
    EXPECT_EQ(r.out.rfind("Usage: mancala", 0), 0u);
    for (const auto& c : commands()) EXPECT_TRUE(mentions(r.out, "  " + c.name + " ")) << c.name << " is not listed";
  }
}

TEST(CliTopLevel, EveryCommandInTheUsageHasARowInTheCommandTable) {
  const RunResult r = run_mancala({"--help"});
  expect_success(r);
  std::set<std::string> listed;
  bool in_commands = false;
  for (const auto& line : lines_of(r.out)) {
    if (line == "Commands:") {
      in_commands = true;
    } else if (line.empty()) {
      in_commands = false;  // the exit statuses follow
    } else if (in_commands && line.rfind("  ", 0) == 0) {
      std::istringstream words(line);
      std::string name;
      words >> name;
      listed.insert(name);
    }
  }
  EXPECT_FALSE(listed.empty()) << describe(r);
  std::set<std::string> known;
  for (const auto& c : commands()) known.insert(c.name);
  for (const auto& name : listed) EXPECT_TRUE(known.count(name)) << "add a row for '" << name << "' to commands()";
  for (const auto& name : known) EXPECT_TRUE(listed.count(name)) << "'" << name << "' is not in the usage";
}

TEST(CliTopLevel, NoArgumentsExitsWithStatus2) {
  const RunResult r = run_mancala({});
  SCOPED_TRACE(describe(r));
  ASSERT_TRUE(ended_normally(r));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "") << "the usage goes to stderr when no command is given";
  EXPECT_FALSE(r.err.empty());
}

TEST(CliTopLevel, UnknownCommandIsOneErrorLine) { expect_user_error(run_mancala({"frobnicate"}), {"unknown command", "frobnicate"}); }

TEST(CliTopLevel, UnknownCommandWithNewlineIsOneErrorLine) {
  expect_user_error(run_mancala({"frob\nnicate"}), {"unknown command"});
}

TEST(CliTopLevel, OptionInsteadOfCommandIsOneErrorLine) { expect_user_error(run_mancala({"--json"}), {"--json"}); }

// ---------------------------------------------------------------------------
// Per-command tests: help, --json shape, error routing
// ---------------------------------------------------------------------------

class CliCommand : public testing::TestWithParam<CommandSpec> {};

TEST_P(CliCommand, HelpPrintsUsageOnStdout) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  for (const std::string flag : {"--help", "-h"}) {
    const RunResult r = run_mancala({c.name, flag});  // --help works without the required options
    expect_success(r);
    SCOPED_TRACE(describe(r));
    EXPECT_EQ(r.out.rfind("Usage: mancala " + c.name, 0), 0u);
    EXPECT_TRUE(mentions(r.out, "--json"));
    for (const auto& arg : c.required) {
      if (arg.rfind("--", 0) == 0) {
        EXPECT_TRUE(mentions(r.out, arg)) << arg;
      }
    }
    if (c.game_options) {
      for (const char* opt : {"--game", "--position", "--pits", "--seeds", "--empty-capture", "--grand-slam", "--capture"})
        EXPECT_TRUE(mentions(r.out, opt)) << opt;
    }
  }
}

TEST_P(CliCommand, HelpWinsOverOtherOptions) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  const RunResult r = run_mancala(cat({c.name}, {"--json", "--help"}));
  expect_success(r);
  EXPECT_EQ(r.out.rfind("Usage: mancala " + c.name, 0), 0u) << describe(r);
}

TEST_P(CliCommand, PlainOutputSucceeds) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  const RunResult r = run_mancala(cat(cat({c.name}, c.required), c.small_board));
  expect_success(r);
  if (c.output_is_json_lines)
    EXPECT_TRUE(json::parse(r.out, nullptr, false).is_object()) << "output is a JSON line\n" << describe(r);
  else
    EXPECT_NE(r.out.front(), '{') << "plain output is not JSON\n" << describe(r);
}

TEST_P(CliCommand, JsonIsOneObjectWithTheExpectedKeys) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  const json j = command_json(c, cat(cat({c.name}, c.required), c.small_board));
  for (const auto& key : c.json_keys) EXPECT_TRUE(j.contains(key)) << c.name << " --json lacks '" << key << "': " << j.dump();
  for (const std::string key : {"version", "schema_version", "commit"})
    EXPECT_TRUE(j.contains(key)) << c.name << " --json lacks '" << key << "': " << j.dump();
}

TEST_P(CliCommand, RejectsUnknownOption) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  expect_user_error(run_mancala(cat(cat({c.name}, c.required), {"--no-such-option"})), {"--no-such-option"});
}

TEST_P(CliCommand, RejectsStrayPositionalArgument) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  expect_user_error(run_mancala(cat(cat({c.name}, c.required), {"stray"})), {"positional|stray"});
}

TEST_P(CliCommand, RejectsBadPositionAlsoWithJson) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  if (!c.game_options) GTEST_SKIP() << "no game options";
  const Args bad = {"--position", "4,4,4,4,4,4/4,4,4,4,4 0-0 s"};
  expect_user_error(run_mancala(cat(cat({c.name}, c.required), bad)), {"different lengths"});
  expect_user_error(run_mancala(cat(cat(cat({c.name}, c.required), bad), {"--json"})), {"different lengths"});
}

TEST_P(CliCommand, RejectsUnknownGame) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  if (!c.game_options) GTEST_SKIP() << "no game options";
  expect_user_error(run_mancala(cat(cat({c.name}, c.required), {"--game", "chess"})), {"unknown game", "chess"});
}

TEST_P(CliCommand, RejectsBadBoardSize) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  if (!c.game_options) GTEST_SKIP() << "no game options";
  expect_user_error(run_mancala(cat(cat({c.name}, c.required), {"--pits", "17"})), {"pits", "16"});
}

TEST_P(CliCommand, NorthToMovePositionRoundTrips) {
  const CommandSpec& c = GetParam();
  if (!c.setup.empty()) run_mancala(c.setup);
  if (!c.game_options) GTEST_SKIP() << "no game options";
  const std::string north = "1,2,3/3,2,1 3-4 n";
  const json j = command_json(c, cat(cat({c.name}, c.required), {"--position", north}));
  EXPECT_EQ(j.value(c.given_position_key, std::string()), north) << j.dump();
}

INSTANTIATE_TEST_SUITE_P(Commands, CliCommand, testing::ValuesIn(commands()), param_name);

// ---------------------------------------------------------------------------
// 2. Output content
// ---------------------------------------------------------------------------

TEST(CliShow, PlainDrawsTheStartPosition) {
  const RunResult r = run_mancala({"show"});
  expect_success(r);
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(first_line(r.out), kKalahStart);
  EXPECT_TRUE(mentions(r.out, "South to move"));
  EXPECT_FALSE(mentions(r.out, "game over"));
}

TEST(CliShow, PlainReportsAFinishedGame) {
  const RunResult r = run_mancala({"show", "--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"});
  expect_success(r);
  EXPECT_TRUE(mentions(r.out, "game over")) << describe(r);
}

TEST(CliShow, JsonOfKalahStart) {
  const json j = run_json({"show"});
  EXPECT_EQ(j.value("position", ""), kKalahStart);
  EXPECT_EQ(j.value("game", ""), "kalah");
  EXPECT_EQ(j.value("ruleset", ""), "kalah");
  EXPECT_EQ(j.value("pits_per_side", 0), 6);
  EXPECT_EQ(j.value("to_move", ""), "s");
  EXPECT_EQ(j.value("terminal", true), false);
  EXPECT_EQ(j.value("legal_moves", json()), json({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(j.value("south", json()), json({{"pits", {4, 4, 4, 4, 4, 4}}, {"store", 0}}));
  EXPECT_EQ(j.value("north", json()), json({{"pits", {4, 4, 4, 4, 4, 4}}, {"store", 0}}));
}

TEST(CliShow, JsonOfATerminalPositionHasNoMoves) {
  const json j = run_json({"show", "--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"});
  EXPECT_EQ(j.value("terminal", false), true);
  EXPECT_EQ(j.value("legal_moves", json()), json::array());
}

TEST(CliShow, PitsAndSeedsBuildTheStartPosition) {
  const json j = run_json({"show", "--pits", "3", "--seeds", "5"});
  EXPECT_EQ(j.value("position", ""), "5,5,5/5,5,5 0-0 s");
  EXPECT_EQ(j.value("pits_per_side", 0), 3);
}

TEST(CliShow, LimitsAreAccepted) {
  // 16 pits a side and 255 seeds in total are inside the engine's limits.
  const json a = run_json({"show", "--pits", "16", "--seeds", "7"});
  EXPECT_EQ(a.value("pits_per_side", 0), 16);
  const json b = run_json({"show", "--position", "200,0,0,0,0,0/0,0,0,0,0,0 55-0 s"});
  EXPECT_EQ(b.value("position", ""), "200,0,0,0,0,0/0,0,0,0,0,0 55-0 s");
  const json c = run_json({"show", "--pits", "1", "--seeds", "0"});
  EXPECT_EQ(c.value("position", ""), "0/0 0-0 s");
}

TEST(CliShow, RulesetDigests) {
  EXPECT_EQ(run_json({"show", "--empty-capture"}).value("ruleset", ""), "kalah+empty-capture");
  EXPECT_EQ(run_json({"show", "--game", "brainking"}).value("ruleset", ""), "brainking");
  EXPECT_EQ(run_json({"show", "--game", "oware"}).value("ruleset", ""), "oware");
  EXPECT_EQ(run_json({"show", "--game", "oware", "--grand-slam", "forbidden"}).value("ruleset", ""),
            "oware+grand-slam=forbidden");
  EXPECT_EQ(run_json({"show", "--game", "oware", "--grand-slam", "capture-all"}).value("ruleset", ""),
            "oware+grand-slam=capture-all");
  EXPECT_EQ(run_json({"show", "--game", "congkak", "--capture", "needs-opposite"}).value("ruleset", ""),
            "congkak+capture=needs-opposite");
}

TEST(CliShow, OwareJsonReportsDecided) {
  const json start = run_json({"show", "--game", "oware"});
  ASSERT_TRUE(start.contains("decided")) << start.dump();
  EXPECT_TRUE(start["decided"].is_null());
  // South's store holds 25 of 48 seeds: more than half.
  const json won = run_json({"show", "--game", "oware", "--position", "1,0,0,0,0,1/1,0,0,0,0,0 25-20 s"});
  EXPECT_EQ(won.value("decided", json()), "south");
}

TEST(CliShow, CongkakDefaultBoardAndBurntHoles) {
  const json start = run_json({"show", "--game", "congkak"});
  EXPECT_EQ(start.value("position", ""), "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0 s");
  const std::string burnt = "x,7,7,7,7,7,7/7,7,7,7,7,7,x 0-0 s";
  const json j = run_json({"show", "--game", "congkak", "--position", burnt});
  EXPECT_EQ(j.value("position", ""), burnt);
  EXPECT_EQ(j.value("legal_moves", json()), json({2, 3, 4, 5, 6, 7}));
  ASSERT_TRUE(j.contains("south") && j["south"].contains("pits")) << j.dump();
  EXPECT_EQ(j["south"]["pits"][0], "x");
  EXPECT_EQ(j["north"]["pits"][6], "x");
}

TEST(CliMoves, PlainListsEveryMoveOfTheStart) {
  const RunResult r = run_mancala({"moves"});
  expect_success(r);
  SCOPED_TRACE(describe(r));
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "1  0,5,5,5,5,4/4,4,4,4,4,4 0-0 n");
  EXPECT_EQ(lines[2], "3  4,4,0,5,5,5/4,4,4,4,4,4 1-0 s  extra turn");
}

TEST(CliMoves, JsonListsEveryMoveOfTheStart) {
  const json j = run_json({"moves"});
  EXPECT_EQ(j.value("position", ""), kKalahStart);
  ASSERT_TRUE(j.contains("moves") && j["moves"].is_array()) << j.dump();
  ASSERT_EQ(j["moves"].size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(j["moves"][i].value("move", 0), i + 1);
    EXPECT_TRUE(j["moves"][i].contains("position"));
  }
  EXPECT_EQ(j["moves"][0].value("position", ""), "0,5,5,5,5,4/4,4,4,4,4,4 0-0 n");
  EXPECT_EQ(j["moves"][0].value("extra_turn", true), false);
  EXPECT_EQ(j["moves"][2].value("position", ""), "4,4,0,5,5,5/4,4,4,4,4,4 1-0 s");
  EXPECT_EQ(j["moves"][2].value("extra_turn", false), true);
}

TEST(CliMoves, FinishedGameHasNoMoves) {
  const RunResult r = run_mancala({"moves", "--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"});
  expect_success(r);
  EXPECT_TRUE(mentions(r.out, "no legal moves")) << describe(r);
  const json j = run_json({"moves", "--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"});
  EXPECT_EQ(j.value("moves", json()), json::array());
}

TEST(CliMoves, OwareForbiddenGrandSlamIsNotListed) {
  // South pit 6 (1 seed) would make North's only seed a 2 and take it: a grand slam.
  const std::string p = "1,0,0,0,0,1/1,0,0,0,0,0 20-25 s";
  const json allowed = run_json({"moves", "--game", "oware", "--position", p});
  ASSERT_EQ(allowed.value("moves", json()).size(), 2u) << allowed.dump();
  const json forbidden = run_json({"moves", "--game", "oware", "--grand-slam", "forbidden", "--position", p});
  ASSERT_EQ(forbidden.value("moves", json()).size(), 1u) << forbidden.dump();
  EXPECT_EQ(forbidden["moves"][0].value("move", 0), 1);
  EXPECT_EQ(forbidden["moves"][0].value("position", ""), "0,1,0,0,0,1/1,0,0,0,0,0 20-25 n");
}

TEST(CliApply, ExtraTurnFromKalahStart) {
  const RunResult r = run_mancala({"apply", "--moves", "3"});
  expect_success(r);
  EXPECT_EQ(first_line(r.out), "4,4,0,5,5,5/4,4,4,4,4,4 1-0 s") << describe(r);

  const json j = run_json({"apply", "--moves", "3"});
  EXPECT_EQ(j.value("position", ""), "4,4,0,5,5,5/4,4,4,4,4,4 1-0 s");
  EXPECT_EQ(j.value("start", ""), kKalahStart);
  EXPECT_EQ(j.value("to_move", ""), "s");
  EXPECT_EQ(j.value("legal_moves", json()), json({1, 2, 4, 5, 6}));
  ASSERT_EQ(j.value("played", json()).size(), 1u) << j.dump();
  EXPECT_EQ(j["played"][0].value("move", 0), 3);
  EXPECT_EQ(j["played"][0].value("outcome", ""), "extra turn");
}

TEST(CliApply, MoveListPlaysInOrder) {
  // After 3 (extra turn) South plays 1: four seeds into pits 2..5.
  const RunResult r = run_mancala({"apply", "--moves", "3,1"});
  expect_success(r);
  EXPECT_EQ(first_line(r.out), "0,5,1,6,6,5/4,4,4,4,4,4 1-0 n") << describe(r);
}

TEST(CliApply, NorthMovesFromItsOwnRow) {
  const RunResult r = run_mancala({"apply", "--position", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 n", "--moves", "3"});
  expect_success(r);
  EXPECT_EQ(first_line(r.out), "4,4,4,4,4,4/4,4,0,5,5,5 0-1 n") << describe(r);
}

TEST(CliApply, KalahCaptureAndEmptyCaptureOption) {
  // South pit 1 (1 seed) ends in empty pit 2, which faces North pit 5.
  const RunResult cap = run_mancala({"apply", "--position", "1,0,4,4,4,4/4,4,4,4,4,4 0-0 s", "--moves", "1"});
  expect_success(cap);
  EXPECT_EQ(first_line(cap.out), "0,0,4,4,4,4/4,4,4,4,0,4 5-0 n") << describe(cap);

  // North pit 5 is empty: standard Kalah does not capture, --empty-capture does.
  const std::string p = "1,0,4,4,4,4/4,4,4,4,0,4 0-0 s";
  const RunResult standard = run_mancala({"apply", "--position", p, "--moves", "1"});
  expect_success(standard);
  EXPECT_EQ(first_line(standard.out), "0,1,4,4,4,4/4,4,4,4,0,4 0-0 n") << describe(standard);
  const RunResult empty = run_mancala({"apply", "--empty-capture", "--position", p, "--moves", "1"});
  expect_success(empty);
  EXPECT_EQ(first_line(empty.out), "0,0,4,4,4,4/4,4,4,4,0,4 1-0 n") << describe(empty);
}

TEST(CliApply, GameEndingMoveSweepsAndSaysGameOver) {
  const RunResult r = run_mancala({"apply", "--position", "0,0,0,0,0,1/1,0,0,0,0,0 10-10 s", "--moves", "6"});
  expect_success(r);
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(first_line(r.out), "0,0,0,0,0,0/0,0,0,0,0,0 11-11 n");
  EXPECT_TRUE(mentions(r.out, "game over"));
  const json j = run_json({"apply", "--position", "0,0,0,0,0,1/1,0,0,0,0,0 10-10 s", "--moves", "6"});
  EXPECT_EQ(j.value("terminal", false), true);
  EXPECT_EQ(j["played"][0].value("outcome", ""), "game over");
}

TEST(CliApply, OwareGrandSlamRules) {
  const std::string p = "1,0,0,0,0,1/1,0,0,0,0,0 20-25 s";
  // no-capture (default): the grand slam is played but takes nothing.
  const RunResult none = run_mancala({"apply", "--game", "oware", "--position", p, "--moves", "6"});
  expect_success(none);
  EXPECT_EQ(first_line(none.out), "1,0,0,0,0,0/2,0,0,0,0,0 20-25 n") << describe(none);
  // capture-all: takes the 2; North then has no seeds and South's pit 1 is swept.
  const RunResult all =
      run_mancala({"apply", "--game", "oware", "--grand-slam", "capture-all", "--position", p, "--moves", "6"});
  expect_success(all);
  EXPECT_EQ(first_line(all.out), "0,0,0,0,0,0/0,0,0,0,0,0 23-25 n") << describe(all);
  // forbidden: the quiet move is still fine.
  const RunResult quiet =
      run_mancala({"apply", "--game", "oware", "--grand-slam", "forbidden", "--position", p, "--moves", "1"});
  expect_success(quiet);
  EXPECT_EQ(first_line(quiet.out), "0,1,0,0,0,1/1,0,0,0,0,0 20-25 n") << describe(quiet);
}

TEST(CliApply, OwareFeedingMoveIsLegal) {
  const RunResult r =
      run_mancala({"apply", "--game", "oware", "--position", "1,0,0,0,0,1/0,0,0,0,0,0 20-26 s", "--moves", "6"});
  expect_success(r);
  EXPECT_EQ(first_line(r.out), "1,0,0,0,0,0/1,0,0,0,0,0 20-26 n") << describe(r);
}

TEST(CliPerft, KalahStart) {
  const RunResult r = run_mancala({"perft", "--depth", "1"});
  expect_success(r);
  EXPECT_EQ(r.out, "depth 1: 6\n") << describe(r);

  const json j = run_json({"perft", "--depth", "1"});
  EXPECT_EQ(j.value("counts", json()), json({6}));
  EXPECT_EQ(j.value("depth", 0), 1);
  EXPECT_EQ(j.value("position", ""), kKalahStart);
  // Depth 2: 5 moves of South's extra turn after 3, 6 North replies to the other 5.
  EXPECT_EQ(run_json({"perft", "--depth", "2"}).value("counts", json()), json({6, 35}));
}

TEST(CliPerft, FinishedGameCountsNothing) {
  const json j = run_json({"perft", "--depth", "2", "--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"});
  EXPECT_EQ(j.value("counts", json()), json({0, 0}));
}

// The command line and the engine library agree (perft counts and move lists).
struct EngineCase {
  const char* name;
  Args options;
  mancala::Ruleset rules;
  mancala::Position start;
};

std::vector<EngineCase> engine_cases() {
  using mancala::Game;
  using mancala::GrandSlam;
  mancala::Ruleset kalah_empty{.game = Game::Kalah, .empty_capture = true};
  mancala::Ruleset oware_forbidden{.game = Game::Oware, .grand_slam = GrandSlam::Forbidden};
  mancala::Ruleset congkak_needs{.game = Game::Congkak, .congkak_capture = mancala::CongkakCapture::NeedsOpposite};
  return {
      {"kalah", {}, {}, mancala::start_position(6, 4)},
      {"kalah_empty_capture_4x3", {"--empty-capture", "--pits", "4", "--seeds", "3"}, kalah_empty, mancala::start_position(4, 3)},
      {"brainking", {"--game", "brainking"}, {.game = Game::BrainKing}, mancala::start_position(6, 4)},
      {"oware_forbidden_5x2", {"--game", "oware", "--grand-slam", "forbidden", "--pits", "5", "--seeds", "2"},
       oware_forbidden, mancala::start_position(5, 2)},
      {"congkak_needs_opposite_5x3", {"--game", "congkak", "--capture", "needs-opposite", "--pits", "5", "--seeds", "3"},
       congkak_needs, mancala::start_position(5, 3)},
  };
}

TEST(CliEngineAgreement, PerftCountsMatchTheLibrary) {
  for (const auto& c : engine_cases()) {
    SCOPED_TRACE(c.name);
    const int depth = 4;
    const json j = run_json(cat({"perft", "--depth", std::to_string(depth)}, c.options));
    const std::vector<std::uint64_t> expected = mancala::perft(c.rules, c.start, depth);
    EXPECT_EQ(j.value("counts", json()), json(expected));
    EXPECT_EQ(j.value("ruleset", ""), c.rules.digest());
  }
}

TEST(CliEngineAgreement, MoveListsMatchTheLibrary) {
  for (const auto& c : engine_cases()) {
    SCOPED_TRACE(c.name);
    const json j = run_json(cat({"moves"}, c.options));
    json expected = json::array();
    for (int pit = 1; pit <= c.start.m(); ++pit) {
      if (!((mancala::legal_moves(c.rules, c.start) >> (pit - 1)) & 1u)) continue;
      mancala::Position child = c.start;
      const mancala::MoveResult mr = mancala::apply_move(c.rules, child, pit);
      expected.push_back({{"move", pit},
                          {"position", mancala::format_position(child)},
                          {"extra_turn", mr.extra_turn},
                          {"game_over", mr.game_over}});
    }
    EXPECT_EQ(j.value("moves", json()), expected);
  }
}

// ---------------------------------------------------------------------------
// 3. Bad input: every case one named test
// ---------------------------------------------------------------------------

struct UserErrorCase {
  std::string name;                   // the test's name
  Args args;                          // the full argument vector
  std::vector<std::string> keywords;  // must all appear in the message ("a|b": either)
};

void PrintTo(const UserErrorCase& c, std::ostream* os) { *os << command_line(c.args); }

Args show(const std::string& position, const Args& extra = {}) { return cat({"show", "--position", position}, extra); }
Args apply(const std::string& moves, const Args& extra = {}) { return cat({"apply", "--moves", moves}, extra); }

std::string ones(int n) {
  std::string row;
  for (int i = 0; i < n; ++i) row += i ? ",1" : "1";
  return row;
}

std::vector<UserErrorCase> user_error_cases() {
  const std::string oware_feed = "1,0,0,0,0,1/0,0,0,0,0,0 20-26 s";  // North empty; only pit 6 reaches it
  const std::string oware_slam = "1,0,0,0,0,1/1,0,0,0,0,0 20-25 s";  // pit 6 takes North's only seed
  const std::string congkak_burnt = "x,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0 s";
  return {
      // --- malformed positions
      {"PositionEmpty", show(""), {"malformed position"}},
      {"PositionOnlyRows", show("4,4,4,4,4,4/4,4,4,4,4,4"), {"malformed position", "expected|missing"}},
      {"PositionMissingSide", show("4,4,4,4,4,4/4,4,4,4,4,4 0-0"), {"malformed position", "side to move"}},
      {"PositionExtraField", show("4,4,4,4,4,4/4,4,4,4,4,4 0-0 s s"), {"too many fields"}},
      {"PositionBadSideLetter", show("4,4,4,4,4,4/4,4,4,4,4,4 0-0 w"), {"side to move", "'w'"}},
      {"PositionUppercaseSideLetter", show("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"), {"side to move"}},
      {"PositionNonNumberPit", show("4,4,a,4,4,4/4,4,4,4,4,4 0-0 s"), {"south pit", "'a'", "not a number"}},
      {"PositionNonNumberNorthPit", show("4,4,4,4,4,4/4,4,4,4,4,b 0-0 s"), {"north pit", "'b'", "not a number"}},
      {"PositionNonNumberStore", show("4,4,4,4,4,4/4,4,4,4,4,4 0-y s"), {"north store", "'y'"}},
      {"PositionNegativePit", show("4,-4,4,4,4,4/4,4,4,4,4,4 8-0 s"), {"south pit", "'-4'"}},
      {"PositionNegativeStore", show("4,4,4,4,4,4/4,4,4,4,4,4 -1-0 s"), {"south store", "'-1'|negative|not a number"}},
      {"PositionLeadingZeroPit", show("04,4,4,4,4,4/4,4,4,4,4,4 0-0 s"), {"leading zero", "04"}},
      {"PositionLeadingZeroStore", show("4,4,4,4,4,4/4,4,4,4,4,4 00-0 s"), {"leading zero", "south store"}},
      {"PositionEmptyPitBetweenCommas", show("4,,4,4,4,4/4,4,4,4,4,4 0-0 s"), {"empty", "pit"}},
      {"PositionTrailingComma", show("4,4,4,4,4,4,/4,4,4,4,4,4 0-0 s"), {"empty", "pit"}},
      {"PositionMissingSlash", show("4,4,4,4,4,4,4,4,4,4,4,4 0-0 s"), {"rows", "/"}},
      {"PositionTwoSlashes", show("4,4,4/4,4,4/4,4,4 0-0 s"), {"rows", "/"}},
      {"PositionMissingDash", show("4,4,4,4,4,4/4,4,4,4,4,4 00 s"), {"stores", "-"}},
      {"PositionRowsOfDifferentLengths", show("4,4,4,4,4,4/4,4,4,4,4 0-0 s"), {"different lengths"}},
      {"Position17PitsASide", show(ones(17) + "/" + ones(17) + " 0-0 s"), {"17", "pits", "16"}},
      {"PositionPitCount256", show("256,0,0,0,0,0/0,0,0,0,0,0 0-0 s"), {"256", "255"}},
      {"PositionPitCount1000", show("1000,0,0,0,0,0/0,0,0,0,0,0 0-0 s"), {"1000", "255"}},
      {"PositionStoreCount256", show("0,0,0,0,0,1/0,0,0,0,0,0 256-0 s"), {"south store", "256", "255"}},
      {"PositionSeedsSumOver255", show("100,0,0,0,0,0/100,0,0,0,0,0 30-26 s"), {"256 seeds", "255"}},
      {"PositionBurntHoleInKalah", show("x,4,4,4,4,4/4,4,4,4,4,4 0-0 s"), {"burnt", "kalah"}},
      {"PositionBurntHoleInOware", show("4,4,4,4,4,4/4,4,x,4,4,4 0-0 s", {"--game", "oware"}), {"burnt", "oware"}},
      // User text echoed into the message must not break the one-line rule.
      {"PositionWithTrailingNewline", show(kKalahStart + "\n"), {"side to move"}},
      {"PositionErrorFromPerft", {"perft", "--depth", "1", "--position", "4,4,4,4,4,4/4,4,4,4,4,4 0-0 z"}, {"side to move"}},
      {"PositionErrorFromMoves", {"moves", "--position", "04,4,4,4,4,4/4,4,4,4,4,4 0-0 s"}, {"leading zero"}},

      // --- illegal moves
      {"MoveEmptyPitAfterExtraTurn", apply("3,3"), {"move 2|at move 2", "empty"}},
      {"MoveEmptyPit", apply("1", {"--position", "0,4,4,4,4,4/4,4,4,4,4,4 4-0 s"}), {"move 1", "empty"}},
      {"MovePit0", apply("0"), {"move 0", "out of range|range"}},
      {"MovePit7On6PitBoard", apply("7"), {"move 7", "out of range|range", "6"}},
      {"MovePit999", apply("999"), {"999", "out of range|range"}},
      {"MoveBurntPitInCongkak", apply("1", {"--game", "congkak", "--position", congkak_burnt}), {"burnt"}},
      // North pit 6 sows past burnt pit 7 into the store (extra turn), then tries pit 7.
      {"MoveBurntPitLaterInList", apply("6,7", {"--game", "congkak", "--position", "1,1,1,1,1,1,1/1,0,0,0,0,1,x 0-0 n"}),
       {"move 2", "pit 7", "burnt"}},
      {"MoveOwareNotFeeding", apply("1", {"--game", "oware", "--position", oware_feed}), {"move 1", "feed"}},
      {"MoveOwareGrandSlamForbidden", apply("6", {"--game", "oware", "--grand-slam", "forbidden", "--position", oware_slam}),
       {"move 6", "grand slam"}},
      {"MoveInFinishedKalahGame", apply("1", {"--position", "0,0,0,0,0,0/4,4,4,4,4,4 24-0 s"}), {"over"}},
      {"MoveAfterGameEndedInList", apply("6,1", {"--position", "0,0,0,0,0,1/1,0,0,0,0,0 10-10 s"}), {"move 2", "over"}},
      {"MoveInFinishedOwareGame", apply("1", {"--game", "oware", "--position", "1,0,0,0,0,0/0,0,0,0,0,0 20-27 s"}),
       {"over"}},
      {"MoveListDoubleComma", apply("3,,1"), {"move list"}},
      {"MoveListLetter", apply("a"), {"move list", "'a'"}},
      {"MoveListTrailingComma", apply("3,"), {"move list"}},
      {"MoveListNegative", apply("-3"), {"move list|-3"}},
      {"MoveListWithSpace", apply("3, 1"), {"move list"}},

      // --- unknown names, bad option values
      {"UnknownGame", {"show", "--game", "chess"}, {"unknown game", "chess"}},
      {"UnknownGameWithNewline", {"show", "--game", "chess\nx"}, {"unknown game"}},
      {"UnknownOption", {"show", "--frobnicate"}, {"--frobnicate"}},
      {"UnknownShortOption", {"show", "-q"}, {"-q"}},
      {"MissingOptionValue", {"show", "--game"}, {"--game", "missing|argument"}},
      {"RepeatedOption", {"show", "--game", "kalah", "--game", "oware"}, {"--game", "more than once|once"}},
      {"GrandSlamMaybe", {"show", "--game", "oware", "--grand-slam", "maybe"}, {"grand-slam", "maybe"}},
      {"CaptureSometimes", {"show", "--game", "congkak", "--capture", "sometimes"}, {"capture", "sometimes"}},
      {"Pits0", {"show", "--pits", "0"}, {"pits", "between 1 and 16|0"}},
      {"Pits17", {"show", "--pits", "17"}, {"pits", "16"}},
      {"PitsNegative", {"show", "--pits", "-3"}, {"pits", "-3"}},
      {"PitsAbc", {"show", "--pits", "abc"}, {"--pits", "abc"}},
      {"PitsWithNewline", {"show", "--pits", "6\n"}, {"--pits"}},
      {"PitsHuge", {"show", "--pits", "99999999999"}, {"--pits", "99999999999"}},
      {"SeedsNegative", {"show", "--seeds", "-1"}, {"seeds", "negative|-1"}},
      {"SeedsNegativeWithEquals", {"show", "--seeds=-1"}, {"seeds", "negative|-1"}},
      {"SeedsAbc", {"show", "--seeds", "abc"}, {"--seeds", "abc"}},
      {"BoardOver255Seeds", {"show", "--pits", "16", "--seeds", "8"}, {"256", "255"}},

      // --- options that do not go together
      {"EmptyCaptureWithOware", {"show", "--game", "oware", "--empty-capture"}, {"--empty-capture", "oware"}},
      {"EmptyCaptureWithCongkak", {"apply", "--moves", "1", "--game", "congkak", "--empty-capture"}, {"--empty-capture", "congkak"}},
      {"GrandSlamWithKalah", {"show", "--grand-slam", "forbidden"}, {"--grand-slam", "kalah"}},
      {"CaptureWithBrainKing", {"show", "--game", "brainking", "--capture", "always"}, {"--capture", "brainking"}},
      {"PositionWithPits", {"show", "--position", kKalahStart, "--pits", "6"}, {"--position", "--pits"}},
      {"PositionWithSeeds", {"moves", "--seeds", "4", "--position", kKalahStart}, {"--position", "--seeds"}},

      // --- required subcommand options
      {"ApplyWithoutMoves", {"apply"}, {"--moves"}},
      {"PerftWithoutDepth", {"perft"}, {"--depth"}},
      {"PerftDepth0", {"perft", "--depth", "0"}, {"depth", "at least 1|0"}},
      {"PerftDepthNegative", {"perft", "--depth", "-2"}, {"depth", "at least 1|-2"}},
      {"PerftDepthAbc", {"perft", "--depth", "abc"}, {"--depth", "abc"}},
      // Whole numbers in plain form only, as in the position notation.
      {"SolvePitsLeadingZero", {"solve", "--pits", "04"}, {"'04'", "--pits", "leading zeros"}},
      {"SolveSeedsPlusSign", {"solve", "--seeds", "+3"}, {"'+3'", "--seeds", "'+'"}},
      {"SolveThreadsMinusZero", {"solve", "--pits", "2", "--seeds", "1", "--threads", "-0"}, {"'-0'", "--threads"}},
      {"BuildMaxSeedsLeadingZero", {"build", "--pits", "3", "--max-seeds", "03", "--out", "never_written"}, {"'03'", "--max-seeds"}},
      {"PerftDepthPlusSign", {"perft", "--depth", "+2"}, {"'+2'", "--depth"}},

      // --- solver options
      {"SolveTtBeyondMemory", {"solve", "--pits", "2", "--seeds", "1", "--tt-mb", "100000000"}, {"transposition table", "memory"}},
      {"SolveTtZero", {"solve", "--pits", "2", "--seeds", "1", "--tt-mb", "0"}, {"--tt-mb"}},
      {"SolveThreadsNegative", {"solve", "--pits", "2", "--seeds", "1", "--threads", "-1"}, {"--threads"}},
      {"SolveDeepeningNegative", {"solve", "--pits", "2", "--seeds", "1", "--deepening", "-1"}, {"--deepening"}},
      {"SolveDeepeningTooDeep", {"solve", "--pits", "2", "--seeds", "1", "--deepening", "255"}, {"--deepening", "254"}},
      {"SolveMoveOrderTooFew", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,2,3"}, {"move order", "3 weights", "16"}},
      {"SolveMoveOrderTooMany", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"},
       {"move order", "more than 16"}},
      {"SolveMoveOrderLetter", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,1,1,1,1,1,1,1,1,1,1,x,1,1,1,1"},
       {"move order", "weight 12", "'x'"}},
      {"SolveMoveOrderEmptyField", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,1,1,1,1,1,,1,1,1,1,1,1,1,1,1"},
       {"move order", "weight 7"}},
      {"SolveMoveOrderEmpty", {"solve", "--pits", "2", "--seeds", "1", "--move-order", ""}, {"move order", "weight 1"}},
      {"SolveMoveOrderNegativeExtraTurn", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,1,1,1,-1,1,1,1,1,1,1,1,1,1,1,1"},
       {"level_cut.extra_turn", "-1", "[0, 65536]"}},
      {"SolveMoveOrderWeightTooLarge", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,4097,1"},
       {"behind_cut.per_seed_of_material", "4097", "[-4096, 4096]"}},
      {"SolveMoveOrderHuge", {"solve", "--pits", "2", "--seeds", "1", "--move-order", "99999999999,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"},
       {"move order", "weight 1", "99999999999"}},
      {"AnalyzeMoveOrderBad", {"analyze", "--pits", "2", "--seeds", "1", "--move-order", "tuned,"}, {"move order"}},

      // --- positions beyond the solver's reach
      // Oware 6x4 above only 8 levels of tables would meet the cycles of
      // levels 9..20 (and a line of 2000 plies within a second): refused
      // before any search, never guessed.
      {"OwareLineBeyondSearchReach", {"solve", "--game", "oware", "--pits", "6", "--seeds", "4", "--level-tables", "8", "--quiet"},
       {"--level-tables 8", "exponential", "at least 20"}},

      // --- batch: its own options (manifest line errors: tests/batch_test.sh)
      {"BatchWithoutManifest", {"batch"}, {"--manifest"}},
      {"BatchManifestMissing", {"batch", "--manifest", "/nonexistent/manifest.txt"}, {"/nonexistent/manifest.txt", "does not exist"}},
      {"BatchManifestIsADirectory", {"batch", "--manifest", std::filesystem::temp_directory_path().string()}, {"directory"}},
      {"BatchManifestWithoutCommands", {"batch", "--manifest", cli_empty_manifest()}, {"no commands"}},
      {"BatchIndexOutOfRange", {"batch", "--manifest", cli_manifest(), "--index", "1"}, {"--index", "out of range", "holds 1 command (0..0)"}},
      {"BatchIndexNegative", {"batch", "--manifest", cli_manifest(), "--index", "-1"}, {"--index", "-1", "not a command index"}},
      {"BatchIndexNotANumber", {"batch", "--manifest", cli_manifest(), "--index", "two"}, {"--index", "two"}},
      {"BatchIndexWithAll", {"batch", "--manifest", cli_manifest(), "--index", "0", "--all"}, {"--index", "--all"}},
      {"BatchTimeoutNegative", {"batch", "--manifest", cli_manifest(), "--timeout", "-1"}, {"--timeout"}},
      {"BatchOutUnwritable", {"batch", "--manifest", cli_manifest(), "--out", "/nonexistent/out.jsonl"}, {"--out", "/nonexistent/out.jsonl"}},
  };
}

std::string case_name(const testing::TestParamInfo<UserErrorCase>& info) { return info.param.name; }

class CliUserError : public testing::TestWithParam<UserErrorCase> {};

TEST_P(CliUserError, OneErrorLineExitStatus2) { expect_user_error(run_mancala(GetParam().args), GetParam().keywords); }

INSTANTIATE_TEST_SUITE_P(Cases, CliUserError, testing::ValuesIn(user_error_cases()), case_name);

// solve --search-stats: the counts in the JSON (their kinds add up to the
// nodes, the same nodes as without the option) and as lines of text; no
// counts without it.
TEST(CliSolve, SearchStatsAddUpToTheNodes) {
  const Args solve = {"solve", "--pits", "4", "--seeds", "3", "--tt-mb", "16", "--threads", "1"};
  const json plain = run_json(solve);
  EXPECT_FALSE(plain.contains("search_stats"));
  Args with = solve;
  with.push_back("--search-stats");
  const json counted = run_json(with);
  ASSERT_TRUE(counted.contains("search_stats")) << counted.dump();
  EXPECT_EQ(counted["nodes"], plain["nodes"]);
  EXPECT_EQ(counted["value"], plain["value"]);
  const json& s = counted["search_stats"];
  std::uint64_t sum = 0;
  for (const char* k : {"terminal", "from_tables", "horizon", "repetition", "settled_by_entry", "interior", "abandoned"})
    sum += s.at(k).get<std::uint64_t>();
  EXPECT_EQ(sum, counted["nodes"].get<std::uint64_t>());
  std::uint64_t by_seeds = 0;
  for (const json& n : s.at("interior_by_seeds")) by_seeds += n.get<std::uint64_t>();
  EXPECT_EQ(by_seeds, s.at("interior").get<std::uint64_t>());
  for (const char* k : {"expected_cut", "expected_cut_failed_high", "expected_cut_first_child", "expected_all_failed_high",
                        "with_entry_move", "entry_move_failed_high", "children_valued"})
    EXPECT_TRUE(s.contains(k)) << k;

  const RunResult text = run_mancala({"solve", "--pits", "4", "--seeds", "3", "--tt-mb", "16", "--search-stats"});
  expect_success(text);
  for (const char* line : {"nodes by kind", "expected cut", "expected all", "entry's move", "interior by seeds "})
    EXPECT_NE(text.out.find(line), std::string::npos) << line << "\n" << text.out;
  // The root (24 seeds) is an interior node, the last listed.
  EXPECT_NE(text.out.find(", 24:"), std::string::npos) << text.out;

  // A stopped solve (status 4) reports what it counted, in JSON and text.
  Args stopped = with;
  for (const char* a : {"--test-stop-after-tests", "1", "--json"}) stopped.push_back(a);
  const RunResult cut = run_mancala(stopped);
  EXPECT_EQ(cut.exit_code, 4) << describe(cut);
  const json partial = json::parse(cut.out, nullptr, false);
  ASSERT_TRUE(partial.is_object() && partial.contains("search_stats")) << cut.out;
  EXPECT_FALSE(partial["complete"].get<bool>());
  std::uint64_t partial_sum = 0;
  for (const char* k : {"terminal", "from_tables", "horizon", "repetition", "settled_by_entry", "interior", "abandoned"})
    partial_sum += partial["search_stats"].at(k).get<std::uint64_t>();
  EXPECT_EQ(partial_sum, partial["nodes"].get<std::uint64_t>());
  stopped.pop_back();
  const RunResult cut_text = run_mancala(stopped);
  EXPECT_EQ(cut_text.exit_code, 4) << describe(cut_text);
  EXPECT_NE(cut_text.out.find("nodes by kind"), std::string::npos) << cut_text.out;

  // A finished game searches no node: every count 0, no seeds listed.
  const RunResult over = run_mancala({"solve", "--position", "0,0/0,0 2-2 s", "--search-stats"});
  expect_success(over);
  EXPECT_NE(over.out.find("interior by seeds none\n"), std::string::npos) << over.out;
  const json none = run_json({"solve", "--position", "0,0/0,0 2-2 s", "--search-stats"});
  EXPECT_EQ(none["search_stats"]["interior"], 0);
  EXPECT_TRUE(none["search_stats"]["interior_by_seeds"].empty());
}

// solve --move-order: the JSON names the order searched (the ruleset's tuned
// one by default); that order given back as weights searches the same
// nodes (the worker that reads them is the compiled one's twin); another
// order finds the same value with other nodes.
TEST(CliSolve, MoveOrderIsReportedAndApplied) {
  for (const Args& game : {Args{"--empty-capture"}, Args{"--game", "brainking"}, Args{"--game", "kalah"}}) {
    Args solve = {"solve", "--pits", "4", "--seeds", "3", "--tt-mb", "16", "--threads", "1"};
    solve.insert(solve.end(), game.begin(), game.end());
    const json tuned = run_json(solve);
    const std::string order = tuned.at("move_order").get<std::string>();
    EXPECT_EQ(std::count(order.begin(), order.end(), ','), 15) << order;
    Args given = solve;
    for (const char* a : {"--move-order", order.c_str()}) given.push_back(a);
    const json same = run_json(given);
    EXPECT_EQ(same["move_order"], order);
    EXPECT_EQ(same["nodes"], tuned["nodes"]) << order;
    EXPECT_EQ(same["value"], tuned["value"]);
    Args flat = solve;
    for (const char* a : {"--move-order", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}) flat.push_back(a);
    const json other = run_json(flat);
    EXPECT_EQ(other["move_order"], "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    EXPECT_NE(other["nodes"], tuned["nodes"]) << order;
    EXPECT_EQ(other["value"], tuned["value"]);
  }
}

// Robustness: every proper prefix of a valid position is rejected cleanly.
TEST(CliRobustness, EveryPrefixOfAPositionIsRejectedCleanly) {
  const std::string full = "12,0,3/4,5,6 7-8 n";
  for (std::size_t n = 0; n < full.size(); ++n) {
    SCOPED_TRACE("prefix length " + std::to_string(n));
    expect_user_error(run_mancala(show(full.substr(0, n))), {"malformed position"});
  }
  expect_success(run_mancala(show(full)));
}

}  // namespace
