#include "solver_options.hpp"


namespace mancala::cli {

void add_solver_options(po::options_description& desc, bool with_time_limit) {
  add_threads_option(desc, "search threads (TBB)");
  if (with_time_limit)
    desc.add_options()("time-limit", po::value<double>(),
                       "stop after this many seconds (also on SIGINT or SIGTERM) and print what is proven, exit status 4");
  desc.add_options()
      ("tt-mb", po::value<long long>()->default_value(256), "transposition table size in MiB")
      ("tables", po::value<std::string>(), "endgame table directory (from mancala build) to probe")
      ("tables-in-memory", po::value<std::string>()->default_value("auto"),
       "copy the --tables levels the search reads into memory first: yes, no, or auto (when the position is above "
       "the tables and those levels take at most a quarter of the machine's memory, and 1 GiB or more or some are "
       "compressed)")
      ("level-tables", po::value<int>()->default_value(-1),
       "solve all boards with up to this many seeds by retrograde analysis first (-1: automatic)")
      ("deepening", po::value<int>()->default_value(solver::SolveOptions{}.deepening_depth),
       "iterative deepening up to this depth before the exact search, for move order and a first guess (0: none)")
      ("move-order", po::value<std::string>()->default_value("tuned"),
       "the search's move-order weights: tuned (the ruleset's own) or 16 comma-separated integers, for "
       "experiments with the order (values never change, nodes do; see scripts/tune_move_order.py)")
      ("quiet", po::bool_switch(), "no progress line on stderr");
}

// --tt-mb: signed, so that -1 is refused here instead of wrapping to 2^64-1;
// the upper bound only keeps the arithmetic sane, the solver then checks the
// size against the machine's memory.
constexpr long long kMaxTtMegabytes = 1LL << 30;  // 1 PiB
std::size_t tt_megabytes(const po::variables_map& vm) { return std::size_t(int_option(vm, "tt-mb", 1, kMaxTtMegabytes)); }

solver::SolveOptions solver_options(const po::variables_map& vm) {
  solver::SolveOptions o;
  o.threads = threads_option(vm);
  o.tt_megabytes = tt_megabytes(vm);
  o.level_table_seeds = int(int_option(vm, "level-tables", -1, 127));
  o.deepening_depth = vm["deepening"].as<int>();  // range checked by the Solver
  if (const std::string order = vm["move-order"].as<std::string>(); order != "tuned") o.move_order = solver::parse_move_order(order);
  return o;
}

solver::SolveOptions solver_options(const po::variables_map& vm, const GameSetup& g,
                                    std::optional<solver::DirectoryTables>& tables) {
  solver::SolveOptions o = solver_options(vm);
  const std::string in_memory_name = vm["tables-in-memory"].as<std::string>();
  const std::optional<solver::TablesInMemory> in_memory = solver::tables_in_memory_from(in_memory_name);
  if (!in_memory) throw InputError("--tables-in-memory must be yes, no or auto, got '" + in_memory_name + "'");
  if (vm.count("tables")) {
    tables.emplace(vm["tables"].as<std::string>(), g.rules, g.position.m());
    tables->prepare_for(g.position, *in_memory);
    o.tables = &*tables;
  }
  return o;
}

const char* result_name(int value) { return value > 0 ? "win" : value < 0 ? "loss" : "draw"; }

std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

}  // namespace mancala::cli
