// The packed codec (tables/src/packed_block.hpp): every value read in place
// and every block decoded equal the values coded, for every width, parity
// and length; and bytes that are not such a block are refused, never read
// past their end or turned into a value out of range.
#include "packed_block.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace mancala::tables {
namespace {

std::vector<std::int8_t> sample(std::mt19937& rng, std::size_t n, int lo, int span, int step) {
  std::vector<std::int8_t> v(n);
  std::uniform_int_distribution<int> d(0, span / step);
  for (auto& x : v) x = std::int8_t(std::min(127, lo + step * d(rng)));
  return v;
}

void expect_round_trip(const std::vector<std::int8_t>& v) {
  const std::vector<std::uint8_t> coded = packed::encode(v.data(), v.size());
  std::vector<std::int8_t> back(v.size(), 99);
  ASSERT_TRUE(packed::decode(coded.data(), coded.size(), v.size(), back.data()));
  ASSERT_EQ(back, v);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(packed::value(coded.data(), v.size(), i), v[i]) << i;
}

TEST(PackedBlock, EveryWidthParityAndLengthRoundTrips) {
  std::mt19937 rng(7);
  for (const std::size_t n : {1u, 63u, 255u, 256u, 257u, 1000u, 1024u, 4096u})
    for (const int span : {0, 1, 2, 3, 7, 8, 100, 255})
      for (const int step : {1, 2}) {
        if (step > 1 && span == 0) continue;
        SCOPED_TRACE("n " + std::to_string(n) + " span " + std::to_string(span) + " step " + std::to_string(step));
        expect_round_trip(sample(rng, n, -128, span, step));
        expect_round_trip(sample(rng, n, 127 - span, span, step));
        expect_round_trip(sample(rng, n, -span / 2, span, step));
      }
}

TEST(PackedBlock, TheExtremesOfInt8) {
  std::vector<std::int8_t> v(600);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::int8_t(i % 2 ? 127 : -128);
  expect_round_trip(v);
  const std::vector<std::uint8_t> coded = packed::encode(v.data(), v.size());
  EXPECT_EQ(coded.size(), 4u * 3 + 3 * 256) << "-128 and 127 (odd distance, range 255) take 8 bits a value";
}

TEST(PackedBlock, ARunOfEqualValuesTakesNoData) {
  const std::vector<std::int8_t> v(4096, -3);
  const std::vector<std::uint8_t> coded = packed::encode(v.data(), v.size());
  EXPECT_EQ(coded.size(), 4u * 16);
  expect_round_trip(v);
}

TEST(PackedBlock, ValuesOfOneParityAreHalved) {
  std::mt19937 rng(3);
  const std::vector<std::int8_t> even = sample(rng, 640, -20, 40, 2), any = sample(rng, 640, -20, 40, 1);
  EXPECT_LT(packed::encode(even.data(), even.size()).size(), packed::encode(any.data(), any.size()).size());
}

class PackedForgery : public testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(11);
    values = sample(rng, 1000, -10, 20, 1);  // 4 runs
    coded = packed::encode(values.data(), values.size());
    out.assign(values.size(), 0);
  }
  bool decodes(const std::vector<std::uint8_t>& b) { return packed::decode(b.data(), b.size(), values.size(), out.data()); }
  void set_entry(std::vector<std::uint8_t>& b, std::size_t run, std::uint32_t e) {
    for (int i = 0; i < 4; ++i) b[4 * run + std::size_t(i)] = std::uint8_t(e >> (8 * i));
  }
  std::uint32_t entry(std::size_t run) const {
    return std::uint32_t(coded[4 * run]) | std::uint32_t(coded[4 * run + 1]) << 8 | std::uint32_t(coded[4 * run + 2]) << 16 |
           std::uint32_t(coded[4 * run + 3]) << 24;
  }
  std::vector<std::int8_t> values, out;
  std::vector<std::uint8_t> coded;
};

TEST_F(PackedForgery, TheSoundBlockDecodes) { EXPECT_TRUE(decodes(coded)); }

TEST_F(PackedForgery, ShortOrLongIsRefused) {
  for (const std::size_t cut : {std::size_t(1), coded.size() - 4 * 4 + 1, coded.size()}) {
    std::vector<std::uint8_t> b(coded.begin(), coded.end() - std::ptrdiff_t(cut));
    EXPECT_FALSE(decodes(b)) << cut;
  }
  std::vector<std::uint8_t> longer = coded;
  longer.push_back(0);
  EXPECT_FALSE(decodes(longer));
}

TEST_F(PackedForgery, ReservedBitIsRefused) {
  std::vector<std::uint8_t> b = coded;
  set_entry(b, 2, entry(2) | 0x80000000u);
  EXPECT_FALSE(decodes(b));
}

TEST_F(PackedForgery, EndsOutOfOrderOrTooWideAreRefused) {
  std::vector<std::uint8_t> b = coded;
  set_entry(b, 0, (entry(0) & ~0x3fffffu) | ((entry(1) & 0x3fffff) + 1));  // run 0 ends after run 1
  EXPECT_FALSE(decodes(b));
  // A run 9 units wide, with the bytes to match: too wide all the same.
  const std::size_t n = packed::kRun;
  std::vector<std::int8_t> one(n, 0);
  std::vector<std::uint8_t> wide = packed::encode(one.data(), one.size());
  wide[0] = 9;
  wide.resize(4 + 9 * packed::kUnitBytes, 0);
  std::vector<std::int8_t> got(n);
  EXPECT_FALSE(packed::decode(wide.data(), wide.size(), n, got.data()));
}

TEST_F(PackedForgery, AValueAboveInt8IsRefused) {
  // One run of width 8 from base 127: offsets up to 255 would give 382.
  const std::size_t n = packed::kRun;
  std::vector<std::uint8_t> b(4 + 8 * packed::kUnitBytes, 0xff);
  const std::uint32_t e = 8u | std::uint32_t(127) << 22;
  for (int i = 0; i < 4; ++i) b[std::size_t(i)] = std::uint8_t(e >> (8 * i));
  std::vector<std::int8_t> got(n);
  EXPECT_FALSE(packed::decode(b.data(), b.size(), n, got.data()));
  // A run of 127s is coded as no width from base 127, and decodes.
  const std::vector<std::int8_t> top(n, 127);
  const std::vector<std::uint8_t> coded127 = packed::encode(top.data(), n);
  ASSERT_EQ(coded127.size(), 4u);
  ASSERT_TRUE(packed::decode(coded127.data(), coded127.size(), n, got.data()));
  EXPECT_EQ(got, top);
}

// Bytes that decode to the coded values but are not the encoder's (a lower
// base, a wider run, an unhalved run of even offsets, a set padding bit, a
// halving flag on a run of no width) would let a changed byte pass the
// block's hash, which is of the values: they are refused.
TEST(PackedBlock, OnlyTheEncodersBytesDecode) {
  auto run_of = [](std::uint32_t e, const std::vector<std::uint8_t>& bits) {
    std::vector<std::uint8_t> b(4 + bits.size(), 0);
    for (int i = 0; i < 4; ++i) b[std::size_t(i)] = std::uint8_t(e >> (8 * i));
    for (std::size_t i = 0; i < bits.size(); ++i) b[4 + i] = bits[i];
    return b;
  };
  const std::size_t n = 100;  // one run, shorter than kRun: 156 values of padding
  std::vector<std::int8_t> got(n);
  auto decodes = [&](const std::vector<std::uint8_t>& b) { return packed::decode(b.data(), b.size(), n, got.data()); };
  const auto entry = [](unsigned end, int base, bool halved) {
    return std::uint32_t(end) | std::uint32_t(std::uint8_t(std::int8_t(base))) << 22 | std::uint32_t(halved) << 30;
  };
  // Values 5 and 6 alternating: width 1 from base 5.
  std::vector<std::uint8_t> bits(packed::kUnitBytes, 0);
  for (std::size_t i = 1; i < n; i += 2) bits[i / 8] |= std::uint8_t(1u << (i % 8));
  ASSERT_TRUE(decodes(run_of(entry(1, 5, false), bits)));
  std::vector<std::int8_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = std::int8_t(5 + int(i % 2));
  EXPECT_EQ(got, want);
  EXPECT_EQ(packed::encode(want.data(), n), run_of(entry(1, 5, false), bits));
  // A padding bit set.
  std::vector<std::uint8_t> padded = bits;
  padded[n / 8 + 1] |= 0x10;
  EXPECT_FALSE(decodes(run_of(entry(1, 5, false), padded)));
  // The same values from base 4 in 2 bits (offsets 1 and 2).
  std::vector<std::uint8_t> wide(2 * packed::kUnitBytes, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned x = 1 + unsigned(i % 2);
    wide[(2 * i) / 8] |= std::uint8_t(x << ((2 * i) % 8));
  }
  EXPECT_FALSE(decodes(run_of(entry(2, 4, false), wide)));
  // The same values from base 5 in 2 bits (offsets 0 and 1: wider than needed).
  std::vector<std::uint8_t> loose(2 * packed::kUnitBytes, 0);
  for (std::size_t i = 1; i < n; i += 2) loose[(2 * i) / 8] |= std::uint8_t(1u << ((2 * i) % 8));
  EXPECT_FALSE(decodes(run_of(entry(2, 5, false), loose)));
  // Values 5 and 7 stored unhalved (offsets 0 and 2 in 2 bits), where the
  // encoder halves them (offsets 0 and 1 in 1 bit).
  std::vector<std::uint8_t> even(2 * packed::kUnitBytes, 0);
  for (std::size_t i = 1; i < n; i += 2) even[(2 * i) / 8] |= std::uint8_t(2u << ((2 * i) % 8));
  EXPECT_FALSE(decodes(run_of(entry(2, 5, false), even)));
  EXPECT_TRUE(decodes(run_of(entry(1, 5, true), bits)));
  // A run of equal values with the halving flag.
  EXPECT_TRUE(decodes(run_of(entry(0, 5, false), {})));
  EXPECT_FALSE(decodes(run_of(entry(0, 5, true), {})));
}

}  // namespace
}  // namespace mancala::tables
