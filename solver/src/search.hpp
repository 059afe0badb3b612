// The alpha-beta search, templated on the rules policy (internal header):
// the Worker that searches one tree, and search_root, which runs one search
// of the root on every thread (ABDADA).  The marks are in busy_nodes.hpp,
// what the threads share in shared_state.hpp, the move order in
// move_sorter.hpp.
#pragma once

#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "busy_nodes.hpp"
#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "move_sorter.hpp"
#include "shared_state.hpp"

namespace mancala::solver::detail {

// One line of play in Oware's repetition check: the absolute state.
struct PathEntry {
  std::uint64_t key;
  Side side;
};

// Width > 0: the worker searches boards of Width pits a side only, and tells
// the compiler so (assume_width), which then unrolls the row loops, the
// sowing and the rank: faster, with the same nodes (results/README.md,
// "Move-ordering and search-parameter measurements").  Width 0 takes any.
template <class R, int Width = 0>
class Worker {
 public:
  // Oware is the only ruleset whose in-level moves can come back to a position.
  static constexpr bool kCycles = R::game == Game::Oware;

  Worker(SharedState& shared, const StopFlag* stop) : s_(shared), stop_(stop) {}
  ~Worker() { flush(); }
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
      if (stop_ && stop_->any()) {
        aborted_ = true;
        return 0;
      }
    }
    if (R::is_terminal(p)) return finished_board_value(p);
    if (ply >= kMaxPly)
      throw InputError("a line of play longer than " + std::to_string(kMaxPly) +
                       " plies without a repetition: this board is out of the search's reach without deeper endgame tables (mancala build, then --tables)");
    const int seeds = p.board_seeds();
    if (seeds <= s_.table_seeds) {
      int v;
      if (s_.tables->probe(p, v)) return v;
    }
    if (depth == 0) return 0;
    if constexpr (kCycles) {
      for (const PathEntry& e : path_)
        if (e.key == key && e.side == p.to_move) {
          tainted = true;
          return 0;
        }
    }

    // Marked before anything else, so that a thread arriving a moment later
    // already sees it.
    const bool marks = s_.threads > 1 && seeds > s_.table_seeds + s_.marks_above_tables;
    const BusyMark mark(marks ? &s_.busy : nullptr, key);
    Bounds b{-seeds, seeds, -1};
    s_.tt.probe(key, b, depth);
    if (b.lower >= beta) return b.lower;
    if (b.upper <= alpha) return b.upper;
    if (b.lower == b.upper) return b.lower;
    const int lo_window = std::max(alpha, b.lower);
    const int hi_window = std::min(beta, b.upper);

    const int child_depth = depth == kExactDepth ? kExactDepth : depth - 1;

    // ABDADA: every thread searches the whole tree, and a child that
    // another thread is searching is put off until this node's other
    // children are done; by then its bounds are usually in the table, and
    // if not, this thread joins the search of it.  So the threads spread
    // over the siblings (at a node that must refute every move, all of them
    // are needed anyway) without ever waiting for each other.
    if constexpr (kCycles) path_.push_back({key, p.to_move});
    const std::uint64_t nodes_before = local_nodes_;
    bool my_taint = false;
    int best = -kInfinity;
    int best_move = -1;
    int alpha_now = lo_window;
    int put_off[kMaxPitsPerSide];
    int n_put_off = 0;
    auto consider = [&](const Child& c) {  // true on a cut-off
      // The seeds left bound the child's value to [-seeds, seeds]: a child
      // that cannot change the outcome either way costs no node.
      int v;
      if (!c.exact && c.delta + c.seeds <= alpha_now)
        v = c.delta + c.seeds;
      else if (!c.exact && c.delta - c.seeds >= hi_window)
        v = c.delta - c.seeds;
      else
        v = value_of(c, alpha_now, hi_window, ply, child_depth, my_taint);
      if (v > best) {
        best = v;
        best_move = c.pit;
      }
      alpha_now = std::max(alpha_now, v);
      return alpha_now >= hi_window;
    };
    bool cut = false;
    // Staged: the transposition table's move is played and searched alone,
    // before the other moves are generated and before the enhanced
    // transposition cut-offs probe their entries.  It usually refutes the
    // node (it did last time), and then the other children's sowing, ranks,
    // order and probes are never computed.  Like the eldest child of ABDADA,
    // it is searched even when another thread is busy with it.
    Child first;
    int staged = -1;
    if (b.move >= 0 && (R::legal_moves(p) >> b.move & 1u)) {
      staged = b.move;
      make_child(p, staged, first);
      cut = consider(first);
      if (aborted_) return 0;
    }
    Child kids[kMoves];
    std::uint8_t seq[kMoves];
    const int n = cut ? 0 : expand(p, staged, kids, seq, hi_window <= 0);

    // Enhanced transposition cut-off: a child's stored bound may already
    // refute this node without searching anything.
    if (seeds >= kEtcMinSeeds && n > 0 && !(kids[seq[0]].exact && kids[seq[0]].exact_value >= hi_window)) {
      for (int i = 0; i < n; ++i) {
        const Child& c = kids[seq[i]];
        if (c.exact) continue;
        Bounds cb{-c.seeds, c.seeds, -1};
        if (!s_.tt.probe(c.key, cb, child_depth)) continue;
        const int at_least = move_value(c.extra, c.delta, c.extra ? cb.lower : cb.upper);
        if (at_least >= hi_window) {
          if constexpr (kCycles) path_.pop_back();
          s_.tt.store(key, at_least, b.upper, c.pit, 0, depth);
          return at_least;
        }
      }
    }
    for (int i = 0; i < n && !cut; ++i) {
      const Child& c = kids[seq[i]];
      if (marks && !c.exact && c.seeds > s_.table_seeds + s_.marks_above_tables && s_.busy.busy(c.key)) {
        put_off[n_put_off++] = i;
        continue;
      }
      cut = consider(c);
      if (aborted_) return 0;
    }
    for (int j = 0; j < n_put_off && !cut; ++j) {
      cut = consider(kids[seq[put_off[j]]]);
      if (aborted_) return 0;
    }
    if constexpr (kCycles) path_.pop_back();

    if (my_taint) {
      tainted = true;
    } else {
      const unsigned work = unsigned(std::bit_width(local_nodes_ - nodes_before));
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
  // Enhanced transposition cut-offs cost a table probe per child; measured on
  // the `mancala bench` set they pay only high in the tree (there, never
  // probing was faster still, but larger boards prune more, so it stays on
  // from 16 seeds up; figures in results/README.md).
  static constexpr int kEtcMinSeeds = 16;
  static constexpr int kMoves = Width > 0 ? Width : kMaxPitsPerSide;

  struct Child {
    // A union, so that the array of children is not zeroed at every node
    // (Position's members have initializers): expand() assigns pos first.
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
    std::uint64_t key;  // of the board, when the game goes on and it is not exact
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

  // expect_cut: the node's window asks the mover for no gain from the board
  // (hi_window <= 0).  Such nodes almost always fail high (a refutation is
  // found), the others mostly fail low (counted in a Kalah(6,4) solve; see
  // results/README.md).  The order of the children is MoveSorter's.  `skip`
  // (or -1) is a move already searched at the node (the staged one): left out.
  int expand(const Position& p, int skip, Child* kids, std::uint8_t* seq, bool expect_cut) const {
    assume_width(p);
    int n = 0;
    const int before = p.store_difference();
    const std::int8_t* table_value[kMaxPitsPerSide];
    const OrderNode node{before < 0, expect_cut};
    int order[kMaxPitsPerSide];
    MoveMask moves = R::legal_moves(p);
    if (skip >= 0) moves &= ~(MoveMask(1) << skip);
    for (MoveMask rest = moves; rest; rest &= rest - 1, ++n)
      table_value[n] = play_child(p, std::countr_zero(rest), before, kids[n]);
    for (int i = 0; i < n; ++i) {
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
          .replies = MoveSorter::counts_replies(node, c.exact, c.extra) ? MoveSorter::count_moves(R::legal_moves(c.pos)) : 0,
          .material = MoveSorter::weighs_material(node, c.exact) ? MoveSorter::material(c.pos, c.extra, c.seeds) : 0,
      };
      order[i] = MoveSorter::order(node, o);
    }
    MoveSorter::sort(order, n, seq);
    return n;
  }

  // One child, played and settled at once (the staged move).
  void make_child(const Position& p, int pit, Child& c) const { settle_child(c, play_child(p, pit, p.store_difference(), c)); }

  // Plays `pit` into c and computes its gain, seeds and key; a child in the
  // levels read at their rank returns where its value is (prefetched, to be
  // read by settle_child once the node's other children are played, so that
  // the misses overlap), else null.  The child's transposition-table cluster
  // is prefetched too.
  const std::int8_t* play_child(const Position& p, int pit, int before, Child& c) const {
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
    std::uint64_t rank;
    if constexpr (Width > 0)
      rank = s_.index.template rank_fixed<2 * Width>(c.pos.pits.data());
    else
      rank = s_.index.rank(c.pos.pits.data(), c.seeds);
    if (c.seeds < int(s_.level_base.size())) {  // read at its rank
      const std::int8_t* v = s_.level_base[std::size_t(c.seeds)] + rank;
      __builtin_prefetch(v);
      return v;
    }
    c.key = (s_.index.level_offset(c.seeds) + rank) | s_.side_bit(c.pos);
    if (c.seeds > s_.table_seeds) s_.tt.prefetch(c.key);
    return nullptr;
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

  int value_of(const Child& c, int alpha, int beta, int ply, int depth, bool& tainted) {
    if (c.exact) return c.exact_value;
    if (c.extra) return c.delta + search(c.pos, c.key, alpha - c.delta, beta - c.delta, ply + 1, depth, tainted);
    return c.delta - search(c.pos, c.key, c.delta - beta, c.delta - alpha, ply + 1, depth, tainted);
  }

  void flush() {
    s_.nodes.fetch_add(local_nodes_ - flushed_, std::memory_order_relaxed);
    flushed_ = local_nodes_;
  }

  SharedState& s_;
  const StopFlag* stop_;
  std::vector<PathEntry> path_;
  std::uint64_t local_nodes_ = 0;
  std::uint64_t flushed_ = 0;
  bool aborted_ = false;
};

// One null-window (or any-window) search of the root by every thread at
// once (ABDADA), sharing the transposition table; the first thread to finish
// has the exact answer and stops the others.  Aborted searches store
// nothing, so the value never depends on the number of threads.  A search
// the caller stopped (SolveOptions::stop) throws SearchStopped.
template <class R, int Width>
int search_root_with(SharedState& shared, const Position& p, int alpha, int beta, int depth) {
  const std::uint64_t key = shared.key(p);
  if (shared.threads == 1) {
    StopFlag stop;
    stop.external = shared.stop;
    Worker<R, Width> w(shared, shared.stop ? &stop : nullptr);
    bool tainted = false;
    const int v = w.search(p, key, alpha, beta, 0, depth, tainted);
    if (w.aborted()) throw SearchStopped();
    return v;
  }
  StopFlag stop;
  stop.external = shared.stop;
  std::atomic<bool> have{false};
  int value = 0;
  std::exception_ptr failure;
  tbb::task_group group;
  for (int t = 0; t < shared.threads; ++t) {
    group.run([&] {
      if (stop.any()) return;
      try {
        Worker<R, Width> w(shared, &stop);
        bool tainted = false;
        const int v = w.search(p, key, alpha, beta, 0, depth, tainted);
        if (!w.aborted() && !have.exchange(true)) value = v;
      } catch (...) {
        if (!have.exchange(true)) failure = std::current_exception();
      }
      stop.raised.store(true, std::memory_order_relaxed);
    });
  }
  group.wait();
  shared.busy.clear();
  if (failure) std::rethrow_exception(failure);
  if (!have) throw SearchStopped();  // every thread was stopped by the caller
  return value;
}

// Six- and five-pit boards (Kalah's, Oware's and BrainKing's usual sizes)
// get a worker compiled for their width.
template <class R>
int search_root(SharedState& shared, const Position& p, int alpha, int beta, int depth = kExactDepth) {
  if (p.m() == 6 && shared.index.pits() == 12) return search_root_with<R, 6>(shared, p, alpha, beta, depth);
  if (p.m() == 5 && shared.index.pits() == 10) return search_root_with<R, 5>(shared, p, alpha, beta, depth);
  return search_root_with<R, 0>(shared, p, alpha, beta, depth);
}

}  // namespace mancala::solver::detail
