// The brute-force oracle of Congkak's simultaneous opening.  See
// opening_oracle.hpp for the model.  Deliberately plain: the opening is
// played tick by tick, stone by stone, on copies of the board; the choice
// points are memoized in a std::map keyed by text; matrix games are solved by
// support enumeration with exact rational Gaussian elimination.
#include "oracle/opening_oracle.hpp"

#include <climits>
#include <map>
#include <memory>
#include <stdexcept>

namespace oracle {

// ---------------------------------------------------------------- fractions

std::string fraction_text(const Fraction& f) {
  // cpp_rational is kept normalized: lowest terms, positive denominator.
  const boost::multiprecision::cpp_int p = boost::multiprecision::numerator(f);
  const boost::multiprecision::cpp_int q = boost::multiprecision::denominator(f);
  if (q == 1) return p.str();
  return p.str() + "/" + q.str();
}

// ---------------------------------------------------------------- matrix games
//
// Support enumeration.  For every pair of equal-size row set I and column set
// J, solve
//     sum_{i in I} x_i a[i][j] = v  (j in J),   sum_{i in I} x_i = 1,
//     sum_{j in J} a[i][j] y_j = w  (i in I),   sum_{j in J} y_j = 1
// exactly; skip the pair if either system is singular.  Accept the first pair
// with x >= 0, y >= 0, v == w, every column's payoff against x >= v and every
// row's payoff against y <= v: such (x, y) is a saddle point, so v is the
// value (this check alone makes any accepted answer correct).  One always
// exists, degenerate games included: by the Shapley-Snow theorem every matrix
// game has a pair of extreme optimal strategies given by a square submatrix M
// with 1' adj(M) 1 != 0, which is exactly the condition for the two bordered
// systems above to be nonsingular (det [[M, -1], [1', 0]] = 1' adj(M) 1), and
// their unique solution is that pair.  Size 1 is the pure saddle point test.

namespace {

// Solves m x = rhs (square, exact); false if m is singular.
bool solve_linear(std::vector<std::vector<Fraction>> m, std::vector<Fraction> rhs, std::vector<Fraction>& x) {
  const std::size_t n = m.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    while (pivot < n && m[pivot][col] == 0) ++pivot;
    if (pivot == n) return false;
    std::swap(m[pivot], m[col]);
    std::swap(rhs[pivot], rhs[col]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0) continue;
      const Fraction factor = m[r][col] / m[col][col];
      for (std::size_t c = col; c < n; ++c) m[r][c] -= factor * m[col][c];
      rhs[r] -= factor * rhs[col];
    }
  }
  x.assign(n, Fraction(0));
  for (std::size_t r = 0; r < n; ++r) x[r] = rhs[r] / m[r][r];
  return true;
}

// All k-element subsets of {0..n-1}, ascending.
void subsets(int n, int k, int from, std::vector<int>& current, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int i = from; i < n; ++i) {
    current.push_back(i);
    subsets(n, k, i + 1, current, out);
    current.pop_back();
  }
}

std::vector<std::vector<int>> subsets(int n, int k) {
  std::vector<std::vector<int>> out;
  std::vector<int> current;
  subsets(n, k, 0, current, out);
  return out;
}

}  // namespace

MatrixGameSolution matrix_game_solve(const std::vector<std::vector<Fraction>>& a) {
  if (a.empty() || a[0].empty()) throw std::invalid_argument("matrix game: empty matrix");
  const int rows = static_cast<int>(a.size());
  const int cols = static_cast<int>(a[0].size());
  for (const auto& row : a)
    if (static_cast<int>(row.size()) != cols) throw std::invalid_argument("matrix game: ragged matrix");

  for (int k = 1; k <= std::min(rows, cols); ++k) {
    const std::vector<std::vector<int>> row_sets = subsets(rows, k);
    const std::vector<std::vector<int>> col_sets = subsets(cols, k);
    for (const std::vector<int>& I : row_sets) {
      for (const std::vector<int>& J : col_sets) {
        // Row player's system: unknowns x_I[0..k-1], v.
        std::vector<std::vector<Fraction>> m(k + 1, std::vector<Fraction>(k + 1, Fraction(0)));
        std::vector<Fraction> rhs(k + 1, Fraction(0));
        for (int e = 0; e < k; ++e) {
          for (int u = 0; u < k; ++u) m[e][u] = a[I[u]][J[e]];
          m[e][k] = -1;
        }
        for (int u = 0; u < k; ++u) m[k][u] = 1;
        rhs[k] = 1;
        std::vector<Fraction> xs;
        if (!solve_linear(m, rhs, xs)) continue;
        // Column player's system: unknowns y_J[0..k-1], w.
        for (int e = 0; e < k; ++e) {
          for (int u = 0; u < k; ++u) m[e][u] = a[I[e]][J[u]];
          m[e][k] = -1;
        }
        std::vector<Fraction> ys;
        if (!solve_linear(m, rhs, ys)) continue;
        const Fraction v = xs[k];
        if (ys[k] != v) continue;
        bool ok = true;
        for (int u = 0; u < k; ++u) ok = ok && xs[u] >= 0 && ys[u] >= 0;
        if (!ok) continue;
        std::vector<Fraction> x(rows, Fraction(0)), y(cols, Fraction(0));
        for (int u = 0; u < k; ++u) {
          x[I[u]] = xs[u];
          y[J[u]] = ys[u];
        }
        for (int j = 0; j < cols && ok; ++j) {
          Fraction payoff = 0;
          for (int i = 0; i < rows; ++i) payoff += x[i] * a[i][j];
          ok = payoff >= v;  // no column does better for the minimizer than v
        }
        for (int i = 0; i < rows && ok; ++i) {
          Fraction payoff = 0;
          for (int j = 0; j < cols; ++j) payoff += a[i][j] * y[j];
          ok = payoff <= v;  // no row does better for the maximizer than v
        }
        if (ok) return MatrixGameSolution{v, x, y};
      }
    }
  }
  throw std::logic_error("matrix game: no equilibrium found (cannot happen)");
}

Fraction matrix_game_value(const std::vector<std::vector<Fraction>>& a) { return matrix_game_solve(a).value; }

// ---------------------------------------------------------------- the opening

namespace {

int row_sum(const std::vector<int>& row) {
  int total = 0;
  for (int seeds : row) total += seeds;
  return total;
}

// A spot on the board, absolute: a hole of South's or North's row, or one of
// the two stores.
enum Place { kSouthRow, kNorthRow, kSouthStore, kNorthStore };
struct Spot {
  Place place = kSouthRow;
  int pit = 0;  // 0-based hole index (unused for stores)
};

Place own_row(bool south) { return south ? kSouthRow : kNorthRow; }
Place other_row(bool south) { return south ? kNorthRow : kSouthRow; }
Place own_store(bool south) { return south ? kSouthStore : kNorthStore; }

int& seeds_at(Board& b, Spot s) {
  switch (s.place) {
    case kSouthRow: return b.south[s.pit];
    case kNorthRow: return b.north[s.pit];
    case kSouthStore: return b.south_store;
    case kNorthStore: return b.north_store;
  }
  throw std::logic_error("opening oracle: bad spot");
}

bool burnt_at(const Board& b, Spot s) {
  if (s.place == kSouthRow) return b.south_burnt[s.pit];
  if (s.place == kNorthRow) return b.north_burnt[s.pit];
  return false;
}

// The next spot on the path of `south`'s hand: own holes 1..m, own store,
// the opponent's holes 1..m, own hole 1, ...; burnt holes skipped.
Spot next_spot(const Board& b, bool south, Spot s) {
  do {
    if (s.place == own_row(south)) {
      s = s.pit + 1 < b.m ? Spot{own_row(south), s.pit + 1} : Spot{own_store(south), 0};
    } else if (s.place == own_store(south)) {
      s = Spot{other_row(south), 0};
    } else if (s.place == other_row(south)) {
      s = s.pit + 1 < b.m ? Spot{other_row(south), s.pit + 1} : Spot{own_row(south), 0};
    } else {
      throw std::logic_error("opening oracle: a hand in the opponent's store");
    }
  } while (burnt_at(b, s));
  return s;
}

enum Status { kSowing, kChoosing, kDone };
struct Hand {
  Status status = kChoosing;
  int seeds = 0;     // stones in the hand (kSowing)
  Spot pos;          // the spot of the last drop or of the lifted hole (kSowing)
  long done_tick = 0;  // (kDone)
};

std::string hand_key(const Hand& h) {
  if (h.status == kDone) return "D";
  if (h.status == kChoosing) return "C";
  return "S" + std::to_string(h.seeds) + "@" + std::to_string(static_cast<int>(h.pos.place)) + "." +
         std::to_string(h.pos.pit);
}

// Nonempty holes (1-based) of a row; burnt holes always hold 0.
std::vector<int> nonempty_holes(const std::vector<int>& row) {
  std::vector<int> holes;
  for (std::size_t i = 0; i < row.size(); ++i)
    if (row[i] > 0) holes.push_back(static_cast<int>(i) + 1);
  return holes;
}

// One drop of `south`'s hand at tick `tick`, resolved in full.
void drop(const Rules& rules, Board& b, bool south, Hand& h, long tick) {
  h.pos = next_spot(b, south, h.pos);
  seeds_at(b, h.pos) += 1;
  h.seeds -= 1;
  if (h.seeds > 0) return;
  // The last stone: a landing.
  if (h.pos.place == own_store(south)) {
    h.status = kChoosing;  // chooses at the end of this tick
    return;
  }
  int& here = seeds_at(b, h.pos);
  if (here >= 2) {  // the hole held stones before the drop: relay
    h.seeds = here;
    here = 0;
    return;
  }
  if (h.pos.place == own_row(south)) {  // empty own hole: capture per rule
    int& opp = seeds_at(b, Spot{other_row(south), b.m - 1 - h.pos.pit});
    if (!rules.needs_opposite || opp > 0) {
      seeds_at(b, Spot{own_store(south), 0}) += here + opp;
      here = 0;
      opp = 0;
    }
  }
  h.status = kDone;  // empty hole on either side
  h.done_tick = tick;
}

// Empties the chosen hole (1-based) of `south`'s row into the hand.
void take(Board& b, bool south, Hand& h, int hole) {
  const Spot s{own_row(south), hole - 1};
  h.status = kSowing;
  h.seeds = seeds_at(b, s);
  h.pos = s;
  seeds_at(b, s) = 0;
  if (h.seeds <= 0) throw std::logic_error("opening oracle: chose an empty hole");
}

// The state at the end of a tick, after the "row empty -> done" test, or the
// end of the opening.
struct Stop {
  Board board;
  Hand south, north;
  long tick = 0;
  bool leaf = false;  // both hands done (else at least one is choosing)
};

// End of tick `tick`: a chooser with an empty own row is done instead.
Stop end_of_tick(const Board& b, Hand s, Hand n, long tick) {
  if (s.status == kChoosing && row_sum(b.south) == 0) {
    s.status = kDone;
    s.done_tick = tick;
  }
  if (n.status == kChoosing && row_sum(b.north) == 0) {
    n.status = kDone;
    n.done_tick = tick;
  }
  Stop stop{b, s, n, tick, false};
  stop.leaf = s.status == kDone && n.status == kDone;
  return stop;
}

// Plays ticks tick+1, tick+2, ... from a state where no hand is choosing,
// until the end of a tick where some hand chooses or both are done.
Stop run(const Rules& rules, Board b, Hand s, Hand n, long tick) {
  const long limit = tick + 10'000'000;
  while (true) {
    ++tick;
    if (tick > limit) throw std::logic_error("opening oracle: endless opening");
    if (s.status == kSowing) drop(rules, b, true, s, tick);   // South's drop first...
    if (n.status == kSowing) drop(rules, b, false, n, tick);  // ...then North's
    Stop stop = end_of_tick(b, s, n, tick);
    if (stop.leaf || stop.south.status == kChoosing || stop.north.status == kChoosing) return stop;
    s = stop.south;
    n = stop.north;
  }
}

Board handover_of(const Stop& stop) {
  Board h = stop.board;
  h.south_to_move = stop.south.done_tick <= stop.north.done_tick;  // earlier done moves first; South on a tie
  return h;
}

struct Solver {
  const Rules& rules;
  const LeafValue& leaf;
  // Values of choice points.  The key leaves out the ticks: at a choice point
  // at most one hand is done, and if one is, the other is done at a later
  // tick, so the done hand moves first whatever the ticks; if none is, only
  // ticks still to come decide.
  std::map<std::string, Fraction> memo;

  Fraction value(const Stop& stop) {
    if (stop.leaf) return leaf(handover_of(stop));
    const std::string key = format(stop.board) + "|" + hand_key(stop.south) + "|" + hand_key(stop.north);
    auto found = memo.find(key);
    if (found != memo.end()) return found->second;
    Fraction v = 0;
    const bool south_chooses = stop.south.status == kChoosing;
    const bool north_chooses = stop.north.status == kChoosing;
    const std::vector<int> south_holes = nonempty_holes(stop.board.south);
    const std::vector<int> north_holes = nonempty_holes(stop.board.north);
    if (south_chooses && north_chooses) {
      std::vector<std::vector<Fraction>> a(south_holes.size(), std::vector<Fraction>(north_holes.size()));
      for (std::size_t r = 0; r < south_holes.size(); ++r)
        for (std::size_t c = 0; c < north_holes.size(); ++c) a[r][c] = after_choices(stop, south_holes[r], north_holes[c]);
      v = matrix_game_value(a);
    } else if (south_chooses) {
      bool first = true;
      for (int i : south_holes) {
        const Fraction x = after_choices(stop, i, 0);
        if (first || x > v) v = x;
        first = false;
      }
    } else if (north_chooses) {
      bool first = true;
      for (int j : north_holes) {
        const Fraction x = after_choices(stop, 0, j);
        if (first || x < v) v = x;
        first = false;
      }
    } else {
      throw std::logic_error("opening oracle: a choice point without a chooser");
    }
    memo.emplace(key, v);
    return v;
  }

  // South takes hole i, North hole j (0 = that hand does not choose now).
  Fraction after_choices(const Stop& stop, int i, int j) {
    Board b = stop.board;
    Hand s = stop.south, n = stop.north;
    if (i > 0) take(b, true, s, i);
    if (j > 0) take(b, false, n, j);
    return value(run(rules, b, s, n, stop.tick));
  }
};

void check_opening_args(const Rules& rules, const Board& b) {
  if (rules.game != "congkak") throw std::invalid_argument("opening oracle: the simultaneous opening is Congkak's");
  if (b.m < 1 || static_cast<int>(b.south.size()) != b.m || static_cast<int>(b.north.size()) != b.m ||
      static_cast<int>(b.south_burnt.size()) != b.m || static_cast<int>(b.north_burnt.size()) != b.m)
    throw std::invalid_argument("opening oracle: malformed board");
}

// The root, "end of tick 0": both hands choose.
Stop root_stop(const Board& b) {
  Hand s, n;  // both kChoosing
  return end_of_tick(b, s, n, 0);
}

// Exact alternating value from the mover's view: memoized negamax over
// oracle::play, the memo keyed by oracle::format.
int negamax(const Rules& rules, const Board& b, std::map<std::string, int>& memo) {
  if (terminal(rules, b)) return final_value(b);
  const std::string key = format(b);
  auto found = memo.find(key);
  if (found != memo.end()) return found->second;
  int best = INT_MIN;
  for (int pit : legal_moves(rules, b)) {
    bool extra = false, over = false;
    const Board child = play(rules, b, pit, extra, over);
    const int v = negamax(rules, child, memo);
    best = std::max(best, child.south_to_move == b.south_to_move ? v : -v);
  }
  if (best == INT_MIN) throw std::logic_error("opening oracle: non-terminal position without moves");
  memo.emplace(key, best);
  return best;
}

}  // namespace

OpeningResult opening(const Rules& rules, const Board& b, const LeafValue& leaf) {
  check_opening_args(rules, b);
  Solver solver{rules, leaf, {}};
  OpeningResult result;
  result.root_matrix.assign(b.m, std::vector<Fraction>(b.m, Fraction(0)));
  const Stop root = root_stop(b);
  if (root.south.status == kChoosing && root.north.status == kChoosing) {
    for (int i : nonempty_holes(b.south))
      for (int j : nonempty_holes(b.north)) result.root_matrix[i - 1][j - 1] = solver.after_choices(root, i, j);
  }
  result.value = solver.value(root);  // the matrix game over the same entries (memoized)
  return result;
}

OpeningResult opening(const Rules& rules, const Board& b) {
  auto memo = std::make_shared<std::map<std::string, int>>();
  const LeafValue leaf = [&rules, memo](const Board& h) -> Fraction {
    if (row_sum(h.south) == 0 || row_sum(h.north) == 0)  // the round is over: sweep
      return Fraction((h.south_store + row_sum(h.south)) - (h.north_store + row_sum(h.north)));
    const int v = negamax(rules, h, *memo);  // mover's view
    return Fraction(h.south_to_move ? v : -v);
  };
  return opening(rules, b, leaf);
}

bool forced_handover(const Rules& rules, const Board& b, int i, int j, Board& handover) {
  check_opening_args(rules, b);
  if (i < 1 || i > b.m || b.south[i - 1] <= 0) throw std::invalid_argument("forced_handover: South hole is empty");
  if (j < 1 || j > b.m || b.north[j - 1] <= 0) throw std::invalid_argument("forced_handover: North hole is empty");
  Board board = b;
  Hand s, n;
  take(board, true, s, i);
  take(board, false, n, j);
  const Stop stop = run(rules, board, s, n, 0);
  if (!stop.leaf) return false;  // a hand chooses again
  handover = handover_of(stop);
  return true;
}

}  // namespace oracle
