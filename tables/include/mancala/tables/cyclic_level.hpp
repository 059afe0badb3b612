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
#include <type_traits>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
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
// `child` is mover-relative (the opponent of q's mover to move).
template <class R, class Visit>
void for_each_in_level_predecessor(const Position& child, Visit&& visit) {
  const int m = child.m();
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
      if (R::is_terminal(q) || !((R::legal_moves(q) >> origin) & 1u)) continue;
      Position after = q;
      const MoveResult res = R::play(after, origin);
      if (res.game_over || after.board_seeds() != seeds || after.pits != child.pits) continue;
      visit(q);
    }
  }
}

// The pieces of the threshold sweep, shared by solve_cyclic_level() below
// and by builders that own only a slice of a level (cyclic_slice.hpp).
//
// Each position's state is one 32-bit cell (value, pending count, best exit)
// so that a predecessor update touches one cache line.
namespace cyclic_detail {

inline constexpr int kUnknown = kUnknownValue;
inline constexpr int kNoExit = kUnknownValue;  // below every threshold test
// cell = value | pending << 8 | best exit << 16, each a byte
inline int cell_value(std::uint32_t c) { return int(std::int8_t(c & 0xff)); }
inline int cell_pending(std::uint32_t c) { return int((c >> 8) & 0xff); }
inline int cell_exit(std::uint32_t c) { return int(std::int8_t((c >> 16) & 0xff)); }
inline std::uint32_t with_value(std::uint32_t c, int v) { return (c & ~0xffu) | std::uint32_t(std::uint8_t(std::int8_t(v))); }
inline constexpr std::size_t kBatch = 64;

// Forward scan of ranks [lo, hi) of level k: best exit and in-level child
// count of every position, into cells[rank - lo].  The exits' values are
// looked up a batch at a time, after prefetching.  Adds half of hi - lo to
// `done` (the scan is half of a level's work) and returns what it added.
template <class R, class Lower>
std::uint64_t scan_exits(const BoardIndex& index, int m, int k, const Lower& lower, std::uint64_t lo, std::uint64_t hi,
                         std::uint32_t* cells, std::atomic<std::uint64_t>* done) {
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
        for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
          Position c = p;
          const MoveResult res = R::play(c, std::countr_zero(rest));
          const int delta = move_gain(c, false, 0);  // Oware has no extra turns
          if (res.game_over) {
            best[i] = std::max(best[i], delta);
          } else if (const int cs = c.board_seeds(); cs < k) {
            if constexpr (std::is_pointer_v<decltype(lower(cs))>) {
              const std::int8_t* v = lower(cs) + index.rank(c.pits.data(), cs);
              __builtin_prefetch(v);
              exits.push_back({v, delta, std::uint32_t(i)});
            } else {  // lower(cs)[rank] gives the value (held in slices)
              best[i] = std::max(best[i], delta - int(lower(cs)[index.rank(c.pits.data(), cs)]));
            }
          } else {
            ++in_level[i];
          }
        }
      }
      for (const Exit& e : exits) best[e.position] = std::max(best[e.position], e.delta - int(*e.value));
      for (std::uint64_t rank = first; rank != last; ++rank) {
        const std::size_t i = std::size_t(rank - first);
        cells[rank - lo] = std::uint32_t(std::uint8_t(std::int8_t(kUnknown))) | std::uint32_t(in_level[i]) << 8 |
                           std::uint32_t(std::uint8_t(std::int8_t(best[i]))) << 16;
      }
    }
    if (done) done->fetch_add(r.size() / 2, std::memory_order_relaxed);
    scanned.fetch_add(r.size() / 2, std::memory_order_relaxed);
  });
  return scanned.load();
}

// Decided outright at threshold t: best exit exactly t, or no in-level child
// left outside W and best exit exactly -t.  Sets the value and returns true
// if so (not thread-safe on the same cell; each cell is seeded by one thread).
inline bool seed_cell(std::uint32_t& cell, int t) {
  const std::uint32_t c = cell;
  if (cell_value(c) != kUnknown) return false;
  if (cell_exit(c) == t) {
    cell = with_value(c, t);
    return true;
  }
  if (cell_pending(c) == 0 && cell_exit(c) == -t) {
    cell = with_value(c, -t);
    return true;
  }
  return false;
}

// One predecessor update at threshold t: an in-level child of the cell's
// position was decided, in W (child_wins) or in L.  Returns true if this
// update decided the position.  Safe against concurrent updates of the cell.
inline bool apply_update(std::uint32_t& raw, bool child_wins, int t) {
  std::atomic_ref<std::uint32_t> cell(raw);
  std::uint32_t c = cell.load(std::memory_order_relaxed);
  if (cell_value(c) != kUnknown) return false;
  if (!child_wins) {  // a move into L_t puts q in W_t
    while (cell_value(c) == kUnknown && !cell.compare_exchange_weak(c, with_value(c, t), std::memory_order_relaxed)) {
    }
    return cell_value(c) == kUnknown;
  }
  // One more in-level child of q is in W_t.  The count is above 0 here, so
  // the subtraction cannot borrow from the next byte.
  c = cell.fetch_sub(1u << 8, std::memory_order_relaxed) - (1u << 8);
  if (cell_pending(c) != 0 || cell_exit(c) > -t) return false;
  // Every in-level move reaches W_t and no exit does better: L_t.
  while (cell_value(c) == kUnknown && !cell.compare_exchange_weak(c, with_value(c, -t), std::memory_order_relaxed)) {
  }
  return cell_value(c) == kUnknown;
}

// The board value a cell ends with: undecided positions are worth 0.
inline std::int8_t final_value(std::uint32_t c) {
  const int v = cell_value(c);
  return std::int8_t(v == kUnknown ? 0 : v);
}

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
// at its next round.
//
// Updates are batched with prefetches because at a few hundred million
// positions every one of them is a miss to memory.
template <class R, class Lower>
std::vector<std::int8_t> solve_cyclic_level(const BoardIndex& index, int m, int k, const Lower& lower,
                                            std::atomic<std::uint64_t>* done, CyclicLevelStats* stats = nullptr,
                                            const std::atomic<bool>* stop = nullptr) {
  using namespace cyclic_detail;
  using Rank = std::uint32_t;
  const std::uint64_t size = index.level_size(k);
  require_32_bit_level(k, size);
  std::vector<std::uint32_t> cells(size);
  std::uint64_t reported = 0;
  auto report = [&](std::uint64_t n) {
    if (done) done->fetch_add(n, std::memory_order_relaxed);
    reported += n;
    if (stop && stop->load(std::memory_order_relaxed)) throw BuildStopped();
  };

  Position blank;
  blank.pits_per_side = std::uint8_t(m);

  reported += scan_exits<R>(index, m, k, lower, 0, size, cells.data(), done);

  tbb::enumerable_thread_specific<std::vector<Rank>> found;
  auto gather = [&] {
    std::vector<Rank> all;
    std::size_t n = 0;
    for (auto& v : found) n += v.size();
    all.reserve(n);
    for (auto& v : found) {
      all.insert(all.end(), v.begin(), v.end());
      v.clear();
    }
    return all;
  };

  CyclicLevelStats local;
  std::uint64_t decided = 0;
  for (int t = k; t >= 1; --t) {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size), [&](const tbb::blocked_range<std::uint64_t>& r) {
      auto& out = found.local();
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank)
        if (seed_cell(cells[rank], t)) out.push_back(Rank(rank));
    });
    std::vector<Rank> frontier = gather();
    if (!frontier.empty()) ++local.thresholds;
    while (!frontier.empty()) {
      ++local.rounds;
      decided += frontier.size();
      report(frontier.size() / 2);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), kBatch), [&](const tbb::blocked_range<std::size_t>& r) {
        auto& out = found.local();
        std::vector<std::uint64_t> updates;  // predecessor rank, times 2, plus 1 if the child is in W
        Position p = blank;
        for (std::size_t first = r.begin(); first < r.end(); first += kBatch) {
          const std::size_t last = std::min(r.end(), first + kBatch);
          updates.clear();
          for (std::size_t i = first; i != last; ++i) {
            const std::uint64_t rank = frontier[i];
            index.unrank(rank, k, p.pits.data());
            const std::uint64_t child_wins = cell_value(cells[rank]) > 0;
            for_each_in_level_predecessor<R>(p, [&](const Position& q) {
              const std::uint64_t qr = index.rank(q.pits.data(), k);
              __builtin_prefetch(&cells[qr], 1);
              updates.push_back(qr << 1 | child_wins);
            });
          }
          for (const std::uint64_t u : updates)
            if (apply_update(cells[u >> 1], u & 1, t)) out.push_back(Rank(u >> 1));
        }
      });
      frontier = gather();
    }
  }
  local.undecided = size - decided;
  std::vector<std::int8_t> value(size);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size), [&](const tbb::blocked_range<std::uint64_t>& r) {
    for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank) value[rank] = final_value(cells[rank]);
  });
  report(size - reported);
  if (stats) *stats = local;
  return value;
}

}  // namespace mancala::tables
