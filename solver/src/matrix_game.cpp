#include "mancala/solver/matrix_game.hpp"

#include <glpk.h>

#include <memory>
#include <stdexcept>

namespace mancala::solver {
namespace {

using Int = boost::multiprecision::cpp_int;
using Matrix = std::vector<std::vector<Rational>>;

// Solves the square system m x = 1 exactly (Gauss-Jordan); false if singular.
bool solve_ones(Matrix m, std::vector<Rational>& x) {
  const std::size_t k = m.size();
  std::vector<Rational> rhs(k, Rational(1));
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t pivot = c;
    while (pivot < k && m[pivot][c] == 0) ++pivot;
    if (pivot == k) return false;
    std::swap(m[pivot], m[c]);
    std::swap(rhs[pivot], rhs[c]);
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c || m[r][c] == 0) continue;
      const Rational f = m[r][c] / m[c][c];
      for (std::size_t j = c; j < k; ++j) m[r][j] -= f * m[c][j];
      rhs[r] -= f * rhs[c];
    }
  }
  x.resize(k);
  for (std::size_t c = 0; c < k; ++c) x[c] = rhs[c] / m[c][c];
  return true;
}

struct LpDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

// The exact solution of the positive game b that GLPK's final basis names:
// basic u's and binding columns.  False if the basis does not give a checked
// equilibrium.
bool solution_from_basis(const Matrix& b, glp_prob* lp, std::vector<Rational>& x, std::vector<Rational>& y,
                         Rational& value) {
  const std::size_t rows = b.size(), cols = b[0].size();
  std::vector<std::size_t> basic_u, binding;  // game rows with u basic; game columns whose constraint binds
  for (std::size_t i = 0; i < rows; ++i)
    if (glp_get_col_stat(lp, int(i + 1)) == GLP_BS) basic_u.push_back(i);
  for (std::size_t j = 0; j < cols; ++j)
    if (glp_get_row_stat(lp, int(j + 1)) != GLP_BS) binding.push_back(j);
  if (basic_u.empty() || basic_u.size() != binding.size()) return false;
  const std::size_t k = basic_u.size();
  Matrix primal(k, std::vector<Rational>(k)), dual(k, std::vector<Rational>(k));
  for (std::size_t r = 0; r < k; ++r)
    for (std::size_t c = 0; c < k; ++c) {
      primal[r][c] = b[basic_u[c]][binding[r]];  // sum over basic u of b[i][j] u_i = 1 for binding j
      dual[c][r] = primal[r][c];                 // sum over binding j of b[i][j] y_j = 1 for basic i
    }
  std::vector<Rational> u_basic, y_binding;
  if (!solve_ones(primal, u_basic) || !solve_ones(dual, y_binding)) return false;
  std::vector<Rational> u(rows), w(cols);
  for (std::size_t c = 0; c < k; ++c) u[basic_u[c]] = u_basic[c];
  for (std::size_t r = 0; r < k; ++r) w[binding[r]] = y_binding[r];
  Rational su = 0, sw = 0;
  for (const Rational& v : u) {
    if (v < 0) return false;
    su += v;
  }
  for (const Rational& v : w) {
    if (v < 0) return false;
    sw += v;
  }
  if (su <= 0 || su != sw) return false;
  value = 1 / su;
  x.resize(rows);
  y.resize(cols);
  for (std::size_t i = 0; i < rows; ++i) x[i] = u[i] * value;
  for (std::size_t j = 0; j < cols; ++j) y[j] = w[j] * value;
  return is_equilibrium(b, x, y, value);
}

}  // namespace

std::string rational_text(const Rational& r) {
  const Int num = boost::multiprecision::numerator(r);
  const Int den = boost::multiprecision::denominator(r);
  return den == 1 ? num.str() : num.str() + "/" + den.str();
}

bool is_equilibrium(const Matrix& a, const std::vector<Rational>& x, const std::vector<Rational>& y,
                    const Rational& v) {
  const std::size_t rows = a.size(), cols = a[0].size();
  if (x.size() != rows || y.size() != cols) return false;
  Rational sx = 0, sy = 0;
  for (const Rational& p : x) {
    if (p < 0) return false;
    sx += p;
  }
  for (const Rational& p : y) {
    if (p < 0) return false;
    sy += p;
  }
  if (sx != 1 || sy != 1) return false;
  for (std::size_t j = 0; j < cols; ++j) {  // the column player's pure replies to x
    Rational payoff = 0;
    for (std::size_t i = 0; i < rows; ++i) payoff += x[i] * a[i][j];
    if (payoff < v) return false;
  }
  for (std::size_t i = 0; i < rows; ++i) {  // the row player's pure replies to y
    Rational payoff = 0;
    for (std::size_t j = 0; j < cols; ++j) payoff += a[i][j] * y[j];
    if (payoff > v) return false;
  }
  return true;
}

MatrixGameSolution solve_matrix_game(const Matrix& a) {
  if (a.empty() || a[0].empty()) throw std::logic_error("matrix game without strategies");
  const std::size_t rows = a.size(), cols = a[0].size();
  for (const auto& row : a)
    if (row.size() != cols) throw std::logic_error("matrix game with rows of different lengths");
  MatrixGameSolution s;

  // A pure saddle point: the best row minimum equals the best column maximum.
  std::size_t best_row = 0, best_col = 0;
  Rational lower, upper;
  for (std::size_t i = 0; i < rows; ++i) {
    Rational low = a[i][0];
    for (std::size_t j = 1; j < cols; ++j) low = std::min(low, a[i][j]);
    if (i == 0 || low > lower) lower = low, best_row = i;
  }
  for (std::size_t j = 0; j < cols; ++j) {
    Rational high = a[0][j];
    for (std::size_t i = 1; i < rows; ++i) high = std::max(high, a[i][j]);
    if (j == 0 || high < upper) upper = high, best_col = j;
  }
  if (lower == upper) {
    s.value = lower;
    s.row_strategy.assign(rows, Rational(0));
    s.column_strategy.assign(cols, Rational(0));
    s.row_strategy[best_row] = 1;
    s.column_strategy[best_col] = 1;
    s.saddle_point = std::make_pair(int(best_row), int(best_col));
    return s;
  }

  // Integer entries (times the denominators' lcm), shifted to be >= 1 so that
  // the value is positive and the linear program is bounded.
  Int scale = 1;
  for (const auto& row : a)
    for (const Rational& v : row) {
      const Int d = boost::multiprecision::denominator(v);
      scale = scale / boost::multiprecision::gcd(scale, d) * d;
    }
  Matrix b(rows, std::vector<Rational>(cols));
  Rational least;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      b[i][j] = a[i][j] * Rational(scale);
      if ((i == 0 && j == 0) || b[i][j] < least) least = b[i][j];
    }
  const Rational shift = least - 1;
  for (auto& row : b)
    for (Rational& v : row) v -= shift;

  std::unique_ptr<glp_prob, LpDeleter> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  glp_add_rows(lp.get(), int(cols));
  glp_add_cols(lp.get(), int(rows));
  for (std::size_t j = 0; j < cols; ++j) glp_set_row_bnds(lp.get(), int(j + 1), GLP_LO, 1.0, 0.0);
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  for (std::size_t i = 0; i < rows; ++i) {
    glp_set_col_bnds(lp.get(), int(i + 1), GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp.get(), int(i + 1), 1.0);
    for (std::size_t j = 0; j < cols; ++j) {
      ia.push_back(int(j + 1));
      ja.push_back(int(i + 1));
      ar.push_back(b[i][j].convert_to<double>());
    }
  }
  glp_load_matrix(lp.get(), int(ar.size() - 1), ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;  // per call: GLPK's terminal switch is process-wide
  Rational shifted_value;
  bool ok = glp_simplex(lp.get(), &parm) == 0 &&
            solution_from_basis(b, lp.get(), s.row_strategy, s.column_strategy, shifted_value);
  if (!ok) {
    s.used_exact_simplex = true;
    ok = glp_exact(lp.get(), &parm) == 0 &&
         solution_from_basis(b, lp.get(), s.row_strategy, s.column_strategy, shifted_value);
  }
  if (!ok) throw std::logic_error("matrix game: no exactly checked equilibrium from GLPK's basis");
  s.value = (shifted_value + shift) / Rational(scale);
  // GLPK keeps an environment per thread until glp_free_env; freeing it here
  // (no GLPK object is left) keeps no state between calls and leaks nothing
  // when a worker thread of solve_opening ends.
  lp.reset();
  glp_free_env();
  return s;
}

}  // namespace mancala::solver
