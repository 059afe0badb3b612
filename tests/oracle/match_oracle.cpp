// The brute-force match oracle.  See match_oracle.hpp: the whole match is one
// graph of positions, enumerated breadth-first and solved by retrograde
// win/loss analysis.  Only oracle::play and the standard library are used for
// the game itself; the simultaneous opening is oracle::opening.
#include "oracle/match_oracle.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <unordered_map>

#include "oracle/opening_oracle.hpp"

namespace oracle {
namespace {

int row_sum(const std::vector<int>& row) {
  int total = 0;
  for (int seeds : row) total += seeds;
  return total;
}

// Every hole into its owner's store (a no-op on a board already swept).
Board swept(Board b) {
  b.south_store += row_sum(b.south);
  b.north_store += row_sum(b.north);
  for (int& seeds : b.south) seeds = 0;
  for (int& seeds : b.north) seeds = 0;
  return b;
}

// One player's row refilled from `held` stones: holes 1, 2, ... get n stones
// each while the stones last; the others are burnt.  Returns the stones left
// in the store.
int refill(int m, int n, int held, std::vector<int>& row, std::vector<bool>& burnt) {
  row.assign(m, 0);
  burnt.assign(m, true);
  for (int i = 0; i < m && held >= n; ++i) {
    row[i] = n;
    burnt[i] = false;
    held -= n;
  }
  return held;
}

// The match graph.  Node 0 = "South wins", node 1 = "North wins"; every other
// node is a position (board, side to move, starter of the current round).
class MatchGraph {
 public:
  static constexpr int kSouthWins = 0;
  static constexpr int kNorthWins = 1;

  MatchGraph(const Rules& rules, int m, int n, std::size_t max_nodes)
      : rules_(rules), m_(m), n_(n), total_(2 * m * n), max_nodes_(max_nodes) {
    // The two terminal nodes: no moves, fixed values.
    for (int t = 0; t < 2; ++t) {
      mover_south_.push_back(1);
      child_begin_.push_back(0);
      child_end_.push_back(0);
      expanded_.push_back(1);
    }
  }

  std::size_t size() const { return mover_south_.size(); }

  // The start node of the round played from the between-round state
  // (South holds s stones, south_starts).  Both players hold >= n stones.
  int round_start(int s, bool south_starts) {
    if (s < n_ || total_ - s < n_) throw std::logic_error("match oracle: no round from state s=" + std::to_string(s));
    Board b;
    b.m = m_;
    b.south_store = refill(m_, n_, s, b.south, b.south_burnt);
    b.north_store = refill(m_, n_, total_ - s, b.north, b.north_burnt);
    b.south_to_move = south_starts;
    return node(b, south_starts);
  }

  // Where a round that has just ended leads: South holds s stones; the round
  // was started by south_started.
  int after_round(int s, bool south_started) {
    const int north_holds = total_ - s;
    if (s < n_) return kNorthWins;           // South cannot fill a hole
    if (north_holds < n_) return kSouthWins;  // North cannot fill a hole
    bool south_starts;
    if (s < north_holds)
      south_starts = true;  // South lost the round
    else if (s > north_holds)
      south_starts = false;  // North lost the round
    else
      south_starts = !south_started;  // tie: the player who did not start it
    return round_start(s, south_starts);
  }

  // The node reached by a board handed over from the simultaneous opening: the
  // player to move there moves first, and is the round's starter.  A board with
  // an empty row has ended the round.
  int hand_over(const Board& b) {
    check_board(b);
    if (row_sum(b.south) == 0 || row_sum(b.north) == 0) {
      Board done = swept(b);
      return after_round(done.south_store, b.south_to_move);
    }
    return node(b, b.south_to_move);
  }

  // Expands every node not yet expanded (breadth-first: new nodes are queued).
  void expand() {
    while (!queue_.empty()) {
      const int i = queue_.front();
      queue_.pop_front();
      const Board b = boards_.at(i);
      const bool starter = starter_south_.at(i);
      std::vector<int> kids;
      for (int pit : legal_moves(rules_, b)) {
        bool extra = false, over = false;
        Board child = play(rules_, b, pit, extra, over);
        check_board(child);
        if (over) {
          kids.push_back(after_round(child.south_store, starter));
        } else {
          if (extra != (child.south_to_move == b.south_to_move))
            throw std::logic_error("match oracle: extra turn flag and side to move disagree");
          kids.push_back(node(child, starter));
        }
      }
      if (kids.empty()) throw std::logic_error("match oracle: a position inside a round without moves: " + format(b));
      std::sort(kids.begin(), kids.end());
      kids.erase(std::unique(kids.begin(), kids.end()), kids.end());
      child_begin_[i] = static_cast<int>(children_.size());
      children_.insert(children_.end(), kids.begin(), kids.end());
      child_end_[i] = static_cast<int>(children_.size());
      expanded_[i] = 1;
      boards_.erase(i);  // the board is no longer needed
    }
  }

  // Retrograde analysis over the whole graph, from scratch.  value_[i] is
  // South's value: +1, -1, or 0 (never resolved: a draw).
  void solve() {
    const std::size_t count = size();
    for (std::size_t i = 0; i < count; ++i)
      if (!expanded_[i]) throw std::logic_error("match oracle: solve before expand");
    // Predecessor lists (each edge once; children are deduplicated).
    std::vector<int> pred_begin(count + 1, 0);
    for (std::size_t i = 0; i < count; ++i)
      for (int c = child_begin_[i]; c < child_end_[i]; ++c) ++pred_begin[children_[c] + 1];
    for (std::size_t i = 0; i < count; ++i) pred_begin[i + 1] += pred_begin[i];
    std::vector<int> preds(pred_begin[count]);
    std::vector<int> fill(pred_begin.begin(), pred_begin.end() - 1);
    for (std::size_t i = 0; i < count; ++i)
      for (int c = child_begin_[i]; c < child_end_[i]; ++c) preds[fill[children_[c]]++] = static_cast<int>(i);

    value_.assign(count, 0);
    std::vector<char> resolved(count, 0);
    std::vector<int> unresolved(count, 0);  // children not yet known to lose for the mover
    for (std::size_t i = 0; i < count; ++i) unresolved[i] = child_end_[i] - child_begin_[i];
    std::deque<int> work;
    value_[kSouthWins] = +1;
    value_[kNorthWins] = -1;
    resolved[kSouthWins] = resolved[kNorthWins] = 1;
    work.push_back(kSouthWins);
    work.push_back(kNorthWins);
    while (!work.empty()) {
      const int c = work.front();
      work.pop_front();
      for (int k = pred_begin[c]; k < pred_begin[c + 1]; ++k) {
        const int p = preds[k];
        if (resolved[p]) continue;
        // The mover at p wants +1 if South, -1 if North (values are South's).
        const int mover_wins = mover_south_[p] ? +1 : -1;
        if (value_[c] == mover_wins) {
          value_[p] = mover_wins;  // one winning move is enough
          resolved[p] = 1;
          work.push_back(p);
        } else if (--unresolved[p] == 0) {  // every move loses
          value_[p] = -mover_wins;
          resolved[p] = 1;
          work.push_back(p);
        }
      }
    }
  }

  int value(int i) const { return value_.at(i); }

 private:
  void check_board(const Board& b) const {
    if (b.m != m_ || total_seeds(b) != total_)
      throw std::logic_error("match oracle: board with the wrong size or seed count: " + format(b));
  }

  // The node of (board, starter), created (and queued for expansion) if new.
  int node(const Board& b, bool starter_south) {
    check_board(b);
    std::string key = format(b) + (starter_south ? " S" : " N");
    auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    if (size() >= max_nodes_) throw std::runtime_error("match oracle: more than " + std::to_string(max_nodes_) + " nodes");
    const int i = static_cast<int>(size());
    index_.emplace(std::move(key), i);
    mover_south_.push_back(b.south_to_move ? 1 : 0);
    child_begin_.push_back(0);
    child_end_.push_back(0);
    expanded_.push_back(0);
    starter_south_.emplace(i, starter_south);
    boards_.emplace(i, b);
    queue_.push_back(i);
    return i;
  }

  Rules rules_;
  int m_, n_, total_;
  std::size_t max_nodes_;
  std::unordered_map<std::string, int> index_;
  std::vector<char> mover_south_, expanded_;
  std::vector<int> child_begin_, child_end_, children_;
  std::unordered_map<int, Board> boards_;        // nodes waiting for expansion
  std::unordered_map<int, bool> starter_south_;  // likewise
  std::deque<int> queue_;
  std::vector<int> value_;
};

}  // namespace

MatchResult match(const Rules& rules, int m, int n, bool simultaneous_opening, std::size_t max_nodes) {
  if (rules.game != "congkak") throw std::invalid_argument("match oracle: matches are Congkak only");
  if (m < 1 || n < 1) throw std::invalid_argument("match oracle: need m >= 1 and n >= 1");
  const int total = 2 * m * n;

  MatchGraph graph(rules, m, n, max_nodes);
  // Every between-round state's start node is a root.
  std::vector<MatchStateOutcome> states;
  std::vector<int> state_nodes;
  for (int s = n; s <= total - n; ++s) {
    for (bool south_starts : {false, true}) {
      states.push_back({s, south_starts, 0});
      state_nodes.push_back(graph.round_start(s, south_starts));
    }
  }
  graph.expand();
  MatchResult result;

  if (!simultaneous_opening) {
    graph.solve();
    result.value = std::to_string(graph.value(graph.round_start(m * n, true)));
  } else {
    // Pass 1: run the opening once only to learn the hand-over boards (the
    // values handed back are placeholders), add their nodes, solve.
    const Board start_board = start(m, n);
    opening(rules, start_board, [&graph](const Board& b) {
      graph.hand_over(b);
      return Fraction(0);
    });
    graph.expand();
    graph.solve();
    // Pass 2: the real valuation.  Should the opening ask about a board it
    // did not ask about in pass 1, the graph is extended and solved again
    // (adding nodes never changes the values of the nodes already there).
    OpeningResult opened = opening(rules, start_board, [&graph](const Board& b) {
      const std::size_t before = graph.size();
      const int i = graph.hand_over(b);
      if (graph.size() != before) {
        graph.expand();
        graph.solve();
      }
      return Fraction(graph.value(i));
    });
    result.value = fraction_text(opened.value);
  }

  for (std::size_t k = 0; k < states.size(); ++k) states[k].south_value = graph.value(state_nodes[k]);
  result.states = std::move(states);
  result.nodes = graph.size();
  return result;
}

}  // namespace oracle
