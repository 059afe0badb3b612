// Shared pieces of the `mancala` command: option parsing, the game/position
// options every subcommand takes, and output helpers.
#pragma once

#include <boost/program_options.hpp>
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
  Position position;
};

// Adds --game (default `default_game`), the ruleset options, --position,
// --pits, --seeds.
void add_game_options(po::options_description& desc, const std::string& default_game = "kalah");
// Reads them back; throws InputError on a bad combination.
GameSetup game_setup(const po::variables_map& vm);

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

nlohmann::json position_json(const Ruleset& rules, const Position& p);
// 1-based pit numbers of a move mask.
std::vector<int> pit_numbers(MoveMask mask);

void print_json(const nlohmann::json& j);

}  // namespace mancala::cli
