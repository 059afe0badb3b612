// The positions of an acyclic level (Kalah, BrainKing, Congkak) grouped by
// the potential Phi of DESIGN.md section 4:
//     Phi = sum over i = 1..m of i * (mover's house i + opponent's house i),
// houses numbered in their owner's sowing order.  Phi strictly increases
// along every move that keeps all seeds on the board, so the in-level
// successors of a position all lie in buckets of larger Phi: processing the
// buckets from the largest Phi down, every in-level successor is known
// before it is needed, and the positions of one bucket are independent of
// each other (they can be split between threads or processes at will).
//
// A slice's ranks are stored as offsets from its first rank: 4 bytes a
// position while the slice has fewer than 2^32 positions, 8 beyond (a 6-pit
// level of 32 seeds or more on one process).  The two layouts give
// the same order.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/position.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

// Phi of a mover-relative board of 2m pits.
inline int potential(const std::uint8_t* board, int m) {
  int phi = 0;
  for (int i = 0; i < m; ++i) phi += (i + 1) * (board[i] + board[i + m]);
  return phi;
}

class PhiBuckets {
 public:
  static constexpr std::uint64_t kNarrowBelow = std::uint64_t(1) << 32;

  // Every rank of level k, sorted by (Phi, rank): a counting sort over
  // fixed chunks, so the order never depends on the number of threads.
  PhiBuckets(const BoardIndex& index, int m, int k) : PhiBuckets(index, m, k, 0, index.level_size(k)) {}
  // The same for the ranks [first, last) of level k only (one process's
  // slice).  narrow_below is for tests of the 8-byte layout on small levels.
  PhiBuckets(const BoardIndex& index, int m, int k, std::uint64_t first, std::uint64_t last,
             std::uint64_t narrow_below = kNarrowBelow)
      : PhiBuckets(index, m, k, first, last, [](std::uint64_t) { return true; }, narrow_below) {}
  // Only the ranks r of [first, last) for which keep(r) holds (called from
  // several threads, twice a rank): a distributed build orders by Phi only
  // the positions that have moves within the level (acyclic_slice.hpp).
  template <class Keep>
    requires std::predicate<const Keep&, std::uint64_t>
  PhiBuckets(const BoardIndex& index, int m, int k, std::uint64_t first, std::uint64_t last, const Keep& keep,
             std::uint64_t narrow_below = kNarrowBelow)
      : max_phi_(k * m), first_(first), offsets_(std::size_t(k * m) + 2, 0) {
    if (first > last || last > index.level_size(k)) throw std::logic_error("PhiBuckets: bad range");
    if (last - first < narrow_below)
      sort_by_phi(index, m, k, last, keep, narrow_);
    else
      sort_by_phi(index, m, k, last, keep, wide_);
  }

  int max_phi() const { return max_phi_; }
  std::uint64_t bucket_size(int phi) const { return offsets_[std::size_t(phi) + 1] - offsets_[std::size_t(phi)]; }
  // Ranks [from, from + count) of the bucket of potential phi (increasing
  // ranks), into out.
  void ranks(int phi, std::uint64_t from, std::uint64_t count, std::vector<std::uint64_t>& out) const {
    if (from > bucket_size(phi) || count > bucket_size(phi) - from) throw std::logic_error("PhiBuckets: beyond the bucket");
    out.resize(count);
    const std::uint64_t at = offsets_[std::size_t(phi)] + from;
    if (wide())
      for (std::uint64_t i = 0; i < count; ++i) out[i] = first_ + wide_[at + i];
    else
      for (std::uint64_t i = 0; i < count; ++i) out[i] = first_ + narrow_[at + i];
  }
  // The whole bucket.
  std::vector<std::uint64_t> bucket(int phi) const {
    std::vector<std::uint64_t> out;
    ranks(phi, 0, bucket_size(phi), out);
    return out;
  }
  // Bytes a position of the slice the order takes: 4, or 8 for a slice of
  // narrow_below positions or more.
  int bytes_per_position() const { return wide() ? 8 : 4; }

 private:
  bool wide() const { return !wide_.empty(); }

  template <class Keep, class Offset>
  void sort_by_phi(const BoardIndex& index, int m, int k, std::uint64_t last, const Keep& keep, std::vector<Offset>& order) {
    const std::uint64_t first = first_, size = last - first;
    const std::size_t buckets = std::size_t(max_phi_) + 1;
    const std::size_t chunks = std::size_t(std::min<std::uint64_t>(256, std::max<std::uint64_t>(1, size / 4096)));
    // chunks <= 256 and size < 2^56 (a level's rank fits in a value key): no overflow
    auto chunk_begin = [&](std::size_t c) { return first + size * c / chunks; };
    auto for_chunk = [&](std::size_t c, auto&& f) {
      std::array<std::uint8_t, 2 * kMaxPitsPerSide> board{};
      const std::uint64_t lo = chunk_begin(c), hi = chunk_begin(c + 1);
      if (lo == hi) return;
      index.unrank(lo, k, board.data());
      for (std::uint64_t rank = lo; rank != hi; ++rank, index.next(board.data()))
        if (keep(rank)) f(rank, potential(board.data(), m));
    };
    std::vector<std::uint64_t> count(chunks * buckets, 0);  // [chunk][phi]
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      for_chunk(c, [&](std::uint64_t, int phi) { ++count[c * buckets + std::size_t(phi)]; });
    });
    // Exclusive prefix sums, Phi major, chunk minor: where each chunk's
    // ranks of each bucket go.
    std::uint64_t at = 0;
    for (std::size_t phi = 0; phi < buckets; ++phi) {
      offsets_[phi] = at;
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::uint64_t n = count[c * buckets + phi];
        count[c * buckets + phi] = at;
        at += n;
      }
    }
    offsets_[buckets] = at;
    order.resize(at);
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      for_chunk(c, [&](std::uint64_t rank, int phi) { order[count[c * buckets + std::size_t(phi)]++] = Offset(rank - first); });
    });
  }

  int max_phi_;
  std::uint64_t first_;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::uint32_t> narrow_;  // rank - first, when the slice is narrow
  std::vector<std::uint64_t> wide_;    // rank - first, otherwise
};

}  // namespace mancala::tables
