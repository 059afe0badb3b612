#include "mancala/tables/table_directory.hpp"

#include <string>
#include <system_error>

#include "mancala/error.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

void require_table_directory(const std::filesystem::path& dir) {
  if (dir.empty()) throw InputError("the table directory's name is empty");
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);
  if (st.type() == std::filesystem::file_type::not_found) throw InputError("table directory " + dir.string() + " does not exist");
  if (ec) throw InputError("table directory " + dir.string() + ": cannot access: " + ec.message());
  if (st.type() != std::filesystem::file_type::directory)
    throw InputError("table directory " + dir.string() + " is not a directory");
}

LevelFiles scan_level_files(const std::filesystem::path& dir) {
  require_table_directory(dir);
  LevelFiles files;
  while (files.top < kMaxTableSeeds && level_file_exists(level_path(dir, files.top + 1))) ++files.top;
  // Any level file past the first missing one: the directory's names, not a
  // probe of every level, so that a file far above the gap is seen too.
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 11 || name.rfind("level_", 0) != 0 || name.substr(name.size() - 4) != ".mtb") continue;
    const std::string digits = name.substr(6, name.size() - 10);
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int k = std::stoi(digits);
    if (level_path(dir, k).filename() != name || k <= files.top + 1) continue;  // not a level's own name, or below the gap
    if (files.above < 0 || k < files.above) files.above = k;
  }
  if (ec) throw TableError("table directory " + dir.string() + ": cannot list: " + ec.message());
  return files;
}

std::string level_files_problem(const std::filesystem::path& dir, const LevelFiles& files) {
  const std::string missing = level_path(dir, files.top + 1).filename().string();
  if (files.above >= 0)
    return "table directory " + dir.string() + " lacks " + missing + " but holds " +
           level_path(dir, files.above).filename().string() + ": the levels above the gap cannot be used";
  if (files.top < 0) return "table directory " + dir.string() + " holds no level files (no " + missing + ")";
  return "";
}

TableDirectory::TableDirectory(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side)
    : dir_(dir), rules_(rules), m_(pits_per_side), index_(2 * pits_per_side, 0) {
  const LevelFiles files = scan_level_files(dir);
  if (const std::string problem = level_files_problem(dir, files); !problem.empty()) throw TableError(problem);
  for (int k = 0; k <= files.top; ++k) {
    const TableHeader h = read_header(level_path(dir, k));
    if (h.digest != rules.digest())
      throw TableError("table directory " + dir.string() + " was built for ruleset '" + h.digest + "', not '" +
                       rules.digest() + "' (" + level_path(dir, k).filename().string() + ")");
    if (h.pits_per_side != pits_per_side)
      throw TableError("table directory " + dir.string() + " was built for " + std::to_string(h.pits_per_side) +
                       " pits a side, not " + std::to_string(pits_per_side) + " (" + level_path(dir, k).filename().string() + ")");
    if (h.seeds != k)
      throw TableError("table file " + level_path(dir, k).string() + ": holds level " + std::to_string(h.seeds) + ", not " +
                       std::to_string(k));
  }
  max_seeds_ = files.top;
  index_ = BoardIndex(2 * pits_per_side, max_seeds_);
  levels_.resize(std::size_t(max_seeds_) + 1);
  for (int k = 0; k <= max_seeds_; ++k) opened_.push_back(std::make_unique<std::once_flag>());
}

namespace {
// Level 0's header, whose digest read_header has checked is a known
// ruleset's, after the directory's level files have been found sound.
TableHeader level_zero_header(const std::filesystem::path& dir) {
  const LevelFiles files = scan_level_files(dir);
  if (const std::string problem = level_files_problem(dir, files); !problem.empty()) throw TableError(problem);
  return read_header(level_path(dir, 0));
}
}  // namespace

TableDirectory::TableDirectory(const std::filesystem::path& dir) : TableDirectory(dir, level_zero_header(dir)) {}

TableDirectory::TableDirectory(const std::filesystem::path& dir, const TableHeader& level_zero)
    : TableDirectory(dir, parse_digest(level_zero.digest), level_zero.pits_per_side) {}

const MappedLevel& TableDirectory::level(int seeds) const {
  std::call_once(*opened_[std::size_t(seeds)], [&] {
    levels_[std::size_t(seeds)] = std::make_unique<MappedLevel>(level_path(dir_, seeds), rules_, m_, seeds);
  });
  return *levels_[std::size_t(seeds)];
}

}  // namespace mancala::tables
