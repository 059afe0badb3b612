// The options and output helpers shared by the subcommands that run the
// exact solver (solve, analyze, bench, opening, match).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"

namespace mancala::cli {

// --threads, --tt-mb, --tables, --level-tables, --deepening, --move-order, --quiet, and
// with `with_time_limit` --time-limit (solve_stop.hpp).
void add_solver_options(po::options_description& desc, bool with_time_limit = false);
// --tt-mb, range-checked.
std::size_t tt_megabytes(const po::variables_map& vm);
// The SolveOptions of those options, without --tables.
solver::SolveOptions solver_options(const po::variables_map& vm);
// The same with --tables opened into `tables` (which must outlive the
// options) for the game's ruleset and board width.
solver::SolveOptions solver_options(const po::variables_map& vm, const GameSetup& g,
                                    std::optional<solver::DirectoryTables>& tables);

// "win", "loss" or "draw" for the player a value belongs to.
const char* result_name(int value);
std::string join(const std::vector<int>& v);

}  // namespace mancala::cli
