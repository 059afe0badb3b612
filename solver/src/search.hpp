// The alpha-beta search, templated on the rules policy (internal header):
// the Worker that searches one tree (splitting it among the threads high in
// the tree: young brothers wait), and search_root, which runs one search of
// the root.  What the threads share is in shared_state.hpp, the move order
// in move_sorter.hpp.
#pragma once

#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "move_sorter.hpp"
#include "shared_state.hpp"

namespace mancala::solver::detail {

// Thrown out of a search (and out of the solve's principal variation) when
// the caller's stop flag (SolveOptions::stop) was raised: nothing the
// aborted search saw is used.
struct SearchStopped {};

// One line of play in Oware's repetition check: the absolute state.
struct PathEntry {
  std::uint64_t key;
  Side side;
};

// Width > 0: the worker searches boards of Width pits a side only, and tells
// the compiler so (assume_width), which then unrolls the row loops, the
// sowing and the rank: faster, with the same nodes (results/README.md,
// "Move-ordering and search-parameter measurements").  Width 0 takes any.
// Stats: the worker counts what its nodes did (SearchStats), and adds the
// counts to the shared ones when it ends; a worker without compiles no count.
// OrderFromOptions: the move order's weights are read from SharedState
// (SolveOptions::move_order) rather than compiled in (order_weights<R>).
template <class R, int Width = 0, bool Stats = false, bool OrderFromOptions = false>
class Worker {
 public:
  // Oware is the only ruleset whose in-level moves can come back to a position.
  static constexpr bool kCycles = R::game == Game::Oware;

  explicit Worker(SharedState& shared) : s_(shared) {}
  ~Worker() {
    flush();
    if constexpr (Stats) s_.add_stats(stats_);
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  bool aborted() const { return aborted_; }

  // Fail-soft alpha-beta on the board value, exact at depth kExactDepth;
  // otherwise cut off `depth` moves down, where a board scores 0 (no further
  // gain: iterative deepening's heuristic, used only to order moves and to
  // guess the value).  Sets `tainted` if the result depends on a repetition
  // on the current line (Oware).
  // `key` is p's s_.index key (a parent computes it along with its children's
  // table ranks).
  int search(const Position& p, std::uint64_t key, int alpha, int beta, int ply, int depth, bool& tainted) {
    assume_width(p);
    if ((++local_nodes_ & 1023) == 0) {
      flush();
      if (should_stop()) {
        aborted_ = true;
        return abandon();
      }
    }
    if (R::is_terminal(p)) {
      count(&SearchStats::terminal);
      return finished_board_value(p);
    }
    if (ply >= kMaxPly)
      throw InputError("a line of play longer than " + std::to_string(kMaxPly) +
                       " plies without a repetition: this board is out of the search's reach without deeper endgame tables (mancala build, then --tables)");
    const int seeds = p.board_seeds();
    if (seeds <= s_.table_seeds) {
      int v;
      if (s_.tables->probe(p, v)) {
        count(&SearchStats::from_tables);
        return v;
      }
    }
    if (depth == 0) {
      count(&SearchStats::horizon);
      return 0;
    }
    if constexpr (kCycles) {
      for (const PathEntry& e : path_)
        if (e.key == key && e.side == p.to_move) {
          tainted = true;
          count(&SearchStats::repetition);
          return 0;
        }
    }

    // The node's cluster is asked for first, and its children are played
    // (their ranks computed, their level values asked for) while it comes:
    // the probe's miss was a third of a solve's time, waited for alone
    // (results/README.md, "The node's own cluster asked for first").  A node
    // that the entry settles has played its children for nothing.
    s_.tt.prefetch(key);
    Child kids[kMoves];
    const std::int8_t* table_value[kMoves];
    const int played = play_children(p, kids, table_value);

    Bounds b{-seeds, seeds, -1};
    s_.tt.probe(key, b, depth);
    if (b.lower >= beta || b.upper <= alpha || b.lower == b.upper) count(&SearchStats::settled_by_entry);
    if (b.lower >= beta) return b.lower;
    if (b.upper <= alpha) return b.upper;
    if (b.lower == b.upper) return b.lower;
    const int lo_window = std::max(alpha, b.lower);
    const int hi_window = std::min(beta, b.upper);

    const int child_depth = depth == kExactDepth ? kExactDepth : depth - 1;

    if constexpr (kCycles) path_.push_back({key, p.to_move});
    const std::uint64_t nodes_before = local_nodes_;
    bool my_taint = false;
    int best = -kInfinity;
    int best_move = -1;
    int alpha_now = lo_window;
    std::uint64_t helper_nodes = 0;
    int tried = 0;               // children valued one by one (Stats only)
    bool first_refuted = false;  // the first of them refuted the node (Stats only)
    // True on a cut-off.  Inlined: as a call of its own it cost about 1% of
    // a solve's instructions.
    auto consider = [&](const Child& c) __attribute__((always_inline)) {
      const int v = bounded_value(c, alpha_now, hi_window, ply, child_depth, my_taint);
      if (v > best) {
        best = v;
        best_move = c.pit;
      }
      alpha_now = std::max(alpha_now, v);
      if constexpr (Stats) {
        if (++tried == 1) first_refuted = alpha_now >= hi_window;
      }
      return alpha_now >= hi_window;
    };
    bool cut = false;
    // Staged: the transposition table's move is settled and searched alone,
    // before the other children are settled and ordered.  It usually
    // refutes the node (it did last time), and then the others' values and
    // order are never computed.  It is the eldest brother of a split.
    int staged = -1;
    if (b.move >= 0) {
      for (int i = 0; i < played; ++i)
        if (kids[i].pit == b.move) staged = i;
    }
    if (staged >= 0) {
      settle_child(kids[staged], table_value[staged]);
      cut = consider(kids[staged]);
      if (aborted_) return abandon();
    }
    std::uint8_t seq[kMoves];
    const int n = cut ? 0 : order_children(p, staged, kids, table_value, played, seq, hi_window <= 0);

    // At a node expected to fail low (its window asks the mover for a
    // gain), every child is usually searched: their clusters are asked for
    // all at once, after the children's level values were read, so that
    // their misses overlap and each child's own probe finds its cluster in
    // the cache.  Not at a node expected to cut off, where one child
    // usually refutes it; and no enhanced transposition cut-offs (probing
    // every child's entry for a refutation before searching one): they
    // saved 10-12% of the nodes, but waiting for those probes' misses cost
    // more time than the nodes saved (results/README.md, "Enhanced
    // transposition cut-offs dropped").
    if (seeds >= kPrefetchMinSeeds && hi_window > 0 && n > 0 && !(kids[seq[0]].exact && kids[seq[0]].exact_value >= hi_window)) {
      for (int i = 0; i < n; ++i) {
        Child& c = kids[seq[i]];
        if (c.exact) continue;
        c.key = key_of(c);
        c.keyed = true;
        s_.tt.prefetch(c.key);
      }
    }
    // Young brothers wait: high in the tree (and, in Oware, near the root,
    // so that a thread waiting at a split never holds more than a short
    // line on its stack under the long one it may take up), the children
    // after the eldest are searched in parallel.
    const bool split = s_.threads > 1 && seeds > s_.table_seeds + s_.split_above_tables && (!kCycles || ply < kMaxSplitPly);
    int i = 0;
    if (split) {
      // The two eldest brothers alone (the table's move counts as one):
      // a refutation is usually among them, and a split before it is found
      // searches siblings that a cut-off makes useless.  At a node expected
      // to cut off it is almost always there.  Of the nodes high in the
      // tree expected to fail low that cut off after their first child, 58%
      // do on the second; splitting right after the first (the rule before
      // this one) made Kalah(5,6) with 24-seed tables search 93-96 M nodes
      // on two threads in most runs against 61 M on one, and the eldest two
      // alone 57-73 M (results/README.md, "Two brothers alone before a split").
      const int alone = staged < 0 ? 2 : 1;
      for (; i < alone && i < n && !cut; ++i) {
        cut = consider(kids[seq[i]]);
        if (aborted_) return abandon();
      }
    }
    if (split && !cut && n - i >= 2) {
      cut = search_in_parallel(kids, seq + i, n - i, alpha_now, hi_window, ply, child_depth, best, best_move, my_taint, helper_nodes);
      if (aborted_) return abandon();
    } else {
      for (; i < n && !cut; ++i) {
        cut = consider(kids[seq[i]]);
        if (aborted_) return abandon();
      }
    }
    if constexpr (kCycles) path_.pop_back();
    if constexpr (Stats) {
      stats_.children_valued += std::uint64_t(tried);
      count_interior(seeds, hi_window <= 0, cut, first_refuted, staged >= 0, staged >= 0 && tried == 1 && cut);
    }

    if (my_taint) {
      tainted = true;
    } else {
      const unsigned work = unsigned(std::bit_width(local_nodes_ - nodes_before + helper_nodes));
      if (best <= lo_window)
        s_.tt.store(key, b.lower, best, -1, work, depth);
      else if (best >= hi_window)
        s_.tt.store(key, best, b.upper, best_move, work, depth);
      else
        s_.tt.store(key, best, best, best_move, work, depth);
    }
    return best;
  }

 private:
  static constexpr int kInfinity = 1 << 20;
  static constexpr int kNoTableValue = 1 << 20;
  // Only Oware's non-capturing lines get this long; the frames must fit the stack.
  static constexpr int kMaxPly = 2000;
  // Oware splits only above this ply (see search).
  static constexpr int kMaxSplitPly = 64;
  // The children's clusters are asked for from this many seeds up: below,
  // the boards (without endgame tables) are small and their entries mostly
  // in the cache already.  With tables of 15 or more seeds, everywhere.
  static constexpr int kPrefetchMinSeeds = 16;
  static constexpr int kMoves = Width > 0 ? Width : kMaxPitsPerSide;

  // A node left unfinished because the solve stopped or a sibling above
  // refuted a split (its value is never used).
  int abandon() {
    count(&SearchStats::abandoned);
    return 0;
  }

  // One more node of a kind (SearchStats); nothing without Stats.
  void count(std::uint64_t SearchStats::*kind) {
    if constexpr (Stats) ++(stats_.*kind);
  }

  // An interior node: its seeds, whether its window expected a cut, whether
  // it failed high (on its first child tried), whether its entry named a move
  // and that move failed it high.  Its children were counted as they were valued.
  void count_interior(int seeds, bool expect_cut, bool failed_high, bool on_first, bool entry_move, bool entry_move_high) {
    ++stats_.interior;
    if (std::size_t(seeds) >= stats_.interior_by_seeds.size()) stats_.interior_by_seeds.resize(std::size_t(seeds) + 1);
    ++stats_.interior_by_seeds[std::size_t(seeds)];
    if (expect_cut) {
      ++stats_.expected_cut;
      stats_.expected_cut_failed_high += failed_high;
      stats_.expected_cut_first_child += on_first;
    } else {
      stats_.expected_all_failed_high += failed_high;
    }
    stats_.with_entry_move += entry_move;
    stats_.entry_move_failed_high += entry_move_high;
  }

  struct Child {
    // A union, so that the array of children is not zeroed at every node
    // (Position's members have initializers): play_child() assigns pos first.
    // Zeroing them showed in the search's profile (results/README.md).
    union {
      Position pos;
    };
    Child() {}
    int pit;
    int delta;  // change of the store difference, seen by the mover
    int exact_value;    // the move's value, when `exact`
    bool exact;         // game over, or the child is in the endgame tables
    int seeds;          // on the board, when the game goes on
    std::uint64_t key;  // of the board, when `keyed`
    bool keyed;         // key computed (only for children about to be searched: see play_child)
    bool extra;
    bool game_over;
  };

  // search_root() picks a worker of fixed width only for a root of that
  // width, and every move keeps the width, so the assumptions hold.
  void assume_width(const Position& p) const {
    if constexpr (Width > 0) {
      if (p.m() != Width || s_.index.pits() != 2 * Width) __builtin_unreachable();
    }
  }

  // Every move of p played into kids[] (in pit order), their level values
  // asked for (table_value[i]: where kids[i]'s is, or null); returns their
  // number.  Flattened, as order_children and play_child are: the rows'
  // helpers (legal moves, emptiness, material) inlined with the width known
  // (6% fewer of a solve's instructions, results/README.md).
  [[gnu::flatten]] int play_children(const Position& p, Child* kids, const std::int8_t** table_value) const {
    assume_width(p);
    int n = 0;
    const int before = p.store_difference();
    for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1, ++n)
      table_value[n] = play_child(p, std::countr_zero(rest), before, kids[n]);
    return n;
  }

  // The played children but kids[skip] (skip = -1: none; the staged one,
  // searched already) settled and put in order: seq[0..) := their indices
  // in kids, best first; returns how many.  expect_cut: the node's window
  // asks the mover for no gain from the board (hi_window <= 0).  Such nodes
  // almost always fail high (a refutation is found), the others mostly
  // fail low (counted in a Kalah(6,4) solve; see results/README.md).  The
  // order is MoveSorter's, with the weights of the ruleset (order_weights)
  // or the caller's (OrderFromOptions).
  [[gnu::flatten]] int order_children(const Position& p, int skip, Child* kids, const std::int8_t* const* table_value, int played,
                     std::uint8_t* seq, bool expect_cut) const {
    const OrderWeights& weights = OrderFromOptions ? *s_.move_order : order_weights<R>();
    const NodeWeights& w = weights.at(OrderNode{p.store_difference() < 0, expect_cut});
    int order[kMaxPitsPerSide];
    std::uint8_t index[kMaxPitsPerSide];
    int n = 0;
    for (int i = 0; i < played; ++i) {
      if (i == skip) continue;
      Child& c = kids[i];
      settle_child(c, table_value[i]);
      // The inputs that the order reads, and only those (MoveSorter says
      // which): a child's replies and material cost a pass over its rows.
      const OrderChild o{
          .pit = c.pit,
          .exact = c.exact,
          .exact_value = c.exact_value,
          .extra_turn = c.extra,
          .gain = c.delta,
          .replies = MoveSorter::counts_replies(w, c.exact, c.extra) ? MoveSorter::count_moves(R::legal_moves(c.pos)) : 0,
          .material = MoveSorter::weighs_material(w, c.exact) ? MoveSorter::material(c.pos, c.extra, c.seeds) : 0,
      };
      index[n] = std::uint8_t(i);
      order[n++] = MoveSorter::order(w, o);
    }
    MoveSorter::sort(order, index, n, seq);
    return n;
  }

  // Plays `pit` into c and computes its gain and seeds (its key only once it is
  // to be searched: key_of); a child in the levels read at their rank returns
  // where its value is (prefetched, to be read by settle_child once the node's
  // other children are played, so that the misses overlap), else null.  The
  // child's transposition-table cluster is not asked for here: on the 2-core
  // virtual machine the project is measured on, that made solves 1.2 to 2.2
  // times as slow (results/README.md, "The children's table clusters no longer
  // prefetched"), while asking for them after the level values were read, at a
  // node expected to fail low, made them faster (search; "Enhanced transposition
  // cut-offs dropped"). Flattened: the move, the turn's flip and the rank
  // inlined here, where the board's width is known (4% fewer of a solve's
  // instructions, results/README.md, "Fewer instructions a node").
  [[gnu::flatten]] const std::int8_t* play_child(const Position& p, int pit, int before, Child& c) const {
    c.pit = pit;
    c.pos = p;
    assume_width(c.pos);
    const MoveResult r = R::play(c.pos, c.pit);
    assume_width(c.pos);
    c.extra = r.extra_turn;
    c.game_over = r.game_over;
    c.delta = move_gain(c.pos, c.extra, before);
    if (c.game_over) return nullptr;
    c.seeds = c.pos.board_seeds();
    c.keyed = false;
    if (c.seeds < s_.level_count) {  // read at its rank
      const std::uint64_t rank = s_.index.template rank_for_width<Width>(c.pos.pits.data(), c.seeds);
      const std::int8_t* v = s_.level_base[std::size_t(c.seeds)] + rank;
      __builtin_prefetch(v);
      return v;
    }
    return nullptr;
  }

  // A child's table key, computed only when the child is to be searched:
  // at a node that cuts off on its first child, the others' keys (and the
  // ranks under them) would have been computed for nothing.
  std::uint64_t key_of(const Child& c) const {
    assume_width(c.pos);
    return (s_.index.level_offset(c.seeds) + s_.index.template rank_for_width<Width>(c.pos.pits.data(), c.seeds)) |
           s_.side_bit(c.pos);
  }

  // Whether the child's value is known now, and what it is.  A child inside
  // the endgame tables has its exact value now, without a node of its own
  // (the tables' values are path-independent, so this is sound in Oware too).
  void settle_child(Child& c, const std::int8_t* table_value) const {
    c.exact = c.game_over;
    c.exact_value = c.delta;
    int tv = kNoTableValue;
    if (table_value) {
      tv = *table_value;
    } else if (int v; !c.game_over && c.seeds <= s_.table_seeds && s_.tables->probe(c.pos, v)) {
      tv = v;
    }
    if (tv != kNoTableValue) {
      c.exact = true;
      c.exact_value = move_value(c.extra, c.delta, tv);
    }
  }

  // Stopped by the caller, or a sibling refuted a node that split above
  // (its task group is cancelled, and with it every group below).
  bool should_stop() const {
    return (s_.stop && s_.stop->load(std::memory_order_relaxed)) || (s_.threads > 1 && tbb::is_current_task_group_canceling());
  }

  // The seeds left bound the child's value to [-seeds, seeds]: a child
  // that cannot change the outcome either way costs no node.
  int bounded_value(const Child& c, int alpha, int beta, int ply, int depth, bool& tainted) {
    if (!c.exact && c.delta + c.seeds <= alpha) return c.delta + c.seeds;
    if (!c.exact && c.delta - c.seeds >= beta) return c.delta - c.seeds;
    return value_of(c, alpha, beta, ply, depth, tainted);
  }

  // Young brothers wait: the younger children, searched by every thread at
  // once (one task a thread, each taking the next child in order, so the
  // best-ordered go first).  A refutation cancels the others
  // (task_group::cancel reaches every group below it); a child not finished
  // because the node itself was cancelled or stopped aborts the node, which
  // then stores nothing.  `nodes_out` gains the tasks' nodes (the node's
  // work, for the table's replacement).
  bool search_in_parallel(const Child* kids, const std::uint8_t* seq, int n, int alpha, int beta, int ply, int depth,
                          int& best, int& best_move, bool& tainted, std::uint64_t& nodes_out) {
    struct Result {
      int value;
      bool done;
      bool tainted;
    };
    Result res[kMoves];
    for (int j = 0; j < n; ++j) res[j].done = false;
    std::atomic<int> next{0};
    std::atomic<std::uint64_t> nodes{0};
    tbb::task_group group;
    auto help = [&] {
      Worker w(s_);
      if constexpr (kCycles) w.path_ = path_;
      // Checked before every child too: a task's worker is new, and below
      // the splits its subtrees may never reach the 1024 nodes at which
      // search checks.
      for (int j; !should_stop() && (j = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
        bool t = false;
        const int v = w.bounded_value(kids[seq[j]], alpha, beta, ply, depth, t);
        if (w.aborted_) break;
        res[j] = {v, true, t};
        if (v >= beta) {
          group.cancel();
          break;
        }
      }
      nodes.fetch_add(w.local_nodes_, std::memory_order_relaxed);
    };
    for (int t = 0; t < s_.threads; ++t) group.run(help);
    group.wait();
    nodes_out += nodes.load();
    bool missing = false, refuted = false;
    for (int j = 0; j < n; ++j) {
      if (!res[j].done) {
        missing = true;
        continue;
      }
      if constexpr (Stats) ++stats_.children_valued;
      tainted |= res[j].tainted;
      refuted |= res[j].value >= beta;
      if (res[j].value > best) {
        best = res[j].value;
        best_move = kids[seq[j]].pit;
      }
    }
    if (refuted) return true;
    if (missing) aborted_ = true;  // cancelled from above, or stopped
    return false;
  }

  int value_of(const Child& c, int alpha, int beta, int ply, int depth, bool& tainted) {
    if (c.exact) return c.exact_value;
    const std::uint64_t key = c.keyed ? c.key : key_of(c);
    if (c.extra) return c.delta + search(c.pos, key, alpha - c.delta, beta - c.delta, ply + 1, depth, tainted);
    return c.delta - search(c.pos, key, c.delta - beta, c.delta - alpha, ply + 1, depth, tainted);
  }

  void flush() {
    s_.nodes.fetch_add(local_nodes_ - flushed_, std::memory_order_relaxed);
    flushed_ = local_nodes_;
  }

  SharedState& s_;
  std::vector<PathEntry> path_;
  std::uint64_t local_nodes_ = 0;
  std::uint64_t flushed_ = 0;
  bool aborted_ = false;
  // The counts of a worker with Stats; an empty member, taking no room,
  // in one without (every use is under `if constexpr (Stats)`).
  struct NoStats {};
  [[no_unique_address]] std::conditional_t<Stats, SearchStats, NoStats> stats_;
};

// One null-window (or any-window) search of the root; with several threads
// the search splits among them (Worker::search).  A search the caller
// stopped (SolveOptions::stop) throws SearchStopped.
template <class R, int Width, bool Stats = false, bool OrderFromOptions = false>
int search_root_with(SharedState& shared, const Position& p, int alpha, int beta, int depth) {
  const std::uint64_t key = shared.key(p);
  Worker<R, Width, Stats, OrderFromOptions> w(shared);
  bool tainted = false;
  const int v = w.search(p, key, alpha, beta, 0, depth, tainted);
  if (w.aborted()) throw SearchStopped();
  return v;
}

// Six- and five-pit boards (Kalah's, Oware's and BrainKing's usual sizes)
// get a worker compiled for their width; a solve that counts its nodes
// (SharedState::stats) gets one of any width that counts, and one with a
// move order of the caller's (SharedState::move_order) one of any width
// that reads it.
template <class R>
int search_root(SharedState& shared, const Position& p, int alpha, int beta, int depth = kExactDepth) {
  if (shared.move_order) {
    if (shared.stats) return search_root_with<R, 0, true, true>(shared, p, alpha, beta, depth);
    return search_root_with<R, 0, false, true>(shared, p, alpha, beta, depth);
  }
  if (shared.stats) return search_root_with<R, 0, true>(shared, p, alpha, beta, depth);
  if (p.m() == 6 && shared.index.pits() == 12) return search_root_with<R, 6>(shared, p, alpha, beta, depth);
  if (p.m() == 5 && shared.index.pits() == 10) return search_root_with<R, 5>(shared, p, alpha, beta, depth);
  return search_root_with<R, 0>(shared, p, alpha, beta, depth);
}

}  // namespace mancala::solver::detail
