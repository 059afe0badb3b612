// The engine against the brute-force oracle (tests/oracle), which is written
// independently from the rule texts.  Random playouts compare every step
// (legal moves, resulting position, extra turn, game over, terminal flag,
// final value, illegal moves rejected); perft compares whole trees; seeds
// must be conserved; and the oracle's exact `value` is checked on tiny boards
// worked out by hand (tests named Oracle.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/ruleset.hpp"
#include "oracle/oracle.hpp"

namespace {

using mancala::Game;

struct Config {
  std::string name;
  oracle::Rules oracle_rules;
  mancala::Ruleset engine_rules;
};

std::vector<Config> all_configs() {
  std::vector<Config> configs;
  auto add = [&configs](std::string name, oracle::Rules o, mancala::Ruleset e) {
    configs.push_back(Config{std::move(name), std::move(o), e});
  };
  add("kalah", oracle::Rules{.game = "kalah"}, mancala::Ruleset{.game = Game::Kalah});
  add("kalah_empty_capture", oracle::Rules{.game = "kalah", .empty_capture = true},
      mancala::Ruleset{.game = Game::Kalah, .empty_capture = true});
  add("brainking", oracle::Rules{.game = "brainking"}, mancala::Ruleset{.game = Game::BrainKing});
  add("oware_no_capture", oracle::Rules{.game = "oware", .grand_slam = "no-capture"},
      mancala::Ruleset{.game = Game::Oware, .grand_slam = mancala::GrandSlam::NoCapture});
  add("oware_forbidden", oracle::Rules{.game = "oware", .grand_slam = "forbidden"},
      mancala::Ruleset{.game = Game::Oware, .grand_slam = mancala::GrandSlam::Forbidden});
  add("oware_capture_all", oracle::Rules{.game = "oware", .grand_slam = "capture-all"},
      mancala::Ruleset{.game = Game::Oware, .grand_slam = mancala::GrandSlam::CaptureAll});
  add("congkak_always", oracle::Rules{.game = "congkak", .needs_opposite = false},
      mancala::Ruleset{.game = Game::Congkak, .congkak_capture = mancala::CongkakCapture::Always});
  add("congkak_needs_opposite", oracle::Rules{.game = "congkak", .needs_opposite = true},
      mancala::Ruleset{.game = Game::Congkak, .congkak_capture = mancala::CongkakCapture::NeedsOpposite});
  return configs;
}

// Shown by GoogleTest instead of the raw bytes of the parameter.
void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

bool is_congkak(const Config& c) { return c.oracle_rules.game == "congkak"; }

std::string list(const std::vector<int>& moves) {
  std::string out = "{";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(moves[i]);
  }
  return out + "}";
}

// The engine's legal moves as ascending pit numbers; bits beyond pit m are
// reported as pit numbers too, so that they show up as a difference.
std::vector<int> engine_moves(const mancala::Ruleset& r, const mancala::Position& p) {
  const mancala::MoveMask mask = mancala::legal_moves(r, p);
  std::vector<int> moves;
  for (int i = 0; i < 32; ++i)
    if ((mask >> i) & 1u) moves.push_back(i + 1);
  return moves;
}

int engine_total(const mancala::Position& p) { return p.total_seeds(); }

// --------------------------------------------------------------- positions

int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

void burn_some(oracle::Board& b, std::mt19937& rng, int percent) {
  for (int i = 0; i < b.m; ++i) {
    if (uniform(rng, 0, 99) < percent) {
      b.south_burnt[i] = true;
      b.south[i] = 0;
    }
    if (uniform(rng, 0, 99) < percent) {
      b.north_burnt[i] = true;
      b.north[i] = 0;
    }
  }
}

// Random counts, random side to move, random stores; burnt holes for Congkak.
// Mostly m = 1..8, sometimes up to the engine's 16 pits a side; now and then
// one big pile, so that sowing laps the board (and Oware skips the origin).
// Trimmed to at most 255 seeds in all.
oracle::Board random_board(const Config& c, std::mt19937& rng) {
  const int m = uniform(rng, 0, 7) == 0 ? uniform(rng, 9, mancala::kMaxPitsPerSide) : uniform(rng, 1, 8);
  const int top = uniform(rng, 1, 9);
  oracle::Board b = oracle::start(m, 0);
  for (int i = 0; i < m; ++i) {
    b.south[i] = uniform(rng, 0, top);
    b.north[i] = uniform(rng, 0, top);
  }
  if (uniform(rng, 0, 3) == 0) {
    std::vector<int>& row = uniform(rng, 0, 1) == 0 ? b.south : b.north;
    row[static_cast<std::size_t>(uniform(rng, 0, m - 1))] = uniform(rng, 10, 60);
  }
  b.south_store = uniform(rng, 0, 40);
  b.north_store = uniform(rng, 0, 40);
  b.south_to_move = uniform(rng, 0, 1) == 0;
  if (is_congkak(c)) burn_some(b, rng, 15);
  while (oracle::total_seeds(b) > mancala::kMaxSeeds) {
    std::vector<int>& row = uniform(rng, 0, 1) == 0 ? b.south : b.north;
    int& pit = row[static_cast<std::size_t>(uniform(rng, 0, m - 1))];
    if (pit > 0) --pit;
    if (b.south_store > 0) --b.south_store;
    if (b.north_store > 0) --b.north_store;
  }
  return b;
}

// --------------------------------------------------------------- comparing

std::string describe(const Config& c, const std::string& position) {
  return "ruleset " + c.engine_rules.digest() + " (" + c.name + "), position \"" + position + "\"";
}

// Same notation, terminal flag, legal moves and (at the end) final value.
::testing::AssertionResult same_state(const Config& c, const oracle::Board& b, const mancala::Position& p) {
  const std::string want = oracle::format(b);
  const std::string got = mancala::format_position(p);
  if (want != got)
    return ::testing::AssertionFailure() << c.name << ": oracle position \"" << want << "\" but engine \"" << got
                                         << "\"";
  const bool oracle_terminal = oracle::terminal(c.oracle_rules, b);
  const bool engine_terminal = mancala::is_terminal(c.engine_rules, p);
  if (oracle_terminal != engine_terminal)
    return ::testing::AssertionFailure() << describe(c, want) << ": terminal oracle " << oracle_terminal
                                         << " engine " << engine_terminal;
  const std::vector<int> want_moves = oracle::legal_moves(c.oracle_rules, b);
  const std::vector<int> got_moves = engine_moves(c.engine_rules, p);
  if (want_moves != got_moves)
    return ::testing::AssertionFailure() << describe(c, want) << ": legal moves oracle " << list(want_moves)
                                         << " engine " << list(got_moves);
  if (oracle_terminal && oracle::final_value(b) != mancala::terminal_value(p))
    return ::testing::AssertionFailure() << describe(c, want) << ": final value oracle " << oracle::final_value(b)
                                         << " engine " << mancala::terminal_value(p);
  return ::testing::AssertionSuccess();
}

// Plays `pit` in both and compares the results.
::testing::AssertionResult same_move(const Config& c, oracle::Board& b, mancala::Position& p, int pit) {
  const std::string before = oracle::format(b);
  bool extra = false, over = false;
  oracle::Board next = oracle::play(c.oracle_rules, b, pit, extra, over);
  mancala::MoveResult result;
  try {
    result = mancala::apply_move(c.engine_rules, p, pit);
  } catch (const mancala::InputError& e) {
    return ::testing::AssertionFailure() << describe(c, before) << ", move " << pit
                                         << ": the engine rejects it (" << e.what() << "), the oracle plays it to \""
                                         << oracle::format(next) << "\"";
  }
  const std::string want = oracle::format(next);
  const std::string got = mancala::format_position(p);
  if (want != got || extra != result.extra_turn || over != result.game_over)
    return ::testing::AssertionFailure() << describe(c, before) << ", move " << pit << ": oracle \"" << want
                                         << "\" extra_turn=" << extra << " game_over=" << over << "; engine \""
                                         << got << "\" extra_turn=" << result.extra_turn
                                         << " game_over=" << result.game_over;
  b = next;
  return ::testing::AssertionSuccess();
}

// An illegal pit must throw and leave the position unchanged.
::testing::AssertionResult rejects(const Config& c, const mancala::Position& p, int pit) {
  mancala::Position q = p;
  try {
    mancala::apply_move(c.engine_rules, q, pit);
  } catch (const mancala::InputError&) {
    if (q == p) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << describe(c, mancala::format_position(p)) << ", illegal move " << pit
                                         << ": thrown, but the position changed to \""
                                         << mancala::format_position(q) << "\"";
  }
  return ::testing::AssertionFailure() << describe(c, mancala::format_position(p)) << ", move " << pit
                                       << ": illegal for the oracle, but the engine plays it to \""
                                       << mancala::format_position(q) << "\"";
}

struct PlayoutStats {
  long playouts = 0;
  long plies = 0;
  long finished = 0;
};

// One random playout compared step by step.  Returns false (after reporting)
// at the first difference.
bool compare_playout(const Config& c, oracle::Board b, std::mt19937& rng, int max_plies, PlayoutStats& stats) {
  const std::string start = oracle::format(b);
  mancala::Position p;
  try {
    p = mancala::parse_position(start);
    mancala::validate_for(c.engine_rules, p);
  } catch (const mancala::InputError& e) {
    ADD_FAILURE() << describe(c, start) << ": the engine rejects the position: " << e.what();
    return false;
  }
  const int seeds = oracle::total_seeds(b);
  ++stats.playouts;
  for (int ply = 0;; ++ply) {
    const ::testing::AssertionResult same = same_state(c, b, p);
    if (!same) {
      ADD_FAILURE() << same.message() << "\n  (playout from \"" << start << "\", ply " << ply << ")";
      return false;
    }
    if (oracle::total_seeds(b) != seeds || engine_total(p) != seeds) {
      ADD_FAILURE() << describe(c, oracle::format(b)) << ": seeds not conserved: start " << seeds << ", oracle "
                    << oracle::total_seeds(b) << ", engine " << engine_total(p) << " (playout from \"" << start
                    << "\")";
      return false;
    }
    const std::vector<int> moves = oracle::legal_moves(c.oracle_rules, b);
    if (moves.empty()) {
      ++stats.finished;
      return true;
    }
    if (ply >= max_plies) return true;
    if (uniform(rng, 0, 3) == 0) {  // probe an illegal pit now and then
      const int pit = uniform(rng, 0, b.m + 1);
      if (std::find(moves.begin(), moves.end(), pit) == moves.end()) {
        const ::testing::AssertionResult rejected = rejects(c, p, pit);
        if (!rejected) {
          ADD_FAILURE() << rejected.message() << "\n  (playout from \"" << start << "\")";
          return false;
        }
      }
    }
    const int pit = moves[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(moves.size()) - 1))];
    const ::testing::AssertionResult moved = same_move(c, b, p, pit);
    if (!moved) {
      ADD_FAILURE() << moved.message() << "\n  (playout from \"" << start << "\", ply " << ply << ")";
      return false;
    }
    ++stats.plies;
  }
}

class EngineVsOracle : public ::testing::TestWithParam<Config> {};

// 1. Random playouts from start positions of every size m = 1..8 and seeds
// 1..6 a pit, and from random positions; every step is compared.
TEST_P(EngineVsOracle, RandomPlayoutsMatch) {
  const Config& c = GetParam();
  std::mt19937 rng(20240611u + static_cast<unsigned>(c.name.size()) * 7919u);
  constexpr int kMaxPlies = 300;
  PlayoutStats stats;
  for (int m = 1; m <= 8; ++m) {
    for (int n = 1; n <= 6; ++n) {
      for (int k = 0; k < 4; ++k) {
        oracle::Board b = oracle::start(m, n);
        if (is_congkak(c) && k >= 2) burn_some(b, rng, 12);
        if (!compare_playout(c, b, rng, kMaxPlies, stats)) return;
      }
    }
  }
  // Oware games run long (up to kMaxPlies when they cycle); the others are short.
  const int random_starts = c.oracle_rules.game == "oware" ? 1200 : 3000;
  for (int k = 0; k < random_starts; ++k)
    if (!compare_playout(c, random_board(c, rng), rng, kMaxPlies, stats)) return;
  EXPECT_GT(stats.finished, stats.playouts / 2);
  RecordProperty("playouts", std::to_string(stats.playouts));
  RecordProperty("plies", std::to_string(stats.plies));
  RecordProperty("finished", std::to_string(stats.finished));
}

// 2. Seeds are conserved on every move, engine and oracle each on its own
// (each chooses its own random legal moves, so this holds even where they
// disagree about legality).
TEST_P(EngineVsOracle, SeedsAreConserved) {
  const Config& c = GetParam();
  std::mt19937 rng(777u + static_cast<unsigned>(c.name.size()));
  for (int k = 0; k < 150; ++k) {
    const oracle::Board start = random_board(c, rng);
    const int seeds = oracle::total_seeds(start);

    oracle::Board b = start;
    for (int ply = 0; ply < 200; ++ply) {
      const std::vector<int> moves = oracle::legal_moves(c.oracle_rules, b);
      if (moves.empty()) break;
      bool extra = false, over = false;
      const int pit = moves[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(moves.size()) - 1))];
      const std::string before = oracle::format(b);
      b = oracle::play(c.oracle_rules, b, pit, extra, over);
      ASSERT_EQ(oracle::total_seeds(b), seeds) << "oracle, " << describe(c, before) << ", move " << pit;
    }

    mancala::Position p = mancala::parse_position(oracle::format(start));
    ASSERT_EQ(p.total_seeds(), seeds);
    for (int ply = 0; ply < 200; ++ply) {
      const std::vector<int> moves = engine_moves(c.engine_rules, p);
      if (moves.empty()) break;
      const int pit = moves[static_cast<std::size_t>(uniform(rng, 0, static_cast<int>(moves.size()) - 1))];
      const std::string before = mancala::format_position(p);
      mancala::apply_move(c.engine_rules, p, pit);
      ASSERT_EQ(p.total_seeds(), seeds) << "engine, " << describe(c, before) << ", move " << pit;
    }
  }
}

// 3. Whole move trees: perft of the engine equals perft of the oracle.
TEST_P(EngineVsOracle, PerftMatches) {
  const Config& c = GetParam();
  struct Case {
    std::string position;
    int depth;
  };
  std::vector<Case> cases;
  if (is_congkak(c)) {
    cases = {{"7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0 s", 6},
             {"3,3,3/3,3,3 0-0 s", 10},
             {"2,x,2,2/2,2,x,2 0-0 s", 10},
             {"5,0,x,1,4,2/3,x,0,6,1,2 4-7 n", 7}};
  } else {
    cases = {{"4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", 8},
             {"3,3,3/3,3,3 0-0 s", 11},
             {"2,2/2,2 0-0 n", 14},
             {"5,0,3,1,4,2/3,0,0,6,1,2 4-7 n", 7}};
  }
  std::mt19937 rng(99u + static_cast<unsigned>(c.name.size()));
  for (int k = 0; k < 6; ++k) cases.push_back({oracle::format(random_board(c, rng)), 5});

  std::uint64_t nodes = 0;
  for (const Case& t : cases) {
    const oracle::Board b = oracle::parse(t.position);
    const mancala::Position p = mancala::parse_position(t.position);
    const std::vector<std::uint64_t> want = oracle::perft(c.oracle_rules, b, t.depth);
    const std::vector<std::uint64_t> got = mancala::perft(c.engine_rules, p, t.depth);
    EXPECT_EQ(want, got) << describe(c, t.position) << ", depth " << t.depth;
    for (std::uint64_t count : want) nodes += count;
  }
  RecordProperty("nodes", std::to_string(nodes));
}

INSTANTIATE_TEST_SUITE_P(AllRulesets, EngineVsOracle, ::testing::ValuesIn(all_configs()),
                         [](const ::testing::TestParamInfo<Config>& param_info) { return param_info.param.name; });

// --------------------------------------------------------------- the oracle itself

// Notation round trip of the oracle's own parser/printer.
TEST(Oracle, NotationRoundTrip) {
  for (const std::string text : {"4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", "0/12 17-3 n", "x,1,0/2,x,10 0-240 s"}) {
    EXPECT_EQ(oracle::format(oracle::parse(text)), text);
    EXPECT_EQ(mancala::format_position(mancala::parse_position(text)), text);
  }
  const oracle::Board b = oracle::parse("x,1,0/2,x,10 5-6 n");
  EXPECT_EQ(b.m, 3);
  EXPECT_EQ(b.south, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(b.north, (std::vector<int>{2, 0, 10}));
  EXPECT_EQ(b.south_burnt, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(b.north_burnt, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(b.south_store, 5);
  EXPECT_EQ(b.north_store, 6);
  EXPECT_FALSE(b.south_to_move);
  EXPECT_THROW(oracle::parse("1,2/3 0-0 s"), std::invalid_argument);
  EXPECT_THROW(oracle::parse("1,2/3,4 0-0 w"), std::invalid_argument);
}

// A hand count: Kalah(6,4) has 6 first moves; pit 3 (4 seeds: pits 4, 5, 6,
// store) gives South another move with 5 non-empty pits, the other 5 moves
// each give North 6 moves: 5 * 6 + 5 = 35 sequences of length 2.
TEST(Oracle, KalahPerftByHand) {
  const oracle::Rules kalah{.game = "kalah"};
  EXPECT_EQ(oracle::perft(kalah, oracle::start(6, 4), 2), (std::vector<std::uint64_t>{6, 35}));
}

// 4. Exact values on boards small enough to work out by hand.
TEST(Oracle, ValueKalahOneByOne) {
  // 1/1 0-0 s: South's only move sows its seed into its store (pit 1 is next
  // to the store): extra turn, but South's row is now empty, so the game is
  // over; North sweeps its seed.  1-1, difference 0.
  for (bool empty_capture : {false, true})
    EXPECT_EQ(oracle::value(oracle::Rules{.game = "kalah", .empty_capture = empty_capture}, oracle::parse("1/1 0-0 s")),
              0);
}

TEST(Oracle, ValueKalahTwoByOne) {
  // 1,1/1,1 0-0 s (South pit 1 faces North pit 2, South pit 2 faces North pit 1).
  // a) South pit 2 -> store (1-0), extra turn.  South pit 1 -> pit 2, which was
  //    empty, opposite North pit 1 holds 1: capture 1+1, store 3.  South's row
  //    is empty: game over, North sweeps its pit 2: 3-1, +2.
  // b) South pit 1 -> pit 2 (now 2, no capture): 0,2/1,1 0-0 n.  North plays
  //    pit 1 -> its pit 2 (now 2): 0,2/0,2 0-0 s; South's only move, pit 2,
  //    puts 1 in its store and 1 in North pit 1 and empties South's row: game
  //    over, North sweeps 3: 1-3.  So b) is at most -2 for South.
  // Value +2, with or without empty_capture (a) captures a non-empty house,
  // and in b) North's reply lands in an occupied house).
  for (bool empty_capture : {false, true})
    EXPECT_EQ(oracle::value(oracle::Rules{.game = "kalah", .empty_capture = empty_capture},
                            oracle::parse("1,1/1,1 0-0 s")),
              2);
  // After b): North to move in 0,2/1,1 0-0 n is worth +2 to North.
  EXPECT_EQ(oracle::value(oracle::Rules{.game = "kalah"}, oracle::parse("0,2/1,1 0-0 n")), 2);
}

TEST(Oracle, ValueBrainKingTwoByOne) {
  // 1,1/1,1 0-0 s.
  // a) South pit 2 -> store (1-0), extra turn.  South pit 1 -> pit 2 (empty):
  //    only the opposite seed (North pit 1) is captured, the capturing seed
  //    stays: 0,1/0,1 2-0 n.  North's only move, pit 2 -> its store, extra
  //    turn, but North (to move next) has no seeds: game over, South sweeps
  //    its 1: 3-1, +2.
  // b) South pit 1 -> pit 2 (now 2): 0,2/1,1 0-0 n.  North plays pit 2 ->
  //    store (0-1), extra turn, then pit 1 -> its empty pit 2, opposite South
  //    pit 1 is empty: 0,2/0,1 0-1 s.  South pit 2: 1 to the store, 1 to North
  //    pit 1: 0,0/1,1 1-1 n.  North's two seeds both end in its store (pit 2
  //    then pit 1 -> pit 2 and the game ends as South, to move, has none; or
  //    pit 1 first -> pit 2 and South, to move, has none): 1-3.  So b) is at
  //    most -2 for South.
  // Value +2.
  EXPECT_EQ(oracle::value(oracle::Rules{.game = "brainking"}, oracle::parse("1,1/1,1 0-0 s")), 2);
}

TEST(Oracle, ValueCongkakRelay) {
  // 1,1/1,1 0-0 s.  South pit 1 -> its pit 2 (occupied, now 2): lift 2 -> South
  // store (1) and North pit 1 (occupied, now 2): lift 2 -> North pit 2 (now 2)
  // and South pit 1 (empty own hole, North's store is skipped): that seed and
  // the opposite North pit 2's 2 seeds go to South's store: 4-0, both rows
  // empty, game over.  All 4 seeds: +4 (nothing can beat it), with either
  // capture rule (the opposite hole is not empty).
  for (bool needs_opposite : {false, true})
    EXPECT_EQ(oracle::value(oracle::Rules{.game = "congkak", .needs_opposite = needs_opposite},
                            oracle::parse("1,1/1,1 0-0 s")),
              4);
}

TEST(Oracle, ValueOwareEndlessCycleIsStoreDifference) {
  // 0,1/0,1 3-1 s (m = 2), every move forced:
  //   South pit 2 -> North pit 1 (holds 1: no capture)        0,0/1,1 3-1 n
  //   South's row is empty, North must feed: pit 2 -> South pit 1  1,0/1,0 3-1 s
  //   South pit 1 -> South pit 2 (own row)                     0,1/1,0 3-1 n
  //   North pit 1 -> North pit 2 (own row)                     0,1/0,1 3-1 s
  // and round again: no last seed ever makes 2 or 3, nobody runs out of moves,
  // play is endless, the board splits evenly: value = 3 - 1 = 2.
  for (const char* slam : {"no-capture", "forbidden", "capture-all"}) {
    const oracle::Rules oware{.game = "oware", .grand_slam = slam};
    EXPECT_EQ(oracle::value(oware, oracle::parse("0,1/0,1 3-1 s")), 2) << slam;
    EXPECT_EQ(oracle::value(oware, oracle::parse("0,0/1,1 3-1 n")), -2) << slam;
  }
}

TEST(Oracle, ValueOwareGrandSlamThenCycle) {
  // 0,1/1,0 0-0 s (m = 2).  South's only move: pit 2 -> North pit 1, which
  // then holds 2: a capture of every seed on North's row, a grand slam.
  // capture-all: South takes 2: 0,0/0,0 2-0 n, North cannot move, game over: +2.
  // no-capture: nothing is captured: 0,0/2,0 0-0 n, then every move is forced:
  //   North must feed: pit 1 -> North pit 2, South pit 1      1,0/0,1 0-0 s
  //   South pit 1 -> South pit 2                               0,1/0,1 0-0 n
  //   North pit 2 -> South pit 1                               1,1/0,0 0-0 s
  //   South must feed: pit 2 -> North pit 1                    1,0/1,0 0-0 n
  //   North pit 1 -> North pit 2                               1,0/0,1 0-0 s  (seen)
  // every last seed makes a 1, so this cycles for ever: value 0.
  // forbidden: the grand slam is South's only move, so it is legal and
  // captures nothing: as no-capture, 0.
  // The capture-all case needs one round of value iteration (v0 = 0 at the
  // start, the terminal child is worth -2 to North).
  const oracle::Board b = oracle::parse("0,1/1,0 0-0 s");
  EXPECT_EQ(oracle::value(oracle::Rules{.game = "oware", .grand_slam = "capture-all"}, b), 2);
  EXPECT_EQ(oracle::value(oracle::Rules{.game = "oware", .grand_slam = "no-capture"}, b), 0);
  EXPECT_EQ(oracle::value(oracle::Rules{.game = "oware", .grand_slam = "forbidden"}, b), 0);
}

TEST(Oracle, OwareValueIsConsistent) {
  // From the Oware 2x4 start (7029 positions) one synchronous value iteration
  // over all positions never settles (these positions, among others, keep
  // changing by 1 every round); solved layer by layer, every value must be
  // the best of its children's values.
  for (const char* slam : {"no-capture", "forbidden", "capture-all"}) {
    const oracle::Rules oware{.game = "oware", .grand_slam = slam};
    for (const char* text : {"4,4/4,4 0-0 s", "0,10/2,0 0-4 s", "7,2/0,3 2-2 s", "1,10/1,0 2-2 s", "0,9/1,4 0-2 n"}) {
      const oracle::Board b = oracle::parse(text);
      ASSERT_FALSE(oracle::terminal(oware, b)) << text;
      int best = -1000;
      for (int pit : oracle::legal_moves(oware, b)) {
        bool extra = false, over = false;
        best = std::max(best, -oracle::value(oware, oracle::play(oware, b, pit, extra, over)));
      }
      EXPECT_EQ(oracle::value(oware, b), best) << slam << " " << text;
    }
  }
}

TEST(Oracle, ValueRefusesHugeStateSets) {
  const oracle::Rules kalah{.game = "kalah"};
  EXPECT_THROW(oracle::value(kalah, oracle::start(6, 4), 1000), std::runtime_error);
  const oracle::Rules oware{.game = "oware"};
  EXPECT_THROW(oracle::value(oware, oracle::start(6, 4), 1000), std::runtime_error);
}

}  // namespace
