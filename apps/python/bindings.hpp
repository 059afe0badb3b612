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

// pybind11 lets Python make an instance without its C++ value
// (`State.__new__(State)`, which pickle calls before __setstate__) and then
// hands the instance's methods uninitialised memory: a crash, or garbage
// taken for a position.  The casters below, the ones pybind11 uses for a
// bound type's `self` and arguments once MANCALA_PYTHON_REFUSE_UNINITIALISED
// (or, for Game's shared holder, InitialisedHolderCaster) has named the
// type, refuse such an instance with TypeError first.
template <class T>
void refuse_uninitialised(py::handle src) {
  if (!src || !py::isinstance<T>(src)) return;  // pybind11's own checks then apply
  auto* instance = reinterpret_cast<py::detail::instance*>(src.ptr());
  const auto holder = instance->get_value_and_holder(py::detail::get_type_info(typeid(T)), false);
  if (holder.inst && !holder.holder_constructed()) {
    const py::handle type = py::type::handle_of(src);
    const auto name = type.attr("__qualname__").cast<std::string>();
    throw py::type_error("uninitialised " + type.attr("__module__").cast<std::string>() + "." + name + ": made by " +
                         name + ".__new__ and never initialised");
  }
}

template <class T>
class InitialisedCaster : public py::detail::type_caster_base<T> {
 public:
  bool load(py::handle src, bool convert) {
    refuse_uninitialised<T>(src);
    return py::detail::type_caster_base<T>::load(src, convert);
  }
};

template <class T>
class InitialisedHolderCaster : public py::detail::copyable_holder_caster<T, std::shared_ptr<T>> {
 public:
  bool load(py::handle src, bool convert) {
    refuse_uninitialised<T>(src);
    return py::detail::copyable_holder_caster<T, std::shared_ptr<T>>::load(src, convert);
  }
};

// Names T for InitialisedCaster; at namespace scope, before T's first
// binding in every file that binds or converts it.
#define MANCALA_PYTHON_REFUSE_UNINITIALISED(T) \
  template <>                                  \
  class pybind11::detail::type_caster<T> : public mancala::python::InitialisedCaster<T> {}

// The state of a game at a position in the project's notation; throws
// InputError on a malformed position, another board width, or burnt holes
// outside Congkak.
GameState state_at(const std::shared_ptr<const GameSpec>& game, const std::string& notation);

// A directory argument taken as Python's own functions take one: os.fspath
// of a str, bytes or os.PathLike (its TypeError for anything else), and
// ValueError "embedded null byte" as open() says (pybind11's own path
// conversion called both a TypeError of mismatched arguments).
std::filesystem::path path_argument(const py::object& path);

// A table directory argument (mancala.Tables(path), the solvers' tables=):
// path_argument(), then FileNotFoundError when nothing is there and
// NotADirectoryError when it is not a directory, with the tables' own
// message, as Python's os.listdir would.
std::filesystem::path table_directory_argument(const py::object& path);

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

MANCALA_PYTHON_REFUSE_UNINITIALISED(mancala::python::GameSpec);
template <>
class pybind11::detail::type_caster<std::shared_ptr<mancala::python::GameSpec>>
    : public mancala::python::InitialisedHolderCaster<mancala::python::GameSpec> {};
MANCALA_PYTHON_REFUSE_UNINITIALISED(mancala::python::GameState);
MANCALA_PYTHON_REFUSE_UNINITIALISED(mancala::python::OpenTables);
