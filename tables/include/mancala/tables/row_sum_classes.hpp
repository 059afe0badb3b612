// An acyclic level (Kalah, BrainKing, Congkak) split between processes so
// that every move within the level stays with one process.
//
// A move that keeps every seed on the board sows within the mover's row
// only (reaching the other row passes the mover's store, where a seed
// would drop), captures nothing (a capture fills the store) and hands the
// turn over (an extra turn needs the last seed in the store): its child is
// the board flipped, its mover's row the parent's opponent's row.  So a
// board whose mover's row holds a seeds and whose opponent's row holds b
// has in-level children of row sums (b, a) only, and the class {a, b}, the
// boards of row sums (a, b) or (b, a), is closed under in-level moves.  A
// process that owns whole classes values every in-level chain it meets on
// its own, in one memoized depth-first pass, as the single-machine builder
// does (level_values.hpp); only the exits, to lower levels, are asked of
// other processes.  (RowSumSlice checks the claim at every in-level move.)
//
// The rank order of a level (board_index.hpp, colex over the partial sums
// with the mover's row first) is a sequence of blocks, one per opponent's
// row Y in its own colex order: the N(a) boards of that Y, X running over
// the rows of a = k - |Y| seeds in their colex order (N(s) = C(s+m-1, m-1)
// rows of s seeds).  A process stores the boards of row sums (a, b) it
// owns at local index off(a) + rank(Y) * N(a) + rank(X): every block is a
// contiguous run here and in the level, and a level's values go to the
// rank slices of the files block by block (for_each_block).
//
// Classes are dealt to processes largest first, each to the least loaded
// (by positions), which is deterministic and, with few processes, even:
// at 6 pits the largest share is 1.0003 times the mean with 2 processes on
// level 18, 1.003 with 4 on level 40.  With more processes the largest
// class alone exceeds a fair share (at 6 pits: 22% of level 18, 15% of
// level 30, 12% of level 40); balanced() says when, and the
// distributed build then splits the level by ranks and Phi instead
// (acyclic_slice.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/tables/board_index.hpp"

namespace mancala::tables {

class RowSumClasses {
 public:
  // Level k of a board of m pits a side, split between `parts` processes;
  // `me` is the process whose local layout off()/local_size() describe.
  RowSumClasses(const BoardIndex& index, int m, int k, int parts, int me)
      : index_(index), rows_(m, k), m_(m), k_(k), me_(me), owner_(std::size_t(k) + 1, 0), off_(std::size_t(k) + 1, 0) {
    if (index.pits() != 2 * m || k > index.max_seeds() || parts < 1 || me < 0 || me >= parts)
      throw std::logic_error("RowSumClasses: bad level or parts");
    // Classes {a, k-a}, a <= k-a, largest first (ties: smaller a first).
    std::vector<int> classes;
    for (int a = 0; 2 * a <= k; ++a) classes.push_back(a);
    std::stable_sort(classes.begin(), classes.end(), [&](int x, int y) { return class_size(x) > class_size(y); });
    std::vector<std::uint64_t> load(std::size_t(parts), 0);
    for (const int a : classes) {
      const int q = int(std::min_element(load.begin(), load.end()) - load.begin());
      load[std::size_t(q)] += class_size(a);
      owner_[std::size_t(a)] = owner_[std::size_t(k - a)] = q;
    }
    largest_load_ = *std::max_element(load.begin(), load.end());
    // Each process's boards, by mover's row sum a: off(a) is where those of
    // sum a start in their owner's layout.
    std::vector<std::uint64_t> size(std::size_t(parts), 0);
    for (int a = 0; a <= k; ++a) {
      std::uint64_t& at = size[std::size_t(owner_[std::size_t(a)])];
      off_[std::size_t(a)] = at;
      at += rows(a) * rows(k - a);
    }
    local_size_ = size[std::size_t(me)];
  }

  int pits_per_side() const { return m_; }
  int seeds() const { return k_; }
  // Rows of m pits holding s seeds, and their ranks (colex, as BoardIndex).
  std::uint64_t rows(int s) const { return rows_.level_size(s); }
  std::uint64_t row_rank(const std::uint8_t* row, int s) const { return rows_.rank(row, s); }
  void row_unrank(std::uint64_t r, int s, std::uint8_t* row) const { rows_.unrank(r, s, row); }
  bool row_next(std::uint8_t* row) const { return rows_.next(row); }

  // The process owning the boards whose mover's row holds a seeds, and
  // whether it is this one.
  int owner(int a) const { return owner_[std::size_t(a)]; }
  bool mine(int a) const { return owner(a) == me_; }
  // Where the boards of row sums (a, k-a) start in their owner's layout,
  // and how many boards this process owns.
  std::uint64_t off(int a) const { return off_[std::size_t(a)]; }
  std::uint64_t local_size() const { return local_size_; }
  // Index of the board (X, Y), X of a seeds, in its owner's layout.
  std::uint64_t local_index(const std::uint8_t* board, int a) const {
    return off(a) + row_rank(board + m_, k_ - a) * rows(a) + row_rank(board, a);
  }

  // Whether the largest process's share is within 5% of the mean (or the
  // level too small to matter: under 2^16 positions).
  bool balanced(int parts) const {
    const std::uint64_t size = index_.level_size(k_);
    return size < (std::uint64_t(1) << 16) || largest_load_ * 100 <= size * 105 / std::uint64_t(parts);
  }
  // The most boards any process owns (the busiest process's local_size()).
  std::uint64_t largest_load() const { return largest_load_; }

  // f(first_rank, count, a, y_rank) for every block of the level, in rank
  // order: ranks [first_rank, first_rank + count) are the boards with
  // opponent's row of rank y_rank among the rows of k-a seeds, and mover's
  // rows of a seeds, count = rows(a).
  template <class F>
  void for_each_block(F&& f) const {
    const std::uint64_t size = index_.level_size(k_);
    std::array<std::uint8_t, 2 * kMaxPitsPerSide> board{};
    for (std::uint64_t g = 0; g < size;) {
      index_.unrank(g, k_, board.data());
      int b = 0;
      for (int i = m_; i < 2 * m_; ++i) b += board[std::size_t(i)];
      const int a = k_ - b;
      const std::uint64_t n = rows(a);
      f(g, n, a, row_rank(board.data() + m_, b));
      g += n;
    }
  }

  // f(owner, part, first, at, count) for every run of a block within one
  // part of a split of the level's ranks (part r: [bounds[r], bounds[r+1])),
  // in rank order: the values [first, first + count) of the owner's layout
  // are ranks [bounds[part] + at, ... + count) of the level.  Owners and
  // parts that go through the runs in this order agree on where each value
  // goes without sending a rank.
  template <class F>
  void for_each_run(std::span<const std::uint64_t> bounds, F&& f) const {
    if (bounds.size() < 2 || bounds.front() != 0 || bounds.back() != index_.level_size(k_))
      throw std::logic_error("RowSumClasses: bounds do not cover the level");
    int part = 0;
    for_each_block([&](std::uint64_t g, std::uint64_t n, int a, std::uint64_t y) {
      const std::uint64_t first = off(a) + y * rows(a);
      for (std::uint64_t done = 0; done < n;) {
        while (bounds[std::size_t(part) + 1] <= g + done) ++part;
        const std::uint64_t count = std::min(n - done, bounds[std::size_t(part) + 1] - (g + done));
        f(owner(a), part, first + done, g + done - bounds[std::size_t(part)], count);
        done += count;
      }
    });
  }

 private:
  std::uint64_t class_size(int a) const {
    const std::uint64_t n = rows(a) * rows(k_ - a);
    return 2 * a == k_ ? n : 2 * n;
  }

  const BoardIndex& index_;
  BoardIndex rows_;  // rows of m pits, up to k seeds
  int m_, k_, me_;
  std::vector<int> owner_;           // by mover's row sum
  std::vector<std::uint64_t> off_;   // by mover's row sum (this process's layout)
  std::uint64_t local_size_ = 0;
  std::uint64_t largest_load_ = 0;
};

}  // namespace mancala::tables
