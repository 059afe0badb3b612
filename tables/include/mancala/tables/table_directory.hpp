// Reading a directory of level files: which levels it holds, and their
// values, opened lazily.  Building one (build_tables(), the build lock, the
// memory and disk checks) is table_build.hpp.
#pragma once

#include <cstdint>
#include <filesystem>
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
  // The same, with the ruleset and board width read from level 0's header.
  explicit TableDirectory(const std::filesystem::path& dir);

  const Ruleset& rules() const { return rules_; }
  int max_seeds() const { return max_seeds_; }
  int pits_per_side() const { return m_; }
  // Board value of a mover-relative board with `seeds` <= max_seeds().
  // Throws InputError if the level's file (or, compressed, the block that
  // holds the value) is corrupt.
  int value(const std::uint8_t* board, int seeds) const { return level(seeds).value(index_.rank(board, seeds)); }
  const MappedLevel& level(int seeds) const;

 private:
  TableDirectory(const std::filesystem::path& dir, const TableHeader& level_zero);
  std::filesystem::path dir_;
  Ruleset rules_;
  int m_;
  int max_seeds_ = -1;
  BoardIndex index_;
  mutable std::vector<std::unique_ptr<MappedLevel>> levels_;
  mutable std::vector<std::unique_ptr<std::once_flag>> opened_;
};

}  // namespace mancala::tables
