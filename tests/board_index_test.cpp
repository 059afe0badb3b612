#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/level_tiles.hpp"

namespace mancala::tables {
namespace {

// Plain binomial for the check, independent of the index's table.
std::uint64_t choose(int n, int r) {
  if (r < 0 || r > n) return 0;
  std::uint64_t c = 1;
  for (int i = 1; i <= r; ++i) c = c * std::uint64_t(n - r + i) / std::uint64_t(i);
  return c;
}

// Every board of k seeds over P pits, in lexicographic order.
void all_boards(int pits, int seeds, std::vector<std::uint8_t>& cur, std::vector<std::vector<std::uint8_t>>& out) {
  if (int(cur.size()) == pits - 1) {
    cur.push_back(std::uint8_t(seeds));
    out.push_back(cur);
    cur.pop_back();
    return;
  }
  for (int c = 0; c <= seeds; ++c) {
    cur.push_back(std::uint8_t(c));
    all_boards(pits, seeds - c, cur, out);
    cur.pop_back();
  }
}

TEST(BoardIndex, RankIsABijectionOntoZeroToLevelSize) {
  for (int pits = 1; pits <= 6; ++pits) {
    const BoardIndex index(pits, 8);
    for (int k = 0; k <= 8; ++k) {
      std::vector<std::vector<std::uint8_t>> boards;
      std::vector<std::uint8_t> cur;
      all_boards(pits, k, cur, boards);
      ASSERT_EQ(boards.size(), choose(k + pits - 1, pits - 1));
      ASSERT_EQ(index.level_size(k), boards.size());
      std::vector<bool> seen(boards.size(), false);
      for (const auto& b : boards) {
        const std::uint64_t r = index.rank(b.data(), k);
        ASSERT_LT(r, boards.size());
        ASSERT_FALSE(seen[r]) << "rank " << r << " twice, pits " << pits << " seeds " << k;
        seen[r] = true;
        std::vector<std::uint8_t> back(std::size_t(pits), 0xEE);
        index.unrank(r, k, back.data());
        ASSERT_EQ(back, b);
        // next() walks the level in rank order and stops after the last board.
        const bool more = index.next(back.data());
        ASSERT_EQ(more, r + 1 < boards.size());
        if (more) {
          ASSERT_EQ(index.rank(back.data(), k), r + 1);
        }
      }
    }
  }
}

TEST(BoardIndex, KeysAreUniqueAcrossLevels) {
  const BoardIndex index(4, 7);
  std::set<std::uint64_t> keys;
  std::uint64_t total = 0;
  for (int k = 0; k <= 7; ++k) {
    std::vector<std::vector<std::uint8_t>> boards;
    std::vector<std::uint8_t> cur;
    all_boards(4, k, cur, boards);
    for (const auto& b : boards) keys.insert(index.key(b.data(), k));
    total += boards.size();
    EXPECT_EQ(index.level_offset(k + 1), total);
  }
  EXPECT_EQ(keys.size(), total);
  EXPECT_EQ(*keys.rbegin(), total - 1);
}

TEST(BoardIndex, LargeBoardsRoundTrip) {
  // Kalah(6,6): 72 seeds over 12 pits.
  const BoardIndex index(12, 72);
  EXPECT_EQ(index.level_size(72), choose(83, 11));
  std::uint8_t board[12] = {0, 72, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::uint8_t back[12];
  for (std::uint64_t r : {std::uint64_t{0}, index.level_size(72) - 1, index.rank(board, 72)}) {
    index.unrank(r, 72, back);
    EXPECT_EQ(index.rank(back, 72), r);
  }
  index.unrank(index.rank(board, 72), 72, back);
  EXPECT_TRUE(std::equal(board, board + 12, back));
}

// Exact C(n, r) in 128 bits (the 64-bit choose() above overflows in its
// intermediate products for the largest levels).
__extension__ typedef unsigned __int128 u128;  // GCC's; -Wpedantic accepts it so marked
u128 choose128(int n, int r) {
  if (r < 0 || r > n) return 0;
  u128 c = 1;
  for (int i = 1; i <= r; ++i) c = c * u128(n - r + i) / u128(i);
  return c;
}

// Every size the index computes, against exact binomials, on the widths
// that hold levels of more than 2^32 boards (6-pit Kalah and Awari from 32
// seeds: 5,752,004,349 boards at level 32).
TEST(BoardIndex, SizesAboveTwoToThe32AreExact) {
  for (const auto& [pits, top] : {std::pair{12, 72}, std::pair{10, 60}, std::pair{14, 98}, std::pair{8, 96}}) {
    const BoardIndex index(pits, top);
    for (int k = 0; k <= top; ++k) {
      ASSERT_EQ(u128(index.level_size(k)), choose128(k + pits - 1, pits - 1)) << pits << " pits, level " << k;
      ASSERT_EQ(u128(index.level_offset(k)), choose128(k + pits - 1, pits)) << pits << " pits, level " << k;
      ASSERT_EQ(index.level_offset(k + 1), index.level_offset(k) + index.level_size(k));
    }
  }
  EXPECT_EQ(BoardIndex(12, 32).level_size(32), 5752004349u);
  EXPECT_EQ(BoardIndex(12, 30).level_offset(31), 11058116888u);  // levels 0..30
  EXPECT_EQ(BoardIndex(12, 32).level_offset(33), 21090682613u);  // levels 0..32
}

// binomial() reads C(n, r) straight from its table, with no test for r > n
// (a child's key reads one at every search node): the table must hold
// those zeros, and every other entry exact.
TEST(BoardIndex, BinomialTableHoldsZerosAboveTheDiagonal) {
  for (const auto& [pits, top] : {std::pair{2, 30}, std::pair{10, 25}, std::pair{12, 40}}) {
    const BoardIndex index(pits, top);
    for (int n = 0; n <= top + pits; ++n)
      for (int r = 0; r <= pits; ++r) ASSERT_EQ(u128(index.binomial(n, r)), choose128(n, r)) << "C(" << n << ", " << r << ")";
  }
}

// Ranks above 2^32 (without building anything): unrank then rank gives the
// rank back, the board holds the level's seeds, and stepping with next()
// across 2^32 gives the following ranks.
TEST(BoardIndex, RanksAboveTwoToThe32RoundTrip) {
  for (const auto& [pits, k] : {std::pair{12, 32}, std::pair{12, 40}, std::pair{12, 72}, std::pair{14, 60}, std::pair{16, 90}}) {
    const BoardIndex index(pits, k);
    const std::uint64_t size = index.level_size(k);
    ASSERT_GT(size, std::uint64_t(1) << 32) << pits << " pits, level " << k;
    std::vector<std::uint64_t> ranks = {std::uint64_t(1) << 32, (std::uint64_t(1) << 32) - 1, (std::uint64_t(1) << 32) + 1, size - 1,
                                        size / 2, size - (std::uint64_t(1) << 32)};
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 2000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
      ranks.push_back((std::uint64_t(1) << 32) + x % (size - (std::uint64_t(1) << 32)));
    }
    auto board = std::vector<std::uint8_t>(std::size_t(pits));
    for (const std::uint64_t r : ranks) {
      index.unrank(r, k, board.data());
      int sum = 0;
      for (const std::uint8_t c : board) sum += c;
      ASSERT_EQ(sum, k) << "rank " << r;
      ASSERT_EQ(index.rank(board.data(), k), r) << pits << " pits, level " << k;
    }
    index.unrank((std::uint64_t(1) << 32) - 3, k, board.data());
    for (std::uint64_t r = (std::uint64_t(1) << 32) - 3; r < (std::uint64_t(1) << 32) + 3; ++r) {
      ASSERT_EQ(index.rank(board.data(), k), r);
      ASSERT_TRUE(index.next(board.data()));
    }
    index.unrank(size - 1, k, board.data());
    EXPECT_FALSE(index.next(board.data())) << "the last rank has no next";
  }
}

// The builder and the verifier go through a level in LevelTiles' order, so
// a board the tiles skipped or gave twice would be missed by both: every
// rank of the level comes exactly once, with its own board, at the run-time
// width and at the compiled one, on levels with several tiles of one row sum
// (more than LevelTiles::kRows mover rows) and with one.
template <int Width>
void expect_tiles_cover_the_level(int m, int k) {
  const BoardIndex index(2 * m, k);
  const LevelTiles tiles(index, m, k);
  std::vector<int> seen(index.level_size(k), 0);
  Position p;
  p.pits_per_side = std::uint8_t(m);
  std::uint64_t counted = 0;
  for (std::size_t t = 0; t < tiles.size(); ++t)
    counted += tiles.for_each_board<Width>(t, p, [](std::uint64_t) { return false; }, [&](const Position& board, std::uint64_t rank) {
      ASSERT_LT(rank, seen.size());
      ++seen[rank];
      std::vector<std::uint8_t> expected(std::size_t(2 * m));
      index.unrank(rank, k, expected.data());
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), board.pits.begin())) << m << " pits, level " << k << ", rank " << rank;
    });
  EXPECT_EQ(counted, seen.size());
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(seen.size())) << m << " pits, level " << k;
  // skip() spares exactly the boards it names.
  std::uint64_t visited = 0;
  for (std::size_t t = 0; t < tiles.size(); ++t)
    tiles.for_each_board<Width>(t, p, [](std::uint64_t rank) { return rank % 3 == 0; }, [&](const Position&, std::uint64_t rank) {
      EXPECT_NE(rank % 3, 0u);
      ++visited;
    });
  EXPECT_EQ(visited, seen.size() - (seen.size() + 2) / 3);
}

TEST(LevelTiles, VisitEveryRankOfALevelOnceWithItsBoard) {
  // Rows of 6 pits with 8 seeds: C(13, 5) = 1287 > kRows, so that sum has
  // several tiles; 5 pits with 9 seeds: C(13, 4) = 715.
  static_assert(LevelTiles::kRows < 715);
  expect_tiles_cover_the_level<0>(3, 7);
  expect_tiles_cover_the_level<0>(6, 10);
  expect_tiles_cover_the_level<6>(6, 10);
  expect_tiles_cover_the_level<5>(5, 11);
  expect_tiles_cover_the_level<0>(1, 4);
}

TEST(BoardIndex, RefusesIndexesBeyond64Bits) {
  EXPECT_THROW(BoardIndex(32, 255), InputError);
  EXPECT_THROW(BoardIndex(16, 112), InputError);  // C(128,16) > 2^64
  EXPECT_NO_THROW(BoardIndex(14, 98));            // Congkak 7x7
}

// The binomials' columns have room for what a Position can hold (kMaxSeeds
// seeds, 2 * kMaxPitsPerSide pits) and no more: a larger index is refused,
// not read past its columns.
TEST(BoardIndex, RefusesMoreSeedsOrPitsThanAPositionHolds) {
  EXPECT_NO_THROW(BoardIndex(2, kMaxSeeds));
  EXPECT_THROW(BoardIndex(2, kMaxSeeds + 1), InputError);
  EXPECT_THROW(BoardIndex(2 * kMaxPitsPerSide + 1, 1), InputError);
  const BoardIndex index(2, kMaxSeeds);
  EXPECT_EQ(index.level_size(kMaxSeeds), std::uint64_t(kMaxSeeds) + 1);
  const std::uint8_t all_in_the_first[2] = {std::uint8_t(kMaxSeeds), 0};  // the last rank: C(kMaxSeeds, 1)
  EXPECT_EQ(index.rank(all_in_the_first, kMaxSeeds), std::uint64_t(kMaxSeeds));
}

}  // namespace
}  // namespace mancala::tables
