// What every thread of one solve shares (internal header): the
// transposition table, the board index and its keys, the endgame tables and
// their levels in memory, and the node count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::solver::detail {

struct SharedState {
  SharedState(TranspositionTable& table, const tables::BoardIndex& board_index, int thread_count, int split_above)
      : tt(table), index(board_index), threads(thread_count), split_above_tables(split_above) {}
  // The levels in memory are read at a child's rank directly (see
  // Worker::play_child); a root never has fewer seeds than its descendants, so
  // only its levels are opened.
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
    level_count = int(level_base.size());
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
  int level_count = 0;                         // level_base.size(), read at every child
  int threads;
  int split_above_tables;  // SolveOptions::parallel_split_above_tables
  const std::atomic<bool>* stop = nullptr;  // SolveOptions::stop
  std::atomic<std::uint64_t> nodes{0};
  // SolveOptions::search_stats: the workers' counts are added here as each
  // worker ends (null: not counted).
  SearchStats* stats = nullptr;
  std::mutex stats_mutex;
  // SolveOptions::move_order: the weights a worker compiled to read them
  // uses (null: the ruleset's tuned order, compiled in).
  const OrderWeights* move_order = nullptr;

  void add_stats(const SearchStats& w) {
    const std::lock_guard lock(stats_mutex);
    stats->add(w);
  }
};

}  // namespace mancala::solver::detail
