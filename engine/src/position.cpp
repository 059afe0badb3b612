#include "mancala/position.hpp"

#include <algorithm>
#include <cstring>

#include "mancala/error.hpp"

namespace mancala {

void Position::sweep_rows() {
  const int n = m();
  store[0] = std::uint8_t(store[0] + mover_row_sum());
  store[1] = std::uint8_t(store[1] + opponent_row_sum());
  std::fill(pits.begin(), pits.begin() + 2 * n, std::uint8_t{0});
}

namespace {
int relative_index(const Position& p, Side side, int pit) {
  if (pit < 1 || pit > p.m()) throw InputError("pit " + std::to_string(pit) + " is out of range 1.." + std::to_string(p.m()));
  return (side == p.to_move ? 0 : p.m()) + pit - 1;
}
}  // namespace

int Position::seeds_at(Side side, int pit) const { return pits[relative_index(*this, side, pit)]; }

bool Position::burnt_at(Side side, int pit) const { return (burnt >> relative_index(*this, side, pit)) & 1u; }

Position start_position(int pits_per_side, int seeds_per_pit) {
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide) + ", got " +
                     std::to_string(pits_per_side));
  if (seeds_per_pit < 0) throw InputError("seeds per pit must not be negative, got " + std::to_string(seeds_per_pit));
  if (2L * pits_per_side * seeds_per_pit > kMaxSeeds)
    throw InputError("a board of " + std::to_string(pits_per_side) + "x" + std::to_string(seeds_per_pit) + " holds " +
                     std::to_string(2L * pits_per_side * seeds_per_pit) + " seeds, more than the engine's limit of " +
                     std::to_string(kMaxSeeds));
  Position p;
  p.pits_per_side = std::uint8_t(pits_per_side);
  std::fill(p.pits.begin(), p.pits.begin() + 2 * pits_per_side, std::uint8_t(seeds_per_pit));
  return p;
}

}  // namespace mancala
