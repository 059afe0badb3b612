// mancala.State: a position of a game and the actions that led to it,
// OpenSpiel's State.
#include <pybind11/stl.h>

#include <bit>
#include <functional>

#include "bindings.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/valuation.hpp"

namespace mancala::python {

GameState::GameState(std::shared_ptr<const GameSpec> game, const Position& position, std::vector<int> history)
    : game_(std::move(game)), position_(position), history_(std::move(history)) {}

bool GameState::is_terminal() const { return mancala::is_terminal(rules(), position_); }

int GameState::current_player() const { return is_terminal() ? kTerminalPlayerId : int(position_.to_move); }

std::vector<int> GameState::legal_actions() const {
  std::vector<int> actions;
  for (MoveMask rest = legal_moves(rules(), position_); rest; rest &= rest - 1) actions.push_back(std::countr_zero(rest));
  return actions;
}

void GameState::apply_action(int action) {
  const int m = position_.m();
  if (action < 0 || action >= m)
    throw InputError("action " + std::to_string(action) + " is out of range 0.." + std::to_string(m - 1));
  try {
    apply_move(rules(), position_, action + 1);  // leaves the position unchanged when it throws
  } catch (const InputError& e) {
    throw InputError("action " + std::to_string(action) + ": " + e.what());
  }
  history_.push_back(action);
}

const char* result_name(int value) { return value > 0 ? "win" : value < 0 ? "loss" : "draw"; }

namespace {

// A player argument: 0 or 1, or (None) `fallback`.
Side side_of(std::optional<int> player, Side fallback) {
  if (!player) return fallback;
  if (*player != 0 && *player != 1)
    throw InputError("player must be 0 (South) or 1 (North), got " + std::to_string(*player));
  return Side(*player);
}

// The observing player of observation_tensor/observation_string: the given
// one, else the player to move, else (the game is over) player 0.
Side observer(const GameState& s, std::optional<int> player) {
  const int current = s.current_player();
  return side_of(player, current == kTerminalPlayerId ? Side::South : Side(current));
}

// Final store difference, South minus North, of a finished state.
int south_final_difference(const GameState& s) {
  const int v = terminal_value(s.position());
  return s.position().to_move == Side::South ? v : -v;
}

std::vector<double> returns(const GameState& s) {
  if (!s.is_terminal()) return {0.0, 0.0};
  const int d = south_final_difference(s);
  const double south = d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0;
  return {south, 0.0 - south};  // 0.0 - 0.0 is 0.0; -south would be -0.0 ("-0.0" in JSON) on a draw
}

std::vector<float> observation_tensor(const GameState& s, std::optional<int> player) {
  const Position& p = s.position();
  const Side me = observer(s, player);
  std::vector<float> t;
  t.reserve(std::size_t(2 * p.m() + 2));
  for (Side side : {me, other(me)})
    for (int pit = 1; pit <= p.m(); ++pit) t.push_back(float(p.seeds_at(side, pit)));
  t.push_back(float(p.store_of(me)));
  t.push_back(float(p.store_of(other(me))));
  return t;
}

std::string action_string(const GameState& s, Side player, int action) {
  if (action < 0 || action >= s.position().m())
    throw InputError("action " + std::to_string(action) + " is out of range 0.." + std::to_string(s.position().m() - 1));
  return std::string(player == Side::South ? "s" : "n") + std::to_string(action + 1);
}

std::string repr(const GameState& s) {
  return "<mancala.State " + s.rules().digest() + " '" + format_position(s.position()) + "'>";
}

bool same(const GameState& a, const GameState& b) { return a.rules() == b.rules() && a.position() == b.position(); }

}  // namespace

StateClass declare_state(py::module_& m) {
  return StateClass(m, "State", R"doc(A position of a game and the actions played to reach it (OpenSpiel's State).

Made by Game.new_initial_state() or Game.new_state(position).  Players: 0 is
South, 1 North; current_player() is TERMINAL_PLAYER_ID (-4) once the game is
over.  Action a plays pit a + 1 of the player to move (pits numbered in that
player's sowing order, as in the notation).  str(state) is the position in
the project's notation, and game.new_state(str(state)) gives it back.
Equal states have the same ruleset and position (histories may differ).
)doc");
}

void define_state(StateClass& cls) {
  cls.def("current_player", &GameState::current_player,
           "0 (South) or 1 (North) to move, or TERMINAL_PLAYER_ID (-4) when the game is over.")
      .def("is_terminal", &GameState::is_terminal,
           "True once the game is over (the player to move has no legal action).")
      .def("is_chance_node", [](const GameState&) { return false; }, "False: there is no chance.")
      .def("is_simultaneous_node", [](const GameState&) { return false; }, "False: the players take turns.")
      .def("is_player_node", [](const GameState& s) { return !s.is_terminal(); })
      .def(
          "legal_actions",
          [](const GameState& s, std::optional<int> player) {
            if (player && side_of(player, Side::South) != s.position().to_move) return std::vector<int>{};
            return s.legal_actions();
          },
          py::arg("player") = py::none(),
          "The legal actions, ascending (empty when the game is over, or for the player not to move).")
      .def(
          "legal_actions_mask",
          [](const GameState& s, std::optional<int> player) {
            std::vector<int> mask(std::size_t(s.position().m()), 0);
            if (player && side_of(player, Side::South) != s.position().to_move) return mask;
            for (int a : s.legal_actions()) mask[std::size_t(a)] = 1;
            return mask;
          },
          py::arg("player") = py::none(), "num_distinct_actions() entries, 1 where the action is legal.")
      .def("apply_action", &GameState::apply_action, py::arg("action"),
           "Plays the action in place; ValueError naming why if it is illegal (the state is then unchanged).")
      .def(
          "child",
          [](const GameState& s, int action) {
            GameState c = s;
            c.apply_action(action);
            return c;
          },
          py::arg("action"), "A new state: this one after the action.")
      .def("clone", [](const GameState& s) { return s; }, "An independent copy.")
      .def("__copy__", [](const GameState& s) { return s; })
      .def("__deepcopy__", [](const GameState& s, const py::dict&) { return s; }, py::arg("memo"))
      .def("history", &GameState::history, "The actions played from the state the game made.")
      .def("move_number", [](const GameState& s) { return s.history().size(); }, "len(history()).")
      .def("returns", &returns, R"doc([South's, North's] result: [1.0, -1.0] if South finished with more seeds in
its store, [-1.0, 1.0] if North did, [0.0, 0.0] for a draw, and [0.0, 0.0]
while the game is not over.  A position given over with seeds on the board is
scored with them swept into their owners' stores.
)doc")
      .def("rewards", &returns, "returns(): the only reward comes at the end.")
      .def(
          "player_return",
          [](const GameState& s, int player) { return returns(s)[std::size_t(side_of(player, Side::South))]; },
          py::arg("player"))
      .def(
          "store_difference",
          [](const GameState& s, std::optional<int> player) {
            const Side side = side_of(player, s.position().to_move);
            return s.position().store_of(side) - s.position().store_of(other(side));
          },
          py::arg("player") = py::none(), R"doc(The player's store minus the opponent's, as the stores are now; by default
for the side to move (to_move), the player solve()'s value belongs to, so that
solve(state).value - state.store_difference() is what the board is still worth.
)doc")
      .def("observation_tensor", &observation_tensor, py::arg("player") = py::none(),
           R"doc(2 * pits + 2 floats seen by `player` (default: the player to move,
or player 0 when the game is over): the observer's pits in sowing order
(pit 1 first), the opponent's pits in their sowing order, the observer's
store, the opponent's store.  A burnt hole (Congkak) counts 0.
)doc")
      .def(
          "observation_string",
          [](const GameState& s, std::optional<int> player) {
            observer(s, player);  // checks the argument
            return format_position(s.position());
          },
          py::arg("player") = py::none(), "The notation, str(state): perfect information, the same for both players.")
      .def(
          "action_to_string",
          [](const GameState& s, int action) {
            return action_string(s, s.is_terminal() ? s.position().to_move : Side(s.current_player()), action);
          },
          py::arg("action"), "The action of the player to move as side and pit: 's3' is South's pit 3 (action 2).")
      .def(
          "action_to_string",
          [](const GameState& s, int player, int action) { return action_string(s, side_of(player, Side::South), action); },
          py::arg("player"), py::arg("action"))
      .def("diagram", [](const GameState& s) { return diagram(s.position()); },
           "A board diagram for people: North's row on top, read right to left.")
      .def("get_game", [](const GameState& s) { return std::const_pointer_cast<GameSpec>(s.game()); })
      .def_property_readonly("game", [](const GameState& s) { return std::const_pointer_cast<GameSpec>(s.game()); })
      .def_property_readonly("to_move", [](const GameState& s) { return int(s.position().to_move); },
                             "0 (South) or 1 (North): the side to move in the notation, also once the game is over.")
      .def_property_readonly("pits_per_side", [](const GameState& s) { return s.position().m(); })
      .def("__str__", [](const GameState& s) { return format_position(s.position()); })
      .def("__repr__", &repr)
      .def("__eq__", &same, py::is_operator())
      .def("__ne__", [](const GameState& a, const GameState& b) { return !same(a, b); }, py::is_operator())
      .def("__hash__",
           [](const GameState& s) { return py::hash(py::make_tuple(s.rules().digest(), format_position(s.position()))); })
      .def(py::pickle(
          [](const GameState& s) {
            return py::make_tuple(std::const_pointer_cast<GameSpec>(s.game()), format_position(s.position()), s.history());
          },
          [](const py::tuple& t) {
            // A pickle is input like any other: its parts are checked, and a
            // part of the wrong type is named here rather than by pybind11's
            // RuntimeError ("Unable to cast Python instance").
            if (t.size() != 3) throw InputError("bad pickled mancala.State: not (game, position, history)");
            std::shared_ptr<GameSpec> game;
            std::string position;
            std::vector<int> history;
            try {
              game = t[0].cast<std::shared_ptr<GameSpec>>();
              position = t[1].cast<std::string>();
              history = t[2].cast<std::vector<int>>();
            } catch (const py::cast_error&) {
              throw InputError("bad pickled mancala.State: not (mancala.Game, str, list of int)");
            }
            if (!game) throw InputError("bad pickled mancala.State: no game");
            GameState s = state_at(game, position);
            for (const int action : history)
              if (action < 0 || action >= game->pits())
                throw InputError("bad pickled mancala.State: history action " + std::to_string(action) +
                                 " is not an action 0.." + std::to_string(game->pits() - 1));
            return GameState(s.game(), s.position(), std::move(history));
          }));
}

}  // namespace mancala::python
