// One process's share of an acyclic level (Kalah, BrainKing, Congkak) in a
// distributed build when the level is split by row-sum classes
// (row_sum_classes.hpp): every in-level child of a board here is here too,
// so the level takes two steps and one request exchange per batch:
//
//  1. Exits (value_exits, fold): every move is played once; a move that
//     ends the game or leaves seeds in a store is valued at once when this
//     process holds the child's rank slice of its lower level, and is
//     otherwise asked of the child's owner (ExitRequests) and folded in
//     when the answer comes.  The moves that stay in the level are
//     remembered, a bit a pit (a byte a board, boards of up to 8 pits a
//     side).  The held children's values of ExitBatch's boards are asked
//     for before any is read, as LevelValues does on one machine.
//  2. Moves within the level (value_in_level): one memoized depth-first
//     pass over the boards that have any, as LevelValues does on one
//     machine, without a message: threads may value a shared child twice,
//     always to the same value.
//
// Both steps go through the boards in tiles (for_each_board), so that the
// children they read come in rank order.
//
// What a board holds meanwhile is the best of the moves folded in so far
// (kUnknownValue: none yet; a table value is never -128), and its in-level
// moves until they are valued.  Nothing here communicates: tables/mpi/
// hands the requests to their owners, and tests do it by hand.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/tables/board_exits.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/exit_requests.hpp"
#include "mancala/tables/level_tiles.hpp"
#include "mancala/tables/row_sum_classes.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

template <class R>
class RowSumSlice {
 public:
  // The in-level moves of a board are kept in a byte.
  static constexpr int kMaxPits = 8;
  static bool supports(int m) { return m <= kMaxPits; }

  RowSumSlice(const BoardIndex& index, const RowSumClasses& classes)
      : index_(index), classes_(classes), m_(classes.pits_per_side()), k_(classes.seeds()),
        level_(classes.local_size(), kUnknownValue), moves_(classes.local_size(), 0) {
    if (!supports(m_)) throw std::logic_error("RowSumSlice: more pits than a byte of moves holds");
    std::uint64_t n = 0;
    for (int a = 0; a <= k_; ++a) {
      first_block_.push_back(n);
      if (classes.mine(a)) n += classes.rows(k_ - a);
    }
    first_block_.push_back(n);
  }

  // This process's boards come in blocks (one opponent's row each, every
  // mover's row of its sum): blocks() of them, block i starting at local
  // index block_begin(i) with block_size(i) boards.
  std::uint64_t blocks() const { return first_block_.back(); }
  std::uint64_t block_begin(std::uint64_t i) const {
    const int a = block_sum(i);
    return classes_.off(a) + (i - first_block_[std::size_t(a)]) * classes_.rows(a);
  }
  std::uint64_t block_size(std::uint64_t i) const { return classes_.rows(block_sum(i)); }
  // The blocks of the boards whose mover's row holds a seeds: [first, last)
  // (empty when another process owns them).
  std::pair<std::uint64_t, std::uint64_t> blocks_of_sum(int a) const {
    return {first_block_[std::size_t(a)], first_block_[std::size_t(a) + 1]};
  }

  // Step 1 for blocks [first, last).  held(s, r) points at the value of
  // rank r of lower level s when this process holds it, else is null;
  // owner(key) is the process to ask.  The requests are added to `out`.
  template <class Held, class Owner>
  void value_exits(std::uint64_t first, std::uint64_t last, const Held& held, const Owner& owner, ExitRequests& out) {
    if (first > last || last > blocks()) throw std::logic_error("RowSumSlice: bad blocks");
    with_board_width(m_, [&](auto width) { value_exits_of<decltype(width)::value>(first, last, held, owner, out); });
  }

  // The answers to `req` (every owner's, concatenated in owner order).
  void fold(const ExitRequests& req, std::span<const std::int8_t> answers) {
    for_each_answer(req, answers, [&](const WaitingMove& w, std::int8_t v) {
      std::int8_t& cell = level_[w.offset];
      const int value = move_value(w.extra_turn, w.gain, v);
      if (cell == kUnknownValue || value > cell) cell = std::int8_t(value);
    });
  }

  // Step 2, once every exit is folded in.
  void value_in_level() {
    with_board_width(m_, [&](auto width) { value_in_level_of<decltype(width)::value>(); });
  }

  // The values by local index (RowSumClasses::local_index), once step 2
  // is done.
  const std::vector<std::int8_t>& values() const { return level_; }

 private:
  int block_sum(std::uint64_t i) const {
    if (i >= blocks()) throw std::logic_error("RowSumSlice: no block " + std::to_string(i));
    return int(std::upper_bound(first_block_.begin(), first_block_.end(), i) - first_block_.begin()) - 1;
  }

  int mover_row_sum(const Position& p) const {
    int s = 0;
    for (int i = 0; i < m_; ++i) s += p.pits[std::size_t(i)];
    return s;
  }

  // f(board, a, y, offset) for every board of blocks [first, last), a the
  // seeds of its mover's row and y the rank of its opponent's row, in
  // tiles (level_tiles.hpp): up to LevelTiles::kRows mover's rows of one
  // sum, consecutive in their order, paired with each of the blocks'
  // opponent's rows in turn.  A move that hands the turn over leads to a
  // child whose opponent's row (the high part of its rank, here and in a
  // lower level) is fixed by the mover's row and the move, and whose
  // mover's row steps in order as the opponent's row here does (an
  // in-level move leaves it as it is), so the children are read in rank
  // order rather than at random.
  template <class F>
  void for_each_board(std::uint64_t first, std::uint64_t last, F&& f) const {
    Position p;
    p.pits_per_side = std::uint8_t(m_);
    std::array<std::uint8_t, kMaxPitsPerSide> tile_first{};  // the tile's first mover's row
    for (std::uint64_t i = first; i != last;) {
      const int a = block_sum(i);
      const std::uint64_t end = std::min(last, first_block_[std::size_t(a) + 1]);
      const std::uint64_t y_first = i - first_block_[std::size_t(a)], y_end = y_first + (end - i);
      const std::uint64_t rows = classes_.rows(a);
      for (std::uint64_t x = 0; x < rows; x += LevelTiles::kRows) {
        const std::uint64_t count = std::min<std::uint64_t>(LevelTiles::kRows, rows - x);
        classes_.row_unrank(x, a, tile_first.data());
        classes_.row_unrank(y_first, k_ - a, p.pits.data() + m_);
        for (std::uint64_t y = y_first; y != y_end; ++y, classes_.row_next(p.pits.data() + m_)) {
          std::copy_n(tile_first.begin(), m_, p.pits.begin());
          const std::uint64_t offset = classes_.off(a) + y * rows + x;
          for (std::uint64_t j = 0; j != count; ++j, classes_.row_next(p.pits.data())) f(p, a, y, offset + j);
        }
      }
      i = end;
    }
  }

  template <int Width, class Held, class Owner>
  void value_exits_of(std::uint64_t first, std::uint64_t last, const Held& held, const Owner& owner, ExitRequests& out) {
    const int parts = int(out.keys.size());
    tbb::enumerable_thread_specific<ExitRequests> found([&] { return ExitRequests(parts); });
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(first, last), [&](const tbb::blocked_range<std::uint64_t>& blocks) {
      ExitRequests& mine = found.local();
      ExitBatch<Width> batch;
      const auto record = [&](std::uint64_t offset, const BoardExits& exits) {
        level_[offset] = exits.best == kBelowEveryValue ? kUnknownValue : std::int8_t(exits.best);
        moves_[offset] = std::uint8_t(exits.in_level);
      };
      for_each_board(blocks.begin(), blocks.end(), [&](const Position& p, int a, std::uint64_t, std::uint64_t offset) {
        assume_board_width<Width>(p);
        if (R::is_terminal(p)) {
          level_[offset] = std::int8_t(finished_board_value(p));
          return;
        }
        play_board_exits<R, Width>(
            index_, p, k_, offset, held, owner, mine,
            [&](const Position& c, const MoveResult& res) {
              if (res.extra_turn || mover_row_sum(c) != k_ - a)
                throw std::logic_error("a move within level " + std::to_string(k_) +
                                       " left its row sums unswapped: the level cannot be split by row sums");
            },
            batch.next(offset));
        if (batch.full()) batch.settle(record);
      });
      batch.settle(record);
    });
    for (auto& f : found) out.append(f);
  }

  template <int Width>
  void value_in_level_of() {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks()), [&](const tbb::blocked_range<std::uint64_t>& blocks) {
      for_each_board(blocks.begin(), blocks.end(), [&](const Position& p, int a, std::uint64_t y, std::uint64_t offset) {
        if (std::atomic_ref<std::uint8_t>(moves_[offset]).load(std::memory_order_acquire) != 0) solve<Width>(p, a, y, offset);
      });
    });
  }

  // The value of board p (mover's row of a seeds, opponent's row of rank
  // y, at `offset`), from its exits and, depth first, its in-level
  // children.  Two passes over the moves, as in LevelValues: the first
  // plays them and touches every child's cells, the second reads them.
  // A child's mover's row is p's opponent's row, whose rank y is known: one
  // row is ranked a child, not two.
  template <int Width>
  std::int8_t solve(const Position& p, int a, std::uint64_t y, std::uint64_t offset) {
    assume_board_width<Width>(p);
    constexpr int kMoves = Width > 0 ? Width : kMaxPits;
    struct Child {
      union {  // not zeroed at every board (Position's members have initializers)
        Position pos;
      };
      Child() {}
      std::uint64_t offset;
      std::uint64_t y;  // the rank of its opponent's row (of a seeds)
      int gain;
    } children[kMoves];
    int n = 0;
    const std::uint8_t moves = std::atomic_ref<std::uint8_t>(moves_[offset]).load(std::memory_order_acquire);
    const int b = k_ - a;
    for (unsigned rest = moves; rest; rest &= rest - 1, ++n) {
      Child& c = children[n];
      c.pos = p;
      const MoveResult res = play_at_width<R, Width>(c.pos, std::countr_zero(rest));
      c.gain = move_gain(c.pos, res.extra_turn, 0);
      // Row sums (b, a): here too, at off(b) + rank(X') * N(b) + rank(Y).
      c.y = classes_.row_rank(c.pos.pits.data() + m_, a);
      c.offset = classes_.off(b) + c.y * classes_.rows(b) + y;
      __builtin_prefetch(&level_[c.offset]);
      __builtin_prefetch(&moves_[c.offset]);
    }
    const std::int8_t exits = std::atomic_ref<std::int8_t>(level_[offset]).load(std::memory_order_relaxed);
    int best = exits == kUnknownValue ? kBelowEveryValue : exits;
    for (int j = 0; j < n; ++j) {
      const Child& c = children[j];
      const std::int8_t v = std::atomic_ref<std::uint8_t>(moves_[c.offset]).load(std::memory_order_acquire) != 0
                                ? solve<Width>(c.pos, b, c.y, c.offset)
                                : std::atomic_ref<std::int8_t>(level_[c.offset]).load(std::memory_order_relaxed);
      best = std::max(best, move_value(false, c.gain, v));
    }
    std::atomic_ref<std::int8_t>(level_[offset]).store(std::int8_t(best), std::memory_order_relaxed);
    std::atomic_ref<std::uint8_t>(moves_[offset]).store(0, std::memory_order_release);
    return std::int8_t(best);
  }

  const BoardIndex& index_;
  const RowSumClasses& classes_;
  int m_, k_;
  std::vector<std::int8_t> level_;    // by local index: the best move folded in so far
  std::vector<std::uint8_t> moves_;   // by local index: in-level moves still to value (bit a pit)
  std::vector<std::uint64_t> first_block_;  // by mover's row sum: the first block of those boards here
};

}  // namespace mancala::tables
