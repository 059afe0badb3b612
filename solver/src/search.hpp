// The alpha-beta search, templated on the rules policy (internal header).
#pragma once

#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::solver::detail {

// Raised to abandon a search: another thread finished the same test first.
struct StopFlag {
  std::atomic<bool> raised{false};
  bool any() const { return raised.load(std::memory_order_relaxed); }
};

// Nodes that some thread is searching right now (ABDADA's "busy" mark).  It
// only steers the threads apart, it never decides a value: a lost or
// mistaken mark costs time, not correctness, so a small lossy table of
// atomics serves.
class BusyNodes {
 public:
  explicit BusyNodes(bool used) : slots_(used ? kSlots : 0) {}
  void enter(std::uint64_t key) { slot(key).store(key + 1, std::memory_order_relaxed); }
  void leave(std::uint64_t key) {
    std::uint64_t mine = key + 1;
    slot(key).compare_exchange_strong(mine, 0, std::memory_order_relaxed);
  }
  bool busy(std::uint64_t key) const { return slot(key).load(std::memory_order_relaxed) == key + 1; }
  // Marks left by searches that were abandoned.
  void clear() {
    for (auto& s : slots_) s.store(0, std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kSlots = std::size_t(1) << 16;
  std::atomic<std::uint64_t>& slot(std::uint64_t key) const {
    return slots_[std::size_t((key * 0x9E3779B97F4A7C15ull) >> 48)];
  }
  mutable std::vector<std::atomic<std::uint64_t>> slots_;
};

// Marks a node busy for as long as it is being searched.
class BusyMark {
 public:
  BusyMark(BusyNodes* busy, std::uint64_t key) : busy_(busy), key_(key) {
    if (busy_) busy_->enter(key_);
  }
  ~BusyMark() {
    if (busy_) busy_->leave(key_);
  }
  BusyMark(const BusyMark&) = delete;
  BusyMark& operator=(const BusyMark&) = delete;

 private:
  BusyNodes* busy_;
  std::uint64_t key_;
};

struct SharedState {
  SharedState(TranspositionTable& table, const tables::BoardIndex& board_index, int thread_count, int marks_above)
      : tt(table), index(board_index), threads(thread_count), marks_above_tables(marks_above), busy(thread_count > 1) {}
  // The levels in memory are read at a child's rank directly (see expand);
  // a root never has fewer seeds than its descendants, so only its levels
  // are opened.
  void use_tables(const EndgameTables* t, const Position& root) {
    tables = t;
    table_seeds = t ? t->max_seeds() : -1;
    level_base.clear();
    for (int k = 0; k <= std::min(table_seeds, root.board_seeds()); ++k) {
      const std::int8_t* values = t->level_values(root.m(), k);
      if (!values) {
        level_base.clear();
        break;
      }
      level_base.push_back(values);
    }
  }

  // The transposition-table key of p: its board's BoardIndex key, and for a
  // Congkak root whose burnt holes differ between the two rows, which player
  // is to move (see north_key_bit).
  std::uint64_t key(const Position& p) const { return index.key(p.pits.data(), p.board_seeds()) | side_bit(p); }
  std::uint64_t side_bit(const Position& p) const { return p.to_move == Side::North ? north_key_bit : 0; }

  TranspositionTable& tt;
  const tables::BoardIndex& index;
  // Burnt holes never change within a round, so a search meets two
  // mover-relative burnt masks, the root's and the other player's.  When
  // they differ, one mover-relative board is two positions, told apart by
  // this bit for North to move (board keys stay below it; Solver checks).
  // 0 when the masks are equal (no burnt holes, or the same on both rows),
  // so keys and node counts are those of a board without burnt holes.
  std::uint64_t north_key_bit = 0;
  const EndgameTables* tables = nullptr;
  int table_seeds = -1;  // boards with up to this many seeds are in `tables`
  std::vector<const std::int8_t*> level_base;  // tables->level_values(root width, k), or empty
  int threads;
  int marks_above_tables;  // SolveOptions::parallel_marks_above_tables
  BusyNodes busy;
  std::atomic<std::uint64_t> nodes{0};
};

// One line of play in Oware's repetition check: the absolute state.
struct PathEntry {
  std::uint64_t key;
  Side side;
};

// Width > 0: the worker searches boards of Width pits a side only, and tells
// the compiler so (assume_width), which then unrolls the row loops, the
// sowing and the rank.  Measured on Kalah(6,4) with 15-seed tables, one
// thread: 10.31 s -> 9.90 s, the same 31,180,016 nodes.  Width 0 takes any.
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
    Child kids[kMoves];
    std::uint8_t seq[kMoves];
    const int n = expand(p, b.move, kids, seq, hi_window <= 0);

    // Enhanced transposition cut-off: a child's stored bound may already
    // refute this node without searching anything.
    int known = 0;  // children of exact value, sorted first
    while (known < n && kids[seq[known]].exact) ++known;
    const bool settled = known > 0 && kids[seq[0]].exact_value >= hi_window;
    for (int i = known; i < n && seeds >= kEtcMinSeeds && !settled; ++i) {
      const Child& c = kids[seq[i]];
      Bounds cb{-c.seeds, c.seeds, -1};
      if (!s_.tt.probe(c.key, cb, child_depth)) continue;
      const int at_least = move_value(c.extra, c.delta, c.extra ? cb.lower : cb.upper);
      if (at_least >= hi_window) {
        s_.tt.store(key, at_least, b.upper, c.pit, 0, depth);
        return at_least;
      }
    }

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
  // the `mancala bench` set they pay only high in the tree (ETC everywhere:
  // 5.37 s, from 16 seeds up: 5.16 s, never: 4.89 s; larger boards prune
  // more, so it stays on there).
  static constexpr int kEtcMinSeeds = 16;
  static constexpr int kMoves = Width > 0 ? Width : kMaxPitsPerSide;

  struct Child {
    // A union, so that the array of children is not zeroed at every node
    // (Position's members have initializers): expand() assigns pos first.
    // Sixteen zeroed Positions a node were 4% of a Kalah(6,4) search.
    union {
      Position pos;
    };
    Child() {}
    int pit;
    int delta;  // change of the store difference, seen by the mover
    int order;
    int exact_value;    // the move's value, when `exact`
    bool exact;         // game over, or the child is in the endgame tables
    int seeds;          // on the board, when the game goes on
    std::uint64_t key;  // of the board, when the game goes on and it is not exact
    bool extra;
    bool game_over;
  };

  // std::popcount is a libgcc call on x86-64 without -mpopcnt (0.7% of a
  // Kalah(6,4) search profile); a mask has at most 16 bits.
  static int count_moves(MoveMask moves) {
    std::uint32_t x = moves - ((moves >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return int((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
  }

  // search_root() picks a worker of fixed width only for a root of that
  // width, and every move keeps the width, so the assumptions hold.
  void assume_width(const Position& p) const {
    if constexpr (Width > 0) {
      if (p.m() != Width || s_.index.pits() != 2 * Width) __builtin_unreachable();
    }
  }

  // expect_cut: the node's window asks the mover for no gain from the board
  // (hi_window <= 0).  Such nodes fail high (a refutation is found) 97% of
  // the time in a Kalah(6,4) solve; the others fail low 80% of the time.
  int expand(const Position& p, int table_move, Child* kids, std::uint8_t* seq, bool expect_cut) const {
    assume_width(p);
    int n = 0;
    const int before = p.store_difference();
    const std::int8_t* table_value[kMaxPitsPerSide];
    const int direct_seeds = int(s_.level_base.size());  // children with fewer are read at their rank
    const bool behind = before < 0;
    for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1, ++n) {
      Child& c = kids[n];
      c.pit = std::countr_zero(rest);
      c.pos = p;
      assume_width(c.pos);
      const MoveResult r = R::play(c.pos, c.pit);
      assume_width(c.pos);
      c.extra = r.extra_turn;
      c.game_over = r.game_over;
      c.delta = move_gain(c.pos, c.extra, before);
      table_value[n] = nullptr;
      if (!c.game_over) {
        c.seeds = c.pos.board_seeds();
        const std::uint64_t rank = s_.index.rank(c.pos.pits.data(), c.seeds);
        if (c.seeds < direct_seeds) {
          table_value[n] = s_.level_base[std::size_t(c.seeds)] + rank;
          __builtin_prefetch(table_value[n]);
        } else {
          c.key = (s_.index.level_offset(c.seeds) + rank) | s_.side_bit(c.pos);
          if (c.seeds > s_.table_seeds) s_.tt.prefetch(c.key);
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
      } else if (int v; !c.game_over && c.seeds <= s_.table_seeds && s_.tables->probe(c.pos, v)) {
        tv = v;
      }
      if (tv != kNoTableValue) {
        c.exact = true;
        c.exact_value = move_value(c.extra, c.delta, tv);
      }
      // Children of known value first, best first: they cost nothing and
      // may settle the node before any search.
      // Among moves of equal gain, a player behind in the stores does best
      // to leave the opponent the fewest replies (a narrow tree to get
      // through), and one level or ahead to play the pit nearest the store
      // first.  Measured on one thread with the null-window schedule (nodes,
      // against the pit order alone): Kalah(6,4) empty capture with 16-seed
      // tables 27.4 M -> 24.7 M, BrainKing(5,4) 10.1 M -> 8.3 M, Kalah(5,4)
      // 5.80 M -> 5.24 M, Kalah(4,6) empty capture 3.96 M -> 3.89 M,
      // Kalah(6,3) 2.81 M -> 2.80 M, Congkak(7,5) 8.50 M -> 7.76 M.  The same
      // rule for a player level in the stores cost 47% more on Kalah(6,3);
      // for both players at every score, 42 M on Kalah(6,4).
      int narrow = 0;
      if (behind && !c.exact && !c.extra) narrow = 8 * count_moves(R::legal_moves(c.pos));
      // Material: the seeds a move leaves on the mover's side against the
      // opponent's, weighed at 3 per seed of difference (so it can outweigh
      // up to 2 seeds of gain), for a player behind in the stores and at
      // nodes expected to fail low.  At the others it took the pit order's
      // place and cost up to twice the nodes on boards of 3 seeds a pit.
      // Measured on one thread (nodes, without -> with): Kalah(6,4) empty
      // capture with 15-seed tables 31.2 M -> 26.9 M, Kalah(5,6) empty
      // capture with 25-seed tables and 1 GiB 146.2 M -> 44.2 M, Kalah(5,5)
      // 50.7 M -> 42.3 M, BrainKing(5,4) 8.48 M -> 6.99 M, Kalah(4,6) empty
      // capture 2.57 M -> 2.12 M, the `mancala bench` set 9.81 M -> 7.95 M
      // (Kalah(5,3) 1.5% more, the other cases fewer), Congkak(7,4) 0.246 M
      // -> 0.258 M.  Heavier weights for a player behind fall off a cliff:
      // 4 took Kalah(5,6) to 55.8 M (Kalah(6,4) 27.1 M), 5 took Kalah(6,4)
      // to 45 M, 6 to 58 M.
      int material = 0;
      if (!c.exact && (behind || !expect_cut)) material = 3 * (2 * (c.extra ? c.pos.mover_row_sum() : c.pos.opponent_row_sum()) - c.seeds);
      c.order = c.exact ? (1 << 24) + c.exact_value * 64 + c.pit
                        : (c.pit == table_move ? 1 << 20 : 0) + (c.extra ? 1 << 16 : 0) + c.delta * 64 - narrow + material + c.pit;
    }
    // Sorted as 64-bit keys (order, then index) without moving the
    // children; six or fewer by a branch-free network.  Against std::sort of
    // the children: Kalah(6,4) with 15-seed tables 10.77 s -> 10.47 s,
    // Kalah(5,4) 1.14 s -> 1.11 s, the same nodes (orders are distinct, so
    // the order is the same).
    std::uint64_t keys[kMaxPitsPerSide];
    for (int i = 0; i < n; ++i) keys[i] = (std::uint64_t(std::uint32_t(kids[i].order + (1 << 28))) << 5) | std::uint64_t(i);
    if (n <= 6) {
      for (int i = n; i < 6; ++i) keys[i] = 0;
      auto ce = [&](int a, int b) {
        const std::uint64_t x = keys[a], y = keys[b];
        keys[a] = x > y ? x : y;
        keys[b] = x > y ? y : x;
      };
      ce(0, 5); ce(1, 3); ce(2, 4); ce(1, 2); ce(3, 4); ce(0, 3);
      ce(2, 5); ce(0, 1); ce(2, 3); ce(4, 5); ce(1, 2); ce(3, 4);
    } else {
      std::sort(keys, keys + n, [](std::uint64_t a, std::uint64_t b) { return a > b; });
    }
    for (int i = 0; i < n; ++i) seq[i] = std::uint8_t(keys[i] & 31);
    return n;
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
// nothing, so the value never depends on the number of threads.
template <class R, int Width>
int search_root_with(SharedState& shared, const Position& p, int alpha, int beta, int depth) {
  const std::uint64_t key = shared.key(p);
  if (shared.threads == 1) {
    Worker<R, Width> w(shared, nullptr);
    bool tainted = false;
    return w.search(p, key, alpha, beta, 0, depth, tainted);
  }
  StopFlag stop;
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
