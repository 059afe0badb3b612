// Building a table directory: levels 0..K by retrograde analysis, one file
// per level, resumable (complete level files are reused), under an exclusive
// lock on the directory, with the memory and disk checked first.  Reading a
// directory back is table_directory.hpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "mancala/ruleset.hpp"
#include "mancala/tables/table_file.hpp"

namespace mancala::tables {

// Per-level figures of a build.
struct BuiltLevel {
  int seeds;
  std::uint64_t positions;
  bool reused;  // a valid file was already there (resume)
  double seconds;
  int passes;
};

// The memory prepare_build() checks for a build of levels 0..K, in bytes:
//  * 1 byte a position of level K: build_tables() holds the level it is
//    building in memory and serves every finished level from its file
//    (mapped: the page cache's, not the build's own memory);
//  * for Oware, 2 1/8 bytes a position of level K instead: the sweep of a
//    cyclic level (cyclic_level.hpp) holds one 2-byte cell a position and
//    frontier lists of at most 1/8 byte a position; its 1-byte values take
//    the cells' place as they are written (page_buffer.hpp).
// Nothing else is counted: not the acyclic pass's recursion, the threads'
// buffers, the mapped files, the program itself.  It is a floor to refuse a
// hopeless build with, not a bound.  The lower levels' files are read at
// random: a build whose files do not fit the page cache runs at the disk's
// speed.
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
// `extra_disk`: bytes needed beyond the raw level files (a compressing
// build's one converted level beside its raw file).
[[nodiscard]] BuildLock prepare_build(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                      int max_seeds, std::uint64_t memory_per_process, int processes_per_node = 1,
                                      std::uint64_t extra_disk = 0);

// build_times.csv's columns: the ruleset digest, pits a side, the level,
// its positions, the seconds its build took, its passes, the threads the
// build ran on (per process) and the commit of the build.
inline constexpr const char* kBuildTimesHeader = "ruleset,pits_per_side,level,positions,seconds,passes,threads,commit";

// Appends one row (kBuildTimesHeader's columns; the header row first when
// the file is new) to dir/build_times.csv, the file `mancala info` reads
// build times from.
// Throws InputError when it is not a regular file or cannot be written.
void append_build_time(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                       std::uint64_t positions, double seconds, int passes);

// Test-only: calls at two fixed points of a build, so that a test can end
// the process exactly there, as a kill would (the hidden --test-stop-*
// options of `mancala build` and `mancala-mpi build`, which _exit(75) from
// them; tests/table_cli_test.sh, tests/mpi_build_test.sh).  A timed kill
// lands wherever the build happens to be, and after a fast build's end it
// tests nothing; these land where asked, every time.  Unset: not called.
struct BuildTestHooks {
  // Level k's file is in place (synced, renamed, directory synced) and its
  // build_times.csv row appended.  Called for the levels a run builds, not
  // for those it reuses from existing files.
  std::function<void(int k)> level_written;
  // Level k's `<file>.tmp` holds its placeholder header and index, and the
  // first floor(S/2) of its S values (rank order) have been handed to its
  // writer (the whole blocks among them written), neither synced nor
  // complete.  Only a build that asks for this writes the level in two
  // pieces (the same bytes, table_file.hpp).
  std::function<void(int k)> level_half_written;
};

// Builds (or resumes) levels 0..max_seeds into dir.  Complete, valid level
// files are reused, whatever their version and codec; anything else is
// rebuilt.  Levels are written raw as they are built and, when `format` asks
// for another codec, converted once the last one is there (every file of the
// directory ends in `format`).
std::vector<BuiltLevel> build_tables(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                     int max_seeds, BuildProgress* progress = nullptr,
                                     const BuildTestHooks* hooks = nullptr, const LevelFormat& format = {});

// Rewrites level `seeds` of dir in `format` (the current version, its codec
// and block size), atomically, unless it is already so; true when it did.
// The values are unchanged: the content hash stays.  Throws TableError for
// a bad file, InputError when the new one cannot be written.
bool convert_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                   const LevelFormat& format);

}  // namespace mancala::tables
