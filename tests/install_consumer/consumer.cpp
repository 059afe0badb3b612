// Plays a move with the engine and solves a small board with the solver,
// through the installed headers and libraries only.
#include <iostream>

#include "mancala/engine.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/solver.hpp"

int main() {
  const mancala::Ruleset kalah{.game = mancala::Game::Kalah};
  mancala::Position p = mancala::start_position(3, 2);
  mancala::apply_move(kalah, p, 1);
  mancala::solver::Solver solver(kalah, {.threads = 1, .tt_megabytes = 4});
  const auto r = solver.solve(p);
  std::cout << mancala::format_position(p) << " value " << r.value << "\n";
  return 0;
}
