// play: the perfect engine in the terminal, or from a script.
//
// The human plays one side (--side s or n; none: the engine plays both),
// typing a pit number, `hint` (the exact value of every legal move), `undo`
// (back to the human's previous turn) or `quit`, one a line.  The engine
// answers with a best move of the exact solver (--tables makes it faster).
// A position that repeats (Oware's endless play) ends the game with the
// seeds on the board shared evenly, as the solver values it.
//
// At a terminal a refused line (an illegal move, an unknown word) is
// explained and asked again.  From a pipe (a scripted game) it ends the
// game with one line on stderr and exit status 2, like any bad input.  The
// end of the input leaves the game unfinished, exit status 0.  With --json
// every event is one JSON object a line on stdout instead of text.
#include <unistd.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"
#include "solver_options.hpp"

namespace mancala::cli {

namespace {

const char* side_name(Side s) { return s == Side::South ? "south" : "north"; }

class Game {
 public:
  Game(const po::variables_map& vm, const GameSetup& g, solver::Solver& solver)
      : json_(vm["json"].as<bool>()), interactive_(isatty(STDIN_FILENO) != 0), rules_(g.rules), solver_(solver) {
    history_.push_back(g.position);
    const std::string side = vm["side"].as<std::string>();
    if (side == "s" || side == "south")
      human_ = Side::South;
    else if (side == "n" || side == "north")
      human_ = Side::North;
    else if (side != "none")
      throw InputError("unknown --side '" + side + "' (expected s, n or none)");
  }

  int run() {
    show();
    while (!is_terminal(rules_, now())) {
      if (repeated()) {
        // Oware's endless play: the rules share the seeds left on the board
        // evenly, which is the value the solver gives a repetition.
        const int south = now().to_move == Side::South ? now().store_difference() : -now().store_difference();
        event({{"event", "end"}, {"position", format_position(now())}, {"by", "repetition"}, {"south_minus_north", south},
               {"winner", south > 0 ? "south" : south < 0 ? "north" : "draw"}},
              "game over: the position repeats, so the seeds on the board are shared evenly; south's store minus north's " +
                  std::to_string(south));
        return 0;
      }
      if (!human_ || now().to_move != *human_) {
        engine_move();
        continue;
      }
      std::string line;
      if (interactive_ && !json_) std::cout << "your move (1-" << now().m() << ", hint, undo, quit): " << std::flush;
      if (!std::getline(std::cin, line)) {
        event({{"event", "unfinished"}, {"position", format_position(now())}}, "input ended: the game is left unfinished");
        return 0;
      }
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      while (!line.empty() && line.front() == ' ') line.erase(line.begin());
      if (line.empty()) continue;
      try {
        if (line == "quit") {
          event({{"event", "quit"}, {"position", format_position(now())}}, "quit: the game is left unfinished");
          return 0;
        }
        if (line == "hint") {
          hint();
        } else if (line == "undo") {
          undo();
        } else {
          human_move(line);
        }
      } catch (const InputError& e) {
        if (!interactive_) throw;  // a script's mistake is bad input
        std::cout << "refused: " << e.what() << "\n";
      }
    }
    const Position& end = now();
    const int value = terminal_value(end);  // for the player to move at the end
    const int south = end.to_move == Side::South ? value : -value;
    const std::string winner = south > 0 ? "south" : south < 0 ? "north" : "draw";
    event({{"event", "end"}, {"position", format_position(end)}, {"by", "rules"}, {"south_minus_north", south}, {"winner", winner}},
          "game over: south's store minus north's " + std::to_string(south) + " (" +
              (winner == "draw" ? std::string("a draw") : winner + " wins") + ")");
    return 0;
  }

 private:
  const Position& now() const { return history_.back(); }
  bool repeated() const {
    for (std::size_t i = 0; i + 1 < history_.size(); ++i)
      if (history_[i] == now()) return true;
    return false;
  }

  // One event: a JSON line, or text.
  void event(nlohmann::json j, const std::string& text) {
    if (json_) {
      with_version(j);
      std::cout << j.dump() << std::endl;
    } else {
      std::cout << text << "\n";
    }
  }

  void show() {
    if (json_) {
      event(position_json(rules_, now()), "");
      return;
    }
    std::cout << format_position(now()) << "\n" << diagram(now());
  }

  void play(int pit, const std::string& who) {
    Position next = now();
    const MoveResult r = apply_move(rules_, next, pit);  // throws InputError on an illegal move
    const Side mover = now().to_move;
    history_.push_back(next);
    std::string note = r.game_over ? ", game over" : r.extra_turn ? ", extra turn" : "";
    event({{"event", "move"}, {"by", who}, {"side", side_name(mover)}, {"move", pit}, {"position", format_position(now())},
           {"extra_turn", r.extra_turn}, {"game_over", r.game_over}},
          who + " (" + side_name(mover) + ") plays " + std::to_string(pit) + note);
    show();
  }

  void engine_move() {
    const solver::SolveResult r = solver_.solve(now());
    event({{"event", "engine_value"}, {"value", r.value}, {"result", result_name(r.value)}},
          "engine: value " + std::to_string(r.value) + " for " + side_name(now().to_move) + " (" + result_name(r.value) + ")");
    play(r.best_move, "engine");
  }

  void human_move(const std::string& line) {
    if (line.find_first_not_of("0123456789") != std::string::npos || line.size() > 3)
      throw InputError("'" + line + "' is not a pit number, hint, undo or quit");
    const std::vector<int> pits = parse_move_list(line);  // the notation's rules for a number
    play(pits.front(), "you");
  }

  void hint() {
    const std::vector<solver::MoveValue> moves = solver_.analyze(now());
    nlohmann::json list = nlohmann::json::array();
    std::string text = "hint (values for " + std::string(side_name(now().to_move)) + ", best first):";
    for (const auto& m : moves) {
      list.push_back({{"move", m.move}, {"value", m.value}, {"result", result_name(m.value)}});
      text += "\n  move " + std::to_string(m.move) + "  value " + std::to_string(m.value) + "  " + result_name(m.value);
    }
    event({{"event", "hint"}, {"position", format_position(now())}, {"moves", list}}, text);
  }

  // Back to the human's previous turn: the human's last move and every
  // engine move after it are taken back.
  void undo() {
    std::size_t k = history_.size() - 1;
    while (k > 0 && !(history_[k - 1].to_move == *human_)) --k;
    if (k == 0) throw InputError("nothing to undo: you have not moved yet");
    history_.resize(k);  // history_[k - 1] is the position before the human's last move
    event({{"event", "undo"}, {"position", format_position(now())}}, "undone: back to your previous turn");
    show();
  }

  bool json_;
  bool interactive_;
  Ruleset rules_;
  solver::Solver& solver_;
  std::optional<Side> human_;
  std::vector<Position> history_;
};

}  // namespace

int cmd_play(const Args& args) {
  po::options_description desc("play: the perfect engine; type a pit number, hint, undo or quit, one a line");
  add_game_options(desc, "kalah", true);
  add_solver_options(desc);
  desc.add_options()("side", po::value<std::string>()->default_value("s"),
                     "the side you play: s (South, default), n (North) or none (the engine plays both)");
  po::variables_map vm;
  if (!parse_args("mancala play",
                  "[--game G] [ruleset options] (--position P | [--pits m] [--seeds n]) [--moves LIST] [--side s|n|none] "
                  "[--tables DIR] [--threads T] [--tt-mb MB] [--json]",
                  desc, args, vm))
    return 0;
  const GameSetup g = game_setup(vm);
  std::optional<solver::DirectoryTables> tables;
  solver::SolveOptions options = solver_options(vm, g, tables);
  const ThreadAllowance allowance(options.threads);
  solver::Solver solver(g.rules, options);  // one table for the whole game: later moves reuse it
  Game game(vm, g, solver);
  return game.run();
}

}  // namespace mancala::cli
