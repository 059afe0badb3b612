// Shared pieces of the `mancala` command: option parsing, the game/position
// options every subcommand takes, and output helpers.
#pragma once

#include <boost/program_options.hpp>
#include <tbb/global_control.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala::cli {

namespace po = boost::program_options;

// A subcommand's arguments after the subcommand name.
using Args = std::vector<std::string>;

// The game and position a subcommand works on.
struct GameSetup {
  Ruleset rules;
  Position position;         // after the --moves, if any
  Position start;            // as given, before them
  std::vector<int> moves;    // --moves, 1-based pits
};

// Adds --game (default `default_game`), the ruleset options, --position,
// --pits, --seeds, and with `with_moves` --moves (pits played from that
// position before the command acts).  --position and --seeds go to
// `unlisted` (parsed, not in the help) where `listed` says: a command that
// refuses one still parses it, so that its error names what to give instead.
struct ListedBoardOptions {
  bool position = true;
  bool seeds = true;
};
void add_game_options(po::options_description& desc, const std::string& default_game = "kalah", bool with_moves = false,
                      po::options_description* unlisted = nullptr, ListedBoardOptions listed = {});
// Reads them back; throws InputError on a bad combination or an illegal
// move of --moves (naming which).
GameSetup game_setup(const po::variables_map& vm);
// The ruleset alone, and whether any ruleset option was given (--game
// other than by default, or an option of a game): `probe` reads the
// ruleset from the tables and checks it against the options only then.
Ruleset ruleset_setup(const po::variables_map& vm);
bool ruleset_given(const po::variables_map& vm);
// The position and moves of the options, for `rules`.
GameSetup game_setup_for(const po::variables_map& vm, const Ruleset& rules);

// Parses `args` against `desc` (plus --help and --json, added here).  Returns
// false when --help was given (the help text has been printed, headed
// "Usage: <command> <synopsis>": `command` is the program and subcommand as
// typed, e.g. "mancala solve" or "mpirun -np N mancala-mpi build").  Options are
// matched by their full names only: no unique-prefix guessing, so that a typo
// such as --pit is an error instead of silently meaning --pits.  `hidden`
// options are parsed like the others but left out of the help text (the
// test-only options of build: build_options.hpp).
bool parse_args(const std::string& command, const std::string& synopsis, po::options_description& desc,
                const Args& args, po::variables_map& vm,
                const po::positional_options_description* positional = nullptr,
                const po::options_description* hidden = nullptr);

// The value of the integer option --NAME (declared as po::value<int> or
// po::value<long long>), checked to lie in [lo, hi]; throws InputError naming
// the option and the value otherwise.  Options that count something are
// declared signed, so that "-1" reaches this check instead of wrapping
// around to a huge unsigned value.
long long int_option(const po::variables_map& vm, const std::string& name, long long lo, long long hi);

// --threads, the same in every command that computes: 0 (the default) is
// every core this process may use, which is SLURM_CPUS_PER_TASK inside a
// Slurm task that sets it, else the CPUs of the process's affinity mask.
// Values never depend on it.
void add_threads_option(po::options_description& desc, const std::string& what);
// The resolved count (at least 1); throws InputError outside 0..1024.
int threads_option(const po::variables_map& vm);
// What 0 stands for.
int available_cpus();

// Lets TBB run `threads` threads of the solver even beyond the machine's
// cores (TBB's default cap is the core count: it would warn on stderr and
// run fewer).  Held by a command for as long as it computes; the only
// process-wide TBB setting, so it lives in the program, not the libraries.
class ThreadAllowance {
 public:
  explicit ThreadAllowance(int threads);
  ~ThreadAllowance();
  ThreadAllowance(const ThreadAllowance&) = delete;
  ThreadAllowance& operator=(const ThreadAllowance&) = delete;

 private:
  std::unique_ptr<tbb::global_control> control_;
};

// The non-negative number of seconds of the option --NAME (declared as
// po::value<double>), checked to lie in (0, hi]; throws InputError naming the
// option and the value otherwise (also for NaN and infinity).
double seconds_option(const po::variables_map& vm, const std::string& name, double hi);

nlohmann::json position_json(const Ruleset& rules, const Position& p);
// 1-based pit numbers of a move mask.
std::vector<int> pit_numbers(MoveMask mask);

// Every JSON object the commands print carries the toolkit's version and
// the layout's (mancala/version.hpp): "version", "commit", "schema_version".
void with_version(nlohmann::json& j);
// Prints j (with_version added) as one line on stdout.
void print_json(nlohmann::json j);

// Flushes stdout; what went wrong if the output could not be written (stdout
// on a full disk, say), else empty.  A program whose output is lost did not
// deliver it, whatever it found: mancala and mancala-mpi then exit 2 with
// this as their one line (README "Exit status").
std::string stdout_write_error();

// The number formats of human output, one for each kind of number:
// x with `digits` decimals (seconds: 3 in results, 0 in progress lines),
std::string fixed(double x, int digits);
// counts in progress lines, with an SI prefix: 950, 12.0k, 3.4M, 1.2G,
std::string human(double x);
// and durations in results: "12.345 s".
std::string seconds_text(double s);

}  // namespace mancala::cli
