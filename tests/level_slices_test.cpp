// The pieces a distributed build is made of (phi_buckets.hpp,
// acyclic_slice.hpp, cyclic_slice.hpp), driven here in one process with
// the level split into several parts and the "messages" handed over by hand:
// the values must be those of LevelValues, byte for byte.  The MPI program
// (tables/mpi/) drives the same pieces with real messages.
#include <gtest/gtest.h>

#include <vector>

#include "mancala/rules.hpp"
#include "mancala/tables/acyclic_slice.hpp"
#include "mancala/tables/cyclic_slice.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/phi_buckets.hpp"
#include "mancala/tables/remote_values.hpp"

namespace {

using namespace mancala;
using namespace mancala::tables;

// The 8-byte layout (a slice of 2^32 positions or more) forced on small
// slices: the same buckets as the 4-byte one, rank for rank, read whole or
// in pieces.
TEST(LevelSlices, WideAndNarrowPhiOrdersAgree) {
  const BoardIndex index(10, 9);
  for (int k : {0, 1, 7, 9}) {
    const std::uint64_t size = index.level_size(k);
    for (auto [first, last] : {std::pair<std::uint64_t, std::uint64_t>{0, size}, {size / 3, size - size / 5}}) {
      const PhiBuckets narrow(index, 5, k, first, last), wide(index, 5, k, first, last, 0);
      EXPECT_EQ(narrow.bytes_per_position(), 4);
      if (last > first) {
        EXPECT_EQ(wide.bytes_per_position(), 8);
      }
      std::uint64_t total = 0;
      for (int phi = 0; phi <= narrow.max_phi(); ++phi) {
        ASSERT_EQ(narrow.bucket(phi), wide.bucket(phi)) << "level " << k << " phi " << phi;
        total += narrow.bucket_size(phi);
        std::vector<std::uint64_t> piece;
        if (wide.bucket_size(phi) >= 3) {
          wide.ranks(phi, 1, 2, piece);
          const std::vector<std::uint64_t> whole = narrow.bucket(phi);
          EXPECT_EQ(piece, std::vector<std::uint64_t>(whole.begin() + 1, whole.begin() + 3));
        }
        for (std::uint64_t r : narrow.bucket(phi)) EXPECT_TRUE(first <= r && r < last);
      }
      EXPECT_EQ(total, last - first);
      std::vector<std::uint64_t> piece;
      EXPECT_THROW(narrow.ranks(0, 0, narrow.bucket_size(0) + 1, piece), std::logic_error);
    }
  }
}

// Slices of levels of 2^32 positions and more (a 6-pit level of 32 seeds
// and up: 5,752,004,349 at 32, 4,280,561,376 at 31), without building
// them: the bounds are floor(size * part / parts) exactly (a 64-bit product
// would overflow), contiguous, and every rank has one owner.
TEST(LevelSlices, SlicesOfLevelsBeyond32Bits) {
  const BoardIndex index(12, 40);
  for (int k : {32, 33, 40}) {
    const std::uint64_t size = index.level_size(k);
    ASSERT_GE(size, std::uint64_t(1) << 32);
    for (int parts : {1, 2, 3, 7, 256, 65536, 1 << 30}) {
      __extension__ typedef unsigned __int128 Wide;
      for (int part : {0, 1, parts / 2, parts - 1, parts}) {
        if (part > parts) continue;
        const std::uint64_t b = slice_begin(size, parts, part);
        EXPECT_EQ(Wide(b), Wide(size) * Wide(unsigned(part)) / Wide(unsigned(parts))) << k << " " << parts << " " << part;
        if (part < parts) {
          EXPECT_LE(b, slice_begin(size, parts, part + 1));
          if (slice_begin(size, parts, part + 1) > b) {
            EXPECT_EQ(slice_owner(size, parts, b), part);
            EXPECT_EQ(slice_owner(size, parts, slice_begin(size, parts, part + 1) - 1), part);
          }
        }
      }
      EXPECT_EQ(slice_begin(size, parts, parts), size);
      EXPECT_EQ(slice_owner(size, parts, size - 1), parts - 1);
    }
    // A cyclic slice at ranks above 2^32: its first position's exits scanned
    // and its values read back (every position is undecided: value 0).
    const std::uint64_t lo = size - 3;
    CyclicSlice<OwareRules<GrandSlam::NoCapture>> slice(index, 6, k, lo, size);
    EXPECT_EQ(slice.lo(), lo);
    EXPECT_EQ(slice.values().size(), 3u);
  }
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

TEST(LevelSlices, SliceOwnerIsTheSliceThatHoldsTheRank) {
  for (std::uint64_t size : {1, 2, 5, 100, 1001, 4096}) {
    for (int parts : {1, 2, 3, 7, 16}) {
      for (std::uint64_t x = 0; x < size; ++x) {
        const int r = slice_owner(size, parts, x);
        ASSERT_TRUE(slice_begin(size, parts, r) <= x && x < slice_begin(size, parts, r + 1))
            << "rank " << x << " of " << size << " in " << parts << " parts: owner " << r;
      }
    }
  }
  EXPECT_THROW(slice_owner(10, 3, 10), std::logic_error);
  EXPECT_EQ(key_seeds(value_key(127, 12345)), 127);
  EXPECT_EQ(key_rank(value_key(127, 12345)), 12345u);
}

// The distributed acyclic build as tables/mpi/ runs it (acyclic_slice.hpp),
// with the messages handed over by hand: each part holds only its slice of
// every level, values its exits in batches (asking the other parts for the
// lower-level children it does not hold), then its in-level moves bucket by
// bucket of Phi (asking for the in-level children it does not hold), half
// of each bucket valued for it by another part.
template <class R>
void expect_acyclic_slices_match(int m, int max_seeds, int parts, bool moves_within_levels = true) {
  LevelValues<R> reference(m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) reference.build_next();
  const BoardIndex index(2 * m, max_seeds);
  // held[p][k]: part p's slice of level k
  std::vector<std::vector<std::vector<std::int8_t>>> held(static_cast<std::size_t>(parts));
  auto begin = [&](int k, int p) { return slice_begin(index.level_size(k), parts, p); };
  auto owner = [&](std::uint64_t key) { return slice_owner(index.level_size(key_seeds(key)), parts, key_rank(key)); };
  std::uint64_t exit_keys = 0, in_level_keys = 0, foreign_positions = 0;
  for (int k = 0; k <= max_seeds; ++k) {
    std::vector<AcyclicSlice<R>> slices;
    for (int p = 0; p < parts; ++p) slices.emplace_back(index, m, k, begin(k, p), begin(k, p + 1));
    // What part q answers for the keys it was asked: lower levels from its
    // slices in phase 1, level k from its AcyclicSlice in phase 2.
    auto answers = [&](const ExitRequests& req, bool in_level) {
      std::vector<std::int8_t> out;
      for (int q = 0; q < parts; ++q)
        for (const std::uint64_t key : req.keys[std::size_t(q)]) {
          const int s = key_seeds(key);
          const std::uint64_t r = key_rank(key);
          EXPECT_TRUE(begin(s, q) <= r && r < begin(s, q + 1)) << "asked the wrong part";
          EXPECT_EQ(s == k, in_level) << "asked for level " << s << " in phase " << (in_level ? 2 : 1);
          out.push_back(in_level ? slices[std::size_t(q)].final_value(r) : held[std::size_t(q)][std::size_t(s)][r - begin(s, q)]);
        }
      return out;
    };
    const std::uint64_t batch = 2 * AcyclicSlice<R>::kBatchAlign;  // several batches a slice
    for (int p = 0; p < parts; ++p) {
      AcyclicSlice<R>& slice = slices[std::size_t(p)];
      auto held_here = [&](int s, std::uint64_t r) -> const std::int8_t* {
        return begin(s, p) <= r && r < begin(s, p + 1) ? &held[std::size_t(p)][std::size_t(s)][r - begin(s, p)] : nullptr;
      };
      for (std::uint64_t a = slice.lo(); a < slice.hi(); a += batch) {
        ExitRequests req(parts);
        slice.value_exits(a, std::min(slice.hi(), a + batch), held_here, owner, req);
        EXPECT_TRUE(req.keys[std::size_t(p)].empty()) << "asked itself";
        exit_keys += req.size();
        slice.fold(req, answers(req, false));
      }
    }
    std::vector<const PhiBuckets*> buckets;
    for (auto& slice : slices) buckets.push_back(&slice.order_by_phi());
    for (int phi = k * m; phi >= 0; --phi) {
      for (int p = 0; p < parts; ++p) {
        // Part p values the first half of its bucket; with more than one
        // part, the next part values the rest for it (as a round that deals
        // out the work does), from the exits part p sends, and p settles them.
        const std::vector<std::uint64_t> bucket = buckets[std::size_t(p)]->bucket(phi);
        const std::size_t kept = parts > 1 ? bucket.size() / 2 : bucket.size();
        const std::span<const std::uint64_t> mine(bucket.data(), kept), sent(bucket.data() + kept, bucket.size() - kept);
        const int helper = (p + 1) % parts;
        std::vector<std::int8_t> exits;
        for (const std::uint64_t r : sent) exits.push_back(slices[std::size_t(p)].exit_best(r));
        ExitRequests req(parts), foreign_req(parts);
        slices[std::size_t(p)].value_in_level(mine, owner, req);
        slices[std::size_t(helper)].value_foreign(sent, exits, owner, foreign_req);
        in_level_keys += req.size() + foreign_req.size();
        slices[std::size_t(p)].fold(req, answers(req, true));
        slices[std::size_t(helper)].fold(foreign_req, answers(foreign_req, true));
        slices[std::size_t(p)].finish(mine);
        slices[std::size_t(p)].settle(sent, slices[std::size_t(helper)].foreign_values());
        foreign_positions += sent.size();
      }
    }
    std::vector<std::int8_t> level;
    for (int p = 0; p < parts; ++p) {
      for (std::uint64_t r = begin(k, p); r < begin(k, p + 1); ++r) EXPECT_NO_THROW(slices[std::size_t(p)].final_value(r));
      held[std::size_t(p)].push_back(std::move(slices[std::size_t(p)]).values());
      level.insert(level.end(), held[std::size_t(p)].back().begin(), held[std::size_t(p)].back().end());
    }
    EXPECT_EQ(level, reference.level(k)) << "level " << k << " in " << parts << " slices";
  }
  if (parts > 1) {  // the requests were exercised, in both phases
    EXPECT_GT(exit_keys, 0u);
    if (moves_within_levels) {
      EXPECT_GT(in_level_keys, 0u) << m << " pits";
      EXPECT_GT(foreign_positions, 0u) << m << " pits";
    }
  }
}

TEST(LevelSlices, AcyclicSlicesInTwoPhasesGiveTheSameValues) {
  for (int parts : {1, 2, 3}) {
    expect_acyclic_slices_match<KalahRules<false>>(3, 9, parts);
    expect_acyclic_slices_match<KalahRules<true>>(3, 8, parts);
    expect_acyclic_slices_match<BrainKingRules>(3, 8, parts);
    // Congkak on 3 pits: no in-level child was asked of another part (the
    // values are checked all the same).
    expect_acyclic_slices_match<CongkakRules<CongkakCapture::Always>>(3, 8, parts, false);
    expect_acyclic_slices_match<KalahRules<false>>(5, 5, parts);  // the 5- and 6-pit code paths
    expect_acyclic_slices_match<KalahRules<true>>(6, 4, parts);
  }
}

// Phase 2 in the wrong order (a bucket of smaller Phi first) asks for a
// child not final yet: an error, never a value.
TEST(LevelSlices, AcyclicSliceChildNotFinalIsAnError) {
  using R = KalahRules<false>;
  LevelValues<R> reference(3, 6);
  std::vector<std::vector<std::int8_t>> lower;
  for (int k = 0; k < 6; ++k) lower.push_back((reference.build_next(), reference.level(k)));
  const BoardIndex index(6, 6);
  AcyclicSlice<R> slice(index, 3, 6, 0, index.level_size(6));
  ExitRequests req(1);
  slice.value_exits(0, index.level_size(6), [&](int s, std::uint64_t r) { return &lower[std::size_t(s)][r]; },
                    [](std::uint64_t) { return 0; }, req);
  EXPECT_EQ(req.size(), 0u);
  const PhiBuckets& buckets = slice.order_by_phi();
  int thrown = 0;
  for (int phi = 0; phi <= buckets.max_phi(); ++phi) {  // smallest first: children not valued yet
    const std::vector<std::uint64_t> bucket = buckets.bucket(phi);
    try {
      slice.value_in_level(std::span<const std::uint64_t>(bucket), [](std::uint64_t) { return 0; }, req);
    } catch (const std::logic_error&) {
      ++thrown;
    }
    for (const std::uint64_t r : bucket) EXPECT_THROW(slice.final_value(r), std::logic_error);
  }
  EXPECT_GT(thrown, 0);
}

// Oware: the exits of a slice valued from other slices' values asked for in
// batches (scan_exits, fold_exits), against the scan that reads every level.
template <class R>
void expect_cyclic_scan_with_fetched_exits_matches(int m, int max_seeds, int parts) {
  LevelValues<R> reference(m, max_seeds);
  for (int k = 0; k <= max_seeds; ++k) reference.build_next();
  const BoardIndex index(2 * m, max_seeds);
  std::uint64_t asked = 0;
  for (int k = 1; k <= max_seeds; ++k) {
    const std::uint64_t size = index.level_size(k);
    for (int p = 0; p < parts; ++p) {
      const std::uint64_t lo = slice_begin(size, parts, p), hi = slice_begin(size, parts, p + 1);
      CyclicSlice<R> direct(index, m, k, lo, hi), fetched(index, m, k, lo, hi);
      direct.scan([&](int s) { return reference.level(s).data(); });
      // Part p holds its own slices of the lower levels; the rest is asked
      // of their owners, in batches of 5 positions.
      auto begin = [&](int s, int q) { return slice_begin(index.level_size(s), parts, q); };
      auto owner = [&](std::uint64_t key) { return slice_owner(index.level_size(key_seeds(key)), parts, key_rank(key)); };
      auto held = [&](int s, std::uint64_t r) -> const std::int8_t* {
        return begin(s, p) <= r && r < begin(s, p + 1) ? &reference.level(s)[r] : nullptr;
      };
      for (std::uint64_t a = lo; a < hi; a += 5) {
        const std::uint64_t b = std::min(hi, a + 5);
        ExitRequests req(parts);
        fetched.scan_exits(a, b, held, owner, req);
        EXPECT_TRUE(req.keys[std::size_t(p)].empty()) << "asked itself";
        asked += req.size();
        std::vector<std::int8_t> answers;
        for (int q = 0; q < parts; ++q)
          for (const std::uint64_t key : req.keys[std::size_t(q)]) {
            EXPECT_EQ(owner(key), q);
            EXPECT_LT(key_seeds(key), k) << "an in-level child asked for";
            answers.push_back(reference.level(key_seeds(key))[key_rank(key)]);
          }
        fetched.fold_exits(req, answers);
      }
      for (int t = k; t >= 1; --t) EXPECT_EQ(direct.seed(t), fetched.seed(t)) << "level " << k << " threshold " << t;
      EXPECT_EQ(direct.values(), fetched.values());
    }
  }
  if (parts > 1) {
    EXPECT_GT(asked, 0u);
  }
}

TEST(LevelSlices, CyclicScanWithFetchedExitsMatches) {
  expect_cyclic_scan_with_fetched_exits_matches<OwareRules<GrandSlam::NoCapture>>(3, 7, 3);
  expect_cyclic_scan_with_fetched_exits_matches<OwareRules<GrandSlam::Forbidden>>(2, 8, 2);
}

}  // namespace

namespace {

using namespace mancala::tables;

// Sorted key lists as varint differences: any sorted list, repeats, the
// level jump of a key's top bits and the largest key come back exactly;
// bytes that are no such list are refused.
TEST(LevelSlices, SortedKeysRoundTripAsVarints) {
  const std::vector<std::vector<std::uint64_t>> lists = {
      {},
      {0},
      {0, 0, 0},
      {1, 2, 3, 130, 130, 16384},
      {value_key(3, 5), value_key(3, 6), value_key(4, 0), value_key(127, (std::uint64_t(1) << kKeyLevelShift) - 1)},
      {~std::uint64_t(0)},
      {0, ~std::uint64_t(0)},
  };
  for (const auto& keys : lists) {
    std::vector<std::uint8_t> bytes;
    append_sorted_varints(keys, bytes);
    EXPECT_EQ(read_sorted_varints(bytes), keys);
  }
  std::vector<std::uint8_t> bytes;
  const std::vector<std::uint64_t> dense = {10, 11, 13, 14, 20};
  append_sorted_varints(dense, bytes);
  EXPECT_EQ(bytes.size(), dense.size());  // one byte a key when they are close
  const std::vector<std::uint64_t> unsorted = {5, 4};
  EXPECT_THROW(append_sorted_varints(unsorted, bytes), std::logic_error);
  const std::vector<std::vector<std::uint8_t>> bad = {
      {0x80},                                                              // cut short
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},  // more than 64 bits
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},        // bit 64 set
      {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x01},  // 2^64 - 1, then beyond
  };
  for (const auto& b : bad) EXPECT_THROW(read_sorted_varints(b), std::runtime_error);
}

}  // namespace
