// Tests of the command-line contract (cli_harness.hpp) where an adversarial
// pass found it broken, a section each: option names matched by prefix,
// move lists with leading zeros, numeric options that wrap around or are
// refused without naming the option, analyze on a finished game, and SIGINT
// and SIGTERM.  Like cli_test.cpp they run the real binary (MANCALA_BIN);
// batch's manifest lines are covered by tests/batch_test.sh.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_harness.hpp"

namespace {

using namespace cli_harness;

const Args kSmallSolve = {"--pits", "2", "--seeds", "1", "--tt-mb", "16"};

// A private scratch directory, removed at the end.
struct ScratchDir {
  std::string path;
  explicit ScratchDir(const std::string& name)
      : path((std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string()) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
};

// For the options of build and batch: a table directory that is never
// written (every case is refused first) and a manifest of one command.
const ScratchDir& scratch() {
  static const ScratchDir dir("mancala_cli_contract");
  return dir;
}
std::string unused_tables() { return scratch().path + "/tables"; }
std::string manifest() {
  const std::string path = scratch().path + "/one.txt";
  std::ofstream(path) << "show --pits 2 --seeds 1\n";
  return path;
}

// ---------------------------------------------------------------------------
// Option names: full names only
// ---------------------------------------------------------------------------

// Boost.ProgramOptions takes a unique prefix for the option by default
// (--pit for --pits); the parser style turns that off for every command.
TEST(CliOptionNames, APrefixOfAnOptionNameIsAnUnknownOption) {
  expect_user_error(run_mancala({"show", "--pit", "3"}), {"--pit"});
  expect_user_error(run_mancala({"show", "--pits", "3", "--se", "1"}), {"--se"});
  expect_user_error(run_mancala(cat({"solve", "--js"}, kSmallSolve)), {"--js"});
  expect_user_error(run_mancala({"perft", "--dep", "1"}), {"--dep"});
  expect_user_error(run_mancala({"build", "--pits", "2", "--max", "2", "--out", unused_tables()}), {"--max"});
  expect_user_error(run_mancala({"bench", "--se", "quick"}), {"--se"});
  expect_user_error(run_mancala({"batch", "--man", manifest()}), {"--man"});
  // The full names still work, also with '='.
  EXPECT_EQ(run_json({"show", "--pits=3", "--seeds", "1"}).value("position", ""), "1,1,1/1,1,1 0-0 s");
}

// ---------------------------------------------------------------------------
// Move lists: no leading zeros
// ---------------------------------------------------------------------------

TEST(CliMoveList, LeadingZerosAreRefused) {
  expect_user_error(run_mancala({"apply", "--moves", "01"}), {"01", "leading zero"});
  expect_user_error(run_mancala({"apply", "--moves", "3,06"}), {"06", "leading zero"});
  expect_user_error(run_mancala({"apply", "--moves", "00"}), {"00", "leading zero"});
  // Without the zero the same list is fine.
  EXPECT_EQ(run_json({"apply", "--moves", "3,6"}).value("position", ""), "4,4,0,5,5,0/5,5,5,5,4,4 2-0 n");
}

// ---------------------------------------------------------------------------
// Numeric options: negative and absurd values are refused naming the option
// ---------------------------------------------------------------------------

struct NumericCase {
  Args args;
  std::string option;  // the message must name it
};

void expect_refused(const std::vector<NumericCase>& cases) {
  for (const NumericCase& c : cases) {
    SCOPED_TRACE(command_line(c.args));
    const RunResult r = run_mancala(c.args);
    expect_user_error(r, {c.option});
    // A negative number must not have wrapped around to 2^64 - 1.
    if (std::find(c.args.begin(), c.args.end(), "18446744073709551615") == c.args.end()) {
      EXPECT_FALSE(mentions(r.err, "18446744073709551615")) << describe(r);
    }
  }
}

TEST(CliNumericOptions, NegativeValuesAreRefusedNamingTheOption) {
  expect_refused({
      {{"solve", "--pits", "2", "--seeds", "1", "--tt-mb", "-1"}, "--tt-mb"},
      {{"analyze", "--pits", "2", "--seeds", "1", "--tt-mb", "-1"}, "--tt-mb"},
      {{"bench", "--tt-mb", "-1"}, "--tt-mb"},
      {cat({"solve", "--threads", "-1"}, kSmallSolve), "--threads"},
      {cat({"solve", "--level-tables", "-2"}, kSmallSolve), "--level-tables"},
      {cat({"solve", "--deepening", "-1"}, kSmallSolve), "--deepening"},
      {{"perft", "--depth", "-1"}, "--depth"},
      {{"show", "--pits", "-1"}, "--pits"},
      {{"show", "--seeds", "-1"}, "--seeds"},
      {{"build", "--pits", "2", "--max-seeds", "-1", "--out", unused_tables()}, "--max-seeds"},
      {{"build", "--pits", "2", "--max-seeds", "2", "--threads", "-1", "--out", unused_tables()}, "--threads"},
      {{"batch", "--manifest", manifest(), "--timeout", "-1"}, "--timeout"},
      {{"batch", "--manifest", manifest(), "--index", "-1"}, "--index"},
  });
}

TEST(CliNumericOptions, AbsurdValuesAreRefusedNamingTheOption) {
  expect_refused({
      {cat({"solve", "--tt-mb", "18446744073709551615"}, {"--pits", "2", "--seeds", "1"}), "--tt-mb"},
      {cat({"solve", "--tt-mb", "99999999999999"}, {"--pits", "2", "--seeds", "1"}), "--tt-mb"},
      {cat({"solve", "--threads", "100000"}, kSmallSolve), "--threads"},
      {cat({"solve", "--level-tables", "1000"}, kSmallSolve), "--level-tables"},
      {cat({"solve", "--deepening", "100000"}, kSmallSolve), "--deepening"},
      {{"perft", "--depth", "100000"}, "--depth"},
      {{"show", "--pits", "1000"}, "--pits"},
      {{"show", "--seeds", "1000"}, "--seeds"},
      {{"show", "--pits", "99999999999"}, "--pits"},
      {{"build", "--pits", "2", "--max-seeds", "100000", "--out", unused_tables()}, "--max-seeds"},
      {{"batch", "--manifest", manifest(), "--timeout", "1e12"}, "--timeout"},
      {{"batch", "--manifest", manifest(), "--index", "99999999999999"}, "--index"},
  });
}

// ---------------------------------------------------------------------------
// analyze on a finished game: solve's value, no moves
// ---------------------------------------------------------------------------

TEST(CliAnalyze, AFinishedGameHasSolvesValueAndNoMoves) {
  const std::vector<Args> finished = {
      {"--position", "0,0,0/0,0,0 3-1 s"},
      {"--position", "0,0,0/1,2,0 3-1 s"},  // the sweep gives North its row
      {"--game", "oware", "--position", "0,0,0,0,0,0/1,0,0,0,0,0 20-27 s"},
  };
  for (const Args& position : finished) {
    SCOPED_TRACE(command_line(position));
    const json solved = run_json(cat({"solve", "--tt-mb", "16"}, position));
    const json analyzed = run_json(cat({"analyze", "--tt-mb", "16"}, position));
    ASSERT_TRUE(solved.contains("value") && solved["value"].is_number_integer()) << solved.dump();
    EXPECT_EQ(analyzed.value("value", json()), solved["value"]) << analyzed.dump();
    EXPECT_EQ(analyzed.value("moves", json()), json::array()) << analyzed.dump();
  }
}

}  // namespace
