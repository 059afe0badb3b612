// The solver and the in-memory level tables against the brute-force oracle,
// on positions reachable in small boards of every ruleset, from both sides
// and with stores that are not zero.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/tables/level_values.hpp"
#include "oracle/oracle.hpp"

namespace {

using namespace mancala;

struct Config {
  std::string name;
  Ruleset rules;
  oracle::Rules oracle_rules;
  std::vector<std::string> starts;
};

std::vector<Config> configs() {
  const std::vector<std::string> small = {"1,1/1,1 0-0 s", "2,2/2,2 1-0 n", "1,1,1/1,1,1 0-2 s", "2,2,2/2,2,2 0-0 n",
                                          "3,3/3,3 2-1 s", "1,2,0/2,0,1 3-1 n",
                                          "1,0,0,0,0,1/0,1,0,0,1,0 0-1 s"};
  std::vector<std::string> larger = small;
  for (const char* s : {"3,3,3/3,3,3 0-0 s", "2,2,2,2/2,2,2,2 1-1 n", "1,0,3,1,2/2,1,0,3,1 2-4 s",
                        "2,0,1,1,0,2/1,2,0,1,1,0 1-0 n"})
    larger.push_back(s);
  return {
      {"kalah", {.game = Game::Kalah}, {"kalah"}, larger},
      {"kalah_empty_capture", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, larger},
      {"brainking", {.game = Game::BrainKing}, {"brainking"}, larger},
      {"oware", {.game = Game::Oware}, {"oware"}, small},
      {"oware_forbidden", {.game = Game::Oware, .grand_slam = GrandSlam::Forbidden}, {"oware", false, "forbidden"}, small},
      {"oware_capture_all", {.game = Game::Oware, .grand_slam = GrandSlam::CaptureAll}, {"oware", false, "capture-all"}, small},
      {"congkak", {.game = Game::Congkak}, {"congkak"}, larger},
      {"congkak_needs_opposite", {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
       {"congkak", false, "no-capture", true}, larger},
  };
}

void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

// At most `limit` positions, spread over the whole reachable set.
template <class T>
std::vector<T> spread(const std::vector<T>& all, std::size_t limit) {
  if (all.size() <= limit) return all;
  std::vector<T> out;
  for (std::size_t i = 0; i < limit; ++i) out.push_back(all[i * all.size() / limit]);
  return out;
}

class SolverVsOracle : public testing::TestWithParam<Config> {};

TEST_P(SolverVsOracle, EveryReachablePositionHasTheBruteForceValue) {
  const Config& c = GetParam();
  solver::Solver solver(c.rules, {.threads = 1, .tt_megabytes = 16});
  std::size_t compared = 0;
  for (const std::string& start : c.starts) {
    const auto all = oracle::reachable_values(c.oracle_rules, oracle::parse(start));
    for (const auto& [board, value] : spread(all, 400)) {
      const std::string text = oracle::format(board);
      const solver::SolveResult r = solver.solve(parse_position(text));
      ASSERT_EQ(r.value, value) << c.name << " " << text;
      ++compared;
    }
  }
  EXPECT_GT(compared, 100u);
}

// Oware's search on its own: with (almost) no level tables every cycle meets
// the repetition rule of the search.
TEST_P(SolverVsOracle, OwareSearchWithoutLevelTables) {
  const Config& c = GetParam();
  if (c.rules.game != Game::Oware) GTEST_SKIP() << "only oware has cycles";
  for (int table_seeds : {0, 3}) {
    solver::Solver solver(c.rules, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = table_seeds, .oware_search_below_levels = true});
    for (const std::string& start : c.starts) {
      const Position s = parse_position(start);
      if (s.m() > 3 || s.board_seeds() > 6) continue;  // plain search of Oware is exponential
      for (const auto& [board, value] : spread(oracle::reachable_values(c.oracle_rules, oracle::parse(start)), 150)) {
        const std::string text = oracle::format(board);
        ASSERT_EQ(solver.solve(parse_position(text)).value, value) << c.name << " " << text << " tables " << table_seeds;
      }
    }
  }
}

TEST_P(SolverVsOracle, ValuesDoNotDependOnThreadsTableSizeOrDeepening) {
  const Config& c = GetParam();
  solver::Solver one(c.rules, {.threads = 1, .tt_megabytes = 1});
  // Without iterative deepening, and with a shallow one on 2 threads (its
  // cut-off entries share the table with the exact ones).
  solver::Solver plain(c.rules, {.threads = 1, .tt_megabytes = 1, .deepening_depth = 0});
  solver::Solver shallow(c.rules, {.threads = 2, .tt_megabytes = 1, .deepening_depth = 3});
  solver::Solver two(c.rules, {.threads = 2, .tt_megabytes = 8});
  // Splitting at every node, on boards this small too.
  solver::Solver two_split(c.rules, {.threads = 2, .tt_megabytes = 8, .parallel_split_above_tables = -64});
  const auto all = oracle::reachable_values(c.oracle_rules, oracle::parse(c.starts.back()));
  for (const auto& [board, value] : spread(all, 60)) {
    const Position p = parse_position(oracle::format(board));
    EXPECT_EQ(one.solve(p).value, value) << oracle::format(board);
    EXPECT_EQ(two.solve(p).value, value) << oracle::format(board);
    EXPECT_EQ(two_split.solve(p).value, value) << oracle::format(board);
    EXPECT_EQ(plain.solve(p).value, value) << oracle::format(board);
    EXPECT_EQ(shallow.solve(p).value, value) << oracle::format(board);
  }
}

// The move order decides only how soon a cut-off comes: orders of random
// weights (negative ones, zeros and the extremes the bounds allow among
// them), on one thread and on two splitting everywhere, find the
// brute-force value.
TEST_P(SolverVsOracle, ValuesDoNotDependOnTheMoveOrder) {
  const Config& c = GetParam();
  std::mt19937 rng(20261207);
  auto weight = [&](int low, int high) {
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
      case 0: return low;
      case 1: return high;
      case 2: return 0;
      default: return std::uniform_int_distribution<int>(low, high)(rng);
    }
  };
  auto node = [&] {
    return solver::NodeWeights{weight(0, solver::kMaxExtraTurnWeight), weight(-solver::kMaxOrderWeight, solver::kMaxOrderWeight),
                               weight(-solver::kMaxOrderWeight, solver::kMaxOrderWeight),
                               weight(-solver::kMaxOrderWeight, solver::kMaxOrderWeight)};
  };
  const auto all = oracle::reachable_values(c.oracle_rules, oracle::parse(c.starts.back()));
  for (int trial = 0; trial < 4; ++trial) {
    const solver::OrderWeights order{node(), node(), node(), node()};
    solver::Solver one(c.rules, {.threads = 1, .tt_megabytes = 1, .move_order = order});
    solver::Solver two(c.rules, {.threads = 2, .tt_megabytes = 1, .parallel_split_above_tables = -64, .move_order = order});
    for (const auto& [board, value] : spread(all, 40)) {
      const Position p = parse_position(oracle::format(board));
      EXPECT_EQ(one.solve(p).value, value) << oracle::format(board) << " order " << solver::format_move_order(order);
      EXPECT_EQ(two.solve(p).value, value) << oracle::format(board) << " order " << solver::format_move_order(order);
    }
  }
}

// The ruleset's tuned order given as weights is read by a worker of its
// own (compiled for no fixed width, reading the weights from the options):
// it searches the same nodes as the compiled-in order.
TEST_P(SolverVsOracle, TheTunedOrderGivenAsWeightsSearchesTheSameNodes) {
  const Config& c = GetParam();
  const Position p = parse_position(c.starts.back());
  solver::Solver compiled(c.rules, {.threads = 1, .tt_megabytes = 1});
  solver::Solver given(c.rules, {.threads = 1, .tt_megabytes = 1, .move_order = solver::tuned_move_order(c.rules)});
  const solver::SolveResult a = compiled.solve(p), b = given.solve(p);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.value, b.value);
}

// The split search on two threads, splitting at every node, on boards large
// enough for both threads to work at once, so that refutations cancel
// siblings in flight and nodes above them give up (on the tiny boards above,
// a search is often over before the second thread wakes).  Oware searches
// above three-seed level tables, where its cycles meet the split.
TEST_P(SolverVsOracle, SplitSearchOnTwoThreadsHasTheBruteForceValue) {
  const Config& c = GetParam();
  const bool cycles = c.rules.game == Game::Oware;
  solver::SolveOptions o{.threads = 2, .tt_megabytes = 1, .parallel_split_above_tables = -64};
  if (cycles) {
    o.level_table_seeds = 3;
    o.oware_search_below_levels = true;
  }
  solver::Solver two(c.rules, o);
  std::mt19937 rng(2026);
  std::vector<std::string> boards;
  if (cycles) {
    for (const auto& [board, value] : spread(oracle::reachable_values(c.oracle_rules, oracle::parse("2,1,2/1,2,1 0-0 s")), 40))
      boards.push_back(oracle::format(board));
  } else {
    for (int i = 0; i < 24; ++i) {
      const int m = 4, seeds = 12 + i % 5;
      std::vector<int> pits(2 * m, 0);
      for (int k = 0; k < seeds; ++k) ++pits[rng() % pits.size()];
      std::string text;
      for (int k = 0; k < 2 * m; ++k) text += std::to_string(pits[k]) + (k == m - 1 ? "/" : k == 2 * m - 1 ? " " : ",");
      boards.push_back(text + std::to_string(rng() % 4) + "-" + std::to_string(rng() % 4) + (i % 3 ? " s" : " n"));
    }
  }
  for (const std::string& text : boards)
    ASSERT_EQ(two.solve(parse_position(text)).value, oracle::value(c.oracle_rules, oracle::parse(text), 20'000'000)) << c.name << " " << text;
}

TEST_P(SolverVsOracle, BestMoveAndPrincipalVariationAchieveTheValue) {
  const Config& c = GetParam();
  solver::Solver solver(c.rules, {.threads = 1, .tt_megabytes = 16});
  const auto all = oracle::reachable_values(c.oracle_rules, oracle::parse(c.starts.back()));
  for (const auto& [board, value] : spread(all, 40)) {
    const Position p = parse_position(oracle::format(board));
    const solver::SolveResult r = solver.solve(p);
    if (r.best_move == 0) continue;
    // The oracle's value after the best move, seen from the mover, is the value.
    bool extra = false, over = false;
    const oracle::Board after = oracle::play(c.oracle_rules, board, r.best_move, extra, over);
    const int v = oracle::value(c.oracle_rules, after);
    EXPECT_EQ(after.south_to_move == board.south_to_move ? v : -v, value) << oracle::format(board);
    // analyze gives every move its exact value, the best one first.
    const auto moves = solver.analyze(p);
    ASSERT_FALSE(moves.empty());
    EXPECT_EQ(moves.front().value, value);
    for (const auto& mv : moves) {
      const oracle::Board child = oracle::play(c.oracle_rules, board, mv.move, extra, over);
      const int cv = oracle::value(c.oracle_rules, child);
      EXPECT_EQ(mv.value, child.south_to_move == board.south_to_move ? cv : -cv) << oracle::format(board) << " move " << mv.move;
    }
  }
}

// The retrograde level tables: every table value plus the store difference
// is the oracle's value.
TEST_P(SolverVsOracle, LevelTablesMatchTheOracle) {
  const Config& c = GetParam();
  dispatch(c.rules, [&](auto R) {
    using Rules = decltype(R);
    for (const std::string& start : c.starts) {
      const Position s = parse_position(start);
      tables::LevelValues<Rules> levels(s.m(), s.board_seeds());
      while (levels.built_seeds() < s.board_seeds()) levels.build_next();
      for (const auto& [board, value] : oracle::reachable_values(c.oracle_rules, oracle::parse(start))) {
        const Position p = parse_position(oracle::format(board));
        ASSERT_EQ(p.store_difference() + levels.value(p.pits.data(), p.board_seeds()), value)
            << c.name << " " << oracle::format(board);
      }
    }
  });
}

// Oware levels hold cycles and are solved by threshold retrograde analysis;
// here every board of every level (not only the reachable ones) is compared
// with the oracle, under each grand-slam rule.
// One thread searches the same tree every time: the node count is a
// signature of the search (what `mancala bench` relies on).
TEST(SolverDeterminism, OneThreadSearchesTheSameNodesEveryTime) {
  const Position start = parse_position("3,3,3,3/3,3,3,3 0-0 s");
  std::uint64_t first = 0;
  for (int run = 0; run < 3; ++run) {
    solver::Solver solver(Ruleset{}, {.threads = 1, .tt_megabytes = 4, .level_table_seeds = 0});
    const solver::SolveResult r = solver.solve(start);
    if (run == 0) first = r.nodes;
    EXPECT_EQ(r.nodes, first);
    EXPECT_GT(r.nodes, 1000u);
  }
}

// The test log shows iterative deepening at depths 3, 6, ... up to the
// option, then exact tests only; none with the option at 0, and none in
// Oware (which never deepens).
TEST(SolverDeepening, RunsToItsDepthBeforeTheExactTests) {
  auto depths = [](const Ruleset& rules, const char* position, int deepening) {
    solver::Solver solver(rules, {.threads = 1, .tt_megabytes = 4, .level_table_seeds = 0, .deepening_depth = deepening,
                                  .oware_search_below_levels = true});
    std::vector<int> seen;
    for (const solver::TestRecord& t : solver.solve(parse_position(position)).test_log)
      if (seen.empty() || seen.back() != t.depth) seen.push_back(t.depth);
    return seen;
  };
  EXPECT_EQ(depths(Ruleset{}, "3,3,3,3/3,3,3,3 0-0 s", 9), (std::vector<int>{3, 6, 9, solver::kExactDepth}));
  EXPECT_EQ(depths(Ruleset{}, "3,3,3,3/3,3,3,3 0-0 s", 0), (std::vector<int>{solver::kExactDepth}));
  EXPECT_EQ(depths({.game = Game::Oware}, "2,2,2/2,2,2 0-0 s", 9), (std::vector<int>{solver::kExactDepth}));
  // No stop before the option's depth when the guess holds still (a still
  // guess can be wrong at a high cost): Kalah(4,4)'s guess is 2 at 15 and
  // at 18, and it still deepens to 21; Kalah(4,5)'s guess moves.
  EXPECT_EQ(depths(Ruleset{}, "4,4,4,4/4,4,4,4 0-0 s", 21),
            (std::vector<int>{3, 6, 9, 12, 15, 18, 21, solver::kExactDepth}));
  EXPECT_EQ(depths(Ruleset{}, "5,5,5,5/5,5,5,5 0-0 s", 21), (std::vector<int>{3, 6, 9, 12, 15, 18, 21, solver::kExactDepth}));
}

// Oware's search above a level it lacks meets every cycle of that level and
// can store none of their results: a 5-seed board took more than a minute
// with --level-tables 0.  Fewer levels than fit in memory are refused, and
// table files that stop below them are replaced by levels built in memory.
TEST(OwareLevels, TooFewLevelsAreRefusedNotSearchedForHours) {
  const Position p = parse_position("0,1,0,1/1,1,1,0 2-4 n");
  const Ruleset oware{.game = Game::Oware};
  for (int levels : {0, 1, 4}) {
    solver::Solver solver(oware, {.threads = 1, .tt_megabytes = 4, .level_table_seeds = levels});
    EXPECT_THROW(solver.solve(p), InputError) << levels << " levels";
  }
  solver::Solver enough(oware, {.threads = 1, .tt_megabytes = 4, .level_table_seeds = 5});
  const solver::SolveResult r = enough.solve(p);
  EXPECT_EQ(r.value, oracle::value({"oware"}, oracle::parse("0,1,0,1/1,1,1,0 2-4 n")));
  EXPECT_LT(r.nodes, 10000u);
}

TEST(OwareLevels, TableFilesBelowTheRootAreReplacedByLevelsInMemory) {
  const Ruleset oware{.game = Game::Oware};
  const Position p = parse_position("0,1,0,1/1,1,1,0 2-4 n");
  tables::LevelValues<OwareRules<GrandSlam::NoCapture>> two(4, 2);
  while (two.built_seeds() < 2) two.build_next();
  // The first two levels as the solver's endgame tables.
  struct Levels final : solver::EndgameTables {
    const tables::LevelValues<OwareRules<GrandSlam::NoCapture>>& v;
    explicit Levels(const tables::LevelValues<OwareRules<GrandSlam::NoCapture>>& values) : v(values) {}
    int max_seeds() const override { return v.built_seeds(); }
    bool probe(const Position& q, int& value) const override {
      if (q.board_seeds() > v.built_seeds()) return false;
      value = v.value(q.pits.data(), q.board_seeds());
      return true;
    }
  } files(two);
  solver::Solver solver(oware, {.threads = 1, .tt_megabytes = 4, .tables = &files});
  const solver::SolveResult r = solver.solve(p);
  EXPECT_EQ(r.value, oracle::value({"oware"}, oracle::parse("0,1,0,1/1,1,1,0 2-4 n")));
  EXPECT_EQ(r.level_tables, 5) << "the levels up to the root's are built in memory";
  EXPECT_LT(r.nodes, 10000u);
}

TEST(OwareLevels, EveryBoardOfEveryLevelHasTheBruteForceValue) {
  const std::vector<std::pair<Ruleset, oracle::Rules>> variants = {
      {{.game = Game::Oware}, {"oware"}},
      {{.game = Game::Oware, .grand_slam = GrandSlam::Forbidden}, {"oware", false, "forbidden"}},
      {{.game = Game::Oware, .grand_slam = GrandSlam::CaptureAll}, {"oware", false, "capture-all"}},
  };
  for (const auto& [rules, oracle_rules] : variants) {
    dispatch(rules, [&](auto R) {
      using Rules = decltype(R);
      for (const auto& [m, max_seeds] : {std::pair{1, 12}, {2, 9}, {3, 7}}) {
        tables::LevelValues<Rules> levels(m, max_seeds);
        std::map<std::string, int> board_value;  // boards with South to move, stores left out
        std::size_t compared = 0;
        for (int k = 0; k <= max_seeds; ++k) {
          levels.build_next();
          // The same level with every frontier found by its marks in the
          // cells instead of listed: the same values and the same rounds.
          tables::CyclicLevelStats listed, marked;
          const auto lower = [&](int seeds) { return levels.level_data(seeds); };
          tables::solve_cyclic_level<Rules>(levels.index(), m, k, lower, nullptr, &listed);
          ASSERT_EQ(tables::solve_cyclic_level<Rules>(levels.index(), m, k, lower, nullptr, &marked, nullptr, 1), levels.level(k));
          ASSERT_EQ(marked.rounds, listed.rounds);
          ASSERT_EQ(marked.undecided, listed.undecided);
          Position p;
          p.pits_per_side = std::uint8_t(m);
          for (std::uint64_t rank = 0; rank < levels.index().level_size(k); ++rank) {
            levels.index().unrank(rank, k, p.pits.data());
            const std::string text = format_position(p);
            if (!board_value.count(text)) {
              for (const auto& [b, v] : oracle::reachable_values(oracle_rules, oracle::parse(text))) {
                if (!b.south_to_move) continue;
                oracle::Board bare = b;
                bare.south_store = bare.north_store = 0;
                board_value.emplace(oracle::format(bare), v - (b.south_store - b.north_store));
              }
            }
            ASSERT_EQ(int(levels.level(k)[rank]), board_value.at(text)) << rules.digest() << " " << text;
            ++compared;
          }
        }
        EXPECT_EQ(compared, levels.index().level_offset(max_seeds + 1));
      }
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SolverVsOracle, testing::ValuesIn(configs()),
                         [](const testing::TestParamInfo<Config>& i) { return i.param.name; });

}  // namespace
