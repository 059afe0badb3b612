// Bijective ranking of boards: k seeds over P pits (stores excluded), in the
// combinatorial number system over "stars and bars".
//
// The partial sums s_j = c_1 + ... + c_j + (j - 1), j = 1..P-1, are a
// (P-1)-subset of {0, ..., k+P-2}; a board's rank within its level k is the
// colexicographic rank of that subset, sum_j C(s_j, j).  A level holds
// C(k+P-1, P-1) boards.  Ranking all levels up to K one after another gives
// the lossless search key  key = C(k+P-1, P) + rank  (the boards with fewer
// seeds come first), unique over every board with at most K seeds.
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

#include "mancala/position.hpp"

namespace mancala::tables {

class BoardIndex {
 public:
  // Throws InputError when the boards with up to max_seeds seeds do not fit
  // in 64 bits, or hold more seeds or pits than a Position can.
  BoardIndex(int pits, int max_seeds);

  int pits() const { return pits_; }
  int max_seeds() const { return max_seeds_; }

  // C(n, r) for n <= max_seeds + pits, r <= pits; 0 when r > n (the table
  // holds those zeros, so no test: a child's key reads one at every child).
  std::uint64_t binomial(int n, int r) const { return column(r)[n]; }

  std::uint64_t level_size(int seeds) const { return binomial(seeds + pits_ - 1, pits_ - 1); }
  // Number of boards with fewer than `seeds` seeds.
  std::uint64_t level_offset(int seeds) const { return binomial(seeds + pits_ - 1, pits_); }

  // Rank of a board holding `seeds` seeds in total (the caller's sum).
  std::uint64_t rank(const std::uint8_t* board, int seeds) const {
    (void)seeds;
    return rank_over(board, pits_);
  }
  // rank() for a caller that knows the board's width at compile time
  // (Width pits a side, 2 * Width == pits(); 0: any width), so that the loop
  // unrolls.  The search's workers and the builders for 5- and 6-pit boards
  // rank every child with it: 5% fewer of the search's instructions
  // (results/README.md, "search_cost.csv"), and byte-identical table builds
  // 1.04 to 1.13 times as fast ("The builders rank at a fixed width").
  template <int Width>
  std::uint64_t rank_for_width(const std::uint8_t* board, int seeds) const {
    assert(Width == 0 || 2 * Width == pits_);  // a fixed width ranks that many pits, whatever the index's
    if constexpr (Width > 0) return rank_over(board, 2 * Width);
    return rank(board, seeds);
  }
  void unrank(std::uint64_t rank, int seeds, std::uint8_t* board) const;

  // Steps `board` to the board of the next rank in its level; false (board
  // unspecified) after the last one.  Scans go through a level this way
  // instead of decoding every rank.  The colex successor of the bar set
  // moves the first movable bar one place and packs the bars below it, which
  // on the counts is: the first pit i with seeds in pit i+1 takes every seed
  // of pits 0..i plus one from pit i+1.
  bool next(std::uint8_t* board) const {
    // i = 0, the most frequent step, without the loop: pit 0 takes a seed of
    // pit 1.
    if (pits_ > 1 && board[1] != 0) {
      ++board[0];
      --board[1];
      return true;
    }
    int sum = 0;
    for (int i = 0; i + 1 < pits_; ++i) {
      sum += board[i];
      if (board[i + 1] != 0) {
        for (int j = 0; j < i; ++j) board[j] = 0;
        board[i] = std::uint8_t(sum + 1);
        --board[i + 1];
        return true;
      }
    }
    return false;
  }

  // Lossless key over all levels up to max_seeds.
  std::uint64_t key(const std::uint8_t* board, int seeds) const { return level_offset(seeds) + rank(board, seeds); }

 private:
  // sum_j C(s_j, j) with s_j + 1 = (c_1 + 1) + ... + (c_j + 1), kept
  // unsigned and one above s_j so that no index is sign-extended: a pit
  // costs a byte load, an add and an add from memory at a constant offset
  // (the column's), where a row-major table of run-time stride also took a
  // multiplication and a sign extension.  Measured: results/README.md,
  // "The rank on columns of a fixed size".
  [[gnu::always_inline]] std::uint64_t rank_over(const std::uint8_t* board, int pits) const {
    const std::uint64_t* below = columns_.data() + kGuard - 1;  // below[r * kColumnSize + n + 1] == C(n, r)
    std::uint64_t r = 0;
    std::size_t s = 0;
    for (int j = 1; j < pits; ++j) {
      s += std::size_t(board[j - 1]) + 1;
      r += below[std::size_t(j) * kColumnSize + s];
    }
    return r;
  }

  int pits_;
  int max_seeds_;
  // The binomials column by column: C(n, r) at column(r)[n], with kGuard
  // zeros below n = 0 (unrank() compares several rows of one column without
  // a test for n < 0).  Every column has room for the largest index the
  // engine allows (kMaxSeeds seeds over 2 * kMaxPitsPerSide pits), so that
  // a column's offset is a constant of the compiled rank.
  static constexpr int kGuard = 8;
  static constexpr std::size_t kColumnSize = kGuard + kMaxSeeds + 2 * kMaxPitsPerSide + 1;
  std::vector<std::uint64_t> columns_;
  const std::uint64_t* column(int r) const { return columns_.data() + std::size_t(r) * kColumnSize + kGuard; }
};

}  // namespace mancala::tables
