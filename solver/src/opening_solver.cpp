#include "mancala/solver/opening_solver.hpp"

#include <bit>

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

std::size_t StoreDifferenceValue::Hash::operator()(const Position& p) const {
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

OpeningSolver::OpeningSolver(const Ruleset& rules, HandoverValue& handover, OpeningTiming timing)
    : opening_(rules, timing), handover_(handover) {}

Rational OpeningSolver::value(const OpeningState& s) {
  const std::string key = state_key(s);
  if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
  Rational v;
  if (s.over()) {
    ++counts_.handovers;
    v = handover_.south_value(CongkakOpening::handover(s));
  } else {
    const std::vector<int> south = holes_of(opening_.choices(s, Side::South));
    const std::vector<int> north = holes_of(opening_.choices(s, Side::North));
    auto after = [&](int i, int j) {
      OpeningState child = s;
      opening_.advance(child, i, j);
      return value(child);
    };
    if (!south.empty() && !north.empty()) {
      std::vector<std::vector<Rational>> a(south.size(), std::vector<Rational>(north.size()));
      for (std::size_t r = 0; r < south.size(); ++r)
        for (std::size_t c = 0; c < north.size(); ++c) a[r][c] = after(south[r], north[c]);
      const MatrixGameSolution g = solve_matrix_game(a);
      ++counts_.simultaneous;
      counts_.exact_simplex += g.used_exact_simplex;
      v = g.value;
    } else if (!south.empty()) {
      for (std::size_t r = 0; r < south.size(); ++r) {
        const Rational x = after(south[r], 0);
        if (r == 0 || x > v) v = x;
      }
    } else {
      for (std::size_t c = 0; c < north.size(); ++c) {
        const Rational x = after(0, north[c]);
        if (c == 0 || x < v) v = x;
      }
    }
  }
  ++counts_.states;
  memo_.emplace(key, v);
  return v;
}

OpeningState OpeningSolver::follow(OpeningState s) {
  while (!s.over()) {
    const std::vector<int> south = holes_of(opening_.choices(s, Side::South));
    const std::vector<int> north = holes_of(opening_.choices(s, Side::North));
    auto after = [&](int i, int j) {
      OpeningState child = s;
      opening_.advance(child, i, j);
      return value(child);
    };
    int i = 0, j = 0;
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
      i = south[likeliest(g.row_strategy)];
      j = north[likeliest(g.column_strategy)];
    } else if (!south.empty()) {
      Rational best;
      for (std::size_t r = 0; r < south.size(); ++r)
        if (const Rational x = after(south[r], 0); r == 0 || x > best) best = x, i = south[r];
    } else {
      Rational best;
      for (std::size_t c = 0; c < north.size(); ++c)
        if (const Rational x = after(0, north[c]); c == 0 || x < best) best = x, j = north[c];
    }
    opening_.advance(s, i, j);
  }
  return s;
}

OpeningSolution OpeningSolver::solve(const Position& board, const std::function<void(int, int)>& progress) {
  OpeningSolution out;
  const OpeningState root = opening_.start(board);
  const int m = board.m();
  const std::vector<int> south = holes_of(opening_.choices(root, Side::South));
  const std::vector<int> north = holes_of(opening_.choices(root, Side::North));
  if (south.empty() || north.empty()) {  // a row is empty: no simultaneous choice at the root
    out.value = value(root);
    out.counts = counts_;
    return out;
  }
  out.matrix.assign(std::size_t(m), std::vector<std::optional<Rational>>(std::size_t(m)));
  std::vector<std::vector<Rational>> a(south.size(), std::vector<Rational>(north.size()));
  const int total = int(south.size() * north.size());
  int done = 0;
  for (std::size_t r = 0; r < south.size(); ++r)
    for (std::size_t c = 0; c < north.size(); ++c) {
      OpeningState child = root;
      opening_.advance(child, south[r], north[c]);
      a[r][c] = value(child);
      out.matrix[std::size_t(south[r] - 1)][std::size_t(north[c] - 1)] = a[r][c];
      if (progress) progress(++done, total);
    }
  const MatrixGameSolution g = solve_matrix_game(a);
  ++counts_.simultaneous;
  counts_.exact_simplex += g.used_exact_simplex;
  out.value = g.value;
  out.south_strategy.assign(std::size_t(m), Rational(0));
  out.north_strategy.assign(std::size_t(m), Rational(0));
  for (std::size_t r = 0; r < south.size(); ++r) out.south_strategy[std::size_t(south[r] - 1)] = g.row_strategy[r];
  for (std::size_t c = 0; c < north.size(); ++c) out.north_strategy[std::size_t(north[c] - 1)] = g.column_strategy[c];
  if (g.saddle_point) out.saddle_point = std::make_pair(south[std::size_t(g.saddle_point->first)], north[std::size_t(g.saddle_point->second)]);
  out.counts = counts_;
  return out;
}

}  // namespace mancala::solver
