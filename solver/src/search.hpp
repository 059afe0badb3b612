// The alpha-beta search, templated on the rules policy (internal header).
#pragma once

#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::solver::detail {

// Raised to abandon a subtree: a sibling already proved a cut-off, or an
// ancestor was abandoned.  Checked through the chain of split points.
struct StopFlag {
  std::atomic<bool> raised{false};
  const StopFlag* parent = nullptr;
  bool any() const {
    for (const StopFlag* s = this; s; s = s->parent)
      if (s->raised.load(std::memory_order_relaxed)) return true;
    return false;
  }
};

struct SharedState {
  TranspositionTable& tt;
  const tables::BoardIndex& index;
  const EndgameTables* tables;
  int threads;
  int split_ply;
  std::atomic<std::uint64_t> nodes{0};
};

// One line of play in Oware's repetition check: the absolute state.
struct PathEntry {
  std::uint64_t key;
  Side side;
};

template <class R>
class Worker {
 public:
  // Oware is the only ruleset whose in-level moves can come back to a position.
  static constexpr bool kCycles = R::game == Game::Oware;

  Worker(SharedState& shared, const StopFlag* stop, std::vector<PathEntry> path = {})
      : s_(shared), stop_(stop), path_(std::move(path)) {}
  ~Worker() { flush(); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  bool aborted() const { return aborted_; }

  // Fail-soft alpha-beta on the board value.  Sets `tainted` if the result
  // depends on a repetition on the current line (Oware).
  int search(const Position& p, int alpha, int beta, int ply, bool& tainted) {
    if ((++local_nodes_ & 1023) == 0) {
      flush();
      if (stop_ && stop_->any()) {
        aborted_ = true;
        return 0;
      }
    }
    if (R::is_terminal(p)) return p.mover_row_sum() - p.opponent_row_sum();
    if (ply >= kMaxPly)
      throw InputError("a line of play longer than " + std::to_string(kMaxPly) +
                       " plies without a repetition: this board is out of the search's reach without deeper endgame tables (mancala build, then --tables)");
    const int seeds = p.board_seeds();
    const std::uint64_t key = s_.index.key(p.pits.data(), seeds);
    if constexpr (kCycles) {
      for (const PathEntry& e : path_)
        if (e.key == key && e.side == p.to_move) {
          tainted = true;
          return 0;
        }
    }
    if (s_.tables && seeds <= s_.tables->max_seeds()) {
      int v;
      if (s_.tables->probe(p, v)) return v;
    }

    Bounds b{-seeds, seeds, -1};
    s_.tt.probe(key, b);
    if (b.lower >= beta) return b.lower;
    if (b.upper <= alpha) return b.upper;
    if (b.lower == b.upper) return b.lower;
    const int lo_window = std::max(alpha, b.lower);
    const int hi_window = std::min(beta, b.upper);

    Child kids[kMaxPitsPerSide];
    const int n = expand(p, b.move, kids);

    // Enhanced transposition cut-off: a child's stored bound may already
    // refute this node without searching anything.
    int known = 0;  // children of exact value, sorted first
    while (known < n && kids[known].exact) ++known;
    const bool settled = known > 0 && kids[0].exact_value >= hi_window;
    for (int i = known; i < n && seeds >= kEtcMinSeeds && !settled; ++i) {
      const Child& c = kids[i];
      Bounds cb{-c.seeds, c.seeds, -1};
      if (!s_.tt.probe(c.key, cb)) continue;
      const int at_least = c.extra ? c.delta + cb.lower : c.delta - cb.upper;
      if (at_least >= hi_window) {
        s_.tt.store(key, at_least, b.upper, c.pit, 0);
        return at_least;
      }
    }

    if constexpr (kCycles) path_.push_back({key, p.to_move});
    const std::uint64_t nodes_before = local_nodes_;
    bool my_taint = false;
    int best = -kInfinity;
    int best_move = -1;
    int alpha_now = lo_window;
    int i = 0;
    for (; i < n; ++i) {
      // Split the rest once serial_children() children have been searched for real.
      if (i == known + serial_children() && s_.threads > 1 && ply < s_.split_ply && n - i >= 2) break;
      const int v = value_of(kids[i], alpha_now, hi_window, ply, my_taint);
      if (aborted_) return 0;
      if (v > best) {
        best = v;
        best_move = kids[i].pit;
      }
      alpha_now = std::max(alpha_now, v);
      if (alpha_now >= hi_window) break;
    }
    if (i < n && alpha_now < hi_window) {
      split(kids + i, n - i, alpha_now, hi_window, ply, best, best_move, my_taint);
      if (aborted_) return 0;
    }
    if constexpr (kCycles) path_.pop_back();

    if (my_taint) {
      tainted = true;
    } else {
      const unsigned work = unsigned(std::bit_width(local_nodes_ - nodes_before));
      if (best <= lo_window)
        s_.tt.store(key, b.lower, best, -1, work);
      else if (best >= hi_window)
        s_.tt.store(key, best, b.upper, best_move, work);
      else
        s_.tt.store(key, best, best, best_move, work);
    }
    return best;
  }

 private:
  static constexpr int kInfinity = 1 << 20;
  static constexpr int kNoTableValue = 1 << 20;
  // Only Oware's non-capturing lines get this long; the frames must fit the stack.
  static constexpr int kMaxPly = 2000;
  // Enhanced transposition cut-offs cost a table probe per child; measured on
  // the `mancala bench` set they pay only high in the tree (ETC everywhere:
  // 5.37 s, from 16 seeds up: 5.16 s, never: 4.89 s; larger boards prune
  // more, so it stays on there).
  static constexpr int kEtcMinSeeds = 16;

  struct Child {
    Position pos;
    int pit;
    int delta;  // change of the store difference, seen by the mover
    int order;
    int exact_value;    // the move's value, when `exact`
    bool exact;         // game over, or the child is in the endgame tables
    int seeds;          // on the board, when the game goes on
    std::uint64_t key;  // of the board, when the game goes on
    bool extra;
    bool game_over;
  };

  // Children searched one by one before the rest are split among threads.
  // A sibling that runs while another proves a cut-off is wasted work.  With
  // endgame tables the subtrees are small and the eldest child often fails
  // to cut where the second succeeds: Kalah(6,4) (empty capture, 16-seed
  // tables) on 2 threads took 16.4 s and 74.8 M nodes splitting after one
  // child, 12.0 s and 42.0 M nodes after two (1 thread: 16.7 s, 40.8 M).
  // Without tables (or with only the few lowest levels) splitting after
  // one child scales better (Kalah(5,4): 1.93x against 1.52x; Kalah(6,3):
  // 1.48x against 1.08x).
  int serial_children() const { return s_.tables && s_.tables->max_seeds() >= 12 ? 2 : 1; }

  int expand(const Position& p, int table_move, Child* kids) const {
    int n = 0;
    const int before = p.store_difference();
    const std::int8_t* table_value[kMaxPitsPerSide];
    for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1, ++n) {
      Child& c = kids[n];
      c.pit = std::countr_zero(rest);
      c.pos = p;
      const MoveResult r = R::play(c.pos, c.pit);
      c.extra = r.extra_turn;
      c.game_over = r.game_over;
      c.delta = (c.extra ? c.pos.store_difference() : -c.pos.store_difference()) - before;
      table_value[n] = nullptr;
      if (!c.game_over) {
        c.seeds = c.pos.board_seeds();
        c.key = s_.index.key(c.pos.pits.data(), c.seeds);
        if (s_.tables && c.seeds <= s_.tables->max_seeds()) {
          table_value[n] = s_.tables->locate(c.pos);
          __builtin_prefetch(table_value[n]);
        }
      }
    }
    for (int i = 0; i < n; ++i) {
      Child& c = kids[i];
      c.exact = c.game_over;
      c.exact_value = c.delta;
      // A child inside the endgame tables has its exact value now, without
      // a node of its own (the tables' values are path-independent, so
      // this is sound in Oware too).
      int tv = kNoTableValue;
      if (table_value[i]) {
        tv = *table_value[i];
      } else if (int v; !c.game_over && s_.tables && c.seeds <= s_.tables->max_seeds() && s_.tables->probe(c.pos, v)) {
        tv = v;
      }
      if (tv != kNoTableValue) {
        c.exact = true;
        c.exact_value = c.extra ? c.delta + tv : c.delta - tv;
      }
      // Children of known value first, best first: they cost nothing and
      // may settle the node before any search.
      c.order = c.exact ? (1 << 24) + c.exact_value * 64 + c.pit
                        : (c.pit == table_move ? 1 << 16 : 0) + (c.extra ? 1 << 12 : 0) + c.delta * 32 + c.pit;
    }
    std::sort(kids, kids + n, [](const Child& a, const Child& b) { return a.order > b.order; });
    return n;
  }

  int value_of(const Child& c, int alpha, int beta, int ply, bool& tainted) {
    if (c.exact) return c.exact_value;
    if (c.extra) return c.delta + search(c.pos, alpha - c.delta, beta - c.delta, ply + 1, tainted);
    return c.delta - search(c.pos, c.delta - beta, c.delta - alpha, ply + 1, tainted);
  }

  // Young-brothers-wait: the eldest child has been searched; the others run
  // in parallel, each in its own worker, and a cut-off stops the rest.
  void split(const Child* kids, int n, int alpha, int beta, int ply, int& best, int& best_move, bool& tainted) {
    StopFlag local;
    local.parent = stop_;
    std::vector<int> values(std::size_t(n), -kInfinity);
    std::vector<char> done(std::size_t(n), 0), taint(std::size_t(n), 0);
    tbb::task_group group;
    for (int i = 0; i < n; ++i) {
      group.run([&, i] {
        if (local.any()) return;
        Worker w(s_, &local, path_);
        bool t = false;
        const int v = w.value_of(kids[i], alpha, beta, ply, t);
        if (w.aborted()) return;
        values[std::size_t(i)] = v;
        taint[std::size_t(i)] = t;
        done[std::size_t(i)] = 1;
        if (v >= beta) local.raised.store(true, std::memory_order_relaxed);
      });
    }
    group.wait();
    if (stop_ && stop_->any()) {
      aborted_ = true;
      return;
    }
    // Children abandoned because of a sibling's cut-off need no value: the
    // cut-off already settles this node as a lower bound.
    for (int i = 0; i < n; ++i) {
      if (!done[std::size_t(i)]) continue;
      tainted = tainted || taint[std::size_t(i)];
      if (values[std::size_t(i)] > best) {
        best = values[std::size_t(i)];
        best_move = kids[i].pit;
      }
    }
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

}  // namespace mancala::solver::detail
