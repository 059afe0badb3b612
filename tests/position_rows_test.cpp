// Position's row accessors (row sums, emptiness, the turn flip) and the legal
// moves read the rows a word at a time (position.hpp, row_words).  They are
// checked here against plain loops over the pits, for every board width the
// engine takes (1..16 pits a side), on random boards up to the engine's limit
// of 255 seeds, on boards with one full pit, and on empty rows.
#include <gtest/gtest.h>

#include <random>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"

namespace {

using mancala::Position;

int plain_sum(const Position& p, int from, int count) {
  int s = 0;
  for (int i = from; i < from + count; ++i) s += p.pits[std::size_t(i)];
  return s;
}

unsigned plain_nonzero(const Position& p) {
  unsigned mask = 0;
  for (int i = 0; i < p.m(); ++i)
    if (p.pits[std::size_t(i)]) mask |= 1u << i;
  return mask;
}

// A random board of m pits a side holding at most `total` seeds.
Position random_board(std::mt19937_64& rng, int m, int total) {
  Position p;
  p.pits_per_side = std::uint8_t(m);
  const int seeds = int(rng() % std::uint64_t(total + 1));
  // Some pits left empty on purpose: the masks must see zeros between seeds.
  const bool sparse = rng() % 2;
  for (int k = 0; k < seeds; ++k) {
    const int pit = sparse ? int(rng() % std::uint64_t(m)) * 2 % (2 * m) : int(rng() % std::uint64_t(2 * m));
    ++p.pits[std::size_t(pit)];
  }
  p.store = {std::uint8_t(rng() % 8), std::uint8_t(rng() % 8)};
  return p;
}

void check(const Position& p) {
  const int m = p.m();
  SCOPED_TRACE(::testing::Message() << "m=" << m << " mover=" << plain_sum(p, 0, m) << " opponent=" << plain_sum(p, m, m));
  EXPECT_EQ(p.mover_row_sum(), plain_sum(p, 0, m));
  EXPECT_EQ(p.opponent_row_sum(), plain_sum(p, m, m));
  EXPECT_EQ(p.board_seeds(), plain_sum(p, 0, 2 * m));
  EXPECT_EQ(p.mover_row_empty(), plain_sum(p, 0, m) == 0);
  EXPECT_EQ(p.opponent_row_empty(), plain_sum(p, m, m) == 0);
  EXPECT_EQ(mancala::BrainKingRules::legal_moves(p), plain_nonzero(p));

  Position f = p;
  f.flip();
  for (int i = 0; i < m; ++i) {
    EXPECT_EQ(f.pits[std::size_t(i)], p.pits[std::size_t(i + m)]) << "pit " << i;
    EXPECT_EQ(f.pits[std::size_t(i + m)], p.pits[std::size_t(i)]) << "pit " << i + m;
  }
  for (std::size_t i = std::size_t(2 * m); i < f.pits.size(); ++i) EXPECT_EQ(f.pits[i], 0) << "tail byte " << i;
  EXPECT_EQ(f.store[0], p.store[1]);
  EXPECT_EQ(f.store[1], p.store[0]);
  EXPECT_NE(f.to_move, p.to_move);
  f.flip();
  EXPECT_EQ(f, p);
}

TEST(PositionRows, RandomBoardsOfEveryWidth) {
  std::mt19937_64 rng(20261203);
  for (int m = 1; m <= mancala::kMaxPitsPerSide; ++m)
    for (int trial = 0; trial < 2000; ++trial) check(random_board(rng, m, trial % 2 ? mancala::kMaxSeeds : 3 * m));
}

TEST(PositionRows, OneFullPitAndEmptyRows) {
  for (int m = 1; m <= mancala::kMaxPitsPerSide; ++m) {
    Position empty;
    empty.pits_per_side = std::uint8_t(m);
    check(empty);
    for (int pit = 0; pit < 2 * m; ++pit) {
      Position p = empty;
      p.pits[std::size_t(pit)] = std::uint8_t(mancala::kMaxSeeds);
      check(p);
      // 255 seeds split across both rows, and a full last pit beside a full first one.
      Position q = empty;
      q.pits[std::size_t(pit)] = 200;
      q.pits[std::size_t(2 * m - 1 - pit)] = std::uint8_t(pit == 2 * m - 1 - pit ? 255 : 55);
      check(q);
    }
  }
}

TEST(PositionRows, BurntMaskFlips) {
  for (int m = 1; m <= mancala::kMaxPitsPerSide; ++m) {
    Position p;
    p.pits_per_side = std::uint8_t(m);
    p.burnt = 1u | (1u << (2 * m - 1));
    Position f = p;
    f.flip();
    EXPECT_EQ(f.burnt, (1u << (m - 1)) | (1u << m)) << "m=" << m;
  }
}

}  // namespace
