// The Python module's C++ side: the game and state objects it binds, and
// the binders of each part (one file each).  Conventions: mancala_module.cpp's
// module docstring.
#pragma once

#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {
class TableProber;
}

namespace mancala::python {

namespace py = pybind11;

// OpenSpiel's player id of a finished game (kTerminalPlayerId).
inline constexpr int kTerminalPlayerId = -4;

// A ruleset and the board of its initial state: mancala.Game (OpenSpiel's Game).
class GameSpec {
 public:
  // Throws InputError on a bad board (pits 1..16, seeds >= 0, at most 255 seeds).
  GameSpec(const Ruleset& rules, int pits, int seeds);

  const Ruleset& rules() const { return rules_; }
  int pits() const { return pits_; }
  int seeds() const { return seeds_; }
  // Evaluable: mancala.Game('kalah', pits=6, seeds=4, empty_capture=True).
  std::string repr() const;

  friend bool operator==(const GameSpec&, const GameSpec&) = default;

 private:
  Ruleset rules_;
  int pits_;
  int seeds_;
};

// A position of a game and the actions that led to it: mancala.State
// (OpenSpiel's State).
class GameState {
 public:
  GameState(std::shared_ptr<const GameSpec> game, const Position& position, std::vector<int> history = {});

  const std::shared_ptr<const GameSpec>& game() const { return game_; }
  const Ruleset& rules() const { return game_->rules(); }
  const Position& position() const { return position_; }
  const std::vector<int>& history() const { return history_; }

  bool is_terminal() const;
  int current_player() const;  // 0 South, 1 North, kTerminalPlayerId
  std::vector<int> legal_actions() const;
  // Plays 0-based action `action` (pit action + 1 of the player to move);
  // throws InputError naming why it is illegal and leaves the state unchanged.
  void apply_action(int action);

 private:
  std::shared_ptr<const GameSpec> game_;
  Position position_;
  std::vector<int> history_;
};

// mancala.Tables: a table directory opened for probing; solve() and
// analyze() take it (its directory) as their endgame tables too.
struct OpenTables {
  std::filesystem::path dir;
  std::shared_ptr<const TableProber> prober;
};

// The state of a game at a position in the project's notation; throws
// InputError on a malformed position, another board width, or burnt holes
// outside Congkak.
GameState state_at(const std::shared_ptr<const GameSpec>& game, const std::string& notation);

// "win", "draw" or "loss" for the player a value belongs to.
const char* result_name(int value);

// Game and State refer to each other: both classes are declared (with
// their docstrings) before either's methods, so that the signatures in the
// docstrings name the Python types.
using GameClass = py::class_<GameSpec, std::shared_ptr<GameSpec>>;
using StateClass = py::class_<GameState>;
GameClass declare_game(py::module_& m);
StateClass declare_state(py::module_& m);
void define_game(GameClass& cls);
void define_state(StateClass& cls);
void bind_solve(py::module_& m);
void bind_tables(py::module_& m);

}  // namespace mancala::python
