#include "packed_block.hpp"

#include <algorithm>

namespace mancala::tables::packed {

namespace {

std::uint32_t read_entry(const std::uint8_t* e) {
  return std::uint32_t(e[0]) | std::uint32_t(e[1]) << 8 | std::uint32_t(e[2]) << 16 | std::uint32_t(e[3]) << 24;
}

}  // namespace

std::vector<std::uint8_t> encode(const std::int8_t* v, std::size_t n) {
  const std::size_t runs = runs_of(n);
  std::vector<std::uint8_t> out(4 * runs, 0);
  std::uint32_t end = 0;  // in units of kUnitBytes
  for (std::size_t r = 0; r < runs; ++r) {
    const std::size_t first = r * kRun, last = std::min(n, first + kRun);
    int lo = 127, hi = -128;
    for (std::size_t i = first; i < last; ++i) lo = std::min(lo, int(v[i])), hi = std::max(hi, int(v[i]));
    bool halved = hi > lo;
    for (std::size_t i = first; i < last && halved; ++i) halved = ((int(v[i]) - lo) & 1) == 0;
    const unsigned range = unsigned(hi - lo) >> (halved ? 1 : 0);
    unsigned w = 0;
    while (w < 8 && (1u << w) <= range) ++w;
    const std::size_t data_at = out.size();
    out.resize(out.size() + kUnitBytes * w, 0);
    for (std::size_t i = first; i < last && w; ++i) {
      const unsigned x = unsigned(int(v[i]) - lo) >> (halved ? 1 : 0);
      const std::size_t bit = (i - first) * w;
      out[data_at + bit / 8] |= std::uint8_t(x << (bit & 7));
      if ((bit & 7) + w > 8) out[data_at + bit / 8 + 1] |= std::uint8_t(x >> (8 - (bit & 7)));
    }
    end += w;
    const std::uint32_t e = end | std::uint32_t(std::uint8_t(std::int8_t(lo))) << 22 | std::uint32_t(halved) << 30;
    for (int b = 0; b < 4; ++b) out[4 * r + std::size_t(b)] = std::uint8_t(e >> (8 * b));
  }
  return out;
}

bool decode(const std::uint8_t* data, std::size_t bytes, std::size_t n, std::int8_t* out) {
  const std::size_t runs = runs_of(n);
  if (bytes < 4 * runs) return false;
  std::uint32_t begin = 0;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::uint32_t e = read_entry(data + 4 * r);
    if (e >> 31) return false;
    const std::uint32_t end = e & 0x3fffff;
    if (end < begin || end - begin > 8) return false;
    begin = end;
  }
  if (bytes != 4 * runs + kUnitBytes * std::size_t(begin)) return false;
  // Only the encoder's own bytes are accepted, so that no change of a byte
  // leaves the values (and so the block's hash) as they were: each run's
  // base is its minimum, its width the least that holds its range, its
  // halving flag set exactly when every offset is even and the width is not
  // 0, and the bits past its last value zero.
  begin = 0;
  const std::uint8_t* words = data + 4 * runs;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::uint32_t e = read_entry(data + 4 * r);
    const std::uint32_t end = e & 0x3fffff;
    const unsigned w = end - begin;
    const bool halved = (e >> 30) & 1;
    const std::size_t first = r * kRun, last = std::min(n, first + kRun);
    const int base = int(std::int8_t(std::uint8_t(e >> 22)));
    unsigned lo = ~0u, hi = 0;
    bool all_even = true;
    for (std::size_t i = first; i < last; ++i) {
      const int v = value(data, n, i);
      // The offset is below 2^w, so only base + offset can leave int8 (the
      // halved offset of width 8 reaches 510).
      if (v > 127) return false;
      const unsigned stored = unsigned(v - base) >> (halved ? 1 : 0);
      lo = std::min(lo, stored), hi = std::max(hi, stored);
      all_even = all_even && (stored & 1) == 0;
      out[i] = std::int8_t(v);
    }
    if (lo != 0) return false;                                   // the base is the minimum
    if (w == 0 ? halved : (hi >> (w - 1)) == 0) return false;    // the least width
    if (!halved && w > 0 && all_even) return false;              // halved when it could be
    const std::uint8_t* run = words + kUnitBytes * std::size_t(begin);
    for (std::size_t bit = (last - first) * w; bit < kRun * w; ++bit)  // the padding
      if ((run[bit / 8] >> (bit % 8)) & 1) return false;
    begin = end;
  }
  return true;
}

}  // namespace mancala::tables::packed
