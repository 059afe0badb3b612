// show, moves, apply, perft: the subcommands that only need the rules engine.
#include <bit>
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"

namespace mancala::cli {

namespace {
const char* kGameSynopsis = "[--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--moves LIST] [--json]";

std::string outcome_text(const MoveResult& r) {
  if (r.game_over) return "game over";
  if (r.extra_turn) return "extra turn";
  return "";
}
}  // namespace

int cmd_show(const Args& args) {
  po::options_description desc("show: draw the board");
  add_game_options(desc, "kalah", true);
  po::variables_map vm;
  if (!parse_args("mancala show", kGameSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  if (vm["json"].as<bool>()) {
    print_json(position_json(g.rules, g.position));
    return 0;
  }
  std::cout << format_position(g.position) << "\n" << diagram(g.position);
  if (is_terminal(g.rules, g.position))
    std::cout << "game over: final store difference " << terminal_value(g.position) << " for the player to move\n";
  return 0;
}

int cmd_moves(const Args& args) {
  po::options_description desc("moves: list the legal moves and the position each leads to");
  add_game_options(desc, "kalah", true);
  po::variables_map vm;
  if (!parse_args("mancala moves", kGameSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  nlohmann::json list = nlohmann::json::array();
  for (int pit : pit_numbers(legal_moves(g.rules, g.position))) {
    Position child = g.position;
    const MoveResult r = apply_move(g.rules, child, pit);
    list.push_back({{"move", pit},
                    {"position", format_position(child)},
                    {"extra_turn", r.extra_turn},
                    {"game_over", r.game_over}});
  }
  if (vm["json"].as<bool>()) {
    print_json({{"position", format_position(g.position)}, {"ruleset", g.rules.digest()}, {"moves", list}});
    return 0;
  }
  if (list.empty()) std::cout << "no legal moves: the game is over\n";
  for (const auto& mv : list) {
    const std::string note = mv["game_over"].get<bool>() ? "  game over" : mv["extra_turn"].get<bool>() ? "  extra turn" : "";
    std::cout << mv["move"].get<int>() << "  " << mv["position"].get<std::string>() << note << "\n";
  }
  return 0;
}

int cmd_apply(const Args& args) {
  po::options_description desc("apply: play moves and print the resulting position");
  add_game_options(desc, "kalah", true);
  po::variables_map vm;
  if (!parse_args("mancala apply", "--moves LIST [--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--json]", desc, args, vm)) return 0;
  if (!vm.count("moves")) throw InputError("the option '--moves' is required but missing");
  const GameSetup g = game_setup(vm);  // has played them, or named the illegal one
  Position p = g.start;
  nlohmann::json played = nlohmann::json::array();
  for (const int pit : g.moves) {
    const MoveResult r = apply_move(g.rules, p, pit);
    played.push_back({{"move", pit}, {"position", format_position(p)}, {"outcome", outcome_text(r)}});
  }
  if (vm["json"].as<bool>()) {
    nlohmann::json j = position_json(g.rules, p);
    j["start"] = format_position(g.start);
    j["played"] = played;
    print_json(j);
    return 0;
  }
  std::cout << format_position(p) << "\n";
  if (is_terminal(g.rules, p))
    std::cout << "game over: final store difference " << terminal_value(p) << " for the player to move\n";
  return 0;
}

int cmd_perft(const Args& args) {
  po::options_description desc("perft: count move sequences of each length (regression counts)");
  add_game_options(desc, "kalah", true);
  desc.add_options()("depth", po::value<int>()->required(), "plies to count (an extra-turn move is one ply)");
  po::variables_map vm;
  if (!parse_args("mancala perft", std::string("--depth d ") + kGameSynopsis, desc, args, vm)) return 0;
  const GameSetup g = game_setup(vm);
  const int depth = int(int_option(vm, "depth", 1, 200));  // the engine's perft limit
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<std::uint64_t> counts = perft(g.rules, g.position, depth);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (vm["json"].as<bool>()) {
    print_json({{"position", format_position(g.position)},
                {"ruleset", g.rules.digest()},
                {"depth", depth},
                {"counts", counts},
                {"seconds", seconds}});
    return 0;
  }
  for (int d = 1; d <= depth; ++d) std::cout << "depth " << d << ": " << counts[d - 1] << "\n";
  return 0;
}

}  // namespace mancala::cli
