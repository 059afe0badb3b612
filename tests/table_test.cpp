// Endgame table files: format round trip, refusal of bad files, byte-identical
// builds for any thread count and after an interrupted build, the verifier,
// and tables against the solver.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "temp_dir.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/tables/table_build.hpp"
#include "mancala/tables/table_check.hpp"
#include "mancala/tables/table_directory.hpp"

namespace {

using namespace mancala;
namespace fs = std::filesystem;

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void overwrite_byte(const fs::path& file, std::size_t offset, char value) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(offset));
  f.put(value);
}

std::string all_levels(const fs::path& dir, int max_seeds) {
  std::string s;
  for (int k = 0; k <= max_seeds; ++k) s += bytes_of(tables::level_path(dir, k));
  return s;
}

void expect_refused(const std::function<void()>& f, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected: " << words;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

const Ruleset kOware{.game = Game::Oware};
const Ruleset kKalah{.game = Game::Kalah};

TEST(TableFile, RoundTrip) {
  TempDir dir{"mancala_table_test"};
  fs::create_directories(dir.path());
  const tables::BoardIndex index(6, 4);
  std::vector<std::int8_t> values(index.level_size(4));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::int8_t(int(i % 9) - 4);
  tables::write_level(dir.path(), kOware, 3, 4, values);
  const tables::MappedLevel level(tables::level_path(dir.path(), 4), kOware, 3, 4);
  ASSERT_EQ(level.size(), values.size());
  EXPECT_TRUE(std::equal(values.begin(), values.end(), level.values()));
  EXPECT_EQ(level.header().digest, "oware");
  EXPECT_FALSE(fs::exists(tables::level_path(dir.path(), 4).string() + ".tmp"));
}

// The streaming writer (for builders that never hold a whole level) gives
// the bytes of write_level(), whatever the pieces it is handed.
TEST(TableFile, StreamingWriterWritesTheSameBytes) {
  TempDir whole, pieces;
  fs::create_directories(whole.path());
  const tables::BoardIndex index(8, 6);
  std::vector<std::int8_t> values(index.level_size(6));
  std::mt19937 rng(7);
  for (auto& v : values) v = std::int8_t(int(rng() % 13) - 6);
  tables::write_level(whole.path(), kKalah, 4, 6, values);
  const std::string want = bytes_of(tables::level_path(whole.path(), 6));
  for (std::size_t piece : {std::size_t(1), std::size_t(7), std::size_t(1000), values.size()}) {
    fs::remove_all(pieces.path());
    fs::create_directories(pieces.path());
    tables::LevelFileWriter writer(pieces.path(), kKalah, 4, 6, values.size());
    writer.append(values.data(), 0);
    for (std::size_t at = 0; at < values.size(); at += piece) writer.append(values.data() + at, std::min(piece, values.size() - at));
    EXPECT_FALSE(fs::exists(tables::level_path(pieces.path(), 6))) << "in place before finish()";
    writer.finish();
    EXPECT_EQ(bytes_of(tables::level_path(pieces.path(), 6)), want) << "pieces of " << piece;
    EXPECT_FALSE(fs::exists(tables::level_path(pieces.path(), 6).string() + ".tmp"));
  }
  // Too few or too many values are refused, and an unfinished writer leaves
  // no level file.
  fs::remove_all(pieces.path());
  fs::create_directories(pieces.path());
  {
    tables::LevelFileWriter writer(pieces.path(), kKalah, 4, 6, values.size());
    writer.append(values.data(), values.size() - 1);
    EXPECT_THROW(writer.finish(), std::logic_error);
  }
  {
    tables::LevelFileWriter writer(pieces.path(), kKalah, 4, 6, values.size());
    EXPECT_THROW(writer.append(values.data(), values.size() + 1), std::logic_error);
  }
  EXPECT_FALSE(fs::exists(tables::level_path(pieces.path(), 6)));
}

TEST(TableFile, BadFilesAreRefusedWithTheirName) {
  TempDir dir{"mancala_table_test"};
  tables::build_tables(dir.path(), kOware, 3, 6);
  const fs::path file = tables::level_path(dir.path(), 6);
  const std::string good = bytes_of(file);
  auto restore = [&] { std::ofstream(file, std::ios::binary | std::ios::trunc) << good; };
  auto open = [&] { tables::MappedLevel(file, kOware, 3, 6); };

  overwrite_byte(file, good.size() - 1, char(good.back() ^ 1));
  expect_refused(open, "block 0 checksum mismatch");
  restore();
  overwrite_byte(file, 30, char(good[30] ^ 1));
  expect_refused(open, "level_006.mtb");
  restore();
  fs::resize_file(file, good.size() - 1);
  expect_refused(open, "truncated");
  restore();
  overwrite_byte(file, 0, 'X');
  expect_refused(open, "bad magic");
  restore();
  expect_refused([&] { tables::MappedLevel(file, kKalah, 3, 6); }, "built for ruleset 'oware'");
  expect_refused([&] { tables::MappedLevel(file, Ruleset{.game = Game::Oware, .grand_slam = GrandSlam::Forbidden}, 3, 6); },
                 "not 'oware+grand-slam=forbidden'");
  expect_refused([&] { tables::MappedLevel(file, kOware, 3, 5); }, "holds level 6");
  expect_refused([&] { tables::TableDirectory(dir.path(), kKalah, 3); }, "built for ruleset 'oware'");
  expect_refused([&] { tables::TableDirectory(dir.path(), kOware, 4); }, "pits a side");
  expect_refused([&] { tables::TableDirectory(dir.path() / "missing", kOware, 3); }, "does not exist");
  std::ofstream(file, std::ios::binary | std::ios::trunc);  // empty
  expect_refused(open, "empty file");
}

TEST(TableBuild, ByteIdenticalForAnyThreadCount) {
  for (const Ruleset& rules : {kOware, kKalah, Ruleset{.game = Game::Congkak}}) {
    TempDir one, two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      tables::build_tables(one.path(), rules, 3, 9);
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      tables::build_tables(two.path(), rules, 3, 9);
    }
    EXPECT_EQ(all_levels(one.path(), 9), all_levels(two.path(), 9)) << rules.digest();
  }
}

TEST(TableBuild, ResumesFromTheLastCompleteLevelWithIdenticalFiles) {
  TempDir full, resumed;
  tables::build_tables(full.path(), kOware, 3, 9);
  tables::build_tables(resumed.path(), kOware, 3, 5);
  // An interrupted write leaves only a .tmp file behind.
  std::ofstream(tables::level_path(resumed.path(), 6).string() + ".tmp") << "half a file";
  const auto report = tables::build_tables(resumed.path(), kOware, 3, 9);
  EXPECT_TRUE(report[5].reused);
  EXPECT_FALSE(report[6].reused);
  EXPECT_EQ(all_levels(full.path(), 9), all_levels(resumed.path(), 9));
  // A corrupt complete level is an error, never silently rebuilt over.
  overwrite_byte(tables::level_path(resumed.path(), 3), bytes_of(tables::level_path(resumed.path(), 3)).size() - 1, 9);
  expect_refused([&] { tables::build_tables(resumed.path(), kOware, 3, 9); }, "level_003.mtb");
}

TEST(TableBuild, RefusesWhatCannotFit) {
  TempDir dir{"mancala_table_test"};
  expect_refused([&] { tables::build_tables(dir.path(), kOware, 6, 127); }, "memory");
  expect_refused([&] { tables::build_tables(dir.path(), kOware, 6, 200); }, "--max-seeds");
}

TEST(TableVerify, AcceptsABuildAndFindsAWrongValueWithAValidChecksum) {
  TempDir dir{"mancala_table_test"};
  tables::build_tables(dir.path(), kKalah, 3, 8);
  EXPECT_NO_THROW(tables::verify_tables(dir.path()));
  // Rewrite level 5 with one value changed: the file itself is well formed.
  const tables::MappedLevel level(tables::level_path(dir.path(), 5), kKalah, 3, 5);
  std::vector<std::int8_t> values(level.values(), level.values() + level.size());
  values[values.size() / 2] = std::int8_t(values[values.size() / 2] + 2);
  tables::write_level(dir.path(), kKalah, 3, 5, values);
  expect_refused([&] { tables::verify_tables(dir.path()); }, "level_005.mtb: level 5 position");
  // From level 6 up the wrong value is taken on trust (its file is sound);
  // from 5 it is found again.
  EXPECT_TRUE(tables::check_tables(dir.path(), {}, 6).problems.empty());
  EXPECT_EQ(tables::check_tables(dir.path(), {}, 5).problems.size(), 1u);
  // A damaged byte below the first re-derived level is still found (every
  // file is read and hashed), and nothing above it is re-derived on top of it.
  overwrite_byte(tables::level_path(dir.path(), 2), bytes_of(tables::level_path(dir.path(), 2)).size() - 1, 9);
  const tables::TableCheck damaged = tables::check_tables(dir.path(), {}, 7);
  ASSERT_EQ(damaged.problems.size(), 1u);
  EXPECT_NE(damaged.problems[0].find("level_002.mtb"), std::string::npos) << damaged.problems[0];
}

// Every board of a level is re-derived, whatever order the verifier goes
// through the level in (and on the widths it is compiled for, 5 and 6 pits
// a side, as on any other): a value changed at any one position is found.
TEST(TableVerify, FindsAWrongValueAtEveryPositionOfALevel) {
  for (const auto& [m, k] : {std::pair{3, 5}, std::pair{5, 4}, std::pair{6, 3}}) {
    TempDir dir{"mancala_table_test"};
    tables::build_tables(dir.path(), kKalah, m, k);
    ASSERT_TRUE(tables::check_tables(dir.path()).problems.empty());
    const tables::MappedLevel level(tables::level_path(dir.path(), k), kKalah, m, k);
    const std::vector<std::int8_t> good(level.values(), level.values() + level.size());
    for (std::size_t r = 0; r < good.size(); ++r) {
      std::vector<std::int8_t> values = good;
      values[r] = std::int8_t(values[r] > 0 ? values[r] - 2 : values[r] + 2);
      tables::write_level(dir.path(), kKalah, m, k, values);
      EXPECT_FALSE(tables::check_tables(dir.path(), {}, k).problems.empty()) << m << " pits, level " << k << ", position " << r;
    }
  }
}

TEST(TableSummary, CountsEveryPositionOnce) {
  TempDir dir{"mancala_table_test"};
  tables::build_tables(dir.path(), kOware, 2, 6);
  const tables::BoardIndex index(4, 6);
  for (const auto& s : tables::summarize_tables(dir.path())) {
    EXPECT_EQ(s.positions, index.level_size(s.seeds));
    EXPECT_EQ(s.wins + s.draws + s.losses, s.positions);
    std::uint64_t sum = 0;
    for (const auto& [v, c] : s.histogram) sum += c;
    EXPECT_EQ(sum, s.positions);
  }
}

// Endgame tables that can only be probed, not read in place: the search
// falls back to probe() for every child inside them.
class ProbeOnlyTables final : public solver::EndgameTables {
 public:
  explicit ProbeOnlyTables(const solver::EndgameTables& tables) : tables_(tables) {}
  int max_seeds() const override { return tables_.max_seeds(); }
  bool probe(const Position& p, int& board_value) const override { return tables_.probe(p, board_value); }

 private:
  const solver::EndgameTables& tables_;
};

// Solves that probe the directory give the plain search's values; reading
// the levels in place (at the rank computed with each child's key) and
// probing them search the same tree.
TEST(TableProbe, SolverWithTablesAgreesAndSearchesLess) {
  for (const Ruleset& rules : {kKalah, Ruleset{.game = Game::BrainKing}, Ruleset{.game = Game::Congkak}}) {
    TempDir dir{"mancala_table_test"};
    tables::build_tables(dir.path(), rules, 4, 10);
    const solver::DirectoryTables tables(dir.path(), rules, 4);
    solver::Solver plain(rules, {.threads = 1, .tt_megabytes = 16, .level_table_seeds = 0});
    solver::Solver probing(rules, {.threads = 1, .tt_megabytes = 16, .tables = &tables});
    const ProbeOnlyTables probe_only(tables);
    solver::Solver probing_only(rules, {.threads = 1, .tt_megabytes = 16, .tables = &probe_only});
    std::mt19937 rng(7);
    std::uint64_t plain_nodes = 0, probing_nodes = 0;
    for (int trial = 0; trial < 40; ++trial) {
      Position p = start_position(4, 0);
      for (int seed = 0; seed < 16; ++seed) ++p.pits[rng() % 8];
      const auto a = plain.solve(p);
      const auto b = probing.solve(p);
      ASSERT_EQ(a.value, b.value) << rules.digest() << " " << format_position(p);
      const auto c = probing_only.solve(p);
      ASSERT_EQ(c.value, b.value) << rules.digest() << " " << format_position(p);
      ASSERT_EQ(c.nodes, b.nodes) << rules.digest() << " " << format_position(p);
      plain_nodes += a.nodes;
      probing_nodes += b.nodes;
    }
    EXPECT_LT(probing_nodes, plain_nodes) << rules.digest();
  }
}

// The rule of DirectoryTables::prepare_for, against a machine of a given
// size and auto's smallest copy: auto copies a root above the tables'
// reachable levels when they take at most a quarter of memory and at least
// the smallest copy, or when one of them is compressed (whatever its size);
// yes up to half and refuses beyond it with the sizes named, no never; a
// root inside the tables is one read (auto leaves it).  Whatever is copied
// reads the same values as the files.
TEST(TablesInMemory, PrepareForFollowsTheRuleAtItsLimits) {
  TempDir dir{"mancala_table_test"};
  tables::build_tables(dir.path(), kKalah, 4, 10);
  TempDir packed_dir{"mancala_table_test_packed"};
  tables::LevelFormat packed;
  packed.codec = tables::Codec::Packed;
  packed.block_log2 = 10;
  tables::build_tables(packed_dir.path(), kKalah, 4, 10, nullptr, nullptr, packed);
  const Position above = start_position(4, 2);  // 16 seeds: above the tables
  const Position inside = start_position(4, 1);  // 8 seeds
  std::uint64_t bytes = 0;
  {
    const solver::DirectoryTables t(dir.path(), kKalah, 4);
    bytes = t.level_bytes(10);
    ASSERT_GT(bytes, 0u);
    ASSERT_FALSE(t.any_compressed(10));
    ASSERT_TRUE(solver::DirectoryTables(packed_dir.path(), kKalah, 4).any_compressed(10));
  }
  struct Case {
    const TempDir* dir;
    Position root;
    solver::TablesInMemory mode;
    std::uint64_t physical;
    std::uint64_t auto_min;
    int levels;  // in memory afterwards, -1 none; -2 refused
  };
  using enum solver::TablesInMemory;
  constexpr std::uint64_t kDefaultMin = solver::DirectoryTables::kAutoCopyMinBytes;
  const Case cases[] = {
      {&dir, above, Auto, 4 * bytes, bytes, 10},
      {&dir, above, Auto, 4 * bytes - 1, bytes, -1},
      {&dir, above, Auto, 4 * bytes, bytes + 1, -1},
      {&dir, above, Auto, 1ull << 40, kDefaultMin, -1},
      {&dir, inside, Auto, 1ull << 40, 0, -1},
      {&packed_dir, above, Auto, 4 * bytes, kDefaultMin, 10},
      {&packed_dir, above, Auto, 4 * bytes - 1, kDefaultMin, -1},
      {&dir, above, Yes, 2 * bytes, kDefaultMin, 10},
      {&dir, above, Yes, 2 * bytes - 1, kDefaultMin, -2},
      {&dir, inside, Yes, 1ull << 40, kDefaultMin, 8},
      {&dir, above, No, 1ull << 40, 0, -1},
  };
  for (const Case& c : cases) {
    solver::DirectoryTables t(c.dir->path(), kKalah, 4);
    SCOPED_TRACE(format_position(c.root) + " mode " + std::to_string(int(c.mode)) + " of " + std::to_string(c.physical) +
                 " from " + std::to_string(c.auto_min) + (c.dir == &packed_dir ? " packed" : " raw"));
    if (c.levels == -2) {
      expect_refused([&] { t.prepare_for(c.root, c.mode, c.physical, c.auto_min); }, "more than half of the machine's");
      EXPECT_EQ(t.levels_in_memory(), -1);
      continue;
    }
    t.prepare_for(c.root, c.mode, c.physical, c.auto_min);
    EXPECT_EQ(t.levels_in_memory(), c.levels);
    const tables::TableDirectory files(dir.path(), kKalah, 4);
    for (int k = 0; k <= t.levels_in_memory(); ++k) {
      const std::int8_t* copied = t.level_values(4, k);
      ASSERT_NE(copied, files.level(k).values());
      ASSERT_EQ(std::memcmp(copied, files.level(k).values(), files.level(k).size()), 0) << "level " << k;
    }
  }
  EXPECT_EQ(solver::tables_in_memory_from("auto"), Auto);
  EXPECT_EQ(solver::tables_in_memory_from("yes"), Yes);
  EXPECT_EQ(solver::tables_in_memory_from("no"), No);
  EXPECT_FALSE(solver::tables_in_memory_from("maybe"));
  EXPECT_FALSE(solver::tables_in_memory_from("Yes"));
}

}  // namespace
