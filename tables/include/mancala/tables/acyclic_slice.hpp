// One process's slice [lo, hi) of an acyclic level (Kalah, BrainKing,
// Congkak) in a distributed build, valued in two phases so that each
// position's moves are played once where possible and no position waits for
// another process without need:
//
//  1. Exits, in rank order.  A move that ends the game or leaves seeds in a
//     store (its child is in a lower level, complete everywhere) is valued
//     at once when this process holds the child, and otherwise asked of the
//     child's owner (ExitRequests) and folded in when the answer comes.  The
//     slice is stepped through (BoardIndex::next), never decoded rank by
//     rank, and the batches need no order between processes.  A position
//     none of whose moves stays in the level is final after this phase.
//  2. Moves within the level, in Phi order (phi_buckets.hpp): only the
//     positions that have one (about 5/6 of a 6-pit Kalah level) are sorted
//     by Phi and replayed, and only their in-level children are looked up,
//     here or from their owners.  A child has a larger Phi than its parent
//     (DESIGN.md section 4), so with every process going through the
//     buckets from the largest Phi down in step, it is final before it is
//     asked for.  (Rounds of depth-first walks that ask other processes for
//     children until none is waiting were tried instead: one round with one
//     process, but 16 to 18 rounds with two on Kalah 6-pit levels 17 and 18,
//     each walking again the positions still blocked, and twice as slow.)
//
// What a position holds meanwhile is the best of the moves folded in so far
// (kUnknownValue: none yet; a table value is never -128) over its exits,
// and a bit while its in-level moves are still to come.  Nothing here communicates:
// tables/mpi/ hands the requests to their owners, and tests do it by hand.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/tables/board_exits.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/exit_requests.hpp"
#include "mancala/tables/phi_buckets.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

template <class R>
class AcyclicSlice {
 public:
  // Phase 1's batches start at offsets that are multiples of this (whole
  // words of the in-level bits, so that threads never share one).
  static constexpr std::uint64_t kBatchAlign = 64;

  AcyclicSlice(const BoardIndex& index, int m, int k, std::uint64_t lo, std::uint64_t hi)
      : index_(index), m_(m), k_(k), lo_(lo), hi_(hi), level_(hi - lo, kUnknownValue), in_level_((hi - lo + 63) / 64, 0),
        in_level_moves_(m <= kMaxMaskedPits ? hi - lo : 0, 0) {
    if (lo > hi || hi > index.level_size(k)) throw std::logic_error("AcyclicSlice: bad range");
  }

  std::uint64_t lo() const { return lo_; }
  std::uint64_t hi() const { return hi_; }

  // Phase 1 for the ranks [a, b) of the slice (a - lo a multiple of
  // kBatchAlign).  held(s, r) points at the value of rank r of lower level s
  // when this process holds it, else is null; owner(key) is the process to
  // ask.  The requests are added to `out`.
  template <class Held, class Owner>
  void value_exits(std::uint64_t a, std::uint64_t b, const Held& held, const Owner& owner, ExitRequests& out) {
    if (a < lo_ || b > hi_ || a > b || (a - lo_) % kBatchAlign != 0) throw std::logic_error("AcyclicSlice: bad batch");
    with_board_width(m_, [&](auto width) { value_exits_of<decltype(width)::value>(a, b, held, owner, out); });
  }

  // The answers to `req` (every owner's, concatenated in owner order).
  void fold(const ExitRequests& req, std::span<const std::int8_t> answers) {
    for_each_answer(req, answers, [&](const WaitingMove& w, std::int8_t v) { improve(w.offset, move_value(w.extra_turn, w.gain, v)); });
  }

  // After phase 1 (every exit folded in): the positions with in-level moves
  // by Phi, for phase 2.
  const PhiBuckets& order_by_phi() {
    buckets_.emplace(index_, m_, k_, lo_, hi_, [&](std::uint64_t r) { return waits(r - lo_); });
    return *buckets_;
  }

  // Phase 2 for `ranks` (of one Phi bucket, every larger bucket done by
  // every process): their in-level children, held here or asked of
  // owner(key) through `out`.  Once the answers are folded in (fold()),
  // finish(ranks).
  template <class Owner>
  void value_in_level(std::span<const std::uint64_t> ranks, const Owner& owner, ExitRequests& out) {
    with_board_width(m_, [&](auto width) { value_in_level_of<decltype(width)::value>(ranks, {}, owner, out); });
  }
  // The same for positions of another process's slice (their ranks, and
  // the best of their exits as their owner has it: exit_best()), valued
  // here so that every process has its share of a bucket's work; their
  // values are foreign_values() once the answers are folded in, for the
  // owner's settle().  A call replaces the previous call's positions.
  template <class Owner>
  void value_foreign(std::span<const std::uint64_t> ranks, std::span<const std::int8_t> exits, const Owner& owner,
                     ExitRequests& out) {
    if (exits.size() != ranks.size()) throw std::logic_error("AcyclicSlice: a foreign position without its exits");
    foreign_.assign(exits.begin(), exits.end());
    with_board_width(m_, [&](auto width) { value_in_level_of<decltype(width)::value>(ranks, exits, owner, out); });
  }
  const std::vector<std::int8_t>& foreign_values() const { return foreign_; }
  // What a position of the slice waiting for phase 2 has from its exits.
  std::int8_t exit_best(std::uint64_t r) const {
    if (r < lo_ || r >= hi_ || !waits(r - lo_)) throw std::logic_error("AcyclicSlice: exit_best of a position not waiting");
    return level_[r - lo_];
  }
  // The final values of positions of the slice valued by other processes.
  void settle(std::span<const std::uint64_t> ranks, std::span<const std::int8_t> values) {
    if (values.size() != ranks.size()) throw std::logic_error("AcyclicSlice: values for other positions");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] < lo_ || ranks[i] >= hi_ || !waits(ranks[i] - lo_) || values[i] == kUnknownValue)
        throw std::logic_error("AcyclicSlice: a value settled for a position not waiting");
      level_[ranks[i] - lo_] = values[i];
    }
    finish(ranks);
  }
  void finish(std::span<const std::uint64_t> ranks) {
    for (const std::uint64_t r : ranks) in_level_[(r - lo_) / 64] &= ~(std::uint64_t(1) << ((r - lo_) % 64));
  }

  // The final value of rank r of the slice, for another process or a child
  // held here; asking for one not final yet is a logic error.
  std::int8_t final_value(std::uint64_t r) const {
    if (r < lo_ || r >= hi_) throw std::logic_error("AcyclicSlice: rank " + std::to_string(r) + " is not in the slice");
    const std::int8_t v = level_[r - lo_];
    if (waits(r - lo_) || v == kUnknownValue)
      throw std::logic_error("acyclic level " + std::to_string(k_) + ": rank " + std::to_string(r) + " is not known yet");
    return v;
  }

  std::vector<std::int8_t> values() && { return std::move(level_); }
  const std::vector<std::int8_t>& values() const& { return level_; }

 private:
  bool waits(std::uint64_t offset) const { return (in_level_[offset / 64] >> (offset % 64)) & 1; }

  // A cell: an offset in the slice, or beyond its end the index of a
  // foreign position (value_foreign) plus the slice's size.
  void improve(std::uint64_t offset, int v) {
    std::int8_t& cell = offset < level_.size() ? level_[offset] : foreign_[offset - level_.size()];
    if (cell == kUnknownValue || v > cell) cell = std::int8_t(v);
  }

  template <int Width, class Held, class Owner>
  void value_exits_of(std::uint64_t a, std::uint64_t b, const Held& held, const Owner& owner, ExitRequests& out) {
    const int parts = int(out.keys.size());
    tbb::enumerable_thread_specific<ExitRequests> found([&] { return ExitRequests(parts); });
    const std::uint64_t words = (b - a + 63) / 64;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words, 64), [&](const tbb::blocked_range<std::uint64_t>& w) {
      ExitRequests& mine = found.local();
      const std::uint64_t first = a + w.begin() * 64, last = std::min(b, a + w.end() * 64);
      ExitBatch<Width> batch;
      const auto record = [&](std::uint64_t offset, const BoardExits& exits) {
        level_[offset] = exits.best == kBelowEveryValue ? kUnknownValue : std::int8_t(exits.best);
        if (exits.in_level) in_level_[offset / 64] |= std::uint64_t(1) << (offset % 64);
        if (!in_level_moves_.empty()) in_level_moves_[offset] = std::uint8_t(exits.in_level);
      };
      Position p;
      p.pits_per_side = std::uint8_t(m_);
      index_.unrank(first, k_, p.pits.data());
      for (std::uint64_t rank = first; rank != last; ++rank, index_.next(p.pits.data())) {
        assume_board_width<Width>(p);
        const std::uint64_t offset = rank - lo_;
        if (R::is_terminal(p)) {
          level_[offset] = std::int8_t(finished_board_value(p));
          continue;
        }
        play_board_exits<R, Width>(index_, p, k_, offset, held, owner, mine, [](const Position&, const MoveResult&) {},
                                   batch.next(offset));
        if (batch.full()) batch.settle(record);
      }
      batch.settle(record);
    });
    for (auto& f : found) out.append(f);
  }

  // Groups of positions: their in-level children are found for the whole
  // group first, and their cells touched, then read (the misses overlap).
  static constexpr std::size_t kGroup = 8;

  template <int Width, class Owner>
  void value_in_level_of(std::span<const std::uint64_t> ranks, std::span<const std::int8_t> foreign_exits, const Owner& owner,
                         ExitRequests& out) {
    const bool foreign = !foreign_exits.empty();
    const int parts = int(out.keys.size());
    tbb::enumerable_thread_specific<ExitRequests> found([&] { return ExitRequests(parts); });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ranks.size(), 256), [&](const tbb::blocked_range<std::size_t>& range) {
      ExitRequests& mine = found.local();
      constexpr int kMoves = Width > 0 ? Width : kMaxPitsPerSide;
      struct Child {
        std::uint64_t offset;  // in the slice, of the parent
        std::uint64_t rank;    // of the child, in the level
        int gain;
        bool extra;
      } children[kGroup * kMoves];
      Position p;
      p.pits_per_side = std::uint8_t(m_);
      for (std::size_t g = range.begin(); g < range.end(); g += kGroup) {
        int n = 0;
        for (std::size_t i = g; i < std::min(range.end(), g + kGroup); ++i) {
          const std::uint64_t offset = foreign ? level_.size() + i : ranks[i] - lo_;
          if (!foreign && !waits(offset))
            throw std::logic_error("AcyclicSlice: phase 2 for a position without in-level moves");
          index_.unrank(ranks[i], k_, p.pits.data());
          assume_board_width<Width>(p);
          // The moves that stay in the level, as phase 1 found them, or
          // every move (a foreign position, or more pits than a byte holds).
          const MoveMask moves = !foreign && !in_level_moves_.empty() ? MoveMask(in_level_moves_[offset]) : R::legal_moves(p);
          for (MoveMask rest = moves; rest; rest &= rest - 1) {
            Position c = p;
            const MoveResult res = play_at_width<R, Width>(c, std::countr_zero(rest));
            if (res.game_over) continue;
            const int cs = c.board_seeds();
            if (cs != k_) continue;  // an exit: folded in already
            const std::uint64_t cr = index_.template rank_for_width<Width>(c.pits.data(), cs);
            if (cr >= lo_ && cr < hi_) __builtin_prefetch(&level_[cr - lo_]);
            children[n++] = {offset, cr, move_gain(c, res.extra_turn, 0), res.extra_turn};
          }
        }
        for (int j = 0; j < n; ++j) {
          const Child& c = children[j];
          if (c.rank >= lo_ && c.rank < hi_) {
            improve(c.offset, move_value(c.extra, c.gain, final_value(c.rank)));
          } else {
            const std::uint64_t key = value_key(k_, c.rank);
            const int r = owner(key);
            mine.keys[std::size_t(r)].push_back(key);
            mine.waiting[std::size_t(r)].push_back({c.offset, std::int16_t(c.gain), c.extra});
          }
        }
      }
    });
    for (auto& f : found) out.append(f);
  }

  const BoardIndex& index_;
  int m_, k_;
  std::uint64_t lo_, hi_;
  std::vector<std::int8_t> level_;        // the best move folded in so far, by offset
  std::vector<std::uint64_t> in_level_;   // bit set: in-level moves still to come
  // Phase 1's in-level moves of each position (by pit), so that phase 2
  // plays only those: a byte a position, for boards of up to 8 pits a side
  // (measured in results/README.md).
  static constexpr int kMaxMaskedPits = 8;
  std::vector<std::uint8_t> in_level_moves_;
  std::optional<PhiBuckets> buckets_;
  std::vector<std::int8_t> foreign_;      // value_foreign()'s positions: the best of their moves so far
};

}  // namespace mancala::tables
