#include "mancala/tables/table_directory.hpp"

#include <sys/statvfs.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {


TableDirectory::TableDirectory(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side)
    : dir_(dir), rules_(rules), m_(pits_per_side), index_(2 * pits_per_side, 0) {
  if (!std::filesystem::is_directory(dir)) throw InputError("table directory " + dir.string() + " does not exist");
  while (max_seeds_ < kMaxTableSeeds && std::filesystem::exists(level_path(dir, max_seeds_ + 1))) {
    const TableHeader h = read_header(level_path(dir, max_seeds_ + 1));
    if (h.digest != rules.digest())
      throw InputError("table directory " + dir.string() + " was built for ruleset '" + h.digest + "', not '" +
                       rules.digest() + "'");
    if (h.pits_per_side != pits_per_side)
      throw InputError("table directory " + dir.string() + " was built for " + std::to_string(h.pits_per_side) +
                       " pits a side, not " + std::to_string(pits_per_side));
    ++max_seeds_;
  }
  if (max_seeds_ < 0) throw InputError("table directory " + dir.string() + " holds no level files");
  index_ = BoardIndex(2 * pits_per_side, max_seeds_);
  levels_.resize(std::size_t(max_seeds_) + 1);
  for (int k = 0; k <= max_seeds_; ++k) opened_.push_back(std::make_unique<std::once_flag>());
}

const MappedLevel& TableDirectory::level(int seeds) const {
  std::call_once(*opened_[std::size_t(seeds)], [&] {
    levels_[std::size_t(seeds)] = std::make_unique<MappedLevel>(level_path(dir_, seeds), rules_, m_, seeds);
  });
  return *levels_[std::size_t(seeds)];
}

const std::int8_t* TableDirectory::locate(const std::uint8_t* board, int seeds) const {
  return level(seeds).values() + index_.rank(board, seeds);
}

std::uint64_t build_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds) {
  const BoardIndex index(2 * pits_per_side, max_seeds);
  std::uint64_t values = index.level_offset(max_seeds + 1);
  if (rules.game == Game::Oware)  // best exit, child count, and frontiers of 4-byte ranks
    values += index.level_size(max_seeds) * (1 + 1 + 4);
  return values;
}

namespace {

template <class R>
std::vector<BuiltLevel> build_with(const std::filesystem::path& dir, const Ruleset& rules, int m, int max_seeds,
                                   BuildProgress* progress) {
  LevelValues<R> levels(m, max_seeds);
  if (progress) levels.count_into(&progress->positions_done);
  std::vector<BuiltLevel> report;
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = levels.index().level_size(k);
    if (progress) progress->level = k;
    const std::filesystem::path file = level_path(dir, k);
    if (std::filesystem::exists(file)) {
      // Resume: a complete file is reused; a corrupt one is an error, not
      // something to overwrite silently.
      const MappedLevel existing(file, rules, m, k);
      levels.adopt_next(std::vector<std::int8_t>(existing.values(), existing.values() + existing.size()));
      report.push_back({k, size, true, 0, 0});
      if (progress) {
        progress->positions_done += size;
        progress->positions_reused += size;
      }
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const LevelStats stats = levels.build_next();
    write_level(dir, rules, m, k, levels.level(k));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.push_back({k, size, false, seconds, stats.passes});
    append_build_time(dir, rules, m, k, size, seconds, stats.passes);
  }
  return report;
}

}  // namespace

void prepare_build(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int max_seeds,
                   std::uint64_t memory_per_process, int processes_per_node) {
  if (max_seeds < 0 || max_seeds > kMaxTableSeeds)
    throw InputError("--max-seeds must be between 0 and " + std::to_string(kMaxTableSeeds));
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
  const BoardIndex index(2 * pits_per_side, max_seeds);
  (void)rules;
  // Refuse up front what cannot finish: memory and disk.
  const std::uint64_t memory = memory_per_process * std::uint64_t(std::max(1, processes_per_node));
  const std::uint64_t physical = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE));
  if (memory > physical)
    throw InputError("the build needs about " + std::to_string(memory >> 20) + " MiB of memory, the machine has " +
                     std::to_string(physical >> 20) + " MiB");
  std::filesystem::create_directories(dir);
  struct statvfs fs {};
  const std::uint64_t disk = index.level_offset(max_seeds + 1) + std::uint64_t(max_seeds + 1) * 4096;
  if (statvfs(dir.c_str(), &fs) == 0 && std::uint64_t(fs.f_bavail) * fs.f_frsize < disk)
    throw InputError("the tables need about " + std::to_string(disk >> 20) + " MiB of disk, " + dir.string() + " has " +
                     std::to_string((std::uint64_t(fs.f_bavail) * fs.f_frsize) >> 20) + " MiB free");
}

void append_build_time(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                       std::uint64_t positions, double seconds, int passes) {
  std::ofstream times(dir / "build_times.csv", std::ios::app);
  times << rules.digest() << "," << pits_per_side << "," << seeds << "," << positions << "," << seconds << "," << passes << "\n";
}

std::vector<BuiltLevel> build_tables(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                     int max_seeds, BuildProgress* progress) {
  if (max_seeds < 0 || max_seeds > kMaxTableSeeds)
    throw InputError("--max-seeds must be between 0 and " + std::to_string(kMaxTableSeeds));
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
  prepare_build(dir, rules, pits_per_side, max_seeds, build_memory_estimate(rules, pits_per_side, max_seeds));
  if (progress) progress->positions_total = BoardIndex(2 * pits_per_side, max_seeds).level_offset(max_seeds + 1);
  return dispatch(rules, [&](auto R) { return build_with<decltype(R)>(dir, rules, pits_per_side, max_seeds, progress); });
}

}  // namespace mancala::tables
