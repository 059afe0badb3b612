#include "mancala/tables/board_index.hpp"

#include <limits>
#include <string>

#include "mancala/error.hpp"

namespace mancala::tables {

BoardIndex::BoardIndex(int pits, int max_seeds) : pits_(pits), max_seeds_(max_seeds), stride_(std::size_t(pits) + 1) {
  if (pits < 1 || max_seeds < 0) throw InputError("board index needs at least one pit and no negative seeds");
  const int rows = max_seeds + pits + 1;
  binom_.assign(std::size_t(rows) * stride_, 0);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (int n = 0; n < rows; ++n) {
    binom_[std::size_t(n) * stride_] = 1;
    for (int r = 1; r <= std::min(n, pits); ++r) {
      const std::uint64_t a = binom_[std::size_t(n - 1) * stride_ + std::size_t(r - 1)];
      const std::uint64_t b = r <= n - 1 ? binom_[std::size_t(n - 1) * stride_ + std::size_t(r)] : 0;
      binom_[std::size_t(n) * stride_ + std::size_t(r)] = (a > kMax - b) ? kMax : a + b;  // saturate
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
    int s = hi;
    while (binomial(s, j) > rank) --s;
    rank -= binomial(s, j);
    board[j] = std::uint8_t(next - s - 1);  // pit j+1 (0-based j) sits between bars j and j+1
    next = s;
    hi = s - 1;
  }
  board[0] = std::uint8_t(next);  // s_1 = c_1
}

}  // namespace mancala::tables
