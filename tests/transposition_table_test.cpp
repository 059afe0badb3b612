// The transposition table on its own: its keys are lossless in both
// layouts (a probe returns the bounds stored for its own key, or nothing),
// configure() picks the layout the keys and values fit, the replacement
// keeps deeper and exact entries, and threads sharing the table never read
// a mix of two entries.  The solver's oracle tests see only values, which a
// table that forgets entries (or keeps too few) does not change; these
// tests see the table.
#include "mancala/solver/transposition_table.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace {

using mancala::solver::Bounds;
using mancala::solver::kExactDepth;
using mancala::solver::TranspositionTable;

// Bounds that only `key` could have been stored with (within +-100).
int lower_of(std::uint64_t key) { return int(key % 97) - 100; }
int upper_of(std::uint64_t key) { return int(key / 97 % 101); }
int move_of(std::uint64_t key) { return int(key % 13); }

std::vector<std::uint64_t> random_keys(int bits, std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> keys(n);
  for (auto& k : keys) k = bits == 64 ? rng() : rng() & ((std::uint64_t(1) << bits) - 1);
  return keys;
}

// Stores many more keys than the table holds, then probes every one: a hit
// must give back the key's own bounds and move.  Returns the hits.
std::size_t store_and_probe_all(TranspositionTable& tt, const std::vector<std::uint64_t>& keys) {
  for (std::uint64_t k : keys) tt.store(k, lower_of(k), upper_of(k), move_of(k), unsigned(k % 40));
  std::size_t hits = 0;
  for (std::uint64_t k : keys) {
    Bounds b{-127, 127, -1};
    if (!tt.probe(k, b)) continue;
    ++hits;
    EXPECT_EQ(b.lower, lower_of(k)) << "key " << k;
    EXPECT_EQ(b.upper, upper_of(k)) << "key " << k;
    EXPECT_EQ(b.move, move_of(k)) << "key " << k;
    if (::testing::Test::HasFailure()) break;
  }
  return hits;
}

TEST(TranspositionTable, ConfigurePicksTheLayoutThatFits) {
  TranspositionTable tt(1, false);  // 2^14 clusters
  ASSERT_EQ(tt.clusters(), std::size_t(1) << 14);
  EXPECT_FALSE(tt.compact());  // until told the keys' width
  tt.configure(41, 48);        // Kalah(6,4): 27-bit residues
  EXPECT_TRUE(tt.compact());
  EXPECT_EQ(tt.capacity(), std::size_t(8) << 14);
  tt.configure(14 + TranspositionTable::kResidueBits, 127);
  EXPECT_TRUE(tt.compact());
  tt.configure(15 + TranspositionTable::kResidueBits, 127);  // a residue one bit too wide
  EXPECT_FALSE(tt.compact());
  tt.configure(41, 128);  // values beyond 8 bits
  EXPECT_FALSE(tt.compact());
  tt.configure(64, 48);  // Congkak's north bit
  EXPECT_FALSE(tt.compact());
  EXPECT_EQ(tt.capacity(), std::size_t(4) << 14);
}

TEST(TranspositionTable, CompactKeysAreLossless) {
  // Keys of every width the compact layout takes, from narrower than the
  // cluster index (the residue is empty) to the widest residue: 2^18 keys
  // into 2^17 slots, so clusters overflow and residues meet.
  for (int bits : {10, 14, 20, 30, 40, 14 + TranspositionTable::kResidueBits}) {
    TranspositionTable tt(1, false);
    tt.configure(bits, 127);
    ASSERT_TRUE(tt.compact()) << bits;
    const auto keys = random_keys(bits, 1 << 18, unsigned(bits));
    const std::size_t hits = store_and_probe_all(tt, keys);
    ASSERT_FALSE(HasFailure()) << bits << "-bit keys";
    EXPECT_GT(hits, bits <= 14 ? (std::size_t(1) << bits) / 2 : std::size_t(1) << 16) << bits << "-bit keys";
  }
}

TEST(TranspositionTable, CompactKeysDifferingOnlyInTheirTopBitsAreTold) {
  // Keys k and k + 2^(bits-1) differ in the top bit alone: the multiplication
  // leaves their low bits equal, so they differ in the cluster index or the
  // residue's top bit, never nowhere.
  const int bits = 40;
  TranspositionTable tt(1, false);
  tt.configure(bits, 127);
  std::vector<std::uint64_t> keys;
  for (std::uint64_t k : random_keys(bits - 1, 1 << 16, 7)) {
    keys.push_back(k);
    keys.push_back(k | std::uint64_t(1) << (bits - 1));
  }
  store_and_probe_all(tt, keys);
}

TEST(TranspositionTable, WideKeysAreLossless) {
  for (int bits : {41, 64}) {
    TranspositionTable tt(1, false);
    tt.configure(bits, bits == 64 ? 48 : 200);
    ASSERT_FALSE(tt.compact());
    const auto keys = random_keys(bits, 1 << 17, unsigned(bits));
    const std::size_t hits = store_and_probe_all(tt, keys);
    ASSERT_FALSE(HasFailure()) << bits << "-bit keys";
    EXPECT_GT(hits, std::size_t(1) << 15);
  }
}

TEST(TranspositionTable, WideBoundsBeyondEightBitsSurvive) {
  TranspositionTable tt(1, false);
  tt.configure(41, 255);
  tt.store(12345, -255, 201, 3, 5);
  Bounds b{-1000, 1000, -1};
  ASSERT_TRUE(tt.probe(12345, b));
  EXPECT_EQ(b.lower, -255);
  EXPECT_EQ(b.upper, 201);
}

TEST(TranspositionTable, CompactEntryFieldsRoundTrip) {
  TranspositionTable tt(1, false);
  tt.configure(41, 127);
  ASSERT_TRUE(tt.compact());
  const int values[] = {-127, -126, -1, 0, 1, 126, 127};
  std::uint64_t key = 1;
  for (int lo : values)
    for (int hi : values) {
      if (hi < lo) continue;
      for (int move : {-1, 0, 15}) {
        key = key * 6364136223846793005ull + 1442695040888963407ull;
        key &= (std::uint64_t(1) << 41) - 1;
        for (int depth : {0, 3, 21, 254, kExactDepth}) {
          tt.store(key, lo, hi, move, 64, depth);
          Bounds b{-127, 127, -2};
          ASSERT_TRUE(tt.probe(key, b, depth)) << lo << " " << hi << " " << move << " " << depth;
          EXPECT_EQ(b.lower, lo);
          EXPECT_EQ(b.upper, hi);
          EXPECT_EQ(b.move, move);
          tt.clear();
        }
      }
    }
}

// The replacement rules of the header, in both layouts.
class Replacement : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { tt_.configure(GetParam() ? 30 : 64, 60); }
  TranspositionTable tt_{1, false};
};

TEST_P(Replacement, ADeeperEntryIsKeptAndTheSameDepthMerges) {
  tt_.store(99, -10, 10, 2, 3, 9);
  tt_.store(99, -4, 4, 1, 3, 6);  // shallower: ignored
  Bounds b{-60, 60, -1};
  ASSERT_TRUE(tt_.probe(99, b, 9));
  EXPECT_EQ(b.lower, -10);
  EXPECT_EQ(b.move, 2);
  b = {-60, 60, -1};
  EXPECT_FALSE(tt_.probe(99, b, kExactDepth));  // too shallow for an exact search
  EXPECT_EQ(b.move, 2);                         // but its move is a hint
  tt_.store(99, -2, 12, -1, 1, 9);              // same depth: the tighter of each bound, the old move
  b = {-60, 60, -1};
  ASSERT_TRUE(tt_.probe(99, b, 9));
  EXPECT_EQ(b.lower, -2);
  EXPECT_EQ(b.upper, 10);
  EXPECT_EQ(b.move, 2);
  tt_.store(99, 0, 0, 4, 1, kExactDepth);  // deeper: replaces
  b = {-60, 60, -1};
  ASSERT_TRUE(tt_.probe(99, b));
  EXPECT_EQ(b.lower, 0);
  EXPECT_EQ(b.upper, 0);
  EXPECT_EQ(b.move, 4);
}

// Exact entries first, then far more cut-off entries than the table holds,
// of subtrees 2^cut_off_extra_bits times bigger (work counts bit widths):
// how many of the exact entries are still there.
int exact_entries_left(TranspositionTable& tt, bool compact, unsigned cut_off_extra_bits) {
  const auto exact = random_keys(compact ? 30 : 64, 1 << 10, 1);
  for (std::uint64_t k : exact) tt.store(k, lower_of(k) / 2, upper_of(k) / 2, 1, 20);
  for (std::uint64_t k : random_keys(compact ? 30 : 64, 1 << 19, 2)) tt.store(k, -1, 1, 0, 20 + cut_off_extra_bits, 12);
  int left = 0;
  for (std::uint64_t k : exact) {
    Bounds b{-60, 60, -1};
    if (tt.probe(k, b)) {
      EXPECT_EQ(b.lower, lower_of(k) / 2);
      ++left;
    }
  }
  return left;
}

TEST_P(Replacement, ExactEntriesOutliveCutOffOnesOfUpTo128TimesTheirWork) {
  EXPECT_EQ(exact_entries_left(tt_, GetParam(), 7), 1 << 10);
}

// The deepening's move hints high in the tree outlive a test's small exact
// entries (transposition_table.cpp, entry_worth).
TEST_P(Replacement, CutOffEntriesOf512TimesTheWorkOutliveExactOnes) {
  EXPECT_EQ(exact_entries_left(tt_, GetParam(), 9), 0);
}

INSTANTIATE_TEST_SUITE_P(BothLayouts, Replacement, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Compact" : "Wide"; });

// Two threads store and probe overlapping keys at once (a table shared the
// way a two-thread solve shares it): every hit is the key's own entry.
TEST(TranspositionTable, SharedByTwoThreadsNeverReadsAMix) {
  for (bool compact : {true, false}) {
    TranspositionTable tt(1, true);
    tt.configure(compact ? 36 : 64, 120);
    ASSERT_EQ(tt.compact(), compact);
    const auto keys = random_keys(compact ? 36 : 64, 1 << 17, 3);
    std::atomic<int> bad{0};
    auto work = [&](unsigned seed) {
      std::mt19937 rng(seed);
      for (int i = 0; i < (1 << 19); ++i) {
        const std::uint64_t k = keys[rng() % keys.size()];
        if (rng() & 1) {
          tt.store(k, lower_of(k), upper_of(k), move_of(k), rng() % 30);
        } else {
          Bounds b{-127, 127, -1};
          if (tt.probe(k, b) && (b.lower != lower_of(k) || b.upper != upper_of(k) || b.move != move_of(k))) ++bad;
        }
      }
    };
    std::thread a(work, 1), b(work, 2);
    a.join();
    b.join();
    EXPECT_EQ(bad.load(), 0) << (compact ? "compact" : "wide");
  }
}

}  // namespace
