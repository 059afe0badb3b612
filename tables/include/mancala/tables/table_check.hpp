// Reading a table directory back: the checks of `mancala verify` and the
// statistics of `mancala info`.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mancala/ruleset.hpp"
#include "mancala/tables/table_directory.hpp"

namespace mancala::tables {

// What a directory's headers say it holds (from level 0's header).  Throws
// InputError when dir is not a directory, TableError when its tables are bad
// (no level 0, a gap, an unreadable, foreign or corrupt header).
struct DirectoryInfo {
  Ruleset rules;
  int pits_per_side;
  int max_seeds;
};
DirectoryInfo describe_directory(const std::filesystem::path& dir);

// Re-derives every value of every level from its successors' stored values
// (one ply of the rules, independent of how the builder computed them) and
// checks that terminal boards hold their final value.  For the acyclic
// rulesets this proves each level given the levels below.  For Oware it
// proves the values are a fixpoint of the game's equations, which is
// necessary but not sufficient on a cycle: values that agree with each other
// around a cycle (+t, -t, +t, ...) but that no player can actually force would
// pass.  Which fixpoint is the right one (endless play = 0) is the builder's
// threshold retrograde; the tests check it against the brute-force oracle on
// every board of small levels.
//
// check_tables() returns every problem found, one line each, naming the file
// (and level and position): a gap in the levels or no level 0, each level
// file that is unreadable, not a regular file, truncated or extended,
// corrupt, or from another ruleset or board width than level 0, and each
// level (all of whose files up to it are sound) holding a value that does
// not follow.  `info` is level 0's header, when it could be read.  It
// throws InputError only when dir itself is not a directory that can be
// examined (the command was misused, not the tables bad).
//
// first_derived > 0 re-derives only the levels from first_derived up: the
// files below are still read in full and every block and content hash
// checked (so a corrupt byte anywhere is still found), but their values are
// taken on trust.  That is for a build that went on from levels already
// verified, or tied to a published checksum list (compare_checksums()): the
// re-derivation is the costly part (for Kalah, about as long as the build).
struct TableCheck {
  std::vector<std::string> problems;  // empty: the tables are sound
  std::optional<DirectoryInfo> info;
};
TableCheck check_tables(const std::filesystem::path& dir, const std::function<void(int)>& progress = {},
                        int first_derived = 0);
// The same, throwing TableError with the first problem.
void verify_tables(const std::filesystem::path& dir, const std::function<void(int)>& progress = {});

// Published checksums, in the style of syzygy's: the content hash of every
// level of a directory, as `mancala info DIR --checksums` writes them and
// `mancala verify DIR --checksums FILE` compares them:
//
//   # mancala table checksums
//   ruleset kalah
//   pits_per_side 6
//   level_000.mtb 1 af63bd4c8601b7df
//   ...
//
// A level line is the file name, its positions and the FNV-1a 64 of its
// values in rank order (hex), which does not depend on the file's format
// (version 1 or 2, raw or compressed).  '#' lines are comments.
struct LevelChecksum {
  int seeds;
  std::uint64_t positions;
  std::uint64_t hash;
};
struct ChecksumList {
  Ruleset rules;
  int pits_per_side = 0;
  std::vector<LevelChecksum> levels;  // in level order, no level twice
};
// Throws InputError naming the file and line for a malformed list.
ChecksumList read_checksums(const std::filesystem::path& file);
std::string format_checksums(const DirectoryInfo& info, const std::vector<LevelChecksum>& levels);
// The problems of dir against the list (one line each, as check_tables()'s):
// another ruleset or width, a level whose positions or content hash differ.
// Levels of the list that dir does not hold, and the reverse, are not
// problems (a build may stop lower, or go higher, than a list); `compared`
// counts the levels compared.  The hashes are the headers'; check_tables()
// re-hashes every file's values against its header.
std::vector<std::string> compare_checksums(const std::filesystem::path& dir, const ChecksumList& list, int& compared);

struct LevelSummary {
  int seeds;
  std::uint64_t positions;
  std::uint64_t wins, draws, losses;  // board value > 0, = 0, < 0 for the mover
  std::map<int, std::uint64_t> histogram;
  std::uint64_t payload_hash;
  double build_seconds;  // from the directory's build_times.csv; < 0 if not recorded
  TableHeader header;    // version, codec, block size, sizes on disk
};
// Per-level statistics.  Build times are not in the level files (a rebuild
// must give the same bytes); they come from build_times.csv beside them, the
// last row for the directory's ruleset, width and level.
std::vector<LevelSummary> summarize_tables(const std::filesystem::path& dir);

}  // namespace mancala::tables
