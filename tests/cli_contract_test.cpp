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

// build has no start position: --seeds was once accepted and ignored.
TEST(CliBuild, SeedsIsRefusedNamingMaxSeeds) {
  expect_user_error(run_mancala({"build", "--pits", "2", "--max-seeds", "2", "--seeds", "1", "--out", unused_tables()}),
                    {"--seeds", "--max-seeds"});
  EXPECT_FALSE(std::filesystem::exists(unused_tables()));
}

// A command's help lists only the options it takes: build's and match's
// once listed --position (and build's --seeds), which they always refuse.
// Those are still parsed, so that the refusal names what to give instead.
TEST(CliHelp, BuildAndMatchDoNotListTheBoardOptionsTheyRefuse) {
  for (const Args& help : {Args{"build", "--help"}, Args{"match", "--help"}}) {
    const RunResult r = run_mancala(help);
    expect_success(r);
    EXPECT_NE(r.out.find("--pits"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("--position"), std::string::npos) << r.out;
    const bool lists_seeds = r.out.find("--seeds ") != std::string::npos;
    EXPECT_EQ(lists_seeds, help[0] == "match") << r.out;
  }
  expect_user_error(run_mancala({"build", "--position", "1,1/1,1 0-0 s", "--max-seeds", "2", "--out", unused_tables()}),
                    {"--position", "--pits"});
  expect_user_error(run_mancala({"match", "--position", "1,1/1,1 0-0 s"}), {"--position", "--pits"});
  EXPECT_FALSE(std::filesystem::exists(unused_tables()));
}

// A missing table directory is named as the synopsis names it (DIR); it
// once read "the option '--dir' is required but missing", an option no
// usage line shows.
TEST(CliTables, AMissingDirIsNamedAsInTheSynopsis) {
  for (const std::string command : {"verify", "info", "convert"}) {
    const RunResult r = run_mancala({command});
    expect_user_error(r, {"missing DIR", "table directory"});
    EXPECT_FALSE(mentions(r.err, "--dir")) << r.err;
  }
}

// An empty table directory name is named as such (it once read "table
// directory  does not exist"); --version takes nothing after it.
TEST(CliOptionValues, EmptyTablesAndVersionArgumentsAreRefused) {
  expect_user_error(run_mancala(cat({"solve", "--tables", ""}, kSmallSolve)), {"table directory", "empty"});
  expect_user_error(run_mancala({"info", ""}), {"table directory", "empty"});
  expect_user_error(run_mancala({"--version", "extra"}), {"--version", "extra"});
}

// A range error says what it was given, as the other options' do.
TEST(CliNumericOptions, RangeErrorsSayWhatWasGiven) {
  expect_user_error(run_mancala(cat({"solve", "--deepening", "100000"}, kSmallSolve)), {"--deepening", "got 100000"});
  expect_user_error(run_mancala({"build", "--pits", "2", "--max-seeds", "100000", "--out", unused_tables()}),
                    {"--max-seeds", "got 100000"});
}

// ---------------------------------------------------------------------------
// An output that cannot be written is an error, not a success
// ---------------------------------------------------------------------------

// stdout on a full device (/dev/full: every write fails with ENOSPC): the
// output is lost, so the command ends with status 2 and one line naming the
// failure, whatever it computed.  It once ended with 0 and nothing said.
TEST(CliOutput, AFullStdoutIsAnErrorNamingIt) {
  ASSERT_TRUE(std::filesystem::exists("/dev/full"));
  const ScratchDir dir("mancala_cli_full");
  const std::vector<Args> commands = {
      {"--version"},
      {"--help"},
      {"show", "--pits", "2", "--seeds", "1"},
      {"solve", "--pits", "2", "--seeds", "1", "--tt-mb", "4", "--json"},
      {"perft", "--pits", "2", "--seeds", "1", "--depth", "3", "--json"},
      {"build", "--pits", "2", "--max-seeds", "2", "--out", dir.path + "/t", "--json", "--quiet"},
      {"solve", "--help"},
  };
  for (const Args& args : commands) {
    const RunResult r = run_mancala(args, kDefaultTimeout, "/dev/null", "/dev/full");
    SCOPED_TRACE(describe(r));
    EXPECT_TRUE(ended_normally(r));
    EXPECT_EQ(r.exit_code, 2);
    ASSERT_EQ(lines_of(r.err).size(), 1u);
    EXPECT_EQ(r.err.rfind(kErrorPrefix, 0), 0u);
    EXPECT_TRUE(mentions(r.err, "cannot write the output")) << r.err;
  }
  // batch writes its records itself: the same status.
  const RunResult b = run_mancala({"batch", "--manifest", manifest(), "--index", "0"}, kDefaultTimeout, "/dev/null", "/dev/full");
  SCOPED_TRACE(describe(b));
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_TRUE(mentions(b.err, "cannot write the results")) << b.err;
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

// A finished game builds no level tables: its value is the sweep.  A board
// of 255 seeds once built levels up to 50 seeds first (seconds of work, for
// a position without a move).
TEST(CliAnalyze, AFinishedGameBuildsNoLevelTables) {
  const json solved = run_json({"solve", "--position", "255,0,0/0,0,0 0-0 s", "--tt-mb", "16"});
  EXPECT_EQ(solved.value("value", json()), 255) << solved.dump();
  EXPECT_EQ(solved.value("level_tables", json()), -1) << solved.dump();
}

// ---------------------------------------------------------------------------
// SIGINT and SIGTERM
// ---------------------------------------------------------------------------

// A solve that runs for minutes: Kalah(6,6) without endgame tables.
const Args kLongSolve = {"solve", "--game", "kalah", "--pits", "6", "--seeds", "6", "--level-tables", "0", "--tt-mb", "16"};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Started {
  pid_t pid = -1;
  std::string out_path, err_path;
};

// Starts MANCALA_BIN with stdout and stderr into files and SIGINT/SIGTERM at
// their default disposition (whatever the test runner ignores).
Started start_mancala(const Args& args, const ScratchDir& dir) {
  Started s;
  s.out_path = dir.path + "/stdout";
  s.err_path = dir.path + "/stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, s.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, s.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string program = MANCALA_BIN;
  std::vector<std::string> storage = args;
  std::vector<char*> argv{program.data()};
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = posix_spawn(&s.pid, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) s.pid = -1;
  return s;
}

bool still_running(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, WNOHANG) == 0;
}

// Waits up to `limit` for the process to end (then kills it) and returns
// what it did.
RunResult finish(const Started& s, const Args& args, std::chrono::milliseconds limit = 10s) {
  RunResult r;
  r.args = args;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const pid_t done = waitpid(s.pid, &status, WNOHANG);
    if (done == s.pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      kill(s.pid, SIGKILL);
      waitpid(s.pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(5ms);
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (!r.timed_out && WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  r.out = read_file(s.out_path);
  r.err = read_file(s.err_path);
  return r;
}

void expect_interrupted(const RunResult& r, int exit_code, const std::string& message) {
  SCOPED_TRACE(describe(r));
  EXPECT_FALSE(r.timed_out) << "the process did not end on the signal";
  EXPECT_EQ(r.term_signal, 0) << "the signal killed the process instead of being handled";
  EXPECT_EQ(r.exit_code, exit_code) << "exit status 128 + signal";
  EXPECT_EQ(r.out, "");
  // Without a terminal no progress line is drawn: the message is all.
  EXPECT_EQ(r.err, message);
  EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << "stderr ends with a newline";
}

// Any command but a solve: one line and 128 + signal.
void interrupt_long_run(const Args& args, int sig, int exit_code, const std::string& message) {
  ScratchDir dir("mancala_cli_interrupt");
  const Started s = start_mancala(args, dir);
  ASSERT_GT(s.pid, 0);
  std::this_thread::sleep_for(500ms);
  ASSERT_TRUE(still_running(s.pid)) << "the long run ended before the signal: " << read_file(s.err_path);
  kill(s.pid, sig);
  expect_interrupted(finish(s, args), exit_code, message);
}

const Args kLongPerft = {"perft", "--depth", "40"};

TEST(CliInterrupt, SigintEndsAPerftWithAMessageAndStatus130) {
  interrupt_long_run(kLongPerft, SIGINT, 130, "mancala: interrupted by SIGINT\n");
}

TEST(CliInterrupt, SigtermEndsAPerftWithAMessageAndStatus143) {
  interrupt_long_run(kLongPerft, SIGTERM, 143, "mancala: interrupted by SIGTERM\n");
}

// A solve stops instead and prints what it has proven, exit status 4
// (solve_stop.hpp; the bounds are checked in conventions_cli_test.cpp).
void stop_long_solve(int sig, const std::string& name) {
  ScratchDir dir("mancala_cli_interrupt");
  const Started s = start_mancala(kLongSolve, dir);
  ASSERT_GT(s.pid, 0);
  std::this_thread::sleep_for(500ms);
  ASSERT_TRUE(still_running(s.pid)) << "the long solve ended before the signal: " << read_file(s.err_path);
  kill(s.pid, sig);
  const RunResult r = finish(s, kLongSolve);
  SCOPED_TRACE(describe(r));
  EXPECT_FALSE(r.timed_out) << "the solve did not stop on the signal";
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_TRUE(mentions(r.out, "stopped    by " + name)) << r.out;
  EXPECT_TRUE(mentions(r.out, "(proven)")) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(CliInterrupt, SigintStopsASolveWhichPrintsWhatItProved) { stop_long_solve(SIGINT, "SIGINT"); }

TEST(CliInterrupt, SigtermStopsASolveWhichPrintsWhatItProved) { stop_long_solve(SIGTERM, "SIGTERM"); }

// The pids of a process's children (Linux /proc).
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> kids;
  std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
  for (pid_t kid; in >> kid;) kids.push_back(kid);
  return kids;
}

// Gone, or a zombie nobody has reaped yet.
bool process_gone(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (stat.empty()) return true;
  const auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && (stat[paren + 2] == 'Z' || stat[paren + 2] == 'X');
}

// batch passes the signal on to the command it is running: no solve is left
// running without its batch.
TEST(CliInterrupt, SigtermToBatchEndsItsRunningCommandToo) {
  ScratchDir dir("mancala_cli_interrupt_batch");
  const std::string manifest = dir.path + "/long.txt";
  {
    std::ofstream m(manifest);
    for (std::size_t i = 0; i < kLongSolve.size(); ++i) m << (i ? " " : "") << kLongSolve[i];
    m << "\n";
  }
  const Args args = {"batch", "--manifest", manifest};
  const Started s = start_mancala(args, dir);
  ASSERT_GT(s.pid, 0);
  std::vector<pid_t> kids;
  for (int i = 0; i < 500 && kids.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    kids = children_of(s.pid);
  }
  ASSERT_EQ(kids.size(), 1u) << "batch started no command";
  std::this_thread::sleep_for(300ms);
  ASSERT_TRUE(still_running(s.pid));
  kill(s.pid, SIGTERM);
  const RunResult r = finish(s, args);
  expect_interrupted(r, 143, "mancala: interrupted by SIGTERM\n");
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = process_gone(kids[0]);
    if (!gone) std::this_thread::sleep_for(10ms);
  }
  if (!gone) kill(kids[0], SIGKILL);  // do not leave it behind
  EXPECT_TRUE(gone) << "the command batch was running is still running";
}

}  // namespace
