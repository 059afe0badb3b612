// Codec "packed" (format version 2, codec 2): a block of values stored so
// that any one of them is read in place, without decoding the block.
//
// The block's n values are cut into runs of 256 (the last one shorter).  A
// run whose values lie in [base, base + 2^w) is stored as 256 w-bit offsets
// from its base (32w bytes: a run's data is always whole 32-byte units), and
// when every value of the run has the base's parity (a Kalah level's values
// all have the parity of its seeds) as the halved offsets, one bit fewer.
//
//   4 bytes a run, little-endian:   bits 0..21   where the run's data ends,
//                                                in 32-byte units from the
//                                                start of the data
//                                   bits 22..29  base (int8)
//                                   bit  30      offsets halved
//                                   bit  31      0
//   then the runs' data, back to back: offset i of a run is the w bits at
//   bit i*w of its data, least significant bit first.
//
// A run's width is the difference of its end and the previous run's
// (w <= 8), so a value costs two neighbouring entries and the bytes that
// hold it.  Why not zstd for this: a probe of a zstd block decodes the block
// (16 us for 4096 values), a packed value is two memory reads.  Why runs of
// 256: the run tables (1/8 bit a value: 1.3 MB for the 85 M values of Kalah
// 6-pit level 20) stay in the cache of a prober, so that a probe misses
// once, on its data, as a raw one does; runs of 64 took 0.3 bits a value
// less (3.89 bits against 4.10 at that level, without the tables) but their
// tables, four times as large, missed as well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mancala::tables::packed {

inline constexpr std::size_t kRun = 256;
inline constexpr std::size_t kUnitBytes = kRun / 8;  // a run's data for each bit of width

inline std::size_t runs_of(std::size_t n) { return (n + kRun - 1) / kRun; }

// The block of values v[0..n) coded.
std::vector<std::uint8_t> encode(const std::int8_t* v, std::size_t n);

// Decodes a block of n values stored in `bytes` bytes at `data` into out;
// false if the bytes are not such a block (bounds, order, widths, sizes and
// every value's range are checked: a forged block cannot make it read past
// `bytes` or yield a value out of range).
bool decode(const std::uint8_t* data, std::size_t bytes, std::size_t n, std::int8_t* out);

// Value i of a block of n values that decode() accepted.
inline int value(const std::uint8_t* data, std::size_t n, std::size_t i) {
  const std::size_t run = i / kRun;
  auto entry = [&](std::size_t r) {
    const std::uint8_t* e = data + 4 * r;
    return std::uint32_t(e[0]) | std::uint32_t(e[1]) << 8 | std::uint32_t(e[2]) << 16 | std::uint32_t(e[3]) << 24;
  };
  const std::uint32_t e = entry(run);
  const std::uint32_t begin = run == 0 ? 0 : entry(run - 1) & 0x3fffff;
  const unsigned w = (e & 0x3fffff) - begin;
  const int base = int(std::int8_t(std::uint8_t(e >> 22)));
  if (w == 0) return base;
  const std::uint8_t* words = data + 4 * runs_of(n) + kUnitBytes * std::size_t(begin);
  const std::size_t bit = (i % kRun) * w;
  const std::uint8_t* at = words + bit / 8;
  unsigned x = at[0];
  if ((bit & 7) + w > 8) x |= unsigned(at[1]) << 8;  // within the run: 256w bits end on a byte
  x = (x >> (bit & 7)) & ((1u << w) - 1);
  return base + int(x << ((e >> 30) & 1));
}

}  // namespace mancala::tables::packed
