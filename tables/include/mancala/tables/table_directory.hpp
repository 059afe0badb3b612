// A directory of level files: built by build_tables(), read lazily.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/table_file.hpp"

namespace mancala::tables {

// Throws InputError (not TableError: the command was given a bad path) when
// `dir` does not exist, is not a directory or cannot be examined.
void require_table_directory(const std::filesystem::path& dir);

// The level files of a table directory: levels 0..top are all there (top =
// -1: no level 0), and `above` is the lowest level file past top + 1, or -1.
// Throws as require_table_directory(), or TableError when a level file
// cannot be examined (a symlink loop) or the directory cannot be listed.
struct LevelFiles {
  int top = -1;
  int above = -1;
};
LevelFiles scan_level_files(const std::filesystem::path& dir);
// What is wrong with those files as a table directory, naming the missing
// level (no level 0; a gap below a level that is there: the levels above it
// would be silently ignored), or "" when nothing is.
std::string level_files_problem(const std::filesystem::path& dir, const LevelFiles& files);

// Opens level files on first use (mapped read-only, validated before the
// first value is read).  Thread-safe.
class TableDirectory {
 public:
  // Finds the levels 0..K present in `dir`; throws InputError if the
  // directory is missing, TableError if it holds no level 0 or a gap, or
  // if a file header is unreadable or names another ruleset, board width
  // or level.
  TableDirectory(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side);

  int max_seeds() const { return max_seeds_; }
  int pits_per_side() const { return m_; }
  // Board value of a mover-relative board with `seeds` <= max_seeds().
  // Throws InputError if the level's file is corrupt.
  int value(const std::uint8_t* board, int seeds) const { return *locate(board, seeds); }
  // Where that value is (in the level's read-only mapping).
  const std::int8_t* locate(const std::uint8_t* board, int seeds) const;
  const MappedLevel& level(int seeds) const;

 private:
  std::filesystem::path dir_;
  Ruleset rules_;
  int m_;
  int max_seeds_ = -1;
  BoardIndex index_;
  mutable std::vector<std::unique_ptr<MappedLevel>> levels_;
  mutable std::vector<std::unique_ptr<std::once_flag>> opened_;
};

// Per-level figures of a build.
struct BuiltLevel {
  int seeds;
  std::uint64_t positions;
  bool reused;  // a valid file was already there (resume)
  double seconds;
  int passes;
};

// Bytes a build of levels 0..K keeps in memory at its peak (every level's
// values, plus the successor lists of the largest level for Oware).
std::uint64_t build_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds);

// Live figures of a running build, for progress lines (read from any thread).
struct BuildProgress {
  std::atomic<int> level{0};
  std::atomic<std::uint64_t> positions_done{0};   // scanned, all levels so far
  std::atomic<std::uint64_t> positions_total{0};  // in levels 0..K
  std::atomic<std::uint64_t> positions_reused{0}; // in levels taken from existing files
};

// An exclusive flock(2) on DIR/build.lock, held for the whole of a build:
// two builds into one directory would otherwise race on the same `.tmp`
// names and one of them fail in a rename.  The second refuses at once.  The
// lock file stays (removing it would let a third build lock a new file
// while the second still holds the old one); the lock goes with the
// process, however it ends.
class BuildLock {
 public:
  BuildLock() = default;
  // Throws InputError when another process holds the lock, naming DIR.
  explicit BuildLock(const std::filesystem::path& dir);
  BuildLock(BuildLock&& other) noexcept;
  BuildLock& operator=(BuildLock&& other) noexcept;
  ~BuildLock();

 private:
  int fd_ = -1;
};

// Checks a build request before any work: seed and pit ranges, the memory
// (`memory_per_process` bytes for each of `processes_per_node` processes on
// this machine) and the disk space for the levels not yet in dir; only then
// creates dir, and locks it.  Throws InputError (and then creates nothing).
// build_tables() calls it, and holds the lock it returns for the whole
// build; so does the distributed build, on rank 0.
[[nodiscard]] BuildLock prepare_build(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                      int max_seeds, std::uint64_t memory_per_process, int processes_per_node = 1);

// Appends one row (ruleset, pits, level, positions, seconds, passes) to
// dir/build_times.csv, the file `mancala info` reads build times from.
// Throws InputError when it is not a regular file or cannot be written.
void append_build_time(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                       std::uint64_t positions, double seconds, int passes);

// Builds (or resumes) levels 0..max_seeds into dir.  Complete, valid level
// files are reused; anything else is rebuilt.
std::vector<BuiltLevel> build_tables(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                     int max_seeds, BuildProgress* progress = nullptr);

}  // namespace mancala::tables
