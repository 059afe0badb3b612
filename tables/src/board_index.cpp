#include "mancala/tables/board_index.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "mancala/error.hpp"

namespace mancala::tables {

BoardIndex::BoardIndex(int pits, int max_seeds) : pits_(pits), max_seeds_(max_seeds) {
  if (pits < 1 || max_seeds < 0) throw InputError("board index needs at least one pit and no negative seeds");
  if (pits > 2 * kMaxPitsPerSide || max_seeds > kMaxSeeds)
    throw InputError("board index holds at most " + std::to_string(kMaxSeeds) + " seeds over " + std::to_string(2 * kMaxPitsPerSide) + " pits");
  const int rows = max_seeds + pits + 1;
  columns_.assign(std::size_t(pits + 1) * kColumnSize, 0);
  auto at = [&](int n, int r) -> std::uint64_t& { return columns_[std::size_t(r) * kColumnSize + kGuard + std::size_t(n)]; };
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (int n = 0; n < rows; ++n) {
    at(n, 0) = 1;
    for (int r = 1; r <= std::min(n, pits); ++r) {
      const std::uint64_t a = at(n - 1, r - 1);
      const std::uint64_t b = r <= n - 1 ? at(n - 1, r) : 0;
      at(n, r) = (a > kMax - b) ? kMax : a + b;  // saturate
    }
  }
  // Every key must be below C(max_seeds + pits, pits), which must not saturate.
  if (binomial(max_seeds + pits, pits) == kMax)
    throw InputError("boards of " + std::to_string(pits) + " pits with up to " + std::to_string(max_seeds) +
                     " seeds are too many for a 64-bit index");
}

void BoardIndex::unrank(std::uint64_t rank, int seeds, std::uint8_t* board) const {
  // Greedy colex decoding: the largest s_j with C(s_j, j) <= remaining rank,
  // from j = P-1 down to 1.
  int hi = seeds + pits_ - 2;  // s_{P-1} <= k+P-2
  int next = seeds + pits_ - 1;
  for (int j = pits_ - 1; j >= 1; --j) {
    // s steps down from hi once for each seed of pit j.  Most pits hold few
    // seeds, so the first six steps are counted without a branch (C(s, j)
    // grows with s, and the column's guard holds zeros below s = 0), and
    // only a fuller pit takes the loop.  The loop alone ended after a
    // random 0, 1 or 2 steps, mispredicted at nearly every pit: unrank was
    // 16% of an Oware 15-seed build (results/README.md, "Unranking
    // without a branch a pit").
    const std::uint64_t* c = column(j);
    static_assert(kGuard >= 5);  // hi >= j - 1 >= 0, so the lowest read, hi - 5, is >= -5
    int s = hi;
    for (int d = 0; d < 6; ++d) s -= int(c[hi - d] > rank);
    if (s == hi - 6)
      while (c[s] > rank) --s;
    rank -= c[s];
    board[j] = std::uint8_t(next - s - 1);  // pit j+1 (0-based j) sits between bars j and j+1
    next = s;
    hi = s - 1;
  }
  board[0] = std::uint8_t(next);  // s_1 = c_1
}

}  // namespace mancala::tables
