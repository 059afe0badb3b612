// Congkak positions with burnt holes against the brute-force oracle, through
// every path that values a position: the search (one and two threads, with
// and without iterative deepening, one solver reused across positions whose
// burnt holes differ), the in-memory level tables the solver would build,
// table files (solve --tables), analyze, and the command line.
//
// The endgame tables hold boards without burnt holes; a position's board
// alone names a different position there.  The first adversarial pass found
// `solve` answering from them (78 where the value is 46); these tests fail
// if any path does again.  They also catch the search's own trap: when the
// two rows' burnt holes differ, one mover-relative board is two positions
// (South or North to move), which the transposition table must tell apart.
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "temp_dir.hpp"
#include "cli_harness.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/tables/table_build.hpp"
#include "oracle/oracle.hpp"

namespace {

using namespace mancala;
namespace fs = std::filesystem;

struct Variant {
  std::string name;
  Ruleset rules;
  oracle::Rules oracle_rules;
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"always", {.game = Game::Congkak}, {"congkak"}},
      {"needs_opposite", {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
       {"congkak", false, "no-capture", true}},
  };
  return v;
}

// A random position in the notation: m pits a side, about a third of the
// holes burnt, at most `max_board` seeds on the board, small stores, either
// side to move.  Written as text so that the engine's parser and the
// oracle's read the same thing.
std::string random_position(std::mt19937& rng, int m, int max_board) {
  std::uniform_int_distribution<int> burn(0, 2), store(0, 6), side(0, 1);
  std::string rows[2];
  int left = std::uniform_int_distribution<int>(1, max_board)(rng);
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < m; ++i) {
      if (i) rows[r] += ',';
      if (burn(rng) == 0) {
        rows[r] += 'x';
        continue;
      }
      const int n = std::uniform_int_distribution<int>(0, std::min(left, 4))(rng);
      left -= n;
      rows[r] += std::to_string(n);
    }
  }
  return rows[0] + "/" + rows[1] + " " + std::to_string(store(rng)) + "-" + std::to_string(store(rng)) + " " +
         (side(rng) ? "n" : "s");
}

std::vector<std::string> random_positions(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (int m = 1; m <= 5; ++m)
    for (int i = 0; i < count; ++i) out.push_back(random_position(rng, m, m <= 3 ? 14 : 10));
  return out;
}

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

class BurntHoles : public testing::TestWithParam<Variant> {};

TEST_P(BurntHoles, RandomPositionsThroughEverySolverPathHaveTheOracleValue) {
  const Variant& v = GetParam();
  // One solver each, reused across every position (and so across sets of
  // burnt holes): what analyze and batch do.
  solver::Solver automatic(v.rules, {.threads = 1, .tt_megabytes = 8});
  solver::Solver two_threads(v.rules, {.threads = 2, .tt_megabytes = 8, .parallel_split_above_tables = -64});
  solver::Solver no_deepening(v.rules, {.threads = 1, .tt_megabytes = 1, .deepening_depth = 0});
  std::size_t compared = 0, with_burnt = 0;
  for (const std::string& text : random_positions(60, 2026)) {
    const Position p = parse_position(text);
    const int expected = oracle::value(v.oracle_rules, oracle::parse(text));
    // Level tables asked for explicitly, up to the root's own level.
    solver::Solver levels(v.rules, {.threads = 1, .tt_megabytes = 1, .level_table_seeds = p.board_seeds()});
    ASSERT_EQ(automatic.solve(p).value, expected) << text;
    ASSERT_EQ(levels.solve(p).value, expected) << text << " with level tables";
    ASSERT_EQ(two_threads.solve(p).value, expected) << text << " on two threads";
    ASSERT_EQ(no_deepening.solve(p).value, expected) << text << " without deepening";
    ++compared;
    with_burnt += p.burnt != 0;
  }
  EXPECT_GT(with_burnt, compared / 2);
}

// Every position reachable from a few burnt-hole starts, both players to
// move on the same boards: the transposition table's keys must tell them
// apart, with one solver for them all.
TEST_P(BurntHoles, EveryReachablePositionOfBurntStartsHasTheOracleValue) {
  const Variant& v = GetParam();
  solver::Solver reused(v.rules, {.threads = 1, .tt_megabytes = 4});
  std::size_t compared = 0;
  for (const char* start : {"x,3,3/3,3,x 0-0 s", "2,x,2,2/2,2,2,x 1-0 n", "3,3,x/3,3,3 0-0 s", "x,2,2,2,2/2,x,2,2,2 0-0 s"}) {
    const auto all = oracle::reachable_values(v.oracle_rules, oracle::parse(start));
    for (std::size_t i = 0; i < all.size(); i += 1 + all.size() / 300) {
      const std::string text = oracle::format(all[i].first);
      ASSERT_EQ(reused.solve(parse_position(text)).value, all[i].second) << start << " reaches " << text;
      ++compared;
    }
  }
  EXPECT_GT(compared, 500u);
}

// Table files of the board width (built for boards without burnt holes)
// given to the solver: a position with burnt holes must not be read from them.
TEST_P(BurntHoles, TableFilesAreNotReadForBurntHoles) {
  const Variant& v = GetParam();
  for (int m : {2, 3}) {
    TempDir dir{"mancala_burnt_test"};
    tables::build_tables(dir.path(), v.rules, m, 12);
    const solver::DirectoryTables files(dir.path(), v.rules, m);
    solver::Solver with_files(v.rules, {.threads = 1, .tt_megabytes = 4, .tables = &files});
    std::mt19937 rng{unsigned(m)};
    int compared = 0;
    for (int i = 0; i < 150; ++i) {
      const std::string text = random_position(rng, m, 12);
      const Position p = parse_position(text);
      const int expected = oracle::value(v.oracle_rules, oracle::parse(text));
      const solver::SolveResult r = with_files.solve(p);
      ASSERT_EQ(r.value, expected) << text;
      if (p.burnt) {
        EXPECT_EQ(r.level_tables, -1) << text << ": a burnt-hole position was valued from the files";
      }
      ++compared;
    }
    EXPECT_EQ(compared, 150);
  }
}

TEST_P(BurntHoles, AnalyzeGivesEveryMoveItsOracleValue) {
  const Variant& v = GetParam();
  solver::Solver solver(v.rules, {.threads = 1, .tt_megabytes = 4, .level_table_seeds = 12});
  for (const std::string& text : random_positions(8, 7)) {
    const oracle::Board board = oracle::parse(text);
    for (const solver::MoveValue& mv : solver.analyze(parse_position(text))) {
      bool extra = false, over = false;
      const oracle::Board child = oracle::play(v.oracle_rules, board, mv.move, extra, over);
      const int cv = oracle::value(v.oracle_rules, child);
      ASSERT_EQ(mv.value, child.south_to_move == board.south_to_move ? cv : -cv) << text << " move " << mv.move;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Congkak, BurntHoles, testing::ValuesIn(variants()),
                         [](const testing::TestParamInfo<Variant>& i) { return i.param.name; });

// The two cases of the adversarial report, as a user types them.
TEST(BurntHolesCli, TheReportedPositionsHaveTheirValues) {
  using namespace cli_harness;
  const json a = run_json({"solve", "--game", "congkak", "--position", "x,30,17/20,13,0 0-0 s"});
  EXPECT_EQ(a.value("value", 0), oracle::value({"congkak"}, oracle::parse("x,30,17/20,13,0 0-0 s")));
  const json b = run_json({"solve", "--game", "congkak", "--capture", "needs-opposite", "--position", "1,0/x,4 2-2 n",
                           "--level-tables", "5"});
  EXPECT_EQ(b.value("value", 0), oracle::value({"congkak", false, "no-capture", true}, oracle::parse("1,0/x,4 2-2 n")));
  EXPECT_EQ(b.value("best_move", 0), 2);
}

}  // namespace
