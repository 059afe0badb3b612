// The boards of a level in tiles: the order in which the acyclic builder and
// the verifier go through a level, so that the children they read come in
// rank order instead of at random.
//
// A board's rank is L(R) + H_a(O) (board_index.hpp: the bars inside the
// mover's row R give L, which is R's own rank among the rows of its sum a;
// the others give H, which depends on the opponent's row O and on a only).
// A tile is up to kRows mover rows of one sum a, consecutive in their own
// colex order, paired with every opponent row of the k - a other seeds;
// the tile's boards are visited opponent row by opponent row, and for one
// opponent row they are consecutive ranks (one rank is computed, the others
// added).
//
// Why: a move that hands the turn over gives a child of rank L(O') + H(R'),
// with R' fixed by the tile's row and the move and O' stepping through its
// rows in order as O does.  So each of a tile's rows and moves reads its
// children in rank order, from the cache, where a scan in rank order (the
// mover's row changing fastest) read nearly every child from a random place.
// One row a tile (the mover's row by the mover's row) makes the visited
// boards' own cells random instead; 16, 64, 256 and 1024 rows measured 256
// the fastest (results/README.md, "The acyclic builder's scan in tiles").
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::tables {

class LevelTiles {
 public:
  static constexpr int kRows = 256;

  // The tiles of level k of a board of m pits a side (index: its 2m pits).
  LevelTiles(const BoardIndex& index, int m, int k) : index_(index), rows_(m, k), m_(m), k_(k) {
    for (int a = 0; a <= k; ++a)
      for (std::uint64_t first = 0; first < rows_.level_size(a); first += kRows)
        tiles_.push_back({a, first, int(std::min<std::uint64_t>(kRows, rows_.level_size(a) - first))});
  }

  std::size_t size() const { return tiles_.size(); }

  // Calls visit(p, rank) for every board of tile t: p (its pits_per_side m)
  // holds the board.  skip(rank), asked first, spares a board the copy and
  // the visit.  Returns the tile's number of boards.  Width > 0: the board
  // has Width pits a side (2 * Width == the index's pits).
  template <int Width, class Skip, class Visit>
  std::uint64_t for_each_board(std::size_t t, Position& p, const Skip& skip, const Visit& visit) const {
    const Tile& tile = tiles_[t];
    Row mover_rows[kRows];
    mover_rows[0] = {};
    rows_.unrank(tile.first, tile.mover_seeds, mover_rows[0].data());
    for (int i = 1; i < tile.count; ++i) {
      mover_rows[i] = mover_rows[i - 1];
      rows_.next(mover_rows[i].data());
    }
    std::uint8_t* const opponent_row = p.pits.data() + m_;
    rows_.unrank(0, k_ - tile.mover_seeds, opponent_row);
    std::uint64_t boards = 0;
    do {
      put_mover_row<Width>(p, mover_rows[0]);
      const std::uint64_t base = index_.template rank_for_width<Width>(p.pits.data(), k_);
      for (int i = 0; i < tile.count; ++i) {
        const std::uint64_t rank = base + std::uint64_t(i);
        if (skip(rank)) continue;
        put_mover_row<Width>(p, mover_rows[i]);
        visit(p, rank);
      }
      boards += std::uint64_t(tile.count);
    } while (rows_.next(opponent_row));
    return boards;
  }

 private:
  struct Tile {
    int mover_seeds;
    std::uint64_t first;  // the first mover row's rank among the rows of mover_seeds seeds
    int count;
  };
  // A row is copied as a whole array (of the widest row), not as m bytes: a
  // copy of run-time length is a call to memmove.
  using Row = std::array<std::uint8_t, kMaxPitsPerSide>;

  template <int Width>
  [[gnu::always_inline]] void put_mover_row(Position& p, const Row& row) const {
    if constexpr (Width > 0) {
      std::memcpy(p.pits.data(), row.data(), Width);
    } else {
      for (int i = 0; i < m_; ++i) p.pits[std::size_t(i)] = row[std::size_t(i)];
    }
  }

  const BoardIndex& index_;
  BoardIndex rows_;  // rows of m pits, up to k seeds
  int m_, k_;
  std::vector<Tile> tiles_;
};

}  // namespace mancala::tables
