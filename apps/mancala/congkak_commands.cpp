// opening, match: Congkak as the rule texts describe it, the simultaneous
// opening solved as a game and multi-round matches solved for the outcome.
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "mancala/congkak_opening.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/match_solver.hpp"
#include "mancala/solver/opening_solver.hpp"
#include "progress.hpp"
#include "solver_options.hpp"

namespace mancala::cli {

namespace {

using solver::Rational;
using solver::rational_text;

nlohmann::json rational_json(const Rational& r) { return r.convert_to<double>(); }

std::string decimal(const Rational& r) {
  const std::string exact = rational_text(r);
  if (exact.find('/') == std::string::npos) return exact;
  return exact + " = " + fixed(r.convert_to<double>(), 4);
}

// "i,j": the first holes of South and North.
std::pair<int, int> parse_pair(const std::string& text, int m, const std::string& option = "--play") {
  const std::vector<int> v = parse_move_list(text);
  if (v.size() != 2) throw InputError(option + " wants two holes 'i,j' (South's, then North's), got '" + text + "'");
  for (int h : v)
    if (h < 1 || h > m) throw InputError(option + ": hole " + std::to_string(h) + " is not in 1.." + std::to_string(m));
  return {v[0], v[1]};
}

const char* side_name(Side s) { return s == Side::South ? "south" : "north"; }

const char* kOpeningSynopsis =
    "[--game congkak] [--capture always|needs-opposite] [--pits m --seeds n | --position P] [--timing lock-step] "
    "[--play i,j | --entry i,j | --entries FILE] [--threads T] [--tt-mb MB] [--tables DIR] [--quiet] [--json]";

// --play: the opening after the first holes i and j, as far as it is forced.
int play_opening(const po::variables_map& vm, const GameSetup& g, const CongkakOpening& opening) {
  const auto [i, j] = parse_pair(vm["play"].as<std::string>(), g.position.m());
  OpeningState s = opening.start(g.position);
  if (!s.choosing(Side::South) || !s.choosing(Side::North))
    throw InputError("--play: a row of this board is empty, so the opening has no simultaneous first choice");
  std::vector<std::string> events;
  opening.advance(s, i, j, &events);
  nlohmann::json out{{"ruleset", g.rules.digest()}, {"board", format_position(g.position)}, {"play", {i, j}}, {"events", events}};
  std::optional<Position> handover;
  std::optional<int> south_value;
  if (s.over()) {
    handover = CongkakOpening::handover(s);
    std::optional<solver::DirectoryTables> tables;
    solver::StoreDifferenceValue leaves(g.rules, solver_options(vm, g, tables));
    south_value = int(leaves.south_value(*handover).convert_to<double>());
    out["over"] = true;
    out["handover"] = format_position(*handover);
    out["to_move"] = side_name(handover->to_move);
    out["round_over"] = is_terminal(g.rules, *handover);
    out["value"] = *south_value;
  } else {
    out["over"] = false;
    nlohmann::json choosers = nlohmann::json::object();
    for (Side side : {Side::South, Side::North})
      if (s.choosing(side)) choosers[side_name(side)] = pit_numbers(opening.choices(s, side));
    out["choosing"] = choosers;
    Position board = s.board;
    out["board_now"] = format_position(board);
  }
  if (vm["json"].as<bool>()) {
    print_json(out);
    return 0;
  }
  std::cout << "opening " << i << "," << j << " on " << format_position(g.position) << "  (" << g.rules.digest() << ")\n";
  for (const std::string& e : events) std::cout << "  " << e << "\n";
  if (handover) {
    std::cout << "handed over " << format_position(*handover) << "  (" << side_name(handover->to_move) << " to move"
              << (is_terminal(g.rules, *handover) ? ", the round is over" : "") << ")\n"
              << diagram(*handover) << "value      " << *south_value << "  (final store difference for South)\n";
  } else {
    std::cout << "not forced: ";
    for (Side side : {Side::South, Side::North})
      if (s.choosing(side)) std::cout << side_name(side) << " chooses among " << join(pit_numbers(opening.choices(s, side))) << "; ";
    std::cout << "board " << format_position(s.board) << "\n";
  }
  return 0;
}


// "1.2M opening states, 800k finished openings, 3.4k states/s, 12 s"
std::string tally_text(const solver::OpeningTally& tally, double t) {
  const double states = double(tally.states.load());
  return human(states) + " opening states, " + human(double(tally.handovers.load())) + " finished openings, " +
         human(t > 0 ? states / t : 0) + " states/s, " + fixed(t, 0) + " s";
}

// --entry i,j: the value of one root entry, the subgame after that pair.
int solve_entry(const po::variables_map& vm, const GameSetup& g, const CongkakOpening& opening, OpeningTiming timing) {
  // Plain ints: clang 14 does not let a lambda (the progress line) capture structured bindings.
  const std::pair<int, int> pair = parse_pair(vm["entry"].as<std::string>(), g.position.m(), "--entry");
  const int i = pair.first, j = pair.second;
  OpeningState s = opening.start(g.position);
  if (!s.choosing(Side::South) || !s.choosing(Side::North))
    throw InputError("--entry: a row of this board is empty, so the opening has no simultaneous first choice");
  opening.advance(s, i, j);
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<solver::DirectoryTables> tables;
  solver::SolveOptions leaf_options = solver_options(vm, g, tables);
  leaf_options.threads = 1;
  solver::StoreDifferenceValue leaves(g.rules, leaf_options);
  solver::OpeningTally tally;
  solver::OpeningSolver solver(g.rules, leaves, timing, &tally);
  Rational v;
  {
    ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) {
      return "opening entry " + std::to_string(i) + "," + std::to_string(j) + ": " + tally_text(tally, t);
    });
    v = solver.value(s);
  }
  const solver::OpeningCounts c = solver.counts();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (vm["json"].as<bool>()) {
    print_json({{"ruleset", g.rules.digest()},
                {"board", format_position(g.position)},
                {"timing", opening_timing_name(timing)},
                {"entry", {i, j}},
                {"value", rational_json(v)},
                {"value_exact", rational_text(v)},
                {"opening_states", c.states},
                {"simultaneous_decisions", c.simultaneous},
                {"positions_solved", c.positions_solved},
                {"nodes", c.nodes},
                {"seconds", seconds}});
    return 0;
  }
  std::cout << "entry      " << i << "," << j << " of " << format_position(g.position) << "  (" << g.rules.digest() << ")\n"
            << "value      " << decimal(v) << "  (expected final store difference for South)\n"
            << "states     " << c.states << " opening states, " << c.positions_solved << " positions solved after the opening\n"
            << "seconds    " << seconds_text(seconds) << "\n";
  return 0;
}

bool exact_fraction_text(const std::string& t) {
  std::size_t k = t[0] == '-' ? 1 : 0;
  const std::size_t slash = t.find('/');
  auto digits = [&](std::size_t from, std::size_t to) {
    if (from >= to || to - from > 4000) return false;
    for (std::size_t x = from; x < to; ++x)
      if (t[x] < '0' || t[x] > '9') return false;
    return true;
  };
  if (slash == std::string::npos) return digits(k, t.size());
  return digits(k, slash) && digits(slash + 1, t.size()) && t[slash + 1] != '0';
}

// --entries FILE: the root matrix from --entry results, each line a JSON
// object with "entry" and "value_exact" (mancala batch's records carry the
// command's keys), for this board, ruleset and timing.
solver::OpeningSolution root_from_entries(const std::string& path, const GameSetup& g, const CongkakOpening& opening,
                                          OpeningTiming timing) {
  const OpeningState root = opening.start(g.position);
  const int m = g.position.m();
  const std::vector<int> south = pit_numbers(opening.choices(root, Side::South));
  const std::vector<int> north = pit_numbers(opening.choices(root, Side::North));
  if (south.empty() || north.empty())
    throw InputError("--entries: a row of this board is empty, so the opening has no root matrix");
  std::ifstream in(path);
  if (!in) throw InputError("--entries: cannot read '" + path + "'");
  std::vector<std::vector<std::optional<Rational>>> found(static_cast<std::size_t>(m));
  for (auto& row : found) row.resize(std::size_t(m));
  solver::OpeningCounts counts;
  std::string line;
  const std::string board = format_position(g.position);
  const int seeds_in_play = g.position.board_seeds() + g.position.store[0] + g.position.store[1];
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = "--entries: " + path + " line " + std::to_string(number);
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) throw InputError(where + " is not a JSON object");
    if (!j.contains("entry") || !j.contains("value_exact")) throw InputError(where + " has no \"entry\" and \"value_exact\"");
    if (j.value("board", "") != board || j.value("ruleset", "") != g.rules.digest() ||
        j.value("timing", "") != opening_timing_name(timing))
      throw InputError(where + " is for another board, ruleset or timing than " + board + " (" + g.rules.digest() + ", " +
                       opening_timing_name(timing) + ")");
    const nlohmann::json& e = j["entry"];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer() || e[0] < 1 ||
        e[0] > m || e[1] < 1 || e[1] > m)
      throw InputError(where + ": \"entry\" is not a pair of holes 1.." + std::to_string(m));
    const int i = e[0].get<int>(), k = e[1].get<int>();
    if (!j["value_exact"].is_string() || !exact_fraction_text(j["value_exact"].get<std::string>()))
      throw InputError(where + ": \"value_exact\" is not a fraction 'p/q'");
    const Rational v(j["value_exact"].get<std::string>());
    // A value is a final store difference: no more than every seed in play.
    if (v > seeds_in_play || v < -seeds_in_play)
      throw InputError(where + ": \"value_exact\" " + j["value_exact"].get<std::string>() +
                       " is not a store difference of a game of " + std::to_string(seeds_in_play) + " seeds");
    auto& slot = found[std::size_t(i - 1)][std::size_t(k - 1)];
    if (slot && *slot != v)
      throw InputError(where + " gives entry " + std::to_string(i) + "," + std::to_string(k) + " a second, different value");
    if (!slot) {
      slot = v;
      counts.states += j.value("opening_states", std::uint64_t(0));
      counts.positions_solved += j.value("positions_solved", std::uint64_t(0));
      counts.nodes += j.value("nodes", std::uint64_t(0));
    }
  }
  std::vector<std::vector<Rational>> entries(south.size(), std::vector<Rational>(north.size()));
  for (std::size_t r = 0; r < south.size(); ++r)
    for (std::size_t c = 0; c < north.size(); ++c) {
      const auto& v = found[std::size_t(south[r] - 1)][std::size_t(north[c] - 1)];
      if (!v)
        throw InputError("--entries: " + path + " has no entry " + std::to_string(south[r]) + "," +
                         std::to_string(north[c]) + " (every pair of nonempty first holes is needed)");
      entries[r][c] = *v;
    }
  solver::OpeningSolution sol = solver::OpeningSolver::root_solution(m, south, north, entries);
  sol.counts += counts;
  return sol;
}

}  // namespace

int cmd_opening(const Args& args) {
  po::options_description desc("opening: Congkak's simultaneous opening solved as a game (expected final store difference)");
  add_game_options(desc, "congkak");
  add_solver_options(desc);
  desc.add_options()
      ("timing", po::value<std::string>()->default_value("lock-step"), "timing model of the two hands (lock-step)")
      ("play", po::value<std::string>(), "show the opening after South's first hole i and North's j: 'i,j'")
      ("entry", po::value<std::string>(), "solve one root entry 'i,j' only (one job of a cluster run; see --entries)")
      ("entries", po::value<std::string>(),
       "solve the root from a file of --entry results (JSON lines, e.g. mancala batch's output) instead of solving them");
  po::variables_map vm;
  if (!parse_args("mancala opening", kOpeningSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  const OpeningTiming timing = parse_opening_timing(vm["timing"].as<std::string>());
  const CongkakOpening opening(g.rules, timing);
  if (int(vm.count("play")) + int(vm.count("entry")) + int(vm.count("entries")) > 1)
    throw InputError("--play, --entry and --entries exclude each other");
  if (vm.count("play")) return play_opening(vm, g, opening);
  if (vm.count("entry")) return solve_entry(vm, g, opening, timing);

  const auto t0 = std::chrono::steady_clock::now();
  // The root entries are shared out among the threads; the positions after
  // the opening are many and small, so each worker solves them on one thread
  // (a solver's threads would cost more in starting than they save).
  std::optional<solver::DirectoryTables> tables;
  const solver::SolveOptions options = solver_options(vm, g, tables);
  const ThreadAllowance allowance(options.threads);
  solver::SolveOptions leaf_options = options;
  leaf_options.threads = 1;
  std::atomic<int> done{0}, total{0};
  solver::OpeningTally tally;
  solver::OpeningSolution sol;
  if (vm.count("entries")) {
    sol = root_from_entries(vm["entries"].as<std::string>(), g, opening, timing);
  } else {
    ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) {
      const int d = done.load(), n = total.load();
      // Root entries differ widely in size, so the time left is a rough guess.
      std::string line = "opening: " + (n ? "root pair " + std::to_string(d) + " of " + std::to_string(n) + ", " : "") +
                         tally_text(tally, t);
      if (d > 0 && n > d) line += ", roughly " + fixed(t / d * (n - d), 0) + " s left";
      return line;
    });
    sol = solver::solve_opening(
        g.rules, g.position, options.threads,
        [&] { return std::make_unique<solver::StoreDifferenceValue>(g.rules, leaf_options); }, timing,
        [&](int d, int n) {
          done = d;
          total = n;
        },
        &tally);
  }
  // The same board with South simply moving first, one solve on every thread.
  Position sequential = g.position;
  if (sequential.to_move == Side::North) sequential.flip();
  solver::Solver sequential_solver(g.rules, options);
  const solver::SolveResult seq = sequential_solver.solve(sequential);
  const int sequential_value = seq.value;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int m = g.position.m();

  if (vm["json"].as<bool>()) {
    nlohmann::json matrix = nlohmann::json::array(), exact = nlohmann::json::array();
    for (const auto& row : sol.matrix) {
      nlohmann::json r = nlohmann::json::array(), e = nlohmann::json::array();
      for (const auto& v : row) {
        r.push_back(v ? rational_json(*v) : nlohmann::json(nullptr));
        e.push_back(v ? nlohmann::json(rational_text(*v)) : nlohmann::json(nullptr));
      }
      matrix.push_back(r);
      exact.push_back(e);
    }
    auto strategy = [](const std::vector<Rational>& p, bool as_text) {
      nlohmann::json a = nlohmann::json::array();
      for (const Rational& x : p) a.push_back(as_text ? nlohmann::json(rational_text(x)) : rational_json(x));
      return a;
    };
    print_json({{"ruleset", g.rules.digest()},
                {"board", format_position(g.position)},
                {"pits", m},
                {"timing", opening_timing_name(timing)},
                {"value", rational_json(sol.value)},
                {"value_exact", rational_text(sol.value)},
                {"matrix", matrix},
                {"matrix_exact", exact},
                {"south_strategy", strategy(sol.south_strategy, false)},
                {"south_strategy_exact", strategy(sol.south_strategy, true)},
                {"north_strategy", strategy(sol.north_strategy, false)},
                {"north_strategy_exact", strategy(sol.north_strategy, true)},
                {"saddle_point", sol.saddle_point ? nlohmann::json({sol.saddle_point->first, sol.saddle_point->second})
                                                  : nlohmann::json(nullptr)},
                {"sequential_value", sequential_value},
                {"opening_states", sol.counts.states},
                {"simultaneous_decisions", sol.counts.simultaneous},
                {"exact_simplex", sol.counts.exact_simplex},
                {"positions_solved", sol.counts.positions_solved},
                {"nodes", sol.counts.nodes},
                {"sequential_nodes", seq.nodes},
                {"threads", options.threads},
                {"seconds", seconds}});
    return 0;
  }
  std::cout << "board      " << format_position(g.position) << "  (" << g.rules.digest() << ", simultaneous opening, "
            << opening_timing_name(timing) << ")\n"
            << "value      " << decimal(sol.value) << "  (expected final store difference for South)\n";
  if (!sol.matrix.empty()) {
    std::cout << "matrix     South's first hole (row) against North's (column), South's value:\n";
    for (int i = 0; i < m; ++i) {
      std::cout << "  " << i + 1 << ":";
      for (int j = 0; j < m; ++j) {
        const auto& v = sol.matrix[std::size_t(i)][std::size_t(j)];
        std::string cell = v ? rational_text(*v) : "-";
        std::cout << std::string(cell.size() < 8 ? 8 - cell.size() : 1, ' ') << cell;
      }
      std::cout << "\n";
    }
    auto show = [](const std::vector<Rational>& p) {
      std::string s;
      for (std::size_t k = 0; k < p.size(); ++k)
        if (p[k] != 0) s += (s.empty() ? "" : ", ") + std::string("hole ") + std::to_string(k + 1) + ": " + rational_text(p[k]);
      return s;
    };
    std::cout << "south      " << show(sol.south_strategy) << "\n"
              << "north      " << show(sol.north_strategy) << "\n"
              << "saddle     "
              << (sol.saddle_point ? std::to_string(sol.saddle_point->first) + "," + std::to_string(sol.saddle_point->second)
                                   : std::string("none: the players must mix"))
              << "\n";
  }
  std::cout << "sequential " << sequential_value << "  (South simply moving first)\n"
            << "states     " << sol.counts.states << " opening states, " << sol.counts.simultaneous
            << " simultaneous decisions, " << sol.counts.positions_solved << " positions solved after the opening\n"
            << "nodes      " << sol.counts.nodes << "  (and " << seq.nodes << " for the sequential value)\n"
            << "seconds    " << seconds_text(seconds) << "\n";
  return 0;
}

int cmd_match(const Args& args) {
  po::options_description desc("match: multi-round Congkak solved for the match outcome (+1 South wins, 0 draw, -1 North wins)");
  po::options_description hidden;  // --position: refused below, left out of the help
  add_game_options(desc, "congkak", false, &hidden, {.position = false});
  desc.add_options()
      ("opening", po::value<std::string>()->default_value("simultaneous"),
       "first round: simultaneous (both hands at once) or sequential (South moves first)")
      ("memo-mb", po::value<long long>()->default_value(1024), "round-search memo size in MiB (cleared when full)")
      ("quiet", po::bool_switch(), "no progress line on stderr");
  po::variables_map vm;
  if (!parse_args("mancala match",
                  "[--game congkak] [--capture always|needs-opposite] [--pits m --seeds n] [--opening simultaneous|sequential] "
                  "[--memo-mb MB] [--quiet] [--json]",
                  desc, args, vm, nullptr, &hidden))
    return 0;
  if (vm.count("position")) throw InputError("match takes --pits and --seeds, not --position: a match starts from the start position");
  const GameSetup g = game_setup(vm);
  const std::string opening = vm["opening"].as<std::string>();
  if (opening != "simultaneous" && opening != "sequential")
    throw InputError("unknown --opening '" + opening + "' (expected simultaneous or sequential)");
  const std::size_t memo_mb = std::size_t(int_option(vm, "memo-mb", 1, 1LL << 30));
  const int m = g.position.m(), n = g.position.pits[0];
  solver::MatchSolver solver(g.rules, m, n, memo_mb);
  std::atomic<int> pass{0}, resolved{0}, states{0};
  std::atomic<std::uint64_t> nodes{0};
  solver::MatchSolution sol;
  {
    ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) {
      return "match: pass " + std::to_string(pass.load()) + ", " + std::to_string(resolved.load()) + " of " +
             std::to_string(states.load()) + " round states won or lost so far, " + human(double(nodes.load())) +
             " nodes, " + fixed(t, 0) + " s";
    });
    sol = solver.solve(opening == "simultaneous", [&](const solver::MatchProgress& p) {
      pass = p.pass;
      resolved = p.resolved;
      states = p.states;
      nodes = p.nodes;
    });
  }
  auto outcome = [](int v) { return v > 0 ? "south wins" : v < 0 ? "north wins" : "draw"; };
  auto moves_text = [](const solver::MatchRound& r) {
    std::vector<std::string> out;
    for (const auto& [side, pit] : r.moves) out.push_back(std::string(side == Side::South ? "S" : "N") + std::to_string(pit));
    return out;
  };
  if (vm["json"].as<bool>()) {
    nlohmann::json st = nlohmann::json::array(), line = nlohmann::json::array();
    for (const auto& s : sol.states)
      st.push_back({{"south_stones", s.south_stones},
                    {"starter", side_name(s.starter)},
                    {"value", s.south_value},
                    {"outcome", outcome(s.south_value)},
                    {"order", s.order}});
    for (const auto& r : sol.line)
      line.push_back({{"opening", r.opening ? nlohmann::json({r.opening->first, r.opening->second}) : nlohmann::json(nullptr)},
                      {"start", format_position(r.start)},
                      {"starter", side_name(r.start.to_move)},
                      {"moves", moves_text(r)},
                      {"south_after", r.south_after},
                      {"north_after", r.north_after}});
    nlohmann::json out{{"ruleset", g.rules.digest()},
                       {"pits", m},
                       {"seeds", n},
                       {"opening", opening},
                       {"value", rational_json(sol.value)},
                       {"value_exact", rational_text(sol.value)},
                       {"states", st},
                       {"line", line},
                       {"line_end", sol.line_end},
                       {"passes", sol.passes},
                       {"round_searches", sol.round_searches},
                       {"nodes", sol.nodes},
                       {"seconds", sol.seconds}};
    if (sol.opening) {
      out["opening_value_exact"] = rational_text(sol.opening->value);
      out["opening_saddle_point"] = sol.opening->saddle_point
                                        ? nlohmann::json({sol.opening->saddle_point->first, sol.opening->saddle_point->second})
                                        : nlohmann::json(nullptr);
    }
    print_json(out);
    return 0;
  }
  std::cout << "match      congkak " << m << "x" << n << "  (" << g.rules.digest() << ", " << opening << " opening)\n"
            << "value      " << decimal(sol.value) << "  (for South: +1 win, 0 draw, -1 loss"
            << (sol.opening ? ", expected under optimal mixed openings" : "") << ")\n"
            << "states     (South's stones, starter): outcome\n";
  for (const auto& s : sol.states)
    std::cout << "  " << s.south_stones << ", " << side_name(s.starter) << " starts: " << outcome(s.south_value) << "\n";
  std::cout << "line\n";
  int k = 1;
  for (const auto& r : sol.line) {
    std::cout << "  round " << k++ << ": ";
    if (r.opening) std::cout << "opening " << r.opening->first << "," << r.opening->second << ", then ";
    std::cout << format_position(r.start);
    const auto moves = moves_text(r);
    std::string joined;
    for (const auto& mv : moves) joined += (joined.empty() ? "" : " ") + mv;
    std::cout << "  moves " << (joined.empty() ? "(none)" : joined) << "  -> South " << r.south_after << ", North "
              << r.north_after << "\n";
  }
  std::cout << "  " << sol.line_end << "\n"
            << "searches   " << sol.round_searches << " round searches in " << sol.passes << " passes, " << sol.nodes
            << " nodes\n"
            << "seconds    " << seconds_text(sol.seconds) << "\n";
  return 0;
}

}  // namespace mancala::cli
