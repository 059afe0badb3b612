#include "mancala/solver/opening_solver.hpp"

#include <atomic>
#include <bit>
#include <exception>
#include <mutex>
#include <thread>

#include "mancala/rules.hpp"

namespace mancala::solver {
namespace {

// Every byte of the state that can differ: the memo key.
std::string state_key(const OpeningState& s) {
  const Position& b = s.board;
  std::string key;
  key.reserve(2 * std::size_t(b.m()) + 16);
  key.push_back(char(b.m()));
  for (int i = 0; i < 2 * b.m(); ++i) key.push_back(char(b.pits[std::size_t(i)]));
  key.push_back(char(b.store[0]));
  key.push_back(char(b.store[1]));
  for (int k = 0; k < 4; ++k) key.push_back(char((b.burnt >> (8 * k)) & 0xff));
  for (const OpeningHand& h : s.hand) {
    key.push_back(char(h.phase));
    key.push_back(char(h.at));
    key.push_back(char(h.in_hand));
  }
  key.push_back(char(s.any_done ? 1 + int(s.first_done) : 0));
  return key;
}

std::vector<int> holes_of(MoveMask mask) {
  std::vector<int> holes;
  for (; mask; mask &= mask - 1) holes.push_back(std::countr_zero(mask) + 1);
  return holes;
}

}  // namespace

std::size_t PositionHash::operator()(const Position& p) const {
  std::size_t h = 1469598103934665603ull ^ p.pits_per_side ^ (std::size_t(p.to_move) << 8) ^ (std::size_t(p.burnt) << 16);
  for (int i = 0; i < 2 * p.m(); ++i) h = (h ^ p.pits[std::size_t(i)]) * 1099511628211ull;
  h = (h ^ p.store[0]) * 1099511628211ull;
  return (h ^ p.store[1]) * 1099511628211ull;
}

StoreDifferenceValue::StoreDifferenceValue(const Ruleset& rules, const SolveOptions& options) : solver_(rules, options) {}

int StoreDifferenceValue::solve_mover(const Position& p) {
  const auto it = cache_.find(p);
  if (it != cache_.end()) return it->second;
  const SolveResult r = solver_.solve(p);
  ++solved_;
  nodes_ += r.nodes;
  cache_.emplace(p, r.value);
  return r.value;
}

Rational StoreDifferenceValue::south_value(const Position& handover) {
  const int v = solve_mover(handover);
  return Rational(handover.to_move == Side::South ? v : -v);
}

OpeningSolver::OpeningSolver(const Ruleset& rules, HandoverValue& handover, OpeningTiming timing, OpeningTally* tally)
    : opening_(rules, timing), handover_(handover), tally_(tally) {}

OpeningSolver::Decision OpeningSolver::decide(const OpeningState& s) {
  const std::vector<int> south = holes_of(opening_.choices(s, Side::South));
  const std::vector<int> north = holes_of(opening_.choices(s, Side::North));
  auto after = [&](int i, int j) {
    OpeningState child = s;
    opening_.advance(child, i, j);
    return value(child);
  };
  Decision d;
  if (!south.empty() && !north.empty()) {
    std::vector<std::vector<Rational>> a(south.size(), std::vector<Rational>(north.size()));
    for (std::size_t r = 0; r < south.size(); ++r)
      for (std::size_t c = 0; c < north.size(); ++c) a[r][c] = after(south[r], north[c]);
    const MatrixGameSolution g = solve_matrix_game(a);
    auto likeliest = [](const std::vector<Rational>& p) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < p.size(); ++k)
        if (p[k] > p[best]) best = k;
      return best;
    };
    d.value = g.value;
    d.south_hole = south[likeliest(g.row_strategy)];
    d.north_hole = north[likeliest(g.column_strategy)];
    d.simultaneous = true;
    d.exact_simplex = g.used_exact_simplex;
  } else if (!south.empty()) {
    for (std::size_t r = 0; r < south.size(); ++r)
      if (const Rational x = after(south[r], 0); r == 0 || x > d.value) d.value = x, d.south_hole = south[r];
  } else {
    for (std::size_t c = 0; c < north.size(); ++c)
      if (const Rational x = after(0, north[c]); c == 0 || x < d.value) d.value = x, d.north_hole = north[c];
  }
  return d;
}

Rational OpeningSolver::value(const OpeningState& s) {
  const std::string key = state_key(s);
  if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
  Rational v;
  if (s.over()) {
    ++counts_.handovers;
    v = handover_.south_value(CongkakOpening::handover(s));
    if (tally_) tally_->handovers.fetch_add(1, std::memory_order_relaxed);
  } else {
    const Decision d = decide(s);
    counts_.simultaneous += d.simultaneous;
    counts_.exact_simplex += d.exact_simplex;
    v = d.value;
  }
  ++counts_.states;
  if (tally_) tally_->states.fetch_add(1, std::memory_order_relaxed);
  memo_.emplace(key, v);
  return v;
}

OpeningState OpeningSolver::follow(OpeningState s) {
  while (!s.over()) {
    const Decision d = decide(s);
    opening_.advance(s, d.south_hole, d.north_hole);
  }
  return s;
}

OpeningCounts& OpeningCounts::operator+=(const OpeningCounts& o) {
  states += o.states;
  simultaneous += o.simultaneous;
  exact_simplex += o.exact_simplex;
  handovers += o.handovers;
  positions_solved += o.positions_solved;
  nodes += o.nodes;
  return *this;
}

OpeningCounts OpeningSolver::counts() const {
  OpeningCounts c = counts_;
  c.positions_solved = handover_.positions_solved();
  c.nodes = handover_.nodes();
  return c;
}

OpeningSolution OpeningSolver::root_solution(int pits, const std::vector<int>& south, const std::vector<int>& north,
                                             const std::vector<std::vector<Rational>>& entries) {
  OpeningSolution out;
  out.matrix.assign(std::size_t(pits), std::vector<std::optional<Rational>>(std::size_t(pits)));
  for (std::size_t r = 0; r < south.size(); ++r)
    for (std::size_t c = 0; c < north.size(); ++c)
      out.matrix[std::size_t(south[r] - 1)][std::size_t(north[c] - 1)] = entries[r][c];
  const MatrixGameSolution g = solve_matrix_game(entries);
  ++out.counts.simultaneous;
  out.counts.exact_simplex += g.used_exact_simplex;
  out.value = g.value;
  out.south_strategy.assign(std::size_t(pits), Rational(0));
  out.north_strategy.assign(std::size_t(pits), Rational(0));
  for (std::size_t r = 0; r < south.size(); ++r) out.south_strategy[std::size_t(south[r] - 1)] = g.row_strategy[r];
  for (std::size_t c = 0; c < north.size(); ++c) out.north_strategy[std::size_t(north[c] - 1)] = g.column_strategy[c];
  if (g.saddle_point)
    out.saddle_point = std::make_pair(south[std::size_t(g.saddle_point->first)], north[std::size_t(g.saddle_point->second)]);
  return out;
}

OpeningSolution OpeningSolver::solve(const Position& board, const std::function<void(int, int)>& progress) {
  const OpeningState root = opening_.start(board);
  const std::vector<int> south = holes_of(opening_.choices(root, Side::South));
  const std::vector<int> north = holes_of(opening_.choices(root, Side::North));
  if (south.empty() || north.empty()) {  // a row is empty: no simultaneous choice at the root
    OpeningSolution out;
    out.value = value(root);
    out.counts = counts();
    return out;
  }
  std::vector<std::vector<Rational>> entries(south.size(), std::vector<Rational>(north.size()));
  const int total = int(south.size() * north.size());
  int done = 0;
  for (std::size_t r = 0; r < south.size(); ++r)
    for (std::size_t c = 0; c < north.size(); ++c) {
      OpeningState child = root;
      opening_.advance(child, south[r], north[c]);
      entries[r][c] = value(child);
      if (progress) progress(++done, total);
    }
  OpeningSolution out = root_solution(board.m(), south, north, entries);
  out.counts += counts();
  return out;
}

OpeningSolution solve_opening(const Ruleset& rules, const Position& board, int threads,
                              const std::function<std::unique_ptr<HandoverValue>()>& make_leaves, OpeningTiming timing,
                              const std::function<void(int, int)>& progress, OpeningTally* tally) {
  const CongkakOpening opening(rules, timing);
  const OpeningState root = opening.start(board);
  const std::vector<int> south = holes_of(opening.choices(root, Side::South));
  const std::vector<int> north = holes_of(opening.choices(root, Side::North));
  if (south.empty() || north.empty() || threads <= 1) {
    const std::unique_ptr<HandoverValue> leaves = make_leaves();
    OpeningSolver solver(rules, *leaves, timing, tally);
    return solver.solve(board, progress);
  }
  const int total = int(south.size() * north.size());
  std::vector<std::vector<Rational>> entries(south.size(), std::vector<Rational>(north.size()));
  std::atomic<int> next{0};
  std::mutex mutex;  // guards done, counts, failure and the progress calls
  int done = 0;
  OpeningCounts counts;
  std::exception_ptr failure;
  auto work = [&] {
    try {
      const std::unique_ptr<HandoverValue> leaves = make_leaves();
      OpeningSolver solver(rules, *leaves, timing, tally);
      for (int k; (k = next++) < total;) {
        const std::size_t r = std::size_t(k) / north.size(), c = std::size_t(k) % north.size();
        OpeningState child = root;
        opening.advance(child, south[r], north[c]);
        const Rational v = solver.value(child);
        const std::lock_guard<std::mutex> lock(mutex);
        entries[r][c] = v;
        if (progress) progress(++done, total);
      }
      const std::lock_guard<std::mutex> lock(mutex);
      counts += solver.counts();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      next = total;  // the others stop after their entry
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < std::min(threads, total); ++t) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  if (failure) std::rethrow_exception(failure);
  OpeningSolution out = OpeningSolver::root_solution(board.m(), south, north, entries);
  out.counts += counts;
  return out;
}

}  // namespace mancala::solver
