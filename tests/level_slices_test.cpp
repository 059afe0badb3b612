// The pieces a distributed build is made of (phi_buckets.hpp,
// acyclic_positions.hpp, cyclic_slice.hpp), driven here in one process with
// the level split into several parts and the "messages" handed over by hand:
// the values must be those of LevelValues, byte for byte.  The MPI program
// (tables/mpi/) drives the same pieces with real messages.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/tables/acyclic_positions.hpp"
#include "mancala/tables/cyclic_slice.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/phi_buckets.hpp"

namespace {

using namespace mancala;
using namespace mancala::tables;

template <class R>
void expect_acyclic_split_matches(int m, int max_seeds, int parts) {
  LevelValues<R> reference(m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) reference.build_next();
  const BoardIndex index(2 * m, max_seeds);
  std::vector<std::vector<std::int8_t>> levels;
  for (int k = 0; k <= max_seeds; ++k) {
    const PhiBuckets buckets(index, m, k);
    std::vector<std::int8_t> level(index.level_size(k), kUnknownValue);
    std::set<std::uint32_t> seen;
    for (int phi = buckets.max_phi(); phi >= 0; --phi) {
      const auto bucket = buckets.bucket(phi);
      std::vector<std::int8_t> gathered(bucket.size());
      for (int part = 0; part < parts; ++part) {  // each part its share
        const std::uint64_t lo = slice_begin(bucket.size(), parts, part), hi = slice_begin(bucket.size(), parts, part + 1);
        solve_acyclic_positions<R>(index, m, k, [&](int s) { return levels[std::size_t(s)].data(); }, level.data(),
                                   bucket.subspan(lo, hi - lo), gathered.data() + lo);
      }
      for (std::size_t i = 0; i < bucket.size(); ++i) {  // the all-gather
        EXPECT_TRUE(seen.insert(bucket[i]).second) << "rank " << bucket[i] << " in two buckets";
        level[bucket[i]] = gathered[i];
      }
    }
    EXPECT_EQ(seen.size(), index.level_size(k));
    EXPECT_EQ(level, reference.level(k)) << "level " << k << " in " << parts << " parts";
    levels.push_back(std::move(level));
  }
}

TEST(LevelSlices, AcyclicPhiBucketsSplitGiveTheSameValues) {
  for (int parts : {1, 3}) {
    expect_acyclic_split_matches<KalahRules<false>>(3, 9, parts);
    expect_acyclic_split_matches<KalahRules<true>>(3, 8, parts);
    expect_acyclic_split_matches<BrainKingRules>(3, 8, parts);
    expect_acyclic_split_matches<CongkakRules<CongkakCapture::Always>>(3, 8, parts);
  }
}

TEST(LevelSlices, SuccessorNotYetKnownIsAnError) {
  const BoardIndex index(6, 6);
  std::vector<std::vector<std::int8_t>> lower;
  LevelValues<KalahRules<false>> reference(3, 6);
  for (int k = 0; k < 6; ++k) lower.push_back((reference.build_next(), reference.level(k)));
  std::vector<std::int8_t> level(index.level_size(6), kUnknownValue);
  const PhiBuckets buckets(index, 3, 6);
  // Phi 6 (every seed in a pit 1) is the lowest bucket of level 6: its
  // positions have in-level successors of larger Phi, all unknown here.
  EXPECT_TRUE(buckets.bucket(5).empty());
  ASSERT_FALSE(buckets.bucket(6).empty());
  std::vector<std::int8_t> out(buckets.bucket(6).size());
  EXPECT_THROW(solve_acyclic_positions<KalahRules<false>>(index, 3, 6, [&](int s) { return lower[std::size_t(s)].data(); },
                                                           level.data(), buckets.bucket(6), out.data()),
               std::logic_error);
}

template <class R>
void expect_cyclic_split_matches(int m, int max_seeds, int parts) {
  LevelValues<R> reference(m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) reference.build_next();
  const BoardIndex index(2 * m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = index.level_size(k);
    std::vector<CyclicSlice<R>> slices;
    for (int part = 0; part < parts; ++part)
      slices.emplace_back(index, m, k, slice_begin(size, parts, part), slice_begin(size, parts, part + 1));
    for (auto& s : slices) s.scan([&](int seeds) { return reference.level(seeds).data(); });
    for (int t = k; t >= 1; --t) {
      std::vector<std::vector<std::uint64_t>> frontier;
      for (auto& s : slices) frontier.push_back(s.seed(t));
      for (;;) {
        std::vector<std::vector<std::uint64_t>> inbox(static_cast<std::size_t>(parts));
        bool any = false;
        for (int part = 0; part < parts; ++part) {
          any |= !frontier[std::size_t(part)].empty();
          for (auto u : slices[std::size_t(part)].expand(frontier[std::size_t(part)])) {
            int owner = 0;
            while ((u >> 1) >= slices[std::size_t(owner)].hi()) ++owner;
            inbox[std::size_t(owner)].push_back(u);
          }
        }
        if (!any) break;
        for (int part = 0; part < parts; ++part) frontier[std::size_t(part)] = slices[std::size_t(part)].apply(inbox[std::size_t(part)], t);
      }
    }
    std::vector<std::int8_t> level;
    for (auto& s : slices) {
      const auto v = s.values();
      level.insert(level.end(), v.begin(), v.end());
    }
    EXPECT_EQ(level, reference.level(k)) << "level " << k << " in " << parts << " parts";
  }
}

TEST(LevelSlices, CyclicSlicesWithExchangedUpdatesGiveTheSameValues) {
  for (int parts : {1, 2, 5}) {
    expect_cyclic_split_matches<OwareRules<GrandSlam::NoCapture>>(3, 8, parts);
    expect_cyclic_split_matches<OwareRules<GrandSlam::Forbidden>>(2, 8, parts);
  }
}

}  // namespace
