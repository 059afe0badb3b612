#include "mancala/solver/match_solver.hpp"

#include <array>
#include <bit>
#include <chrono>
#include <climits>
#include <unordered_map>

#include "mancala/congkak_match.hpp"
#include "mancala/error.hpp"
#include "mancala/rules.hpp"

namespace mancala::solver {

namespace {

// A round position and who started the round (the tie rule needs it).
struct RoundKey {
  Position p;
  Side starter;
  friend bool operator==(const RoundKey&, const RoundKey&) = default;
};

struct RoundKeyHash {
  std::size_t operator()(const RoundKey& k) const { return PositionHash{}(k.p) * 2 + std::size_t(k.starter); }
};

// What a bounded search proved: lo <= value <= hi (mover's view).
struct Bound {
  std::int8_t lo = -1, hi = 1;
};

// Rough bytes of one memo entry (key, bound, node and bucket of the map).
constexpr std::size_t kMemoEntryBytes = 96;

}  // namespace

struct MatchSolver::Impl {
  Ruleset rules;
  int m, n, total;
  std::size_t max_entries;
  std::vector<int> value, order;  // by state_index
  int next_order = 1;
  int limit = INT_MAX;  // leaves see only the states resolved before this order
  std::unordered_map<RoundKey, Bound, RoundKeyHash> memo;
  std::uint64_t nodes = 0, searches = 0;

  Impl(const Ruleset& r, int pits, int seeds, std::size_t memo_megabytes)
      : rules(r), m(pits), n(seeds), total(2 * pits * seeds),
        max_entries(std::max<std::size_t>(1024, memo_megabytes * (std::size_t(1) << 20) / kMemoEntryBytes)) {
    value.assign(std::size_t(2 * (total + 1)), 0);
    order.assign(value.size(), 0);
  }

  static int state_index(int south, Side starter) { return 2 * south + int(starter); }

  // South's outcome once a round that `starter` started ends with these stones.
  int after_round(int south, int north, Side starter) const {
    if (south < n) return -1;
    if (north < n) return +1;
    const int i = state_index(south, next_round_starter(south, north, starter));
    return order[std::size_t(i)] && order[std::size_t(i)] < limit ? value[std::size_t(i)] : 0;
  }

  // The outcome for the mover of p of a move that ended the round in q.
  int round_end_for_mover(const Position& p, const Position& q, Side starter) const {
    const int south = after_round(q.store_of(Side::South), q.store_of(Side::North), starter);
    return p.to_move == Side::South ? south : -south;
  }

  template <class R>
  int move_value(const Position& p, int pit, Side starter, int alpha, int beta, Position& q, MoveResult& r) {
    q = p;
    r = R::play(q, pit);
    if (r.game_over) return round_end_for_mover(p, q, starter);
    if (r.extra_turn) return search<R>(q, starter, alpha, beta);
    return -search<R>(q, starter, -beta, -alpha);
  }

  // Fail-soft alpha-beta on the mover's outcome, memoised with bounds.
  template <class R>
  int search(const Position& p, Side starter, int alpha, int beta) {
    ++nodes;
    const RoundKey key{p, starter};
    auto it = memo.find(key);
    if (it != memo.end()) {
      const Bound b = it->second;
      if (b.lo >= beta) return b.lo;
      if (b.hi <= alpha) return b.hi;
      if (b.lo == b.hi) return b.lo;
      alpha = std::max<int>(alpha, b.lo);
      beta = std::min<int>(beta, b.hi);
    }
    // Move order: the moves that end the round first (their outcome is known
    // at once and often decides the node), then extra turns, then the rest.
    int best = -2;
    std::array<Position, kMaxPitsPerSide> child;
    std::array<std::uint8_t, kMaxPitsPerSide> later_extra{}, later_plain{};
    int extras = 0, plains = 0, k = 0;
    for (MoveMask moves = R::legal_moves(p); moves && best < beta && best < 1; moves &= moves - 1, ++k) {
      Position& q = child[std::size_t(k)];
      q = p;
      const MoveResult r = R::play(q, std::countr_zero(moves));
      if (r.game_over) {
        best = std::max(best, round_end_for_mover(p, q, starter));
      } else if (r.extra_turn) {
        later_extra[std::size_t(extras++)] = std::uint8_t(k);
      } else {
        later_plain[std::size_t(plains++)] = std::uint8_t(k);
      }
    }
    for (int e = 0; e < extras && best < beta && best < 1; ++e)
      best = std::max(best, search<R>(child[later_extra[std::size_t(e)]], starter, std::max(alpha, best), beta));
    for (int e = 0; e < plains && best < beta && best < 1; ++e) {
      const int a = std::max(alpha, best);
      best = std::max(best, -search<R>(child[later_plain[std::size_t(e)]], starter, -beta, -a));
    }
    if (memo.size() >= max_entries) memo.clear();  // a cache: clearing costs time, never a value
    Bound& b = memo[key];
    if (best <= alpha) b.hi = std::int8_t(std::min<int>(b.hi, best));
    else if (best >= beta) b.lo = std::int8_t(std::max<int>(b.lo, best));
    else b.lo = b.hi = std::int8_t(best);
    return best;
  }

  // South's outcome of a round from `start` (not over), `starter` to move.
  int round_value(const Position& start, Side starter) {
    ++searches;
    return dispatch(rules, [&](auto policy) {
      const int v = search<decltype(policy)>(start, starter, -1, 1);
      return start.to_move == Side::South ? v : -v;
    });
  }

  // South's outcome of a round position, the round possibly over already.
  int position_value(Position p, Side starter) {
    if (is_terminal_round(p)) {
      p.sweep_rows();
      return after_round(p.store_of(Side::South), p.store_of(Side::North), starter);
    }
    return round_value(p, starter);
  }

  bool is_terminal_round(const Position& p) const { return p.mover_row_empty() || p.opponent_row_empty(); }

  // The principal moves of a round from `p`.
  void principal_round(Position p, Side starter, MatchRound& round) {
    dispatch(rules, [&](auto policy) {
      using R = decltype(policy);
      if (is_terminal_round(p)) {
        p.sweep_rows();
        round.south_after = p.store_of(Side::South);
        round.north_after = p.store_of(Side::North);
        return 0;
      }
      for (;;) {
        const int v = search<R>(p, starter, -1, 1);
        Position q;
        MoveResult r;
        bool found = false;
        for (MoveMask moves = R::legal_moves(p); moves; moves &= moves - 1) {
          const int pit = std::countr_zero(moves);
          if (move_value<R>(p, pit, starter, -1, 1, q, r) != v) continue;
          round.moves.emplace_back(p.to_move, pit + 1);
          found = true;
          break;
        }
        if (!found) throw std::logic_error("match solver: no move achieves the round's value");
        if (r.game_over) {
          round.south_after = q.store_of(Side::South);
          round.north_after = q.store_of(Side::North);
          return 0;
        }
        p = q;
      }
    });
  }
};

namespace {

// The opening's leaves in a match: the outcome of the first round from the
// position handed over, its first mover counting as the round's starter.
class MatchOutcomeValue : public HandoverValue {
 public:
  explicit MatchOutcomeValue(std::function<int(const Position&)> outcome) : outcome_(std::move(outcome)) {}
  Rational south_value(const Position& handover) override { return Rational(outcome_(handover)); }

 private:
  std::function<int(const Position&)> outcome_;
};

}  // namespace

MatchSolver::MatchSolver(const Ruleset& rules, int pits_per_side, int seeds_per_hole, std::size_t memo_megabytes) {
  if (rules.game != Game::Congkak) throw InputError("match mode exists only for congkak, not " + game_name(rules.game));
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("a match needs 1.." + std::to_string(kMaxPitsPerSide) + " pits a side");
  if (seeds_per_hole < 1) throw InputError("a congkak match needs at least one seed a hole");
  if (2 * pits_per_side * seeds_per_hole > kMaxSeeds)
    throw InputError("a board of " + std::to_string(2 * pits_per_side * seeds_per_hole) + " seeds is beyond the engine's " +
                     std::to_string(kMaxSeeds));
  impl_ = std::make_unique<Impl>(rules, pits_per_side, seeds_per_hole, memo_megabytes);
}

MatchSolver::~MatchSolver() = default;

MatchSolution MatchSolver::solve(bool simultaneous_opening, const std::function<void(const MatchProgress&)>& progress) {
  Impl& s = *impl_;
  const auto t0 = std::chrono::steady_clock::now();
  MatchSolution out;
  const int lowest = s.n, highest = s.total - s.n;
  const int states = 2 * (highest - lowest + 1);

  // The fixpoint: passes until one resolves nothing.
  int resolved = 0;
  for (bool changed = true; changed;) {
    changed = false;
    ++out.passes;
    for (int south = lowest; south <= highest; ++south)
      for (Side starter : {Side::South, Side::North}) {
        const std::size_t i = std::size_t(Impl::state_index(south, starter));
        if (s.order[i]) continue;
        s.limit = s.next_order;
        const int v = s.round_value(congkak_round_start(s.m, s.n, south, s.total - south, starter), starter);
        if (v != 0) {
          s.value[i] = v;
          s.order[i] = s.next_order++;
          s.memo.clear();  // the leaves of later searches change
          changed = true;
          ++resolved;
        }
        if (progress) progress({out.passes, resolved, states, s.nodes});
      }
  }
  for (int south = lowest; south <= highest; ++south)
    for (Side starter : {Side::South, Side::North}) {
      const std::size_t i = std::size_t(Impl::state_index(south, starter));
      out.states.push_back({south, starter, s.value[i], s.order[i]});
    }

  // The first round.
  s.limit = INT_MAX;
  s.memo.clear();
  const Position start = start_position(s.m, s.n);
  std::optional<OpeningSolver> opening;
  MatchOutcomeValue outcome([&](const Position& p) { return s.position_value(p, p.to_move); });
  MatchRound first;
  if (simultaneous_opening) {
    opening.emplace(s.rules, outcome);
    out.opening = opening->solve(start);
    out.value = out.opening->value;
    // The line follows the likeliest first holes and then the opening's
    // optimal choices.
    auto likeliest = [](const std::vector<Rational>& p) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < p.size(); ++k)
        if (p[k] > p[best]) best = k;
      return int(best) + 1;
    };
    const int i = likeliest(out.opening->south_strategy), j = likeliest(out.opening->north_strategy);
    OpeningState st = opening->opening().start(start);
    opening->opening().advance(st, i, j);
    st = opening->follow(st);
    first.opening = std::make_pair(i, j);
    first.start = CongkakOpening::handover(st);
  } else {
    out.value = Rational(s.value[std::size_t(Impl::state_index(s.m * s.n, Side::South))]);
    first.start = start;
  }

  // The principal line of rounds, until the match ends or a state repeats.
  std::vector<bool> seen(s.value.size(), false);
  if (!simultaneous_opening) {
    const std::size_t i = std::size_t(Impl::state_index(s.m * s.n, Side::South));
    seen[i] = true;
    s.limit = s.order[i] ? s.order[i] : INT_MAX;
  }
  MatchRound round = first;
  Side starter = round.start.to_move;
  for (int k = 0;; ++k) {
    s.memo.clear();
    s.principal_round(round.start, starter, round);
    out.line.push_back(round);
    const int south = round.south_after, north = round.north_after;
    if (congkak_match_over(south, north, s.n)) {
      out.line_end = south < s.n ? "South cannot fill a hole: North wins the match" : "North cannot fill a hole: South wins the match";
      break;
    }
    starter = next_round_starter(south, north, starter);
    const std::size_t i = std::size_t(Impl::state_index(south, starter));
    if (seen[i]) {
      out.line_end = "the state repeats (" + std::to_string(south) + " stones for South, " +
                     (starter == Side::South ? "South" : "North") + " starts): endless play, a draw";
      break;
    }
    seen[i] = true;
    // A won or lost state follows a line that only uses states resolved
    // before it, so the line ends; a drawn one may use every state.
    s.limit = s.order[i] ? s.order[i] : INT_MAX;
    round = MatchRound{};
    round.start = congkak_round_start(s.m, s.n, south, north, starter);
  }
  out.nodes = s.nodes;
  out.round_searches = s.searches;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace mancala::solver
