// Exact board values of every board with up to K seeds, level by level, in
// memory (retrograde analysis).
//
// A level is all boards with k seeds over the 2m pits, mover-relative,
// ranked by BoardIndex.  Seeds only ever leave the board, so a move either
// drops to a lower level (already solved) or stays in the level:
//     v(p) = max( best exit of p ,  max over in-level moves c of ±v(c) ).
//
// Kalah, BrainKing and Congkak levels are acyclic (a move that keeps every
// seed on the board only moves seeds towards the mover's store), so a single
// memoized depth-first pass computes each value once, from its in-level
// successors.  Oware levels have cycles; they are solved exactly by
// threshold retrograde analysis with successor counting (cyclic_level.hpp).
// Both give values that do not depend on the number of threads.
//
// A level is held either in memory (the solver's levels, and the level being
// built) or as a read-only mapping of its file (a builder's finished levels:
// see map_level()), so that a build's own memory is the level it is
// building, not every level below it.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/cyclic_level.hpp"
#include "mancala/tables/level_tiles.hpp"
#include "mancala/tables/page_buffer.hpp"
#include "mancala/tables/table_file.hpp"
#include "mancala/tables/value_encoding.hpp"
#include "mancala/valuation.hpp"

namespace mancala::tables {

struct LevelStats {
  int seeds = 0;
  std::uint64_t positions = 0;
  int passes = 0;
  double seconds = 0;
};

template <class R>
class LevelValues {
 public:
  using Value = TableValue;

  LevelValues(int pits_per_side, int max_seeds) : m_(pits_per_side), index_(2 * pits_per_side, max_seeds) {
    if (max_seeds > kMaxTableSeeds)
      throw InputError("level values are stored in 8 bits: at most " + std::to_string(kMaxTableSeeds) + " seeds, got " +
                       std::to_string(max_seeds));
  }

  int pits_per_side() const { return m_; }
  int built_seeds() const { return int(levels_.size()) - 1; }  // -1 when none
  const BoardIndex& index() const { return index_; }
  // The values of a built level held in memory (a logic error once the
  // level was handed to map_level()).
  const std::vector<Value>& level(int seeds) const {
    const Level& l = levels_[std::size_t(seeds)];
    if (l.file) throw std::logic_error("level " + std::to_string(seeds) + " is served from its file");
    return l.owned;
  }
  // The values of a built level, by rank, wherever they are held.
  const Value* level_data(int seeds) const { return levels_[std::size_t(seeds)].data; }
  // Bytes of values held in memory (the mapped levels are the page cache's).
  std::uint64_t bytes_in_memory() const {
    std::uint64_t n = 0;
    for (const Level& l : levels_) n += l.owned.size();
    return n;
  }

  // Board value of a board of a built level.
  int value(const std::uint8_t* board, int seeds) const { return levels_[std::size_t(seeds)].data[index_.rank(board, seeds)]; }

  // Positions scanned so far are added here (for progress lines), if set.
  void count_into(std::atomic<std::uint64_t>* counter) { counter_ = counter; }
  // When `flag` is raised, build_next() throws BuildStopped (cyclic_level.hpp)
  // soon after (a range of boards, a round of Oware's sweep), and the level
  // is not added.
  void stop_when(const std::atomic<bool>* flag) { stop_ = flag; }

  // Takes the next level's values as computed elsewhere (a table file).
  void adopt_next(std::vector<Value> values) {
    const int k = built_seeds() + 1;
    if (values.size() != index_.level_size(k)) throw InputError("level " + std::to_string(k) + " has the wrong size");
    Level l;
    l.owned = std::move(values);
    l.data = l.owned.data();  // a vector's move keeps its buffer
    levels_.push_back(std::move(l));
  }

  // Takes the next level from its file, which must hold level
  // built_seeds()+1 of this board: mapped when its values are stored raw
  // (then the file's pages, not the heap, hold them), decoded into memory
  // when they are compressed.
  void adopt_next(std::unique_ptr<const MappedLevel> file) {
    const int k = built_seeds() + 1;
    if (file->size() != index_.level_size(k)) throw InputError("level " + std::to_string(k) + " has the wrong size");
    if (!file->values()) {
      std::vector<Value> values(file->size());
      file->read(0, values.size(), values.data());
      adopt_next(std::move(values));
      return;
    }
    Level l;
    l.data = file->values();
    l.file = std::move(file);
    levels_.push_back(std::move(l));
  }

  // Serves built level `seeds` from `file` (its own values, written and
  // read back) instead of memory, freeing the memory.  A file whose values
  // are compressed is not mapped (the level stays in memory).
  void map_level(int seeds, std::unique_ptr<const MappedLevel> file) {
    Level& l = levels_[std::size_t(seeds)];
    if (file->size() != index_.level_size(seeds)) throw std::logic_error("map_level: the file holds another level");
    if (!file->values()) return;
    l.data = file->values();
    l.file = std::move(file);
    std::vector<Value>().swap(l.owned);
  }

  // Builds level built_seeds()+1.  `progress(level, passes)` is
  // called after every pass.
  LevelStats build_next(const std::function<void(int, int)>& progress = {}) {
    if constexpr (R::game == Game::Oware) {
      return build_cyclic(progress);
    } else {
      return build_acyclic(progress);
    }
  }

 private:
  // One memoized depth-first pass; threads may compute a shared successor
  // twice, but always to the same value.
  LevelStats build_acyclic(const std::function<void(int, int)>& progress) {
    const int k = built_seeds() + 1;
    if (k > index_.max_seeds()) throw InputError("level " + std::to_string(k) + " is beyond the index");
    LevelStats stats;
    stats.seeds = k;
    stats.positions = index_.level_size(k);
    stats.passes = 1;
    // Read and written at random while it is built: on huge pages, a
    // 5-pit 24-seed level took 4.0 s against 4.2 (results/README.md, "The
    // level being built on huge pages").
    std::vector<Value> level = vector_on_huge_pages(stats.positions, kUnknownValue);
    with_board_width(m_, [&](auto width) { scan_acyclic<decltype(width)::value>(k, level); });
    adopt_next(std::move(level));
    if (progress) progress(k, 1);
    return stats;
  }

  // Width > 0: every board has Width pits a side, and the compiler is told so
  // (the row loops, the sowing and the rank unroll).  Measured on one thread,
  // byte-identical files: a 15-seed Kalah 6-pit build 2.62 s -> 2.28 s, a
  // 22-seed 5-pit build 9.73 s -> 9.20 s.
  template <int Width>
  void assume_width(const Position& p) const {
    if constexpr (Width > 0) {
      if (p.m() != Width || index_.pits() != 2 * Width) __builtin_unreachable();
    }
  }

  // A board's move, played: its gain and where its successor's value is.
  struct Successor {
    // A union, so that the arrays of successors are not zeroed at every
    // board (Position's members have initializers).
    union {
      Position pos;
    };
    Successor() {}
    int delta;
    bool extra;
    Value* value;  // null when the game is over
    std::uint64_t rank;
  };
  static constexpr int kSuccessors = kMaxPitsPerSide;
  // Boards of a scan played before any of them is valued: the successors'
  // values of all of them are asked for (prefetched) first, so that more
  // misses overlap than one board's moves give.  Measured on one thread,
  // byte-identical files: see results/README.md, "The acyclic builder's
  // scan in batches".
  static constexpr int kScanBatch = 16;

  // The level in tiles (level_tiles.hpp), so that a tile's rows and moves
  // read their children's values in rank order.
  template <int Width>
  void scan_acyclic(int k, std::vector<Value>& level) {
    const LevelTiles tiles(index_, m_, k);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tiles.size()), [&](const tbb::blocked_range<std::size_t>& r) {
      Position p;
      p.pits_per_side = std::uint8_t(m_);
      struct Pending {
        Position pos;
        std::uint64_t rank;
        int moves;
        Successor next[Width > 0 ? Width : kSuccessors];
      };
      Pending batch[kScanBatch];
      int waiting = 0;
      // A board may have been valued since it was played (as another's
      // successor): then it is skipped, its value being the same.
      auto settle_batch = [&] {
        for (int i = 0; i < waiting; ++i) {
          Pending& b = batch[i];
          if (std::atomic_ref<Value>(level[b.rank]).load(std::memory_order_relaxed) == kUnknownValue)
            settle<Width>(b.pos, b.next, b.moves, k, b.rank, level);
        }
        waiting = 0;
      };
      const auto valued = [&](std::uint64_t rank) {
        return std::atomic_ref<Value>(level[rank]).load(std::memory_order_relaxed) != kUnknownValue;
      };
      std::uint64_t scanned = 0;
      // The stop is looked at every 4096 boards played, not only between
      // tiles: a tile of a large level holds millions of boards.
      std::uint32_t played = 0;
      const auto look_at_stop = [&] {
        if (stop_ && stop_->load(std::memory_order_relaxed)) throw BuildStopped();
      };
      for (std::size_t t = r.begin(); t != r.end(); ++t) {
        look_at_stop();
        scanned += tiles.for_each_board<Width>(t, p, valued, [&](const Position& board, std::uint64_t rank) {
          if ((++played & 4095) == 0) look_at_stop();
          Pending& b = batch[waiting++];
          b.pos = board;
          b.rank = rank;
          b.moves = play_successors<Width>(b.pos, k, level, b.next);
          if (waiting == kScanBatch) settle_batch();
        });
      }
      settle_batch();
      if (counter_) counter_->fetch_add(scanned, std::memory_order_relaxed);
    });
  }

  // Values a board and returns its value: its moves played and their
  // successors' values asked for, then read.
  template <int Width>
  Value solve_acyclic(const Position& p, int k, std::uint64_t rank, std::vector<Value>& level) {
    Successor next[Width > 0 ? Width : kSuccessors];
    const int n = play_successors<Width>(p, k, level, next);
    return settle<Width>(p, next, n, k, rank, level);
  }

  // Plays every move of p into next[] and asks for (prefetches) each
  // successor's value, so that the misses of all the moves overlap: against
  // one move at a time, identical files, a 15-seed Kalah 6-pit build 2.69 s
  // -> 2.19 s on one thread and 1.27 s -> 1.09 s on two, a 22-seed 5-pit
  // build 10.58 s -> 8.92 s.  Returns the number of moves, or -1 when p is
  // terminal.  Flattened: GCC called the ruleset's play out of line here,
  // where it cannot know the board's width, and the inlined move is 10%
  // fewer instructions a build (results/README.md, "The rank on columns of
  // a fixed size").
  template <int Width>
  [[gnu::flatten]] int play_successors(const Position& p, int k, std::vector<Value>& level, Successor* next) {
    assume_width<Width>(p);
    if (R::is_terminal(p)) return -1;
    int n = 0;
    for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1, ++n) {
      Successor& c = next[n];
      c.pos = p;
      assume_width<Width>(c.pos);
      const MoveResult res = R::play(c.pos, std::countr_zero(rest));
      assume_width<Width>(c.pos);
      c.extra = res.extra_turn;
      c.delta = move_gain(c.pos, res.extra_turn, 0);
      c.value = nullptr;
      if (!res.game_over) {
        const int cs = c.pos.board_seeds();
        c.rank = index_.template rank_for_width<Width>(c.pos.pits.data(), cs);
        c.value = cs < k ? const_cast<Value*>(&levels_[std::size_t(cs)].data[c.rank]) : &level[c.rank];
        __builtin_prefetch(c.value);
      }
    }
    return n;
  }

  // p's value from its n played moves (n < 0: p is terminal), written at
  // `rank`; a successor in this level not valued yet is valued first.
  template <int Width>
  Value settle(const Position& p, const Successor* next, int n, int k, std::uint64_t rank, std::vector<Value>& level) {
    int best;
    if (n < 0) {
      best = finished_board_value(p);
    } else {
      best = kBelowEveryValue;
      for (int i = 0; i < n; ++i) {
        const Successor& c = next[i];
        int v = 0;
        if (c.value) {
          v = std::atomic_ref<Value>(*c.value).load(std::memory_order_relaxed);
          if (v == kUnknownValue) v = solve_acyclic<Width>(c.pos, k, c.rank, level);
        }
        best = std::max(best, move_value(c.extra, c.delta, v));
      }
    }
    std::atomic_ref<Value>(level[rank]).store(Value(best), std::memory_order_relaxed);
    return Value(best);
  }

  LevelStats build_cyclic(const std::function<void(int, int)>& progress) {
    const int k = built_seeds() + 1;
    if (k > index_.max_seeds()) throw InputError("level " + std::to_string(k) + " is beyond the index");
    LevelStats stats;
    stats.seeds = k;
    stats.positions = index_.level_size(k);
    CyclicLevelStats cyclic;
    const auto lower = [&](int seeds) { return levels_[std::size_t(seeds)].data; };
    // Compiled for the board's width where that is 5 or 6 pits a side, as
    // the acyclic builder is (board_width.hpp).
    with_board_width(m_, [&](auto width) {
      adopt_next(solve_cyclic_level<R, decltype(width)::value>(index_, m_, k, lower, counter_, &cyclic, stop_));
    });
    stats.passes = cyclic.rounds;
    if (progress) progress(k, stats.passes);
    return stats;
  }

  // A level's values: `owned`, or the mapping of `file`; `data` points at
  // them either way.
  struct Level {
    std::vector<Value> owned;
    std::unique_ptr<const MappedLevel> file;
    const Value* data = nullptr;
  };

  int m_;
  BoardIndex index_;
  std::vector<Level> levels_;
  std::atomic<std::uint64_t>* counter_ = nullptr;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace mancala::tables
