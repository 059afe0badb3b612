// The probing interfaces against the brute-force oracle: mancala::TableProber
// (mancala/probe.hpp) and the C interface over it (mancala/probe.h, the
// shared libmancala.so), on small table directories of every ruleset built
// here.  Every value and every move value of random positions in the tables
// (non-zero stores, either side to move, finished games) must be the
// oracle's; and every kind of bad input must be refused with its error code
// and a message, the C interface never crashing or writing past a buffer.
//
// The suites are named after the program (probe_api.*, probe_api/ProbeApi.*),
// so that `ctest -R probe_api` selects them all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mancala/notation.hpp"
#include "mancala/probe.h"
#include "mancala/probe.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"
#include "mancala/tables/table_build.hpp"
#include "mancala/tables/table_file.hpp"
#include "mancala/version.hpp"
#include "oracle/oracle.hpp"
#include "temp_dir.hpp"

namespace {

using namespace mancala;
namespace fs = std::filesystem;

struct Variant {
  std::string name;
  Ruleset rules;
  oracle::Rules oracle_rules;
  int pits;
  int max_seeds;
  // How the files store the values; the compressed variants use small
  // blocks (2^10 values), so that a level has many and a probe's cache
  // slots are shared and evicted.
  tables::LevelFormat format = {};
};

tables::LevelFormat zstd_small_blocks() {
  tables::LevelFormat f;
  f.codec = tables::Codec::Zstd;
  f.block_log2 = 10;
  f.zstd_level = 3;
  return f;
}

tables::LevelFormat packed_small_blocks() {
  tables::LevelFormat f;
  f.codec = tables::Codec::Packed;
  f.block_log2 = 10;
  return f;
}

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"kalah_3", {.game = Game::Kalah}, {"kalah"}, 3, 10},
      {"kalah_4", {.game = Game::Kalah}, {"kalah"}, 4, 8},
      {"kalah_empty_capture_3", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, 3, 10},
      {"kalah_empty_capture_4", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, 4, 8},
      {"oware_3", {.game = Game::Oware}, {"oware"}, 3, 9},
      {"oware_grand_slam_forbidden_3", {.game = Game::Oware, .grand_slam = GrandSlam::Forbidden},
       {"oware", false, "forbidden"}, 3, 8},
      {"congkak_3", {.game = Game::Congkak}, {"congkak"}, 3, 10},
      {"congkak_needs_opposite_4",
       {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
       {"congkak", false, "no-capture", true}, 4, 8},
      {"brainking_3", {.game = Game::BrainKing}, {"brainking"}, 3, 10},
      {"brainking_4", {.game = Game::BrainKing}, {"brainking"}, 4, 8},
      // The same values through compressed files (decoded block by block).
      {"kalah_4_zstd", {.game = Game::Kalah}, {"kalah"}, 4, 10, zstd_small_blocks()},
      {"oware_3_zstd", {.game = Game::Oware}, {"oware"}, 3, 10, zstd_small_blocks()},
      {"congkak_3_zstd", {.game = Game::Congkak}, {"congkak"}, 3, 11, zstd_small_blocks()},
      {"brainking_3_zstd", {.game = Game::BrainKing}, {"brainking"}, 3, 11, zstd_small_blocks()},
      // And through packed files (read in place, a value at a time).
      {"kalah_4_packed", {.game = Game::Kalah}, {"kalah"}, 4, 10, packed_small_blocks()},
      {"kalah_empty_capture_3_packed", {.game = Game::Kalah, .empty_capture = true}, {"kalah", true}, 3, 11, packed_small_blocks()},
      {"oware_3_packed", {.game = Game::Oware}, {"oware"}, 3, 10, packed_small_blocks()},
      {"congkak_3_packed", {.game = Game::Congkak}, {"congkak"}, 3, 11, packed_small_blocks()},
  };
  return v;
}

// A position in the notation with `seeds` seeds scattered over the 2m pits
// (or, with `empty_row` 0 or 1, over the other row only: the game is over
// or, in some rules, about to be), random stores, either side to move.
std::string random_position(std::mt19937& rng, int m, int seeds, int empty_row = -1) {
  std::vector<int> pits(std::size_t(2 * m), 0);
  for (int s = 0; s < seeds; ++s) {
    int i = std::uniform_int_distribution<int>(0, 2 * m - 1)(rng);
    if (empty_row >= 0 && i / m == empty_row) i = (i + m) % (2 * m);
    ++pits[std::size_t(i)];
  }
  std::uniform_int_distribution<int> store(0, 7), side(0, 1);
  std::string text;
  for (int i = 0; i < 2 * m; ++i) {
    if (i) text += i == m ? '/' : ',';
    text += std::to_string(pits[std::size_t(i)]);
  }
  const int south_store = store(rng), north_store = store(rng);
  text += ' ';
  text += std::to_string(south_store);
  text += '-';
  text += std::to_string(north_store);
  text += side(rng) ? " n" : " s";
  return text;
}

// The oracle's answer for a position: its value, and every legal move's
// value seen by the position's player to move.
struct Expected {
  int value;
  bool terminal;
  std::vector<std::pair<int, int>> moves;  // (pit, value)
  int best_move;                           // the lowest best pit, 0 when over
};

Expected oracle_answer(const oracle::Rules& rules, const std::string& text) {
  const oracle::Board b = oracle::parse(text);
  Expected e{oracle::value(rules, b), oracle::terminal(rules, b), {}, 0};
  if (e.terminal) {
    EXPECT_EQ(e.value, oracle::final_value(b)) << text;
    return e;
  }
  for (int pit : oracle::legal_moves(rules, b)) {
    bool extra = false, over = false;
    const oracle::Board child = oracle::play(rules, b, pit, extra, over);
    const int cv = oracle::value(rules, child);
    const int v = child.south_to_move == b.south_to_move ? cv : -cv;
    e.moves.emplace_back(pit, v);
    if (!e.best_move && v == e.value) e.best_move = pit;
  }
  return e;
}

// A table directory for a variant, built once for the whole test program.
const fs::path& tables_of(const Variant& v) {
  static std::vector<std::unique_ptr<TempDir>> dirs;
  static std::map<std::string, fs::path> built;
  auto it = built.find(v.name);
  if (it == built.end()) {
    dirs.push_back(std::make_unique<TempDir>("mancala_probe_api_" + v.name));
    tables::build_tables(dirs.back()->path(), v.rules, v.pits, v.max_seeds, nullptr, nullptr, v.format);
    it = built.emplace(v.name, dirs.back()->path()).first;
  }
  return it->second;
}

class ProbeApi : public testing::TestWithParam<Variant> {};

// Random positions of every level, finished ones among them, against the
// oracle through both interfaces; the C answers must be the C++ ones.
TEST_P(ProbeApi, EveryValueAndMoveValueIsTheOracles) {
  const Variant& v = GetParam();
  const fs::path& dir = tables_of(v);
  std::string error;
  const auto prober = TableProber::open(dir, error);
  ASSERT_TRUE(prober) << error;
  EXPECT_EQ(prober->rules(), v.rules);
  EXPECT_EQ(prober->pits_per_side(), v.pits);
  EXPECT_EQ(prober->max_seeds(), v.max_seeds);
  for (int k = 0; k <= v.max_seeds; ++k)  // the path under test is the one asked for
    EXPECT_EQ(tables::read_header(tables::level_path(dir, k)).codec, v.format.codec) << "level " << k;

  char err[256];
  mancala_tables* t = mancala_open_tables(dir.c_str(), err, sizeof err);
  ASSERT_NE(t, nullptr) << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(mancala_tables_ruleset(t), v.rules.digest());
  EXPECT_EQ(mancala_tables_pits_per_side(t), v.pits);
  EXPECT_EQ(mancala_tables_max_seeds(t), v.max_seeds);

  std::mt19937 rng(std::hash<std::string>{}(v.name) & 0xffffffu);
  std::vector<std::string> positions;
  for (int seeds = 0; seeds <= v.max_seeds; ++seeds)
    for (int i = 0; i < 14; ++i) positions.push_back(random_position(rng, v.pits, seeds));
  for (int i = 0; i < 20; ++i) positions.push_back(random_position(rng, v.pits, 1 + i % v.max_seeds, i % 2));
  positions.push_back(random_position(rng, v.pits, v.max_seeds));

  int terminal = 0, north = 0, stores = 0;
  for (const std::string& text : positions) {
    SCOPED_TRACE(text);
    const Expected e = oracle_answer(v.oracle_rules, text);
    const Position p = parse_position(text);
    terminal += e.terminal;
    north += p.to_move == Side::North;
    stores += p.store_difference() != 0;

    const ProbeAnswer a = prober->probe(text);
    ASSERT_TRUE(a) << a.error;
    EXPECT_EQ(a.result->value, e.value);
    EXPECT_EQ(a.result->outcome, outcome_of(e.value));
    EXPECT_EQ(a.result->best_move, e.best_move);
    ASSERT_EQ(a.result->moves.size(), e.moves.size());
    for (std::size_t i = 0; i < e.moves.size(); ++i) {
      EXPECT_EQ(a.result->moves[i].pit, e.moves[i].first);
      EXPECT_EQ(a.result->moves[i].value, e.moves[i].second) << "move " << e.moves[i].first;
    }
    // The same through the Position overload.
    const ProbeAnswer b = prober->probe(p);
    ASSERT_TRUE(b) << b.error;
    EXPECT_EQ(b.result->value, e.value);

    int value = 999, best = 999;
    ASSERT_EQ(mancala_probe(t, text.c_str(), &value, &best, err, sizeof err), MANCALA_OK) << err;
    EXPECT_STREQ(err, "");
    EXPECT_EQ(value, e.value);
    EXPECT_EQ(best, e.best_move);
    EXPECT_EQ(mancala_outcome(value), int(outcome_of(e.value)));

    int pits[MANCALA_MAX_MOVES], values[MANCALA_MAX_MOVES];
    std::size_t count = 999;
    ASSERT_EQ(mancala_probe_moves(t, text.c_str(), pits, values, MANCALA_MAX_MOVES, &count, err, sizeof err), MANCALA_OK)
        << err;
    ASSERT_EQ(count, e.moves.size());
    int best_value = -1000;
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(pits[i], e.moves[i].first);
      EXPECT_EQ(values[i], e.moves[i].second) << "move " << pits[i];
      best_value = std::max(best_value, values[i]);
    }
    if (count) {
      EXPECT_EQ(best_value, value);
    }
  }
  // What the positions were meant to include, they did.
  EXPECT_GT(terminal, 10);
  EXPECT_GT(north, int(positions.size()) / 4);
  EXPECT_GT(stores, int(positions.size()) / 2);
  mancala_close_tables(t);
}

// The solver with the files as its endgame tables (solve --tables): roots a
// few seeds above the tables, so that the search probes them (a compressed
// level is probed through its block cache, a raw one read in place).
TEST_P(ProbeApi, TheSolverThroughTheFilesIsTheOracle) {
  const Variant& v = GetParam();
  const solver::DirectoryTables files(tables_of(v), v.rules, v.pits);
  solver::Solver s(v.rules, {.threads = 2, .tt_megabytes = 8, .tables = &files});
  std::mt19937 rng(std::hash<std::string>{}(v.name) & 0xffffu);
  for (int i = 0; i < 40; ++i) {
    const std::string text = random_position(rng, v.pits, v.max_seeds + 1 + i % 2);
    SCOPED_TRACE(text);
    const solver::SolveResult r = s.solve(parse_position(text));
    EXPECT_EQ(r.value, oracle::value(v.oracle_rules, oracle::parse(text)));
    if (v.rules.game == Game::Oware)  // the solver builds Oware's levels up to the root's in memory
      EXPECT_GE(r.level_tables, v.max_seeds);
    else
      EXPECT_EQ(r.level_tables, v.max_seeds) << "the files were not used";
  }
}

INSTANTIATE_TEST_SUITE_P(probe_api, ProbeApi, testing::ValuesIn(variants()),
                         [](const testing::TestParamInfo<Variant>& i) { return i.param.name; });

// ---------------------------------------------------------------- by hand

const Variant& kalah3() { return variants()[0]; }  // Kalah, 3 pits, 10 seeds

// Kalah(3) positions whose answers are worked out by hand.
TEST(probe_api, HandWorkedPositions) {
  char err[128];
  mancala_tables* t = mancala_open_tables(tables_of(kalah3()).c_str(), err, sizeof err);
  ASSERT_NE(t, nullptr) << err;
  int value = 0, best = -1;
  // South's pit 3 (next to the store) sows its one seed into the store and
  // empties South's row: the game is over, North's 1 seed to North, 1-1;
  // the best move is 3, the only one.
  ASSERT_EQ(mancala_probe(t, "0,0,1/1,0,0 0-0 s", &value, &best, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(value, 0);
  EXPECT_EQ(best, 3);
  // Over already (South's row empty): each row to its owner, stores kept.
  ASSERT_EQ(mancala_probe(t, "0,0,0/2,1,0 5-1 s", &value, &best, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(value, 5 - (1 + 3));
  EXPECT_EQ(best, 0);
  EXPECT_EQ(mancala_outcome(value), MANCALA_WIN);
  // The same with North to move: the value is North's.
  ASSERT_EQ(mancala_probe(t, "0,0,0/2,1,0 5-1 n", &value, &best, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(value, (1 + 3) - 5);
  EXPECT_EQ(best, 0);
  EXPECT_EQ(mancala_outcome(value), MANCALA_LOSS);
  int pits[4] = {7, 7, 7, 7}, values[4] = {7, 7, 7, 7};
  std::size_t count = 9;
  ASSERT_EQ(mancala_probe_moves(t, "0,0,0/2,1,0 5-1 n", pits, values, 4, &count, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(pits[0], 7);
  // No arrays at all are fine for a finished position.
  count = 9;
  ASSERT_EQ(mancala_probe_moves(t, "0,0,0/2,1,0 5-1 n", nullptr, nullptr, 0, &count, err, sizeof err), MANCALA_OK);
  EXPECT_EQ(count, 0u);
  // An empty board: over, a draw at 0-0.
  ASSERT_EQ(mancala_probe(t, "0,0,0/0,0,0 0-0 s", &value, &best, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(value, 0);
  EXPECT_EQ(best, 0);
  EXPECT_EQ(mancala_outcome(value), MANCALA_DRAW);
  // Outputs not wanted may be NULL.
  EXPECT_EQ(mancala_probe(t, "1,1,1/1,1,1 0-0 s", nullptr, nullptr, nullptr, 0), MANCALA_OK);
  mancala_close_tables(t);
}

TEST(probe_api, VersionAndNames) {
  EXPECT_STREQ(mancala_version(), mancala::version());
  const std::string version = mancala_version();
  EXPECT_EQ(std::count(version.begin(), version.end(), '.'), 2) << version;
  EXPECT_EQ(version.find_first_not_of("0123456789."), std::string::npos) << version;
  // (Not compared with mancala::source_commit(): this program's engine and
  // the shared library's are linked separately, and a partial build may
  // leave one a commit behind.)
  // (std::regex is avoided: GCC 12's <regex> trips -Wmaybe-uninitialized
  // in sanitizer builds.)
  std::string commit = mancala_source_commit();
  if (commit != "unknown") {
    if (commit.size() > 6 && commit.substr(commit.size() - 6) == "+dirty") commit.resize(commit.size() - 6);
    EXPECT_EQ(commit.size(), 12u) << mancala_source_commit();
    EXPECT_EQ(commit.find_first_not_of("0123456789abcdef"), std::string::npos) << mancala_source_commit();
  }
  EXPECT_EQ(MANCALA_OK, 0);
  std::vector<std::string> names;
  for (int code : {MANCALA_OK, MANCALA_ERR_ARGUMENT, MANCALA_ERR_POSITION, MANCALA_ERR_NOT_COVERED, MANCALA_ERR_TABLE,
                   MANCALA_ERR_CAPACITY, MANCALA_ERR_INTERNAL}) {
    const std::string name = mancala_error_name(code);
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 0) << name;
    EXPECT_NE(name, "unknown error");
    names.push_back(name);
  }
  EXPECT_STREQ(mancala_error_name(0), "ok");
  EXPECT_STREQ(mancala_error_name(12345), "unknown error");
  EXPECT_STREQ(mancala_error_name(-1), "unknown error");
  EXPECT_EQ(mancala_outcome(7), MANCALA_WIN);
  EXPECT_EQ(mancala_outcome(0), MANCALA_DRAW);
  EXPECT_EQ(mancala_outcome(-2), MANCALA_LOSS);
  EXPECT_EQ(MANCALA_WIN, 1);
  EXPECT_EQ(MANCALA_LOSS, -1);
}

// Probes from several threads at once, on one handle (levels opening on
// first use while other threads probe): the answers of one thread.
TEST(probe_api, OneHandleFromSeveralThreads) {
  const Variant& v = variants()[1];  // Kalah, 4 pits
  std::mt19937 rng(5);
  std::vector<std::string> positions;
  for (int i = 0; i < 300; ++i) positions.push_back(random_position(rng, v.pits, i % (v.max_seeds + 1)));
  std::vector<int> expected;
  {
    mancala_tables* t = mancala_open_tables(tables_of(v).c_str(), nullptr, 0);
    ASSERT_NE(t, nullptr);
    for (const std::string& p : positions) {
      int value = 0;
      ASSERT_EQ(mancala_probe(t, p.c_str(), &value, nullptr, nullptr, 0), MANCALA_OK);
      expected.push_back(value);
    }
    mancala_close_tables(t);
  }
  mancala_tables* t = mancala_open_tables(tables_of(v).c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (std::size_t i = 0; i < positions.size(); ++i) {
        const std::size_t j = (i * 7 + std::size_t(k) * 31) % positions.size();
        int value = 0;
        char err[64];
        if (mancala_probe(t, positions[j].c_str(), &value, nullptr, err, sizeof err) != MANCALA_OK ||
            value != expected[j])
          ++wrong[std::size_t(k)];
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  mancala_close_tables(t);
}

// ---------------------------------------------------------------- refusals

// Copies a table directory's level files (not its lock or times).
void copy_tables(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from))
    if (entry.path().extension() == ".mtb") fs::copy_file(entry.path(), to / entry.path().filename());
}

// Opening fails in both interfaces, each with a message containing `words`.
void expect_open_refused(const fs::path& dir, const std::string& words) {
  std::string error;
  EXPECT_EQ(TableProber::open(dir, error), nullptr) << dir;
  EXPECT_NE(error.find(words), std::string::npos) << error;
  char err[512];
  std::memset(err, 'z', sizeof err);
  EXPECT_EQ(mancala_open_tables(dir.c_str(), err, sizeof err), nullptr) << dir;
  EXPECT_EQ(std::string(err), error);
}

// A probe refused by both interfaces: C returns `code`, both messages
// contain `words` (and are the same), the outputs stay as they were.
void expect_probe_refused(const TableProber& prober, const mancala_tables* t, const std::string& position, int code,
                          const std::string& words) {
  SCOPED_TRACE(position);
  const ProbeAnswer a = prober.probe(position);
  EXPECT_FALSE(a);
  EXPECT_NE(a.error.find(words), std::string::npos) << a.error;

  char err[512];
  std::memset(err, 'z', sizeof err);
  int value = 12345, best = 6789;
  EXPECT_EQ(mancala_probe(t, position.c_str(), &value, &best, err, sizeof err), code);
  EXPECT_EQ(std::string(err), a.error);
  EXPECT_EQ(value, 12345);
  EXPECT_EQ(best, 6789);
  int pits[MANCALA_MAX_MOVES] = {41}, values[MANCALA_MAX_MOVES] = {42};
  std::size_t count = 4343;
  std::memset(err, 'z', sizeof err);
  EXPECT_EQ(mancala_probe_moves(t, position.c_str(), pits, values, MANCALA_MAX_MOVES, &count, err, sizeof err), code);
  EXPECT_EQ(std::string(err), a.error);
  EXPECT_EQ(count, 4343u);
  EXPECT_EQ(pits[0], 41);
  EXPECT_EQ(values[0], 42);
}

// The same, with the tables of `dir` opened for it.
void expect_probe_refused(const fs::path& dir, const std::string& position, int code, const std::string& words) {
  std::string error;
  const auto prober = TableProber::open(dir, error);
  ASSERT_TRUE(prober) << error;
  mancala_tables* t = mancala_open_tables(dir.c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  expect_probe_refused(*prober, t, position, code, words);
  mancala_close_tables(t);
}

TEST(probe_api, MissingEmptyAndForeignDirectories) {
  TempDir work{"mancala_probe_api_bad"};
  expect_open_refused(work.path() / "nowhere", "nowhere");
  fs::create_directories(work.path() / "empty");
  expect_open_refused(work.path() / "empty", "level");
  // A directory of other files.
  fs::create_directories(work.path() / "other");
  std::ofstream(work.path() / "other" / "notes.txt") << "not a table\n";
  expect_open_refused(work.path() / "other", "level");
  // A level 0 that is not a table file.
  fs::create_directories(work.path() / "garbage");
  std::ofstream(tables::level_path(work.path() / "garbage", 0), std::ios::binary) << "MNCL? no, just text\n";
  expect_open_refused(work.path() / "garbage", "level_000.mtb");
  // A regular file given as the directory.
  expect_open_refused(work.path() / "other" / "notes.txt", "notes.txt");
}

// Flips the last byte of a file (a level file's last value).
void flip_last_byte(const fs::path& file) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(-1, std::ios::end);
  const char c = char(f.get());
  f.seekp(-1, std::ios::end);
  f.put(char(c ^ 0x5a));
}

TEST(probe_api, CorruptAndTruncatedLevelFiles) {
  const Variant& v = kalah3();
  TempDir work{"mancala_probe_api_bad"};
  // Opening reads every level's header: a truncated level, or one that is
  // not a table file, is refused at once.
  const fs::path truncated = work.path() / "truncated";
  copy_tables(tables_of(v), truncated);
  const fs::path five = tables::level_path(truncated, 5);
  fs::resize_file(five, fs::file_size(five) / 2);
  expect_open_refused(truncated, "level_005.mtb");
  const fs::path text = work.path() / "text";
  copy_tables(tables_of(v), text);
  std::ofstream(tables::level_path(text, 6), std::ios::binary | std::ios::trunc)
      << "not a level file at all, but long enough to have a header's worth of bytes in it.............\n";
  expect_open_refused(text, "level_006.mtb");
  const fs::path zero = work.path() / "zero";
  copy_tables(tables_of(v), zero);
  fs::resize_file(tables::level_path(zero, 0), fs::file_size(tables::level_path(zero, 0)) - 1);
  expect_open_refused(zero, "level_000.mtb");
  // A gap: level 3 missing.
  const fs::path gap = work.path() / "gap";
  copy_tables(tables_of(v), gap);
  fs::remove(tables::level_path(gap, 3));
  expect_open_refused(gap, "lacks level_003.mtb");

  // A payload that does not match its hash is found when the level is
  // first used, and only that level is refused.
  const fs::path corrupt = work.path() / "corrupt";
  copy_tables(tables_of(v), corrupt);
  flip_last_byte(tables::level_path(corrupt, 5));
  expect_probe_refused(corrupt, "2,1,1/0,1,0 0-0 s", MANCALA_ERR_TABLE, "level_005.mtb");
  {
    mancala_tables* t = mancala_open_tables(corrupt.c_str(), nullptr, 0);
    ASSERT_NE(t, nullptr);
    int value = 0;
    EXPECT_EQ(mancala_probe(t, "1,1,1/0,0,1 0-0 s", &value, nullptr, nullptr, 0), MANCALA_OK);
    EXPECT_EQ(value, oracle::value(v.oracle_rules, oracle::parse("1,1,1/0,0,1 0-0 s")));
    // Asked again, refused again.
    EXPECT_EQ(mancala_probe(t, "2,1,1/0,1,0 0-0 s", &value, nullptr, nullptr, 0), MANCALA_ERR_TABLE);
    mancala_close_tables(t);
  }

  // A level truncated after the tables were opened, before its first use
  // (copied, then cut in half: the copy is not mapped by anyone yet).
  const fs::path late = work.path() / "late";
  copy_tables(tables_of(v), late);
  std::string error;
  const auto prober = TableProber::open(late, error);
  ASSERT_TRUE(prober) << error;
  mancala_tables* t = mancala_open_tables(late.c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  const fs::path seven = tables::level_path(late, 7);
  fs::resize_file(seven, fs::file_size(seven) / 2);
  expect_probe_refused(*prober, t, "2,1,1/1,1,1 0-0 s", MANCALA_ERR_TABLE, "level_007.mtb");
  int value = 0;
  EXPECT_EQ(mancala_probe(t, "2,1,1/1,1,0 0-0 s", &value, nullptr, nullptr, 0), MANCALA_OK);
  mancala_close_tables(t);
}

TEST(probe_api, PositionsTheTablesDoNotHold) {
  const fs::path& dir = tables_of(kalah3());  // Kalah, 3 pits, 10 seeds
  // Another board width.
  expect_probe_refused(dir, "1,1,1,1/1,1,1,1 0-0 s", MANCALA_ERR_NOT_COVERED, "pits");
  expect_probe_refused(dir, "1,1/1,1 0-0 s", MANCALA_ERR_NOT_COVERED, "pits");
  // More seeds on the board than the tables hold (stores do not count).
  expect_probe_refused(dir, "4,4,3/0,0,0 0-0 s", MANCALA_ERR_NOT_COVERED, "seeds");
  expect_probe_refused(dir, "5,5,1/0,0,0 0-0 n", MANCALA_ERR_NOT_COVERED, "seeds");
  int value = 0;
  mancala_tables* t = mancala_open_tables(dir.c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(mancala_probe(t, "4,3,3/0,0,0 50-60 n", &value, nullptr, nullptr, 0), MANCALA_OK);
  mancala_close_tables(t);
  // Burnt holes: no position of Kalah...
  expect_probe_refused(dir, "x,1,1/1,1,1 0-0 s", MANCALA_ERR_POSITION, "burnt");
  // ...and a Congkak position, but not on the tables, which hold boards
  // without burnt holes.
  expect_probe_refused(tables_of(variants()[6]), "x,1,1/1,1,1 0-0 s", MANCALA_ERR_NOT_COVERED, "burnt");
}

TEST(probe_api, MalformedPositions) {
  const fs::path& dir = tables_of(kalah3());
  for (const char* text : {"", "hello", "1,1,1/1,1,1 0-0", "1,1,1/1,1,1 0-0 s ", "01,1,1/1,1,1 0-0 s",
                           "1,1,1/1,1,1 0-0 w", "1,1,1/1,1 0-0 s", "1,-1,1/1,1,1 0-0 s", "1,1,1/1,1,1 0+0 s",
                           "1,1,1/1,1,1  0-0 s", "1,1,1/1,1,1 0-0 s\n", "1,1,1/1,1,1 999-0 s"}) {
    std::string error;
    const auto prober = TableProber::open(dir, error);
    ASSERT_TRUE(prober) << error;
    const ProbeAnswer a = prober->probe(text);
    EXPECT_FALSE(a) << text;
    EXPECT_FALSE(a.error.empty()) << text;
    expect_probe_refused(dir, text, MANCALA_ERR_POSITION, "");
  }
}

TEST(probe_api, NullArgumentsAreErrorsNotCrashes) {
  const fs::path& dir = tables_of(kalah3());
  char err[128];
  EXPECT_EQ(mancala_open_tables(nullptr, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("NULL"), std::string::npos) << err;
  EXPECT_EQ(mancala_open_tables(nullptr, nullptr, 0), nullptr);
  mancala_close_tables(nullptr);

  int value = 5, best = 6;
  std::size_t count = 7;
  int pits[MANCALA_MAX_MOVES], values[MANCALA_MAX_MOVES];
  EXPECT_EQ(mancala_probe(nullptr, "1,1,1/1,1,1 0-0 s", &value, &best, err, sizeof err), MANCALA_ERR_ARGUMENT);
  EXPECT_NE(std::string(err).find("NULL"), std::string::npos) << err;
  EXPECT_EQ(mancala_probe(nullptr, nullptr, nullptr, nullptr, nullptr, 0), MANCALA_ERR_ARGUMENT);
  EXPECT_EQ(mancala_probe_moves(nullptr, "1,1,1/1,1,1 0-0 s", pits, values, 16, &count, err, sizeof err),
            MANCALA_ERR_ARGUMENT);
  EXPECT_EQ(mancala_tables_ruleset(nullptr), nullptr);
  EXPECT_EQ(mancala_tables_pits_per_side(nullptr), -1);
  EXPECT_EQ(mancala_tables_max_seeds(nullptr), -1);

  mancala_tables* t = mancala_open_tables(dir.c_str(), err, sizeof err);
  ASSERT_NE(t, nullptr) << err;
  EXPECT_EQ(mancala_probe(t, nullptr, &value, &best, err, sizeof err), MANCALA_ERR_ARGUMENT);
  EXPECT_NE(std::string(err).find("NULL"), std::string::npos) << err;
  EXPECT_EQ(mancala_probe_moves(t, nullptr, pits, values, 16, &count, err, sizeof err), MANCALA_ERR_ARGUMENT);
  EXPECT_EQ(mancala_probe_moves(t, "1,1,1/1,1,1 0-0 s", pits, values, 16, nullptr, err, sizeof err),
            MANCALA_ERR_ARGUMENT);
  EXPECT_EQ(mancala_probe_moves(t, "1,1,1/1,1,1 0-0 s", nullptr, values, 16, &count, err, sizeof err),
            MANCALA_ERR_ARGUMENT);
  EXPECT_EQ(mancala_probe_moves(t, "1,1,1/1,1,1 0-0 s", pits, nullptr, 16, &count, err, sizeof err),
            MANCALA_ERR_ARGUMENT);
  // A position with moves and no arrays: too small, the count still told.
  EXPECT_EQ(mancala_probe_moves(t, "1,1,1/1,1,1 0-0 s", nullptr, nullptr, 0, &count, err, sizeof err),
            MANCALA_ERR_CAPACITY);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(value, 5);
  EXPECT_EQ(best, 6);
  mancala_close_tables(t);
}

TEST(probe_api, ErrorBuffersAreTruncatedAndTerminated) {
  const fs::path& dir = tables_of(kalah3());
  mancala_tables* t = mancala_open_tables(dir.c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  const char* bad = "1,1,1,1/1,1,1,1 0-0 s";
  char full[512];
  ASSERT_EQ(mancala_probe(t, bad, nullptr, nullptr, full, sizeof full), MANCALA_ERR_NOT_COVERED);
  ASSERT_GT(std::strlen(full), 10u);

  char buf[16];
  // Length 0: nothing written.
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, buf, 0), MANCALA_ERR_NOT_COVERED);
  EXPECT_EQ(std::string(buf, sizeof buf), std::string(sizeof buf, 'z'));
  // Length 5: four bytes of the message and the terminator, nothing past.
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, buf, 5), MANCALA_ERR_NOT_COVERED);
  EXPECT_EQ(std::string(buf), std::string(full, 4));
  EXPECT_EQ(buf[4], '\0');
  EXPECT_EQ(std::string(buf + 5, sizeof buf - 5), std::string(sizeof buf - 5, 'z'));
  // Length 1: just the terminator.
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, buf, 1), MANCALA_ERR_NOT_COVERED);
  EXPECT_EQ(buf[0], '\0');
  EXPECT_EQ(buf[1], 'z');
  // NULL with a length: nothing written, no crash.
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, nullptr, 100), MANCALA_ERR_NOT_COVERED);
  // A message exactly filling the buffer, and one byte short of it.
  const std::size_t n = std::strlen(full);
  std::vector<char> exact(n + 1, 'z'), shorter(n, 'z');
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, exact.data(), exact.size()), MANCALA_ERR_NOT_COVERED);
  EXPECT_STREQ(exact.data(), full);
  EXPECT_EQ(mancala_probe(t, bad, nullptr, nullptr, shorter.data(), shorter.size()), MANCALA_ERR_NOT_COVERED);
  EXPECT_EQ(std::string(shorter.data()), std::string(full, n - 1));
  // Opening, too.
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_open_tables("no/such/table/directory/anywhere", buf, 5), nullptr);
  EXPECT_EQ(std::strlen(buf), 4u);
  EXPECT_EQ(buf[5], 'z');
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_open_tables("no/such/table/directory/anywhere", buf, 0), nullptr);
  EXPECT_EQ(buf[0], 'z');
  // Success clears the message.
  std::memset(buf, 'z', sizeof buf);
  EXPECT_EQ(mancala_probe(t, "1,1,1/1,1,1 0-0 s", nullptr, nullptr, buf, sizeof buf), MANCALA_OK);
  EXPECT_EQ(buf[0], '\0');
  mancala_close_tables(t);
}

TEST(probe_api, MoveArraysTooSmall) {
  const Variant& v = kalah3();
  mancala_tables* t = mancala_open_tables(tables_of(v).c_str(), nullptr, 0);
  ASSERT_NE(t, nullptr);
  const char* position = "1,2,0/1,1,1 2-1 n";  // North to move, three moves
  int pits[3] = {-7, -7, -7}, values[3] = {-7, -7, -7};
  std::size_t count = 0;
  char err[128];
  for (std::size_t capacity : {0u, 1u, 2u}) {
    count = 0;
    EXPECT_EQ(mancala_probe_moves(t, position, pits, values, capacity, &count, err, sizeof err), MANCALA_ERR_CAPACITY);
    EXPECT_EQ(count, 3u);
    EXPECT_NE(std::string(err).find("3 moves"), std::string::npos) << err;
    EXPECT_EQ(pits[0], -7);  // nothing written on the error
    EXPECT_EQ(values[0], -7);
  }
  ASSERT_EQ(mancala_probe_moves(t, position, pits, values, 3, &count, err, sizeof err), MANCALA_OK) << err;
  EXPECT_EQ(count, 3u);
  const Expected e = oracle_answer(v.oracle_rules, position);
  ASSERT_EQ(e.moves.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(pits[i], e.moves[i].first);
    EXPECT_EQ(values[i], e.moves[i].second);
  }
  mancala_close_tables(t);
}

}  // namespace
