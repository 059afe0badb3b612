// solve, analyze, bench: the subcommands that run the exact solver.
#include <chrono>
#include <optional>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <thread>

#include "commands.hpp"
#include "mancala/engine.hpp"
#include <algorithm>
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"
#include "progress.hpp"
#include "solve_stop.hpp"
#include "solver_options.hpp"

namespace mancala::cli {

namespace {

const char* kSolveSynopsis =
    "[--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--moves LIST] [--threads T] [--tt-mb MB] "
    "[--tables DIR] [--time-limit S] [--quiet] [--json]";

// --search-stats: what the nodes did, as JSON (interior_by_seeds[k]: the
// interior nodes of boards holding k seeds).
nlohmann::json search_stats_json(const solver::SearchStats& s) {
  return {{"terminal", s.terminal},
          {"from_tables", s.from_tables},
          {"horizon", s.horizon},
          {"repetition", s.repetition},
          {"settled_by_entry", s.settled_by_entry},
          {"interior", s.interior},
          {"abandoned", s.abandoned},
          {"expected_cut", s.expected_cut},
          {"expected_cut_failed_high", s.expected_cut_failed_high},
          {"expected_cut_first_child", s.expected_cut_first_child},
          {"expected_all_failed_high", s.expected_all_failed_high},
          {"with_entry_move", s.with_entry_move},
          {"entry_move_failed_high", s.entry_move_failed_high},
          {"children_valued", s.children_valued},
          {"interior_by_seeds", s.interior_by_seeds}};
}

// The same as lines of text, with the shares a reader wants: how often a
// node expected to cut off did, and on its first child.
void print_search_stats(const solver::SearchStats& s, std::uint64_t nodes) {
  auto share = [](std::uint64_t part, std::uint64_t whole) {
    return whole ? " (" + fixed(100.0 * double(part) / double(whole), 1) + "%)" : std::string();
  };
  std::cout << "nodes by kind  terminal " << s.terminal << ", tables " << s.from_tables << ", horizon " << s.horizon
            << ", repetition " << s.repetition << ", settled by entry " << s.settled_by_entry << share(s.settled_by_entry, nodes)
            << ", interior " << s.interior << share(s.interior, nodes) << ", abandoned " << s.abandoned << "\n"
            << "expected cut   " << s.expected_cut << ": failed high " << s.expected_cut_failed_high << share(s.expected_cut_failed_high, s.expected_cut)
            << ", on the first child " << s.expected_cut_first_child << share(s.expected_cut_first_child, s.expected_cut_failed_high) << "\n"
            << "expected all   " << s.interior - s.expected_cut << ": failed high " << s.expected_all_failed_high
            << share(s.expected_all_failed_high, s.interior - s.expected_cut) << "\n"
            << "entry's move   tried first at " << s.with_entry_move << ", failed high " << s.entry_move_failed_high
            << share(s.entry_move_failed_high, s.with_entry_move) << "\n"
            << "children       " << s.children_valued << " valued at interior nodes, "
            << (s.interior ? fixed(double(s.children_valued) / double(s.interior), 2) : std::string("0")) << " a node\n"
            << "interior by seeds ";
  bool first = true;
  for (std::size_t k = 0; k < s.interior_by_seeds.size(); ++k) {
    if (!s.interior_by_seeds[k]) continue;
    std::cout << (first ? "" : ", ") << k << ":" << s.interior_by_seeds[k];
    first = false;
  }
  std::cout << (first ? "none" : "") << "\n";
}

// "value in [lo, hi], testing >= g, test 12, 3.4M nodes at 2.1M/s, 5 s".
// No time left is shown while searching: the null-window tests step toward
// the value from a guess, so neither their number nor their cost is known
// in advance (the last, just above the value, is usually the dearest).
std::string solve_progress(const solver::Solver& s, double elapsed) {
  const solver::SolveStatus st = s.status();
  if (st.building_level >= 0)
    return "solve: building level table " + std::to_string(st.building_level) + " of " + std::to_string(st.top_level) +
           ", " + fixed(elapsed, 0) + " s";
  // The rate of the search alone, not of the level tables built before it.
  const double rate = st.search_seconds > 0 ? double(st.nodes) / st.search_seconds : 0;
  const std::string counts = human(double(st.nodes)) + " nodes at " + human(rate) + "/s, " + fixed(elapsed, 0) + " s";
  if (st.deepening >= 0)
    return "solve: deepening, depth " + std::to_string(st.deepening) + " of " + std::to_string(st.deepening_depth) +
           ", testing >= " + std::to_string(st.testing) + ", " + counts;
  return "solve: value in [" + std::to_string(st.lower) + ", " + std::to_string(st.upper) + "], testing >= " +
         std::to_string(st.testing) + ", test " + std::to_string(st.tests) + ", " + counts;
}

// Runs `work(solver)` with a progress line, for solve and analyze.
template <class Work>
auto with_progress(const po::variables_map& vm, solver::Solver& solver, Work work) {
  ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) { return solve_progress(solver, t); });
  return work(solver);
}

double time_limit(const po::variables_map& vm) {
  return vm.count("time-limit") ? seconds_option(vm, "time-limit", 1e9) : 0.0;
}

}  // namespace

int cmd_solve(const Args& args) {
  po::options_description desc("solve: exact value of a position under perfect play");
  add_game_options(desc, "kalah", true);
  add_solver_options(desc, true);
  po::options_description hidden;
  desc.add_options()("search-stats", po::bool_switch(),
                     "count what the search's nodes did (how they were settled, how often a node expected to cut off did, "
                     "interior nodes by seeds); slower, with the same nodes");
  hidden.add_options()("test-stop-after-tests", po::value<int>(),
                       "test only: stop as --time-limit does once this many exact null-window tests have finished");
  po::variables_map vm;
  if (!parse_args("mancala solve", kSolveSynopsis, desc, args, vm, nullptr, &hidden)) return 0;
  const bool stats = vm["search-stats"].as<bool>();
  const GameSetup g = game_setup(vm);
  std::optional<solver::DirectoryTables> tables;
  solver::SolveOptions options = solver_options(vm, g, tables);
  if (vm.count("test-stop-after-tests")) options.test_stop_after_tests = int(int_option(vm, "test-stop-after-tests", 0, 1000));
  options.search_stats = stats;
  SolveStop stop(time_limit(vm));
  options.stop = stop.flag();
  const ThreadAllowance allowance(options.threads);
  solver::Solver solver(g.rules, options);
  const solver::SolveResult r = with_progress(vm, solver, [&](solver::Solver& s) { return s.solve(g.position); });
  if (!r.complete) {
    // What is proven: the bounds, and the principal variation's moves if the
    // value was found before the stop.
    const bool exact = r.lower == r.upper;
    if (vm["json"].as<bool>()) {
      nlohmann::json out{{"position", format_position(g.position)},
                  {"ruleset", g.rules.digest()},
                  {"complete", false},
                  {"stopped_by", options.test_stop_after_tests >= 0 ? std::string("test stop") : stop.reason()},
                  {"lower", r.lower},
                  {"upper", r.upper},
                  {"value", exact ? nlohmann::json(r.lower) : nlohmann::json(nullptr)},
                  {"best_move", r.best_move ? nlohmann::json(r.best_move) : nlohmann::json(nullptr)},
                  {"best_move_proven", !r.pv.empty()},
                  {"pv", r.pv},
                  {"nodes", r.nodes},
                  {"seconds", r.seconds},
                  {"threads", options.threads}};
      if (stats) out["search_stats"] = search_stats_json(r.search_stats);
      print_json(out);
    } else {
      std::cout << "position   " << format_position(g.position) << "  (" << g.rules.digest() << ")\n"
                << "stopped    by " << (options.test_stop_after_tests >= 0 ? std::string("test stop") : stop.reason()) << " after " << seconds_text(r.seconds) << "\n"
                << "value      " << (exact ? std::to_string(r.lower) : "in [" + std::to_string(r.lower) + ", " + std::to_string(r.upper) + "]")
                << "  (proven)\n"
                << "best move  " << (r.best_move ? std::to_string(r.best_move) : std::string("none found yet"))
                << (r.best_move ? (r.pv.empty() ? "  (the search's best so far, not proven)" : "  (proven)") : "") << "\n"
                << "nodes      " << r.nodes << "\n";
      if (stats) print_search_stats(r.search_stats, r.nodes);
    }
    return kStoppedStatus;
  }
  if (vm["json"].as<bool>()) {
    nlohmann::json log = nlohmann::json::array();
    for (const solver::TestRecord& t : r.test_log)
      log.push_back({{"at_least", t.at_least},
                     {"holds", t.holds},
                     {"bound", t.bound},
                     {"depth", t.depth == solver::kExactDepth ? nlohmann::json("exact") : nlohmann::json(t.depth)},
                     {"nodes", t.nodes},
                     {"seconds", t.seconds}});
    nlohmann::json out{{"position", format_position(g.position)},
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
                {"complete", true},
                {"threads", options.threads},
                {"tt_mb", options.tt_megabytes},
                {"tt_entries", r.tt_entries},
                {"move_order", solver::format_move_order(solver::searched_move_order(g.rules, options))}};
    if (stats) out["search_stats"] = search_stats_json(r.search_stats);
    print_json(out);
    return 0;
  }
  std::cout << "position   " << format_position(g.position) << "  (" << g.rules.digest() << ")\n"
            << "value      " << r.value << "  (" << result_name(r.value) << " for the player to move)\n"
            << "best move  " << (r.best_move ? std::to_string(r.best_move) : std::string("none: the game is over")) << "\n"
            << "pv         " << join(r.pv) << "\n"
            << "nodes      " << r.nodes << "\n"
            << "seconds    " << seconds_text(r.seconds) << "\n";
  if (stats) print_search_stats(r.search_stats, r.nodes);
  return 0;
}

int cmd_analyze(const Args& args) {
  po::options_description desc("analyze: exact value of every legal move");
  add_game_options(desc, "kalah", true);
  add_solver_options(desc, true);
  po::variables_map vm;
  if (!parse_args("mancala analyze", kSolveSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  std::optional<solver::DirectoryTables> tables;
  solver::SolveOptions options = solver_options(vm, g, tables);
  SolveStop stop(time_limit(vm));
  options.stop = stop.flag();
  const ThreadAllowance allowance(options.threads);
  solver::Solver solver(g.rules, options);
  const auto t0 = std::chrono::steady_clock::now();
  const auto moves = with_progress(vm, solver, [&](solver::Solver& s) { return s.analyze(g.position); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (solver.stopped()) {
    // The moves solved before the stop, exact; the others unknown.
    nlohmann::json list = nlohmann::json::array();
    std::vector<int> unsolved = pit_numbers(legal_moves(g.rules, g.position));
    for (const auto& m : moves) {
      list.push_back({{"move", m.move}, {"value", m.value}, {"result", result_name(m.value)}});
      std::erase(unsolved, m.move);
    }
    if (vm["json"].as<bool>()) {
      print_json({{"position", format_position(g.position)}, {"ruleset", g.rules.digest()}, {"complete", false},
                  {"stopped_by", stop.reason()}, {"moves", list}, {"unsolved_moves", unsolved},
                  {"nodes", solver.status().nodes}, {"seconds", seconds}});
    } else {
      std::cout << "stopped by " << stop.reason() << " after " << seconds_text(seconds) << "; unsolved moves: " << join(unsolved) << "\n";
      for (const auto& m : moves) std::cout << "move " << m.move << "  value " << m.value << "  " << result_name(m.value) << "\n";
    }
    return kStoppedStatus;
  }
  // The position's value: its best move's.  A finished position has no moves;
  // its value is the one solve gives it (the final sweep of the rows), so
  // that analyze and solve never disagree on a value.
  const int value = moves.empty() ? solver.solve(g.position).value : moves.front().value;
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
