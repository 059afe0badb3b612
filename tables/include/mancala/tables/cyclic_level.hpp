// Exact retrograde analysis of one Oware level, whose in-level moves form
// cycles.  "Endless play splits the remaining seeds evenly" makes an endless
// line worth 0 to the board value.
//
// Method: threshold attractors with successor counting, all thresholds in
// one downward sweep.  For a threshold t let
//     W_t = { p : v(p) >= t }   (the mover forces a net gain of t or more)
//     L_t = { p : v(p) <= -t }  (the opponent forces it).
// An in-level move gains nothing, so p is in W_t iff its best exit (a capture
// or a game-ending move, whose value is known from lower levels) is >= t or
// some in-level child is in L_t; and p is in L_t iff its best exit is <= -t
// and every in-level child is in W_t.  Both are least fixpoints, reached by
// propagating backwards from the positions that are decided outright
// (retrograde: a decided child settles its predecessors).
//
// W_t and L_t only grow as t falls, so one sweep from t = k down to 1 does
// all thresholds: p enters W at t = v(p) and L at t = -v(p), so the
// threshold at which a position is decided *is* its value, and every
// position is decided once.  Each position keeps `pending`, the number of its
// in-level children not yet known to be in W; it only ever falls, across
// thresholds, and p joins L_t when it reaches 0 while its best exit is <= -t.
// A position whose counter reaches 0 while its best exit e lies in (-t, t)
// has value exactly e; it is decided when the sweep reaches threshold |e|,
// not earlier, so that its predecessors see it at the right threshold.
// Positions never decided are worth 0 (endless play, or a best exit of 0).
//
// Predecessors ("unmoves") are enumerated by unsowing and then confirmed by
// playing the move forwards with the engine, so a legal-move subtlety (the
// must-feed rule, grand slams) cannot make the two directions disagree: the
// enumeration only has to be complete, which unsowing every seed count from
// every empty house of the previous mover is.
//
// Every decision is a compare-and-swap from "unknown" to a value that the
// mathematics fixes, so the result does not depend on the number of threads
// or the order in which they run: the level is byte-identical for any T.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/page_buffer.hpp"
#include "mancala/tables/value_encoding.hpp"
#include "mancala/valuation.hpp"

namespace mancala::tables {

struct CyclicLevelStats {
  int thresholds = 0;          // thresholds that decided at least one position
  int rounds = 0;              // frontier rounds, all thresholds together
  std::uint64_t undecided = 0; // positions left at 0 (endless play or exit 0)
};

// Calls visit(predecessor) for every position q of the same level with a
// legal, capture-free, game-continuing move that leads to `child`.
// `child` is mover-relative (the opponent of q's mover to move).  Width:
// see assume_board_width (board_width.hpp).
template <class R, int Width = 0, class Visit>
[[gnu::flatten]] void for_each_in_level_predecessor(const Position& child, Visit&& visit) {
  assume_board_width<Width>(child);
  const int m = Width > 0 ? Width : child.m();
  const int pits = 2 * m;
  const int seeds = child.board_seeds();
  if (R::is_terminal(child)) return;  // a move into a terminal position ends the game
  Position before;
  before.pits_per_side = child.pits_per_side;
  for (int i = 0; i < pits; ++i) before.pits[std::size_t(i)] = child.pits[std::size_t((i + m) % pits)];
  for (int origin = 0; origin < m; ++origin) {
    if (before.pits[std::size_t(origin)] != 0) continue;  // sowing always empties the origin
    Position q = before;
    int pit = origin;
    for (int sown = 1;; ++sown) {
      do pit = pit + 1 == pits ? 0 : pit + 1;
      while (pit == origin);
      if (q.pits[std::size_t(pit)] == 0) break;  // more seeds would need more here
      --q.pits[std::size_t(pit)];
      q.pits[std::size_t(origin)] = std::uint8_t(sown);
      // Fast path: a last seed on the mover's row, or making an opponent's
      // house anything but 2 or 3, captures nothing.  Such a move is legal
      // (it feeds the opponent, whose row the child shows non-empty, and is
      // no grand slam) and leads to `child` by construction.
      const int last_count = before.pits[std::size_t(pit)];
      if (pit < m || (last_count != 2 && last_count != 3)) {
        visit(q);
        continue;
      }
      assume_board_width<Width>(q);
      if (R::is_terminal(q) || !((R::legal_moves(q) >> origin) & 1u)) continue;
      Position after = q;
      assume_board_width<Width>(after);
      const MoveResult res = R::play(after, origin);
      if (res.game_over || after.board_seeds() != seeds || after.pits != child.pits) continue;
      visit(q);
    }
  }
}

// The pieces of the threshold sweep, shared by solve_cyclic_level() below
// and by builders that own only a slice of a level (cyclic_slice.hpp).
//
// Each position's state is one 16-bit cell, so that a predecessor update
// touches one cache line and a level costs 2 bytes a position (4 before:
// a byte each for value, pending count and best exit):
//     bits 0..7    the best exit while undecided, the value once decided
//                  (int8; the exit is not needed once the value is known)
//     bits 8..12   pending: in-level children not yet known to be in W
//                  (at most kMaxPitsPerSide = 16 moves)
//     bit  13      decided
//     bits 14, 15  frontier marks: decided in a round of even or odd parity
//                  and not expanded yet (see Frontier below)
namespace cyclic_detail {

using Cell = std::uint16_t;
inline constexpr int kNoExit = kUnknownValue;  // below every threshold test
inline constexpr Cell kByteMask = 0xff;
inline constexpr int kPendingShift = 8;
inline constexpr Cell kPendingMask = 0x1f << kPendingShift;
inline constexpr Cell kDecided = 1u << 13;
inline constexpr Cell kMarks[2] = {Cell(1u << 14), Cell(1u << 15)};
static_assert(kMaxPitsPerSide < 32, "the pending count has 5 bits");

inline bool is_decided(Cell c) { return (c & kDecided) != 0; }
inline int cell_byte(Cell c) { return int(std::int8_t(c & kByteMask)); }
inline int cell_pending(Cell c) { return int((c & kPendingMask) >> kPendingShift); }
inline int cell_exit(Cell c) { return cell_byte(c); }   // while undecided
inline int cell_value(Cell c) { return cell_byte(c); }  // once decided
inline Cell undecided_cell(int exit, int pending) { return Cell(std::uint8_t(std::int8_t(exit)) | unsigned(pending) << kPendingShift); }
// c decided with value v, and marked with `mark` (0: unmarked).
inline Cell decided_cell(Cell c, int v, Cell mark) { return Cell((c & ~kByteMask) | std::uint8_t(std::int8_t(v)) | kDecided | mark); }
inline constexpr std::size_t kBatch = 64;

// The bytes a position of the level being built costs the sweep: its cell,
// and at most 1/8 byte for the frontiers' lists of ranks (Frontier).  The
// values take the cells' place as they are written out (PageBuffer).
inline std::uint64_t working_bytes(std::uint64_t positions) { return positions * sizeof(Cell) + positions / 8; }

// The moves of a non-terminal Oware position p of level k, sorted out as
// every scan of a level's exits needs them: over(gain) for a move that
// ends the game, exit(gain, child, child's seeds) for one whose child is in
// a lower level, stay() for one that stays in the level.  Oware has no
// extra turns, so a gain is the store difference's change.  Width: see
// assume_board_width (board_width.hpp).
template <class R, int Width = 0, class Over, class Exit, class Stay>
[[gnu::flatten]] void for_each_move(const Position& p, int k, Over&& over, Exit&& exit, Stay&& stay) {
  assume_board_width<Width>(p);
  for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
    Position c = p;
    assume_board_width<Width>(c);
    const MoveResult res = R::play(c, std::countr_zero(rest));
    assume_board_width<Width>(c);
    const int gain = move_gain(c, false, 0);
    if (res.game_over)
      over(gain);
    else if (const int cs = c.board_seeds(); cs < k)
      exit(gain, c, cs);
    else
      stay();
  }
}

// Forward scan of ranks [lo, hi) of level k: best exit and in-level child
// count of every position, into cells[rank - lo].  The exits' values are
// looked up a batch at a time, after prefetching.  Adds half of hi - lo to
// `done` (the scan is half of a level's work) and returns what it added.
// Width: see assume_board_width (board_width.hpp) (2 * Width == index.pits()).
template <class R, int Width = 0, class Lower>
std::uint64_t scan_exits(const BoardIndex& index, int m, int k, const Lower& lower, std::uint64_t lo, std::uint64_t hi, Cell* cells,
                         std::atomic<std::uint64_t>* done) {
  Position blank;
  blank.pits_per_side = std::uint8_t(m);
  std::atomic<std::uint64_t> scanned{0};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(lo, hi, kBatch), [&](const tbb::blocked_range<std::uint64_t>& r) {
    struct Exit {
      const std::int8_t* value;  // the child's value, negated into the parent's view
      int delta;
      std::uint32_t position;    // within the batch
    };
    std::vector<Exit> exits;
    std::array<int, kBatch> best{};
    std::array<int, kBatch> in_level{};
    Position p = blank;
    index.unrank(r.begin(), k, p.pits.data());
    for (std::uint64_t first = r.begin(); first < r.end(); first += kBatch) {
      const std::uint64_t last = std::min<std::uint64_t>(r.end(), first + kBatch);
      exits.clear();
      for (std::uint64_t rank = first; rank != last; ++rank, index.next(p.pits.data())) {
        const std::size_t i = std::size_t(rank - first);
        best[i] = kNoExit;
        in_level[i] = 0;
        if (R::is_terminal(p)) {
          best[i] = finished_board_value(p);
          continue;
        }
        for_each_move<R, Width>(
            p, k, [&](int delta) { best[i] = std::max(best[i], delta); },
            [&](int delta, const Position& c, int cs) {
              const std::int8_t* v = lower(cs) + index.template rank_for_width<Width>(c.pits.data(), cs);
              __builtin_prefetch(v);
              exits.push_back({v, delta, std::uint32_t(i)});
            },
            [&] { ++in_level[i]; });
      }
      for (const Exit& e : exits) best[e.position] = std::max(best[e.position], e.delta - int(*e.value));
      for (std::uint64_t rank = first; rank != last; ++rank) {
        const std::size_t i = std::size_t(rank - first);
        cells[rank - lo] = undecided_cell(best[i], in_level[i]);
      }
    }
    if (done) done->fetch_add(r.size() / 2, std::memory_order_relaxed);
    scanned.fetch_add(r.size() / 2, std::memory_order_relaxed);
  });
  return scanned.load();
}

// Decided outright at threshold t: best exit exactly t, or no in-level child
// left outside W and best exit exactly -t.  Sets the value (and `mark`) and
// returns true if so (not thread-safe on the same cell; each cell is seeded
// by one thread).
inline bool seed_cell(Cell& cell, int t, Cell mark) {
  const Cell c = cell;
  if (is_decided(c)) return false;
  if (cell_exit(c) == t) {
    cell = decided_cell(c, t, mark);
    return true;
  }
  if (cell_pending(c) == 0 && cell_exit(c) == -t) {
    cell = decided_cell(c, -t, mark);
    return true;
  }
  return false;
}

// One predecessor update at threshold t: an in-level child of the cell's
// position was decided, in W (child_wins) or in L.  Returns true if this
// update decided the position (and marked it with `mark`).  Safe against
// concurrent updates of the cell.
inline bool apply_update(Cell& raw, bool child_wins, int t, Cell mark) {
  std::atomic_ref<Cell> cell(raw);
  Cell c = cell.load(std::memory_order_relaxed);
  if (is_decided(c)) return false;
  if (!child_wins) {  // a move into L_t puts q in W_t
    while (!is_decided(c) && !cell.compare_exchange_weak(c, decided_cell(c, t, mark), std::memory_order_relaxed)) {
    }
    return !is_decided(c);
  }
  // One more in-level child of q is in W_t.  Every in-level child sends one
  // such update a move, so the count never goes below 0 and cannot borrow
  // from the bits above it.
  c = Cell(cell.fetch_sub(Cell(1u << kPendingShift), std::memory_order_relaxed) - Cell(1u << kPendingShift));
  if (is_decided(c) || cell_pending(c) != 0 || cell_exit(c) > -t) return false;
  // Every in-level move reaches W_t and no exit does better: L_t.
  while (!is_decided(c) && !cell.compare_exchange_weak(c, decided_cell(c, -t, mark), std::memory_order_relaxed)) {
  }
  return !is_decided(c);
}

// The board value a cell ends with: undecided positions are worth 0.
inline std::int8_t final_value(Cell c) { return std::int8_t(is_decided(c) ? cell_value(c) : 0); }

// The positions decided in one round, which the next round expands.  Their
// ranks are listed while they are few; past `limit` (1/256 of the level:
// 8-byte ranks in vectors that may double, and two frontiers alive at once,
// the one expanded and the one it fills, keep the lists within 1/8 byte a
// position) the lists are dropped and the next round finds its positions by their
// marks in the cells instead, a scan of the level that costs less than
// expanding that many positions.  Either way the next frontier is exactly
// the positions decided in this round, so the rounds, and the values, do
// not depend on which is used or on the threads.
class Frontier {
 public:
  // list_limit: 0 for the automatic limit; tests set 1 to find every
  // frontier by its marks.
  explicit Frontier(std::uint64_t level_size, std::uint64_t list_limit = 0)
      : limit_(list_limit ? list_limit : std::max<std::uint64_t>(level_size / 256, 1u << 16)) {}

  // One thread's additions, flushed to the count every batch.
  class Adder {
   public:
    explicit Adder(Frontier& f) : f_(f), list_(f.lists_.local()) {}
    ~Adder() { flush(); }
    void add(std::uint64_t rank) {
      ++pending_;
      if (!f_.overflow_.load(std::memory_order_relaxed)) list_.push_back(rank);
    }
    void flush() {
      if (pending_ == 0) return;
      if (f_.count_.fetch_add(pending_, std::memory_order_relaxed) + pending_ > f_.limit_) f_.overflow_.store(true, std::memory_order_relaxed);
      pending_ = 0;
    }

   private:
    Frontier& f_;
    std::vector<std::uint64_t>& list_;
    std::uint64_t pending_ = 0;
  };

  std::uint64_t size() const { return count_.load(); }
  bool listed() const { return !overflow_.load(); }
  // Calls f(list) for each thread's list (listed() only).
  template <class F>
  void for_each_list(F&& f) const {
    for (const auto& l : lists_) f(l);
  }
  void clear() {
    for (auto& l : lists_) {
      if (overflow_.load()) std::vector<std::uint64_t>().swap(l);
      else l.clear();
    }
    count_ = 0;
    overflow_ = false;
  }

 private:
  std::uint64_t limit_;
  std::atomic<std::uint64_t> count_{0};
  std::atomic<bool> overflow_{false};
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> lists_;
};

}  // namespace cyclic_detail

// Thrown out of a level's build when its stop flag was raised: the caller
// (a solver asked to stop) abandons the level, which is then incomplete.
struct BuildStopped : std::exception {
  const char* what() const noexcept override { return "the level build was stopped"; }
};

// Values of level k (all boards with k seeds over 2m pits), given the values
// of every lower level: lower(seeds) points at that level's values, by rank.
// `done` (optional) is advanced by the level's size in total as the work
// proceeds.  `stop` (optional): when raised, the build throws BuildStopped
// at its next round.  `frontier_list_limit`: see Frontier (0, automatic,
// outside tests).  Ranks are 64-bit: a level may hold 2^32 positions or more.
//
// Updates are batched with prefetches because at a few hundred million
// positions every one of them is a miss to memory.
//
// Width: see assume_board_width (board_width.hpp) (2 * Width == index.pits(); 0 for any).
template <class R, int Width = 0, class Lower>
std::vector<std::int8_t> solve_cyclic_level(const BoardIndex& index, int m, int k, const Lower& lower,
                                            std::atomic<std::uint64_t>* done, CyclicLevelStats* stats = nullptr,
                                            const std::atomic<bool>* stop = nullptr, std::uint64_t frontier_list_limit = 0) {
  using namespace cyclic_detail;
  const std::uint64_t size = index.level_size(k);
  PageBuffer<Cell> cells(size);
  std::uint64_t reported = 0;
  auto report = [&](std::uint64_t n) {
    if (done) done->fetch_add(n, std::memory_order_relaxed);
    reported += n;
    if (stop && stop->load(std::memory_order_relaxed)) throw BuildStopped();
  };

  Position blank;
  blank.pits_per_side = std::uint8_t(m);

  reported += scan_exits<R, Width>(index, m, k, lower, 0, size, cells.data(), done);

  // Expands the decided positions ranks[0..n) (marked with `mark`, which is
  // cleared) at threshold t: their predecessors' updates, a batch at a time
  // after prefetching; what they decide goes to `next`, marked `next_mark`.
  auto expand = [&](const std::uint64_t* ranks, std::size_t n, int t, Cell mark, Cell next_mark, Frontier::Adder& next,
                    std::vector<std::uint64_t>& updates) {
    Position p = blank;
    for (std::size_t first = 0; first < n; first += kBatch) {
      const std::size_t last = std::min(n, first + kBatch);
      updates.clear();
      for (std::size_t i = first; i != last; ++i) {
        const std::uint64_t rank = ranks[i];
        const Cell c = std::atomic_ref<Cell>(cells[rank]).fetch_and(Cell(~mark), std::memory_order_relaxed);
        index.unrank(rank, k, p.pits.data());
        const std::uint64_t child_wins = cell_value(c) > 0;
        for_each_in_level_predecessor<R, Width>(p, [&](const Position& q) {
          const std::uint64_t qr = index.template rank_for_width<Width>(q.pits.data(), k);
          __builtin_prefetch(&cells[qr], 1);
          updates.push_back(qr << 1 | child_wins);
        });
      }
      for (const std::uint64_t u : updates)
        if (apply_update(cells[u >> 1], u & 1, t, next_mark)) next.add(u >> 1);
      next.flush();
    }
  };

  CyclicLevelStats local;
  std::uint64_t decided = 0;
  Frontier frontiers[2] = {Frontier(size, frontier_list_limit), Frontier(size, frontier_list_limit)};
  int parity = 0;  // the frontier of this round is frontiers[parity], its cells marked kMarks[parity]
  for (int t = k; t >= 1; --t) {
    Frontier& seeds = frontiers[parity];
    seeds.clear();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size), [&](const tbb::blocked_range<std::uint64_t>& r) {
      Frontier::Adder out(seeds);
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank)
        if (seed_cell(cells[rank], t, kMarks[parity])) out.add(rank);
    });
    if (seeds.size()) ++local.thresholds;
    while (frontiers[parity].size()) {
      Frontier& now = frontiers[parity];
      Frontier& next = frontiers[parity ^ 1];
      const Cell mark = kMarks[parity], next_mark = kMarks[parity ^ 1];
      next.clear();
      ++local.rounds;
      decided += now.size();
      report(now.size() / 2);
      if (now.listed()) {
        now.for_each_list([&](const std::vector<std::uint64_t>& list) {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, list.size(), kBatch), [&](const tbb::blocked_range<std::size_t>& r) {
            Frontier::Adder out(next);
            std::vector<std::uint64_t> updates;  // predecessor rank, times 2, plus 1 if the child is in W
            expand(list.data() + r.begin(), r.size(), t, mark, next_mark, out, updates);
          });
        });
      } else {  // found by their marks
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size, 1u << 16), [&](const tbb::blocked_range<std::uint64_t>& r) {
          Frontier::Adder out(next);
          std::vector<std::uint64_t> updates, ranks;
          for (std::uint64_t first = r.begin(); first < r.end(); first += kBatch) {
            ranks.clear();
            for (std::uint64_t rank = first, last = std::min<std::uint64_t>(r.end(), first + kBatch); rank != last; ++rank)
              if (std::atomic_ref<Cell>(cells[rank]).load(std::memory_order_relaxed) & mark) ranks.push_back(rank);
            expand(ranks.data(), ranks.size(), t, mark, next_mark, out, updates);
          }
        });
      }
      parity ^= 1;
    }
  }
  local.undecided = size - decided;
  // The values, a chunk at a time, each chunk of cells given back as its
  // values are written: the level costs its cells at most, not cells and
  // values together.
  std::vector<std::int8_t> value;
  value.reserve(size);
  constexpr std::uint64_t kChunk = std::uint64_t(1) << 26;
  for (std::uint64_t first = 0; first < size; first += kChunk) {
    const std::uint64_t last = std::min(size, first + kChunk);
    value.resize(last);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(first, last), [&](const tbb::blocked_range<std::uint64_t>& r) {
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank) value[rank] = final_value(cells[rank]);
    });
    cells.release(first, last);
  }
  report(size - reported);
  if (stats) *stats = local;
  return value;
}

}  // namespace mancala::tables
