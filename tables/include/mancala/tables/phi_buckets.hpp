// The positions of an acyclic level (Kalah, BrainKing, Congkak) grouped by
// the potential Phi of DESIGN.md section 4:
//     Phi = sum over i = 1..m of i * (mover's house i + opponent's house i),
// houses numbered in their owner's sowing order.  Phi strictly increases
// along every move that keeps all seeds on the board, so the in-level
// successors of a position all lie in buckets of larger Phi: processing the
// buckets from the largest Phi down, every in-level successor is known
// before it is needed, and the positions of one bucket are independent of
// each other (they can be split between threads or processes at will).
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
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
  // Every rank of level k, sorted by (Phi, rank): a counting sort over
  // fixed chunks, so the order never depends on the number of threads.
  PhiBuckets(const BoardIndex& index, int m, int k) : PhiBuckets(index, m, k, 0, index.level_size(k)) {}
  // The same for the ranks [lo, hi) of level k only (one process's slice).
  PhiBuckets(const BoardIndex& index, int m, int k, std::uint64_t first, std::uint64_t last)
      : max_phi_(k * m), offsets_(std::size_t(k * m) + 2, 0) {
    require_32_bit_level(k, index.level_size(k));
    if (first > last || last > index.level_size(k)) throw std::logic_error("PhiBuckets: bad range");
    const std::uint64_t size = last - first;
    const std::size_t buckets = std::size_t(max_phi_) + 1;
    const std::size_t chunks = std::size_t(std::min<std::uint64_t>(256, std::max<std::uint64_t>(1, size / 4096)));
    // size < 2^32 and chunks <= 256: no overflow
    auto chunk_begin = [&](std::size_t c) { return first + size * c / chunks; };
    auto for_chunk = [&](std::size_t c, auto&& f) {
      std::array<std::uint8_t, 2 * kMaxPitsPerSide> board{};
      const std::uint64_t lo = chunk_begin(c), hi = chunk_begin(c + 1);
      if (lo == hi) return;
      index.unrank(lo, k, board.data());
      for (std::uint64_t rank = lo; rank != hi; ++rank, index.next(board.data())) f(rank, potential(board.data(), m));
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
    order_.resize(size);
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      for_chunk(c, [&](std::uint64_t rank, int phi) { order_[count[c * buckets + std::size_t(phi)]++] = std::uint32_t(rank); });
    });
  }

  int max_phi() const { return max_phi_; }
  // The ranks with potential phi, increasing.
  std::span<const std::uint32_t> bucket(int phi) const {
    return {order_.data() + offsets_[std::size_t(phi)], order_.data() + offsets_[std::size_t(phi) + 1]};
  }

 private:
  int max_phi_;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::uint32_t> order_;
};

}  // namespace mancala::tables
