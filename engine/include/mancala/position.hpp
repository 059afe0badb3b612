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
#include <bit>
#include <cstdint>
#include <cstring>
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
  [[gnu::always_inline]] int board_seeds() const { return mover_row_sum() + opponent_row_sum(); }
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

// Word-at-a-time access to the rows.  A row is at most 16 bytes, and every
// row starts at most 16 bytes before the end of `pits` (32 bytes), so two
// 8-byte loads from a row's first pit stay inside the array; the bytes past
// the row are masked off.  The sums rely on the engine's limit of kMaxSeeds
// (255) seeds in a position: no byte sum carries, so one multiplication adds
// eight bytes.  The search calls these several times a child (row sums,
// emptiness, legal moves); byte loops were a fifth of its instructions
// (results/README.md, "search_cost.csv").  Always inlined: called out of
// line, they lose the board width the search's callers know at compile time.
namespace row_words {

// Eight bytes from `at` as a word, the byte at `at` lowest.
[[gnu::always_inline]] inline std::uint64_t load(const std::uint8_t* at) {
  std::uint64_t w;
  std::memcpy(&w, at, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

[[gnu::always_inline]] inline void store(std::uint8_t* at, std::uint64_t w) {
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  std::memcpy(at, &w, sizeof w);
}

// Sixteen bytes from `at`, `low` the first eight, in one store (GCC's
// vector type: a 16-byte move on x86-64), so that a later load of any eight
// of them is forwarded from it (see detail::kalah_play_in_words).
[[gnu::always_inline]] inline void store16(std::uint8_t* at, std::uint64_t low, std::uint64_t high) {
  if constexpr (std::endian::native == std::endian::big) {
    low = __builtin_bswap64(low);
    high = __builtin_bswap64(high);
  }
  typedef std::uint64_t Pair __attribute__((vector_size(16)));
  const Pair pair = {low, high};
  std::memcpy(at, &pair, sizeof pair);
}

// The low min(n, 8) bytes of a word, 0 <= n <= 16.  A table: where the
// width is only known at run time (a move's sowing stores pits, which may
// alias the width for all the compiler knows), one load is the cheapest mask.
inline constexpr std::uint64_t kFirstBytes[17] = {
    0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff,
    ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0),
    ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0)};
[[gnu::always_inline]] inline std::uint64_t first_bytes(int n) { return kFirstBytes[n]; }

// Sum of the n <= 16 bytes from `at` (16 readable bytes), if it is below 256.
[[gnu::always_inline]] inline int sum(const std::uint8_t* at, int n) {
  std::uint64_t w = load(at) & first_bytes(n);
  if (n > 8) w += load(at + 8) & first_bytes(n - 8);  // bytewise: no carry, the total is below 256
  return int((w * 0x0101010101010101ull) >> 56);
}

[[gnu::always_inline]] inline bool all_zero(const std::uint8_t* at, int n) {
  std::uint64_t w = load(at) & first_bytes(n);
  if (n > 8) w |= load(at + 8) & first_bytes(n - 8);
  return w == 0;
}

// Bit i set for each nonzero byte i of the word.
[[gnu::always_inline]] inline std::uint32_t nonzero_bytes(std::uint64_t w) {
  w |= w >> 4;
  w |= w >> 2;
  w |= w >> 1;
  w &= 0x0101010101010101ull;  // byte i's flag at bit 8i
  return std::uint32_t((w * 0x0102040810204080ull) >> 56);
}

// Bit i set for each nonzero byte among the n <= 16 bytes from `at`.
[[gnu::always_inline]] inline std::uint32_t nonzero(const std::uint8_t* at, int n) {
  std::uint32_t mask = nonzero_bytes(load(at) & first_bytes(n));
  if (n > 8) mask |= nonzero_bytes(load(at + 8) & first_bytes(n - 8)) << 8;
  return mask;
}

}  // namespace row_words

// The small accessors are inline: the engine, the solver and the table
// builders call them several times per move.
[[gnu::always_inline]] inline int Position::mover_row_sum() const { return row_words::sum(pits.data(), m()); }
[[gnu::always_inline]] inline int Position::opponent_row_sum() const { return row_words::sum(pits.data() + m(), m()); }
[[gnu::always_inline]] inline bool Position::mover_row_empty() const { return row_words::all_zero(pits.data(), m()); }
[[gnu::always_inline]] inline bool Position::opponent_row_empty() const { return row_words::all_zero(pits.data() + m(), m()); }
inline void Position::flip() {
  const int n = std::min(m(), kMaxPitsPerSide);
  if (n <= 8) {
    // Each row as one word: the second row's store writes zeros past 2n,
    // which are the unused tail's zeros anyway.
    const std::uint64_t mine = row_words::load(pits.data()) & row_words::first_bytes(n);
    const std::uint64_t theirs = row_words::load(pits.data() + n) & row_words::first_bytes(n);
    row_words::store(pits.data(), theirs);
    row_words::store(pits.data() + n, mine);
  } else {
    // A swap per pit: the copies of a run-time length went through libc's
    // memmove, 14% of a Kalah(6,15) table build's profile.
    for (int i = 0; i < n; ++i) std::swap(pits[std::size_t(i)], pits[std::size_t(i + n)]);
  }
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
