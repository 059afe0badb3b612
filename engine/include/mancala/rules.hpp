// The rulesets as compile-time policies.
//
// Each policy has the same static interface:
//   legal_moves(p)  -> MoveMask of mover-relative pits that may be played
//   is_terminal(p)  -> the game (or Congkak round) is over in p
//   play(p, i)      -> plays legal pit i (0-based) in place
// `dispatch(ruleset, f)` calls f with the policy object that matches a
// run-time Ruleset, so a command picks the variant once and every loop below
// it is compiled for that variant alone.
//
// Conventions shared by every policy:
//  * A move that ends the game empties every house into its owner's store
//    (sweep) and never earns an extra turn: the turn passes.
//  * The value of a terminal position with seeds left on the board (possible
//    for positions typed in by hand) is the same sweep: each row to its owner.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

struct MoveResult {
  bool extra_turn = false;  // the same player moves again
  bool game_over = false;   // the move ended the game (or the Congkak round)
};

namespace detail {

inline MoveMask nonempty_pits(const Position& p) { return row_words::nonzero(p.pits.data(), p.m()); }

// Where the last seed of a sowing came to rest.
inline constexpr int kMoverStore = -1;

// Kalah-style sowing of mover pit `pit`: own pits towards the store, the
// mover's store, the opponent's pits, never the opponent's store.  Whole laps
// are added in one pass.  Returns the pit index of the last seed, or
// kMoverStore.
inline int sow_through_store(Position& p, int pit) {
  const int m = p.m();
  int n = p.pits[pit];
  p.pits[pit] = 0;
  const int lap = 2 * m + 1;
  if (n >= lap) {
    const int q = n / lap;
    n -= q * lap;
    for (int i = 0; i < 2 * m; ++i) p.pits[i] = std::uint8_t(p.pits[i] + q);
    p.store[0] = std::uint8_t(p.store[0] + q);
    if (n == 0) return pit;  // the last lap ends in the origin pit
  }
  // n < lap: at most one pass over own pits, store, opponent pits, own pits.
  const int own_ahead = std::min(n, m - 1 - pit);
  for (int i = pit + 1; i <= pit + own_ahead; ++i) ++p.pits[i];
  n -= own_ahead;
  if (n == 0) return pit + own_ahead;
  ++p.store[0];
  if (--n == 0) return kMoverStore;
  const int theirs = std::min(n, m);
  for (int i = m; i < m + theirs; ++i) ++p.pits[i];
  n -= theirs;
  if (n == 0) return m + theirs - 1;
  for (int i = 0; i < n; ++i) ++p.pits[i];
  return n - 1;
}

inline int opposite(const Position& p, int pit) { return 2 * p.m() - 1 - pit; }

// Moves on boards of at most 8 pits a side, with each row in a word and the
// pits written back in one 16-byte store (Kalah's and BrainKing's).  Why:
// the byte-wise move's stores (each seed sown, the capture, the turn's flip
// writing two overlapping words) were read back as words at once by the row
// sums, the end-of-game test and the rank, and a load that needs bytes of
// several recent stores waits until they reach the cache (the store-to-load
// forwarding fails); a profile of the search put a third of the time it
// spends playing children on two such loads (results/README.md, "Kalah's
// move in two words").  A 16-byte store forwards to any load inside it.
// The same rules as the byte-wise moves below, which take wider boards; the
// engine oracle tests check both against the plain implementation of
// tests/oracle.
struct RowWords {
  static constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  int m;
  std::uint64_t mine, theirs;  // the mover's row and the opponent's, pit 0 lowest
  int store0, store1;          // the mover's store and the opponent's

  [[gnu::always_inline]] static RowWords load(const Position& p) {
    const int m = p.m();
    const std::uint64_t row = row_words::first_bytes(m);
    return {m, row_words::load(p.pits.data()) & row, row_words::load(p.pits.data() + m) & row, p.store[0], p.store[1]};
  }

  [[gnu::always_inline]] static int seeds_of(std::uint64_t row, int pit) { return int(row >> (8 * pit) & 0xff); }
  [[gnu::always_inline]] static void empty(std::uint64_t& row, int pit) { row &= ~(std::uint64_t(0xff) << (8 * pit)); }
  [[gnu::always_inline]] static int sum(std::uint64_t row) { return int((row * kOnes) >> 56); }

  // Kalah-style sowing of the mover's pit `pit`: own pits towards the store,
  // the mover's store, the opponent's pits, never the opponent's store (as
  // sow_through_store).  Returns the pit index of the last seed, or
  // kMoverStore.
  [[gnu::always_inline]] int sow_through_store(int pit) {
    const std::uint64_t row = row_words::first_bytes(m);
    int n = seeds_of(mine, pit);
    empty(mine, pit);
    const int lap = 2 * m + 1;
    if (n >= lap) {  // whole laps: every pit and the mover's store
      const int q = n / lap;
      n -= q * lap;
      mine += (kOnes & row) * std::uint64_t(q);
      theirs += (kOnes & row) * std::uint64_t(q);
      store0 += q;
    }
    int last = pit;  // n == 0 here only after whole laps: the last seed in the origin pit
    if (n > 0) {
      // n < lap: own pits ahead, the store, the opponent's pits, own pits.
      const int own_ahead = std::min(n, m - 1 - pit);
      if (own_ahead > 0) mine += (kOnes & row_words::first_bytes(own_ahead)) << (8 * (pit + 1));
      n -= own_ahead;
      last = pit + own_ahead;
      if (n > 0) {
        ++store0;
        last = kMoverStore;
        if (--n > 0) {
          const int t = std::min(n, m);
          theirs += kOnes & row_words::first_bytes(t);
          n -= t;
          last = m + t - 1;
          if (n > 0) {
            mine += kOnes & row_words::first_bytes(n);
            last = n - 1;
          }
        }
      }
    }
    return last;
  }

  // The end of a move, as finish(): a move that ends the game sweeps each
  // row into its owner's store and earns no extra turn; the turn passes
  // unless the mover moves again.  Writes the rows and stores back to p.
  [[gnu::always_inline]] MoveResult finish(Position& p, bool extra_turn, bool game_over) {
    if (game_over) {
      store0 += sum(mine);
      store1 += sum(theirs);
      mine = theirs = 0;
      extra_turn = false;
    }
    if (!extra_turn) {
      std::swap(mine, theirs);
      std::swap(store0, store1);
      p.to_move = other(p.to_move);
    }
    const std::uint64_t low = m == 8 ? mine : mine | theirs << (8 * m);
    const std::uint64_t high = m == 8 ? theirs : theirs >> (64 - 8 * m);
    row_words::store16(p.pits.data(), low, high);
    p.store[0] = std::uint8_t(store0);
    p.store[1] = std::uint8_t(store1);
    return {extra_turn, game_over};
  }
};

template <bool EmptyCapture>
[[gnu::always_inline]] inline MoveResult kalah_play_in_words(Position& p, int pit) {
  RowWords w = RowWords::load(p);
  const int last = w.sow_through_store(pit);
  if (last >= 0 && last < w.m && RowWords::seeds_of(w.mine, last) == 1) {
    const int o = w.m - 1 - last;  // the opposite house, in the opponent's row
    const int captured = RowWords::seeds_of(w.theirs, o);
    if (EmptyCapture || captured != 0) {
      w.store0 += captured + 1;
      RowWords::empty(w.theirs, o);
      RowWords::empty(w.mine, last);
    }
  }
  return w.finish(p, last == kMoverStore, w.mine == 0 || w.theirs == 0);
}

[[gnu::always_inline]] inline MoveResult brainking_play_in_words(Position& p, int pit) {
  RowWords w = RowWords::load(p);
  const int last = w.sow_through_store(pit);
  if (last >= 0 && last < w.m && RowWords::seeds_of(w.mine, last) == 1) {
    const int o = w.m - 1 - last;  // the opposite house; the capturing seed stays
    w.store0 += RowWords::seeds_of(w.theirs, o);
    RowWords::empty(w.theirs, o);
  }
  const bool extra = last == kMoverStore;
  return w.finish(p, extra, (extra ? w.mine : w.theirs) == 0);
}

// Oware's sowing and capture on words (as OwareRules::sow_and_capture, on
// boards of 2 to 8 pits a side), for the mover of `w`: true when the move
// was a grand slam.
template <GrandSlam G>
[[gnu::always_inline]] inline bool oware_sow_and_capture_in_words(RowWords& w, int pit) {
  constexpr std::uint64_t kOnes = RowWords::kOnes;
  const int m = w.m;
  int n = RowWords::seeds_of(w.mine, pit);
  RowWords::empty(w.mine, pit);
  const int lap = 2 * m - 1;  // every house but the origin
  const int q = n / lap;
  n -= q * lap;
  int last;  // the house of the last seed: 0..m-1 the mover's, m..2m-1 the opponent's
  if (q) {
    const std::uint64_t laps = (kOnes & row_words::first_bytes(m)) * std::uint64_t(q);
    w.mine += laps;
    w.theirs += laps;
    RowWords::empty(w.mine, pit);
  }
  if (n == 0) {  // after whole laps: the house before the origin
    last = pit == 0 ? 2 * m - 1 : pit - 1;
  } else {  // n < lap: own houses ahead, the opponent's, own houses before the origin
    const int own_ahead = std::min(n, m - 1 - pit);
    if (own_ahead > 0) w.mine += (kOnes & row_words::first_bytes(own_ahead)) << (8 * (pit + 1));
    n -= own_ahead;
    last = pit + own_ahead;
    if (n > 0) {
      const int t = std::min(n, m);
      w.theirs += kOnes & row_words::first_bytes(t);
      n -= t;
      last = m + t - 1;
      if (n > 0) {
        w.mine += kOnes & row_words::first_bytes(n);
        last = n - 1;
      }
    }
  }
  if (last < m) return false;
  const int j = last - m;
  // A house holding 2 or 3 seeds has (seeds ^ 2) & ~1 == 0; the bytes past
  // the row hold 0, so they stop a run too.
  const std::uint32_t stops = row_words::nonzero_bytes((w.theirs ^ (2 * kOnes)) & (0xfe * kOnes)) & ((2u << j) - 1);
  const int first = stops ? 31 - std::countl_zero(stops) : -1;  // the nearest stop at or behind the last house
  if (first == j) return false;
  const std::uint64_t run = row_words::first_bytes(j + 1) & ~row_words::first_bytes(first + 1);
  const int taken = RowWords::sum(w.theirs & run);
  const bool grand_slam = taken == RowWords::sum(w.theirs);
  if (grand_slam && G != GrandSlam::CaptureAll) return true;
  w.theirs &= ~run;
  w.store0 += taken;
  return grand_slam;
}

// Oware's move on words (as OwareRules::play, on boards of 2 to 8 pits a
// side): the game ends when the next mover has no seeds, or faces an empty
// row and cannot feed it.
template <GrandSlam G>
[[gnu::always_inline]] inline MoveResult oware_play_in_words(Position& p, int pit) {
  RowWords w = RowWords::load(p);
  oware_sow_and_capture_in_words<G>(w, pit);
  bool game_over = w.theirs == 0;
  if (!game_over && w.mine == 0) {
    game_over = true;
    for (int i = 0; i < w.m; ++i)
      if (RowWords::seeds_of(w.theirs, i) >= w.m - i) game_over = false;
  }
  return w.finish(p, false, game_over);
}

// Finish a move: game over -> sweep, and hand over the turn unless the mover
// earned an extra turn.
inline MoveResult finish(Position& p, bool extra_turn, bool game_over) {
  if (game_over) {
    p.sweep_rows();
    extra_turn = false;
  }
  if (!extra_turn) p.flip();
  return {extra_turn, game_over};
}

}  // namespace detail

// Kalah: capture on a last seed in an own empty house (standard: only when the
// opposite house holds seeds; EmptyCapture: always, even alone).  The game ends
// as soon as either row is empty after a move.
template <bool EmptyCapture>
struct KalahRules {
  static constexpr Game game = Game::Kalah;
  static Ruleset ruleset() { return Ruleset{.game = Game::Kalah, .empty_capture = EmptyCapture}; }

  static MoveMask legal_moves(const Position& p) { return is_terminal(p) ? 0 : detail::nonempty_pits(p); }
  static bool is_terminal(const Position& p) { return p.mover_row_empty() || p.opponent_row_empty(); }

  static MoveResult play(Position& p, int pit) {
    if (p.m() <= 8 && !p.burnt) return detail::kalah_play_in_words<EmptyCapture>(p, pit);
    const int last = detail::sow_through_store(p, pit);
    if (last >= 0 && last < p.m() && p.pits[last] == 1) {
      const int o = detail::opposite(p, last);
      if (EmptyCapture || p.pits[o] != 0) {
        p.store[0] = std::uint8_t(p.store[0] + p.pits[o] + 1);
        p.pits[o] = 0;
        p.pits[last] = 0;
      }
    }
    return detail::finish(p, last == detail::kMoverStore, is_terminal(p));
  }
};

// BrainKing "Mancala": Kalah sowing; a capture takes only the opposite house
// (the capturing seed stays); the game ends when the player to move has no
// seeds.
struct BrainKingRules {
  static constexpr Game game = Game::BrainKing;
  static Ruleset ruleset() { return Ruleset{.game = Game::BrainKing}; }

  static MoveMask legal_moves(const Position& p) { return detail::nonempty_pits(p); }
  static bool is_terminal(const Position& p) { return p.mover_row_empty(); }

  static MoveResult play(Position& p, int pit) {
    if (p.m() <= 8 && !p.burnt) return detail::brainking_play_in_words(p, pit);
    const int last = detail::sow_through_store(p, pit);
    if (last >= 0 && last < p.m() && p.pits[last] == 1) {
      const int o = detail::opposite(p, last);
      p.store[0] = std::uint8_t(p.store[0] + p.pits[o]);
      p.pits[o] = 0;
    }
    const bool extra = last == detail::kMoverStore;
    const bool next_mover_empty = extra ? p.mover_row_empty() : p.opponent_row_empty();
    return detail::finish(p, extra, next_mover_empty);
  }
};

// Oware (Abapa).  Sowing skips the origin house and both stores; the last seed
// making an opponent's house 2 or 3 captures it and the unbroken run of 2s and
// 3s behind it on the opponent's row.  A grand slam (taking every opponent
// seed) follows G.  A mover facing an empty row must feed it; a mover who has
// no legal move (no seeds, or cannot feed) ends the game and each row goes to
// its owner.  There are no extra turns.
template <GrandSlam G>
struct OwareRules {
  static constexpr Game game = Game::Oware;
  static Ruleset ruleset() { return Ruleset{.game = Game::Oware, .grand_slam = G}; }

  static MoveMask legal_moves(const Position& p) {
    MoveMask mask = detail::nonempty_pits(p);
    const int m = p.m();
    if (p.opponent_row_empty()) {
      for (int i = 0; i < m; ++i)
        if (p.pits[i] < m - i) mask &= ~(MoveMask(1) << i);
    }
    if constexpr (G == GrandSlam::Forbidden) {
      // Grand slams are illegal while another move exists; if every move is
      // one, they are played and capture nothing (see play()).
      MoveMask quiet = 0;
      for (MoveMask rest = mask; rest; rest &= rest - 1) {
        const int i = std::countr_zero(rest);
        if (words(p)) {
          detail::RowWords w = detail::RowWords::load(p);
          if (!detail::oware_sow_and_capture_in_words<G>(w, i)) quiet |= MoveMask(1) << i;
        } else {
          Position q = p;
          if (!sow_and_capture(q, i)) quiet |= MoveMask(1) << i;
        }
      }
      if (quiet) mask = quiet;
    }
    return mask;
  }

  static bool is_terminal(const Position& p) {
    if (p.mover_row_empty()) return true;
    if (!p.opponent_row_empty()) return false;
    for (int i = 0; i < p.m(); ++i)
      if (p.pits[i] >= p.m() - i) return false;
    return true;
  }

  static MoveResult play(Position& p, int pit) {
    if (words(p)) return detail::oware_play_in_words<G>(p, pit);
    sow_and_capture(p, pit);
    p.flip();
    if (is_terminal(p)) {
      p.sweep_rows();
      return {false, true};
    }
    return {false, false};
  }

  // The move on words covers boards of 2 to 8 pits a side (a 1-pit board's
  // only other house is the opponent's); Oware has no burnt holes.
  static bool words(const Position& p) { return p.m() >= 2 && p.m() <= 8 && !p.burnt; }

  // Sows and captures for the mover without handing over the turn.
  // Returns true when the move was a grand slam.
  static bool sow_and_capture(Position& p, int pit) {
    const int m = p.m();
    const int pits = 2 * m;
    int n = p.pits[pit];
    p.pits[pit] = 0;
    int last;
    if (m == 1) {  // the only other house is the opponent's
      p.pits[1] = std::uint8_t(p.pits[1] + n);
      last = 1;
    } else {
      const int lap = pits - 1;
      const int q = n / lap;
      const int r = n - q * lap;
      if (q) {
        for (int i = 0; i < pits; ++i) p.pits[i] = std::uint8_t(p.pits[i] + q);
        p.pits[pit] = 0;
      }
      last = pit;
      for (int k = 0; k < r; ++k) {
        last = last + 1 == pits ? 0 : last + 1;
        ++p.pits[last];
      }
      if (r == 0) last = pit == 0 ? pits - 1 : pit - 1;
    }
    if (last < m) return false;
    int first = last;  // captured run is [first, last]
    int taken = 0;
    while (first >= m && (p.pits[first] == 2 || p.pits[first] == 3)) taken += p.pits[first--];
    if (taken == 0) return false;
    const bool grand_slam = taken == p.opponent_row_sum();
    if (grand_slam && G != GrandSlam::CaptureAll) return true;
    for (int i = first + 1; i <= last; ++i) p.pits[i] = 0;
    p.store[0] = std::uint8_t(p.store[0] + taken);
    return grand_slam;
  }
};

// Congkak (one round, sequential start).  Relay sowing: a last seed in an
// occupied hole lifts that hole and sowing goes on; in the mover's store it
// earns another move; in an empty own hole it captures itself and the opposite
// hole (NeedsOpposite: only if the opposite hole holds seeds, else it stays);
// in an empty opponent hole the turn ends.  Burnt holes are skipped.  The
// round ends when either row is empty after a move.
template <CongkakCapture C>
struct CongkakRules {
  static constexpr Game game = Game::Congkak;
  static Ruleset ruleset() { return Ruleset{.game = Game::Congkak, .congkak_capture = C}; }

  static MoveMask legal_moves(const Position& p) { return is_terminal(p) ? 0 : detail::nonempty_pits(p); }
  static bool is_terminal(const Position& p) { return p.mover_row_empty() || p.opponent_row_empty(); }

  static MoveResult play(Position& p, int pit) {
    // Cycle slots: 0..m-1 own pits, m the mover's store, m+1..2m the
    // opponent's pits (pit index slot-1).  Burnt holes are not in the cycle.
    const int m = p.m();
    const int slots = 2 * m + 1;
    const int lap = slots - std::popcount(p.burnt);
    auto next = [&](int s) {
      do s = s + 1 == slots ? 0 : s + 1;
      while (s != m && ((p.burnt >> (s - (s > m))) & 1u));
      return s;
    };
    auto seeds = [&](int s) -> std::uint8_t& { return s == m ? p.store[0] : p.pits[s - (s > m)]; };

    int from = pit;  // a slot; pits on the mover's row have slot == pit
    int n = p.pits[pit];
    p.pits[pit] = 0;
    for (;;) {
      int last = from;
      if (n >= lap) {  // whole laps in one pass
        const int q = n / lap;
        n -= q * lap;
        for (int i = 0; i < 2 * m; ++i)
          if (!((p.burnt >> i) & 1u)) p.pits[i] = std::uint8_t(p.pits[i] + q);
        p.store[0] = std::uint8_t(p.store[0] + q);
      }
      for (; n > 0; --n) {
        last = next(last);
        ++seeds(last);
      }
      if (last == m) return detail::finish(p, true, is_terminal(p));
      const int last_pit = last - (last > m);
      if (p.pits[last_pit] > 1) {  // occupied: lift and keep sowing
        n = p.pits[last_pit];
        p.pits[last_pit] = 0;
        from = last;
        continue;
      }
      if (last_pit < m) {
        const int o = detail::opposite(p, last_pit);
        if (C == CongkakCapture::Always || p.pits[o] != 0) {
          p.store[0] = std::uint8_t(p.store[0] + p.pits[o] + 1);
          p.pits[o] = 0;
          p.pits[last_pit] = 0;
        }
      }
      return detail::finish(p, false, is_terminal(p));
    }
  }
};

// Calls f(Policy{}) for the policy of `r`; every branch must return one type.
template <class F>
decltype(auto) dispatch(const Ruleset& r, F&& f) {
  switch (r.game) {
    case Game::Kalah:
      if (r.empty_capture) return f(KalahRules<true>{});
      return f(KalahRules<false>{});
    case Game::BrainKing:
      return f(BrainKingRules{});
    case Game::Oware:
      if (r.grand_slam == GrandSlam::Forbidden) return f(OwareRules<GrandSlam::Forbidden>{});
      if (r.grand_slam == GrandSlam::CaptureAll) return f(OwareRules<GrandSlam::CaptureAll>{});
      return f(OwareRules<GrandSlam::NoCapture>{});
    case Game::Congkak:
      if (r.congkak_capture == CongkakCapture::NeedsOpposite)
        return f(CongkakRules<CongkakCapture::NeedsOpposite>{});
      return f(CongkakRules<CongkakCapture::Always>{});
  }
  return f(KalahRules<false>{});
}

}  // namespace mancala
