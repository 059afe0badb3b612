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

namespace mancala::cli {

namespace {

const char* kSolveSynopsis =
    "[--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--threads T] [--tt-mb MB] [--quiet] [--json]";

void add_solver_options(po::options_description& desc) {
  desc.add_options()
      ("threads", po::value<int>()->default_value(1), "search threads (TBB); the value never depends on it")
      ("tt-mb", po::value<long long>()->default_value(256), "transposition table size in MiB")
      ("tables", po::value<std::string>(), "endgame table directory (from mancala build) to probe")
      ("level-tables", po::value<int>()->default_value(-1),
       "solve all boards with up to this many seeds by retrograde analysis first (-1: automatic)")
      ("deepening", po::value<int>()->default_value(solver::SolveOptions{}.deepening_depth),
       "iterative deepening to this depth before the exact search, for move order and a first guess (0: none)")
      ("quiet", po::bool_switch(), "no progress line on stderr");
}

// --tt-mb: signed, so that -1 is refused here instead of wrapping to 2^64-1;
// the upper bound only keeps the arithmetic sane, the solver then checks the
// size against the machine's memory.
constexpr long long kMaxTtMegabytes = 1LL << 30;  // 1 PiB
std::size_t tt_megabytes(const po::variables_map& vm) { return std::size_t(int_option(vm, "tt-mb", 1, kMaxTtMegabytes)); }

solver::SolveOptions solver_options(const po::variables_map& vm) {
  solver::SolveOptions o;
  o.threads = int(int_option(vm, "threads", 1, 1024));
  o.tt_megabytes = tt_megabytes(vm);
  o.level_table_seeds = int(int_option(vm, "level-tables", -1, 127));
  o.deepening_depth = vm["deepening"].as<int>();  // range checked by the Solver
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

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string human(double x) {
  const char* units[] = {"", "k", "M", "G", "T"};
  int u = 0;
  while (x >= 1000 && u < 4) {
    x /= 1000;
    ++u;
  }
  return fixed(x, u ? 1 : 0) + units[u];
}

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
