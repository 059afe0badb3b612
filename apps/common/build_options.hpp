// The options of `mancala build`, shared with `mancala-mpi build`
// (apps/mancala-mpi/), so that both take and check exactly the same arguments.
#pragma once

#include <string>

#include "cli_common.hpp"
#include "mancala/tables/table_build.hpp"

namespace mancala::cli {

struct BuildOptions {
  GameSetup game;
  int max_seeds = 0;
  std::string out;
  int threads = 1;  // TBB threads (per process), resolved (threads_option)
  bool quiet = false;
  bool json = false;
  tables::LevelFormat format;  // --compression, --block-size, --zstd-level
  // Test-only, hidden from --help (README "Endgame tables"): end the process
  // as a kill would, once this run has written level K
  // (--test-stop-after-level K) or the first half of level K's .tmp
  // (--test-stop-mid-level K); -1: never.  Each is checked to lie in
  // 0..max_seeds, so that a stop the build can never reach is refused
  // instead of letting a test pass without having stopped anything.
  int test_stop_after_level = -1;
  int test_stop_mid_level = -1;
};

// Adds the game options, --max-seeds, --out, --threads, --quiet and the
// file format's options; --position and --seeds, which a build refuses, to
// `hidden` (parsed, not in the help).
void add_build_options(po::options_description& desc, po::options_description& hidden);
// Adds --compression, --block-size and --zstd-level (build and convert).
void add_format_options(po::options_description& desc);
// Reads them back; throws InputError for a bad value.
tables::LevelFormat read_format_options(const po::variables_map& vm);
// Adds --test-stop-after-level and --test-stop-mid-level, for parse_args()'s
// hidden options.
void add_build_test_options(po::options_description& hidden);
// Reads them back (the test options too, when they were added); throws
// InputError on a bad combination.
BuildOptions read_build_options(const po::variables_map& vm);

// What a test stop ends the process with: EX_TEMPFAIL, a status that no
// build otherwise exits with, so that a test can tell its stop from a crash.
inline constexpr int kTestStopStatus = 75;
// Hooks that end this process at the points `opt` asks for (none when it
// asks for none): one line on stderr, "<who>: test stop ...", then
// _exit(kTestStopStatus), which runs no destructor and flushes nothing, so
// that the build's files are left exactly as a SIGKILL there would leave
// them (the kernel closes the files and releases the build lock).
tables::BuildTestHooks test_stop_hooks(const BuildOptions& opt, const std::string& who);

inline const char* kBuildSynopsis =
    "--pits m --max-seeds K --out DIR [--game G] [ruleset options] [--compression none|packed|zstd] [--threads T] [--quiet] [--json]";

}  // namespace mancala::cli
