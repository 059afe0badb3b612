// Zero-sum matrix games solved exactly: the simultaneous choices of Congkak's
// opening.
//
// Values are exact rationals (Boost.Multiprecision).  A game with a pure
// saddle point is read off directly.  Otherwise GLPK's simplex method solves
// the usual linear program (entries scaled to integers and shifted positive;
// minimise sum u subject to A'u >= 1, u >= 0) and only its final basis is
// used: the strategies are recomputed from that basis in exact arithmetic and
// the equilibrium is checked exactly (every pure reply of either player is no
// better than the value).  A basis that fails the check (floating-point
// trouble on a degenerate game) is handed to GLPK's exact rational simplex
// (glp_exact) and checked again; a game that fails both is an error, never a
// value.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mancala::solver {

using Rational = boost::multiprecision::cpp_rational;

// "p/q" in lowest terms with q > 0, or "p" when q is 1.
std::string rational_text(const Rational& r);

struct MatrixGameSolution {
  Rational value;                       // the row player's (maximiser's) value
  std::vector<Rational> row_strategy;   // optimal mixed strategies, summing to 1
  std::vector<Rational> column_strategy;
  std::optional<std::pair<int, int>> saddle_point;  // 0-based (row, column) of a pure equilibrium
  bool used_exact_simplex = false;      // the floating-point basis failed the check
};

// a[row][column], the row player's payoff; every row the same length, at
// least one row and column.  Throws std::logic_error if no exact equilibrium
// was found (not expected: see above).
MatrixGameSolution solve_matrix_game(const std::vector<std::vector<Rational>>& a);

// True if (x, y) is an equilibrium of a with value v: x and y are
// probability vectors, no column does better than v against x for the
// column player and no row better than v against y.
bool is_equilibrium(const std::vector<std::vector<Rational>>& a, const std::vector<Rational>& x,
                    const std::vector<Rational>& y, const Rational& v);

}  // namespace mancala::solver
