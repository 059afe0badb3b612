// A mancala position, stored relative to the player to move.
//
// The engine keeps the board mover-relative: pits[0..m) is the mover's row in
// the mover's sowing order (pit 1 first, farthest from the mover's store) and
// pits[m..2m) is the opponent's row in the opponent's sowing order.  With this
// layout every ruleset sows "south to north" only, the opposite of pit i is
// always 2m-1-i, and the solver's key is simply the board as stored.  Changing
// the turn rotates the row halves; the absolute sides live only in `to_move`
// and in the notation.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace mancala {

// Largest board the engine handles: pits a side and seeds in total.  Every
// count (pit or store) is a uint8_t, so the whole position holds at most 255
// seeds; nothing can overflow while playing.
inline constexpr int kMaxPitsPerSide = 16;
inline constexpr int kMaxSeeds = 255;

enum class Side : std::uint8_t { South = 0, North = 1 };

constexpr Side other(Side s) { return s == Side::South ? Side::North : Side::South; }

// Bit i set = mover-relative pit i may be played (i is 0-based).
using MoveMask = std::uint32_t;

struct Position {
  std::uint8_t pits_per_side = 0;                    // m
  Side to_move = Side::South;
  std::array<std::uint8_t, 2 * kMaxPitsPerSide> pits{};  // mover-relative, unused tail is 0
  std::array<std::uint8_t, 2> store{};               // [0] mover's store, [1] opponent's
  std::uint32_t burnt = 0;                           // mover-relative mask of burnt holes (Congkak)

  int m() const { return pits_per_side; }
  int mover_row_sum() const;
  int opponent_row_sum() const;
  int board_seeds() const { return mover_row_sum() + opponent_row_sum(); }
  int total_seeds() const { return board_seeds() + store[0] + store[1]; }
  bool mover_row_empty() const;
  bool opponent_row_empty() const;

  // Hand the turn to the other player (rotates the mover-relative layout).
  void flip();

  // Every house is emptied into its owner's store (end of game or round).
  void sweep_rows();

  // Count in absolute terms: side's pit (1-based, in that side's sowing order).
  int seeds_at(Side side, int pit) const;
  bool burnt_at(Side side, int pit) const;
  int store_of(Side side) const { return side == to_move ? store[0] : store[1]; }

  // Store difference, player to move minus opponent.
  int store_difference() const { return int(store[0]) - int(store[1]); }

  friend bool operator==(const Position&, const Position&) = default;
};

// The small accessors are inline: the engine, the solver and the table
// builders call them several times per move.
inline int Position::mover_row_sum() const {
  int s = 0;
  for (int i = 0; i < m(); ++i) s += pits[std::size_t(i)];
  return s;
}
inline int Position::opponent_row_sum() const {
  int s = 0;
  for (int i = m(); i < 2 * m(); ++i) s += pits[std::size_t(i)];
  return s;
}
inline bool Position::mover_row_empty() const {
  for (int i = 0; i < m(); ++i)
    if (pits[std::size_t(i)]) return false;
  return true;
}
inline bool Position::opponent_row_empty() const {
  for (int i = m(); i < 2 * m(); ++i)
    if (pits[std::size_t(i)]) return false;
  return true;
}
inline void Position::flip() {
  // A swap per pit: the copies of a run-time length went through libc's
  // memmove, 14% of a Kalah(6,15) table build's profile.  The bound tells GCC
  // that n <= 16 (its vectorized copies for larger n are what
  // -Wstringop-overflow warns of with -march=native).
  const std::size_t n = std::min(std::size_t(m()), std::size_t(kMaxPitsPerSide));
  for (std::size_t i = 0; i < n; ++i) std::swap(pits[i], pits[i + n]);
  std::swap(store[0], store[1]);
  if (burnt) {
    const std::uint32_t low = (1u << n) - 1;
    burnt = ((burnt >> n) & low) | ((burnt & low) << n);
  }
  to_move = other(to_move);
}

// The start position of a board: m pits a side, n seeds in each, South to move.
Position start_position(int pits_per_side, int seeds_per_pit);

}  // namespace mancala
