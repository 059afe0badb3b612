// solve, analyze, bench: the subcommands that run the exact solver.
#include <chrono>
#include <optional>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"
#include "progress.hpp"
#include "solver_options.hpp"

namespace mancala::cli {

namespace {

const char* kSolveSynopsis =
    "[--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--threads T] [--tt-mb MB] [--quiet] [--json]";

// "value in [lo, hi], testing >= g, 12 tests, 3.4M nodes at 2.1M/s, 5 s, ~4 s left"
std::string solve_progress(const solver::Solver& s, double elapsed) {
  const solver::SolveStatus st = s.status();
  if (st.building_level >= 0)
    return "solve: building level table " + std::to_string(st.building_level) + " of " + std::to_string(st.top_level) +
           ", " + fixed(elapsed, 0) + " s";
  const double rate = elapsed > 0 ? double(st.nodes) / elapsed : 0;
  if (st.deepening >= 0)
    return "solve: deepening, depth " + std::to_string(st.deepening) + " of " + std::to_string(st.deepening_depth) +
           ", testing >= " + std::to_string(st.testing) + ", " + human(double(st.nodes)) + " nodes at " + human(rate) +
           "/s, " + fixed(elapsed, 0) + " s";
  const int range = std::max(1, st.upper - st.lower);
  const int left = int(std::ceil(std::log2(double(range) + 1)));
  std::string text = "solve: value in [" + std::to_string(st.lower) + ", " + std::to_string(st.upper) + "], testing >= " +
                     std::to_string(st.testing) + ", test " + std::to_string(st.tests) + " (about " +
                     std::to_string(left) + " left), " + human(double(st.nodes)) + " nodes at " + human(rate) +
                     "/s, " + fixed(elapsed, 0) + " s";
  if (st.tests > 1) text += ", ~" + fixed(elapsed / (st.tests - 1) * left, 0) + " s left";
  return text;
}

// Runs `work(solver)` with a progress line, for solve and analyze.
template <class Work>
auto with_progress(const po::variables_map& vm, solver::Solver& solver, Work work) {
  ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) { return solve_progress(solver, t); });
  return work(solver);
}

}  // namespace

int cmd_solve(const Args& args) {
  po::options_description desc("solve: exact value of a position under perfect play");
  add_game_options(desc);
  add_solver_options(desc);
  po::variables_map vm;
  if (!parse_args("mancala solve", kSolveSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  solver::SolveOptions options = solver_options(vm);
  std::optional<solver::DirectoryTables> tables;
  if (vm.count("tables")) {
    tables.emplace(vm["tables"].as<std::string>(), g.rules, g.position.m());
    options.tables = &*tables;
  }
  solver::Solver solver(g.rules, options);
  const solver::SolveResult r = with_progress(vm, solver, [&](solver::Solver& s) { return s.solve(g.position); });
  if (vm["json"].as<bool>()) {
    nlohmann::json log = nlohmann::json::array();
    for (const solver::TestRecord& t : r.test_log)
      log.push_back({{"at_least", t.at_least},
                     {"holds", t.holds},
                     {"bound", t.bound},
                     {"depth", t.depth == solver::kExactDepth ? nlohmann::json("exact") : nlohmann::json(t.depth)},
                     {"nodes", t.nodes},
                     {"seconds", t.seconds}});
    print_json({{"position", format_position(g.position)},
                {"ruleset", g.rules.digest()},
                {"value", r.value},
                {"result", result_name(r.value)},
                {"board_value", r.board_value},
                {"best_move", r.best_move ? nlohmann::json(r.best_move) : nlohmann::json(nullptr)},
                {"pv", r.pv},
                {"nodes", r.nodes},
                {"seconds", r.seconds},
                {"tests", r.tests},
                {"test_log", log},
                {"level_tables", r.level_tables},
                {"threads", options.threads},
                {"tt_mb", options.tt_megabytes}});
    return 0;
  }
  std::cout << "position   " << format_position(g.position) << "  (" << g.rules.digest() << ")\n"
            << "value      " << r.value << "  (" << result_name(r.value) << " for the player to move)\n"
            << "best move  " << (r.best_move ? std::to_string(r.best_move) : std::string("none: the game is over")) << "\n"
            << "pv         " << join(r.pv) << "\n"
            << "nodes      " << r.nodes << "\n"
            << "seconds    " << fixed(r.seconds, 3) << "\n";
  return 0;
}

int cmd_analyze(const Args& args) {
  po::options_description desc("analyze: exact value of every legal move");
  add_game_options(desc);
  add_solver_options(desc);
  po::variables_map vm;
  if (!parse_args("mancala analyze", kSolveSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  solver::Solver solver(g.rules, solver_options(vm));
  const auto t0 = std::chrono::steady_clock::now();
  const auto moves = with_progress(vm, solver, [&](solver::Solver& s) { return s.analyze(g.position); });
  // The position's value: its best move's.  A finished position has no moves;
  // its value is the one solve gives it (the final sweep of the rows), so
  // that analyze and solve never disagree on a value.
  const int value = moves.empty() ? solver.solve(g.position).value : moves.front().value;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (vm["json"].as<bool>()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& m : moves) list.push_back({{"move", m.move}, {"value", m.value}, {"result", result_name(m.value)}});
    print_json({{"position", format_position(g.position)},
                {"ruleset", g.rules.digest()},
                {"moves", list},
                {"value", value},
                {"nodes", solver.status().nodes},
                {"seconds", seconds}});
    return 0;
  }
  if (moves.empty())
    std::cout << "no legal moves: the game is over, value " << value << "  " << result_name(value) << "\n";
  for (const auto& m : moves) std::cout << "move " << m.move << "  value " << m.value << "  " << result_name(m.value) << "\n";
  return 0;
}

// The fixed position set of `mancala bench`: small enough to finish in a few
// seconds on one thread, varied enough to exercise every ruleset.
struct BenchCase {
  const char* set;  // "quick" cases are also in "standard"
  const char* game_digest;
  const char* position;
};
const BenchCase kBenchSet[] = {
    {"standard", "kalah", "4,4,4,4,4/4,4,4,4,4 0-0 s"},
    {"standard", "kalah+empty-capture", "4,4,4,4,4/4,4,4,4,4 0-0 s"},
    {"standard", "kalah", "3,3,3,3,3,3/3,3,3,3,3,3 0-0 s"},
    {"standard", "kalah", "3,3,3,3,3/3,3,3,3,3 0-0 s"},
    {"standard", "brainking", "3,3,3,3,3/3,3,3,3,3 0-0 s"},
    {"standard", "oware", "3,3,3/3,3,3 0-0 s"},
    {"quick", "kalah", "3,3,3,3/3,3,3,3 0-0 s"},
    {"quick", "kalah+empty-capture", "3,3,3,3/3,3,3,3 0-0 s"},
    {"quick", "brainking", "3,3,3,3/3,3,3,3 0-0 s"},
    {"quick", "oware", "2,2,2/2,2,2 0-0 s"},
    {"quick", "congkak", "3,3,3,3/3,3,3,3 0-0 s"},
    {"quick", "congkak+capture=needs-opposite", "3,3,3,3/3,3,3,3 0-0 s"},
};

int cmd_bench(const Args& args) {
  po::options_description desc("bench: solve a fixed position set on one thread; print a node-count signature");
  desc.add_options()
      ("tt-mb", po::value<long long>()->default_value(64), "transposition table size in MiB")
      ("set", po::value<std::string>()->default_value("standard"), "position set: quick (under a second) or standard");
  po::variables_map vm;
  if (!parse_args("mancala bench", "[--set quick|standard] [--tt-mb MB] [--json]", desc, args, vm)) return 0;
  const std::string set = vm["set"].as<std::string>();
  if (set != "quick" && set != "standard") throw InputError("unknown bench set '" + set + "' (expected quick or standard)");
  const bool json = vm["json"].as<bool>();
  const std::size_t tt = tt_megabytes(vm);
  nlohmann::json rows = nlohmann::json::array();
  std::uint64_t total_nodes = 0;
  double total_seconds = 0;
  for (const BenchCase& c : kBenchSet) {
    if (set == "quick" && std::string(c.set) != "quick") continue;  // "standard" runs both
    const Ruleset rules = parse_digest(c.game_digest);
    solver::SolveOptions o;
    o.threads = 1;
    o.tt_megabytes = tt;
    // Plain search, so that nodes/s measures the search; Oware needs its
    // level tables (its plain search is exponential in the cycles).
    o.level_table_seeds = rules.game == Game::Oware ? -1 : 0;
    solver::Solver solver(rules, o);  // a fresh table per case: counts do not depend on the order
    const solver::SolveResult r = solver.solve(parse_position(c.position));
    total_nodes += r.nodes;
    total_seconds += r.seconds;
    rows.push_back({{"ruleset", c.game_digest}, {"position", c.position}, {"value", r.value}, {"nodes", r.nodes}, {"seconds", r.seconds}});
    if (!json)
      std::cout << c.game_digest << "  " << c.position << "  value " << r.value << "  nodes " << r.nodes << "  "
                << fixed(r.seconds, 3) << " s\n";
  }
  const double nps = total_seconds > 0 ? double(total_nodes) / total_seconds : 0;
  if (json) {
    print_json({{"set", set}, {"cases", rows}, {"signature", total_nodes}, {"nodes", total_nodes}, {"seconds", total_seconds}, {"nodes_per_second", nps}});
    return 0;
  }
  std::cout << "signature " << total_nodes << "\nnodes/s   " << std::uint64_t(nps) << "\n";
  return 0;
}

}  // namespace mancala::cli
