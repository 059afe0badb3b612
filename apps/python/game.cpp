// mancala.Game: a ruleset and a board, OpenSpiel's Game.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"

namespace mancala::python {

GameSpec::GameSpec(const Ruleset& rules, int pits, int seeds) : rules_(rules), pits_(pits), seeds_(seeds) {
  start_position(pits, seeds);  // throws InputError naming a bad board
}

std::string GameSpec::repr() const {
  std::string s = "mancala.Game('" + game_name(rules_.game) + "', pits=" + std::to_string(pits_) +
                  ", seeds=" + std::to_string(seeds_);
  if (rules_.game == mancala::Game::Kalah && rules_.empty_capture) s += ", empty_capture=True";
  if (rules_.game == mancala::Game::Oware && rules_.grand_slam != GrandSlam::NoCapture)
    s += ", grand_slam='" + grand_slam_name(rules_.grand_slam) + "'";
  if (rules_.game == mancala::Game::Congkak && rules_.congkak_capture != CongkakCapture::Always)
    s += ", capture='" + congkak_capture_name(rules_.congkak_capture) + "'";
  return s + ")";
}

GameState state_at(const std::shared_ptr<const GameSpec>& game, const std::string& notation) {
  const Position p = parse_position(notation);
  validate_for(game->rules(), p);
  if (p.m() != game->pits())
    throw InputError("the position '" + notation + "' has " + std::to_string(p.m()) + " pits a side; the game has " +
                     std::to_string(game->pits()));
  return GameState(game, p);
}

namespace {

// The ruleset of Game(name, ...): a game name and its options, or a ruleset
// digest ("oware+grand-slam=forbidden") alone.  The messages name the
// keyword arguments, as the command line's name its options.
Ruleset ruleset_of(const std::string& name, bool empty_capture, const std::optional<std::string>& grand_slam,
                   const std::optional<std::string>& capture) {
  if (name.find('+') != std::string::npos) {
    if (empty_capture || grand_slam || capture)
      throw InputError("the ruleset digest '" + name + "' cannot be combined with empty_capture, grand_slam or capture");
    return parse_digest(name);
  }
  Ruleset rules;
  rules.game = parse_game(name);
  if (empty_capture) {
    if (rules.game != mancala::Game::Kalah) throw InputError("empty_capture applies only to kalah, not " + name);
    rules.empty_capture = true;
  }
  if (grand_slam) {
    if (rules.game != mancala::Game::Oware) throw InputError("grand_slam applies only to oware, not " + name);
    rules.grand_slam = parse_grand_slam(*grand_slam);
  }
  if (capture) {
    if (rules.game != mancala::Game::Congkak) throw InputError("capture applies only to congkak, not " + name);
    rules.congkak_capture = parse_congkak_capture(*capture);
  }
  return rules;
}

std::shared_ptr<GameSpec> make_game(const std::string& name, std::optional<int> pits, std::optional<int> seeds,
                                    bool empty_capture, const std::optional<std::string>& grand_slam,
                                    const std::optional<std::string>& capture) {
  const Ruleset rules = ruleset_of(name, empty_capture, grand_slam, capture);
  return std::make_shared<GameSpec>(rules, pits.value_or(rules.default_pits()), seeds.value_or(rules.default_seeds()));
}

}  // namespace

GameClass declare_game(py::module_& m) {
  return GameClass(m, "Game", R"doc(A mancala game: a ruleset and the board of its initial state (OpenSpiel's Game).

Game(game="kalah", pits=None, seeds=None, *, empty_capture=False,
     grand_slam=None, capture=None)

game is "kalah", "brainking", "oware" or "congkak", or a ruleset digest such
as "kalah+empty-capture" (then without options).  pits (a side, 1..16) and
seeds (a pit, at most 255 seeds in all) default to the game's board (6 x 4;
Congkak 7 x 7).  Options, each only for its game:
  empty_capture  kalah: a last seed in an own empty house captures even when
                 the opposite house is empty (the rule of the published
                 Kalah solutions)
  grand_slam     oware: "no-capture" (default), "forbidden", "capture-all"
  capture        congkak: "always" (default) or "needs-opposite"
Bad names and options raise ValueError with the engine's message.
)doc");
}

void define_game(GameClass& cls) {
  cls.def(py::init(&make_game), py::arg("game") = "kalah", py::arg("pits") = py::none(),
           py::arg("seeds") = py::none(), py::kw_only(), py::arg("empty_capture") = false,
           py::arg("grand_slam") = py::none(), py::arg("capture") = py::none())
      .def("num_players", [](const GameSpec&) { return 2; }, "2: player 0 is South, player 1 North.")
      .def("num_distinct_actions", &GameSpec::pits,
           "The pits a side: action a plays pit a + 1 of the player to move.")
      .def("min_utility", [](const GameSpec&) { return -1.0; }, "-1.0: a loss.")
      .def("max_utility", [](const GameSpec&) { return 1.0; }, "+1.0: a win.")
      .def("utility_sum", [](const GameSpec&) { return 0.0; }, "0.0: the game is zero-sum.")
      .def("observation_tensor_shape", [](const GameSpec& g) { return std::vector<int>{2 * g.pits() + 2}; },
           "[2 * pits + 2]: both rows, then both stores (State.observation_tensor).")
      .def("observation_tensor_size", [](const GameSpec& g) { return 2 * g.pits() + 2; })
      .def("new_initial_state",
           [](const std::shared_ptr<GameSpec>& g) { return GameState(g, start_position(g->pits(), g->seeds())); },
           "The start position: seeds in every pit, empty stores, South to move.")
      .def("new_state",
           [](const std::shared_ptr<GameSpec>& g, const std::string& notation) { return state_at(g, notation); },
           py::arg("position"), R"doc(The state at a position in the project's notation,
'<south row>/<north row> <south store>-<north store> <s|n>', e.g.
'4,4,4/4,4,4 0-0 s' (rows in their owner's sowing order, 'x' a burnt hole in
Congkak).  ValueError on a malformed position, another number of pits a side,
or burnt holes outside Congkak.  Its history() starts empty.
)doc")
      .def_property_readonly("ruleset", [](const GameSpec& g) { return g.rules().digest(); },
                             "The ruleset digest, e.g. 'kalah+empty-capture' (as in table headers).")
      .def_property_readonly("name", [](const GameSpec& g) { return game_name(g.rules().game); })
      .def_property_readonly("pits_per_side", &GameSpec::pits)
      .def_property_readonly("seeds_per_pit", &GameSpec::seeds)
      .def("__repr__", &GameSpec::repr)
      .def("__str__", &GameSpec::repr)
      .def("__eq__", [](const GameSpec& a, const GameSpec& b) { return a == b; }, py::is_operator())
      .def("__hash__", [](const GameSpec& g) { return py::hash(py::make_tuple(g.rules().digest(), g.pits(), g.seeds())); })
      .def(py::pickle(
          [](const GameSpec& g) { return py::make_tuple(g.rules().digest(), g.pits(), g.seeds()); },
          [](const py::tuple& t) {
            if (t.size() != 3) throw InputError("bad pickled mancala.Game");
            return std::make_shared<GameSpec>(parse_digest(t[0].cast<std::string>()), t[1].cast<int>(),
                                              t[2].cast<int>());
          }));
}

}  // namespace mancala::python
