// An acyclic level split by row-sum classes (row_sum_classes.hpp,
// row_sum_slice.hpp), driven here in one process with the "messages" handed
// over by hand as tables/mpi/ sends them: each part values its classes
// holding only its rank slices of the lower levels (the rest is asked of
// their owners), and the values travel back to rank order in runs that
// sender and receiver find on their own.  The level must be LevelValues',
// byte for byte.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/tables/cyclic_slice.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/remote_values.hpp"
#include "mancala/tables/row_sum_classes.hpp"
#include "mancala/tables/row_sum_slice.hpp"

namespace {

using namespace mancala;
using namespace mancala::tables;

// Blocks tile the level in rank order, and each is what it says: the
// boards of one opponent's row, every mover's row of the rest of the seeds.
TEST(RowSumClasses, BlocksTileTheLevel) {
  for (const int m : {1, 3, 6}) {
    const BoardIndex index(2 * m, 9);
    for (int k : {0, 1, 8, 9}) {
      const RowSumClasses classes(index, m, k, 3, 0);
      std::uint64_t next = 0;
      classes.for_each_block([&](std::uint64_t g, std::uint64_t n, int a, std::uint64_t y) {
        ASSERT_EQ(g, next);
        next += n;
        ASSERT_EQ(n, classes.rows(a));
        std::vector<std::uint8_t> board(std::size_t(2 * m)), row(std::size_t(m), 0);
        board.assign(std::size_t(2 * m), 0);
        for (const std::uint64_t r : {g, g + n - 1}) {
          index.unrank(r, k, board.data());
          classes.row_unrank(y, k - a, row.data());
          EXPECT_TRUE(std::equal(row.begin(), row.end(), board.begin() + m)) << "rank " << r;
          EXPECT_EQ(std::accumulate(board.begin(), board.begin() + m, 0), a);
          // Its place in its owner's layout: the block's run, in rank order.
          EXPECT_EQ(classes.local_index(board.data(), a), classes.off(a) + y * n + (r - g));
        }
      });
      EXPECT_EQ(next, index.level_size(k));
    }
  }
}

// Every row sum has one owner, {a, k-a} the same; the owners' layouts hold
// the level exactly; two processes are even on the 6-pit levels measured,
// eight are not on level 18 (its largest class is 22% of it).
TEST(RowSumClasses, OwnersAndLayouts) {
  const BoardIndex index(12, 40);
  for (int k : {5, 18, 30, 40}) {
    for (int parts : {1, 2, 3, 8}) {
      std::uint64_t total = 0, largest = 0;
      for (int me = 0; me < parts; ++me) {
        total += RowSumClasses(index, 6, k, parts, me).local_size();
        largest = std::max(largest, RowSumClasses(index, 6, k, parts, me).local_size());
      }
      EXPECT_EQ(total, index.level_size(k)) << k << " " << parts;
      EXPECT_EQ(RowSumClasses(index, 6, k, parts, 0).largest_load(), largest) << k << " " << parts;
      const RowSumClasses classes(index, 6, k, parts, 0);
      for (int a = 0; a <= k; ++a) {
        EXPECT_EQ(classes.owner(a), classes.owner(k - a));
        EXPECT_TRUE(classes.owner(a) >= 0 && classes.owner(a) < parts);
      }
    }
    EXPECT_TRUE(RowSumClasses(index, 6, k, 2, 0).balanced(2)) << k;
  }
  EXPECT_FALSE(RowSumClasses(index, 6, 18, 8, 0).balanced(8));
  EXPECT_TRUE(RowSumClasses(index, 6, 40, 4, 0).balanced(4));
}

template <class R>
void expect_row_sum_slices_match(int m, int max_seeds, int parts) {
  LevelValues<R> reference(m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) reference.build_next();
  const BoardIndex index(2 * m, max_seeds);
  auto begin = [&](int s, int q) { return slice_begin(index.level_size(s), parts, q); };
  auto owner = [&](std::uint64_t key) { return slice_owner(index.level_size(key_seeds(key)), parts, key_rank(key)); };
  std::uint64_t asked = 0, in_level = 0;
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = index.level_size(k);
    std::vector<std::uint64_t> bounds;
    for (int r = 0; r <= parts; ++r) bounds.push_back(begin(k, r));
    // sent[q][r]: what part q sends part r, in run order.
    std::vector<std::vector<std::vector<std::int8_t>>> sent(static_cast<std::size_t>(parts));
    for (auto& to : sent) to.resize(static_cast<std::size_t>(parts));
    for (int p = 0; p < parts; ++p) {
      const RowSumClasses classes(index, m, k, parts, p);
      RowSumSlice<R> slice(index, classes);
      auto held = [&](int s, std::uint64_t r) -> const std::int8_t* {
        return begin(s, p) <= r && r < begin(s, p + 1) ? &reference.level(s)[r] : nullptr;
      };
      for (std::uint64_t i = 0; i < slice.blocks(); i += 3) {  // three blocks a request round
        ExitRequests req(parts);
        slice.value_exits(i, std::min(slice.blocks(), i + 3), held, owner, req);
        EXPECT_TRUE(req.keys[std::size_t(p)].empty()) << "asked itself";
        asked += req.size();
        std::vector<std::int8_t> answers;
        for (int q = 0; q < parts; ++q)
          for (const std::uint64_t key : req.keys[std::size_t(q)]) {
            EXPECT_EQ(owner(key), q);
            EXPECT_LT(key_seeds(key), k);
            answers.push_back(reference.level(key_seeds(key))[key_rank(key)]);
          }
        slice.fold(req, answers);
      }
      for (std::uint64_t i = 0; i < slice.blocks(); ++i) in_level += slice.block_size(i);
      slice.value_in_level();
      classes.for_each_run(bounds, [&](int q, int r, std::uint64_t first, std::uint64_t, std::uint64_t count) {
        if (q != p) return;
        auto& out = sent[std::size_t(q)][std::size_t(r)];
        out.insert(out.end(), slice.values().begin() + std::ptrdiff_t(first), slice.values().begin() + std::ptrdiff_t(first + count));
      });
    }
    // Each part takes its runs from their senders, in order.
    std::vector<std::int8_t> level(size, kUnknownValue);
    for (int r = 0; r < parts; ++r) {
      const RowSumClasses classes(index, m, k, parts, r);
      std::vector<std::size_t> read(std::size_t(parts), 0);
      classes.for_each_run(bounds, [&](int q, int part, std::uint64_t, std::uint64_t at, std::uint64_t count) {
        if (part != r) return;
        const auto& in = sent[std::size_t(q)][std::size_t(r)];
        ASSERT_LE(read[std::size_t(q)] + count, in.size());
        std::copy_n(in.begin() + std::ptrdiff_t(read[std::size_t(q)]), count, level.begin() + std::ptrdiff_t(bounds[std::size_t(r)] + at));
        read[std::size_t(q)] += count;
      });
      for (int q = 0; q < parts; ++q) EXPECT_EQ(read[std::size_t(q)], sent[std::size_t(q)][std::size_t(r)].size());
    }
    ASSERT_EQ(level, reference.level(k)) << m << " pits, level " << k << " in " << parts << " parts";
  }
  EXPECT_GT(in_level, 0u);
  if (parts > 1) {
    EXPECT_GT(asked, 0u);
  }
}

TEST(RowSumSlices, GiveTheValuesOfOneMachine) {
  for (int parts : {1, 2, 3}) {
    expect_row_sum_slices_match<KalahRules<false>>(3, 9, parts);
    expect_row_sum_slices_match<KalahRules<true>>(3, 8, parts);
    expect_row_sum_slices_match<BrainKingRules>(3, 8, parts);
    expect_row_sum_slices_match<CongkakRules<CongkakCapture::Always>>(3, 8, parts);
    expect_row_sum_slices_match<CongkakRules<CongkakCapture::NeedsOpposite>>(4, 6, parts);
    expect_row_sum_slices_match<KalahRules<false>>(5, 5, parts);  // the 5- and 6-pit code paths
    expect_row_sum_slices_match<KalahRules<true>>(6, 4, parts);
    // Mover's rows of 7 and 8 seeds: 792 and 1287 rows, more than one tile
    // of the exits' scan (LevelTiles::kRows).
    expect_row_sum_slices_match<KalahRules<false>>(6, 8, parts);
    expect_row_sum_slices_match<BrainKingRules>(1, 6, parts);
  }
}

// A ruleset whose in-level moves cross rows (Kalah, but a move that keeps
// its seeds on the board then shifts one from the next mover's first pit
// to the other row) breaks the split: an error, never a value.
struct CrossingRules {
  static constexpr Game game = Game::Kalah;
  static MoveMask legal_moves(const Position& p) { return KalahRules<false>::legal_moves(p); }
  static bool is_terminal(const Position& p) { return KalahRules<false>::is_terminal(p); }
  static MoveResult play(Position& p, int pit) {
    const int seeds = p.board_seeds();
    const MoveResult res = KalahRules<false>::play(p, pit);
    if (!res.game_over && p.board_seeds() == seeds && p.pits[0] > 1) {
      --p.pits[0];
      ++p.pits[std::size_t(p.m())];
    }
    return res;
  }
};

TEST(RowSumSlices, MovesAcrossRowsAreAnError) {
  const int m = 3, k = 6;
  LevelValues<KalahRules<false>> lower(m, k);  // any values: the error comes first
  for (int s = 0; s < k; ++s) lower.build_next();
  const BoardIndex index(2 * m, k);
  const RowSumClasses classes(index, m, k, 1, 0);
  RowSumSlice<CrossingRules> slice(index, classes);
  ExitRequests req(1);
  EXPECT_THROW(slice.value_exits(0, slice.blocks(), [&](int s, std::uint64_t r) { return &lower.level(s)[r]; },
                                 [](std::uint64_t) { return 0; }, req),
               std::logic_error);
}

}  // namespace
