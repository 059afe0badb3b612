// The Python module `mancala`: the module, its conventions (the docstring),
// the exception mapping and the version; the parts are bound in game.cpp,
// state.cpp, solve.cpp and tables.cpp.
#include <pybind11/pybind11.h>

#include <exception>

#include "bindings.hpp"
#include "mancala/error.hpp"
#include "mancala/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(mancala, m) {
  m.doc() = R"doc(Exact game values for mancala games, in OpenSpiel's conventions.

    import mancala
    game = mancala.Game("kalah", pits=4, seeds=3)
    state = game.new_initial_state()
    state.apply_action(2)                 # South plays pit 3
    r = mancala.solve(state)              # r.value, r.result, r.best_action, r.pv
    mancala.analyze(state)                # [(action, value), ...], best first

Games: "kalah" (empty_capture=True for the published solutions' capture
rule), "brainking", "oware" (grand_slam="no-capture"|"forbidden"|
"capture-all") and "congkak" (capture="always"|"needs-opposite"; one round,
sequential start).

Conventions:
  * Players: 0 is South, 1 is North (SOUTH, NORTH); South moves first from the
    initial state.  State.current_player() is TERMINAL_PLAYER_ID (-4) once the
    game is over.  An extra turn (last seed in the own store) means the same
    player is to move again: always ask current_player().
  * Actions: 0 .. pits-1.  Action a plays pit a + 1 of the player to move,
    pits numbered in that player's sowing order (pit 1 farthest from the own
    store), as in the notation; solve()'s best_move and pv, and probes' pits,
    are these 1-based pit numbers, best_action an action.
  * Positions: str(state) is the project's notation,
    '<south row>/<north row> <south store>-<north store> <s|n>', each row in
    its owner's sowing order ('x' a burnt hole in Congkak);
    Game.new_state(text) parses it back.
  * Returns: [+1, -1] when South ends with more seeds in its store, [-1, +1]
    when North does, [0, 0] for a draw; [0, 0] before the end.
  * Values (solve, analyze, Tables.probe): the final store difference under
    perfect play, player to move minus opponent, stores included; 'win',
    'draw' or 'loss' is its sign for the player to move.
  * Observation tensor: 2 * pits + 2 floats for the observing player (default
    the player to move, player 0 once the game is over): own pits in sowing
    order, the opponent's pits in theirs, own store, opponent's store.
  * Errors: bad names, options, positions and illegal actions raise ValueError
    with the engine's message, as do probes of positions the tables do not
    cover; a missing table directory raises FileNotFoundError, a corrupt
    table file OSError.
  * There is no max_game_length(): Oware can cycle forever.
)doc";

  // The engine's input errors (mancala::InputError, also the tables'
  // TableError) are Python's ValueError.
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const mancala::InputError& error) {
      PyErr_SetString(PyExc_ValueError, error.what());
    }
  });

  m.attr("__version__") = mancala::version();
  m.attr("commit") = mancala::source_commit();
  m.attr("SOUTH") = 0;
  m.attr("NORTH") = 1;
  m.attr("TERMINAL_PLAYER_ID") = mancala::python::kTerminalPlayerId;
  m.attr("GAMES") = py::make_tuple("kalah", "brainking", "oware", "congkak");

  auto game = mancala::python::declare_game(m);
  auto state = mancala::python::declare_state(m);
  mancala::python::define_game(game);
  mancala::python::define_state(state);
  mancala::python::bind_solve(m);
  mancala::python::bind_tables(m);
}
