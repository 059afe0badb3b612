// PageBuffer (tables/include/mancala/tables/page_buffer.hpp): the pages
// released read as zero and leave the process's memory; the elements
// around them, on pages only partly inside the range, keep their values.
#include "mancala/tables/page_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace mancala::tables {
namespace {

// RssAnon of this process, in KiB (-1 when /proc cannot tell).
long anonymous_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("RssAnon:", 0) == 0) return std::stol(line.substr(8));
  return -1;
}

TEST(PageBuffer, StartsZeroed) {
  PageBuffer<std::uint16_t> b(100000);
  ASSERT_EQ(b.size(), 100000u);
  for (std::size_t i = 0; i < b.size(); i += 997) EXPECT_EQ(b[i], 0);
}

TEST(PageBuffer, ReleasedPagesReadZeroAndTheirNeighboursKeepTheirValues) {
  const std::size_t n = std::size_t(1) << 22;  // 8 MiB of 2-byte cells
  PageBuffer<std::uint16_t> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::uint16_t(i | 1);
  const long before = anonymous_kib();
  const std::size_t first = 1001, last = n - 999;  // not on page boundaries
  b.release(first, last);
  const long after = anonymous_kib();
  // Whole pages inside [first, last) read zero; elements outside keep theirs.
  for (std::size_t i = 0; i < n; ++i) {
    const bool inside_whole_page = i >= (first + 2047) / 2048 * 2048 && i < last / 2048 * 2048;
    if (inside_whole_page) {
      ASSERT_EQ(b[i], 0) << i;
    } else if (i < first || i >= last) {
      ASSERT_EQ(b[i], std::uint16_t(i | 1)) << i;
    }
  }
  ASSERT_GT(before, 0) << "no RssAnon in /proc/self/status";
  EXPECT_LT(after, before - 6 * 1024) << "about 8 MiB given back";
}

TEST(PageBuffer, MovesOwnTheirPages) {
  PageBuffer<std::uint16_t> a(5000);
  a[4999] = 7;
  PageBuffer<std::uint16_t> b(std::move(a));
  EXPECT_EQ(b[4999], 7);
  EXPECT_EQ(a.data(), nullptr);
  PageBuffer<std::uint16_t> c;
  c = std::move(b);
  EXPECT_EQ(c[4999], 7);
  EXPECT_EQ(c.size(), 5000u);
}

}  // namespace
}  // namespace mancala::tables
