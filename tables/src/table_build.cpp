#include "mancala/tables/table_build.hpp"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>


#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>

#include "mancala/error.hpp"
#include "mancala/version.hpp"
#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/table_file.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

std::uint64_t build_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds) {
  const BoardIndex index(2 * pits_per_side, max_seeds);
  std::uint64_t values = index.level_size(max_seeds);
  if (rules.game == Game::Oware)  // the sweep's cells and frontiers, which the values replace as they are written
    values = std::max(values, cyclic_detail::working_bytes(index.level_size(max_seeds)));
  return values;
}

namespace {

// write_level(), in two pieces with the test hook between them when a test
// asks to stop half-way through the file.
void write_level_file(const std::filesystem::path& dir, const Ruleset& rules, int m, int k, const std::vector<std::int8_t>& values,
                      const LevelFormat& format, const BuildTestHooks* hooks) {
  if (!hooks || !hooks->level_half_written) {
    write_level(dir, rules, m, k, values, format);
    return;
  }
  LevelFileWriter writer(dir, rules, m, k, values.size(), format);
  const std::size_t half = values.size() / 2;
  writer.append(values.data(), half);
  hooks->level_half_written(k);
  writer.append(values.data() + half, values.size() - half);
  writer.finish();
}

// Where a build keeps raw copies of compressed lower levels it resumes from
// (mapped, so that they need no memory), removed when the build ends.
std::filesystem::path scratch_dir(const std::filesystem::path& dir) { return dir / ".raw-levels"; }

// The levels are built and kept raw (mapped: a build's memory is the level it
// is building), and compressed, if asked, once the last one is there: a
// compressed level cannot be read in place, and every level is read until
// the last one is built.
template <class R>
std::vector<BuiltLevel> build_with(const std::filesystem::path& dir, const Ruleset& rules, int m, int max_seeds,
                                   BuildProgress* progress, const BuildTestHooks* hooks, const LevelFormat& format) {
  LevelValues<R> levels(m, max_seeds);
  if (progress) levels.count_into(&progress->positions_done);
  LevelFormat raw = format;
  raw.codec = Codec::None;
  std::vector<BuiltLevel> report;
  const std::filesystem::path scratch = scratch_dir(dir);
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = levels.index().level_size(k);
    if (progress) progress->level = k;
    const std::filesystem::path file = level_path(dir, k);
    if (level_file_exists(file)) {
      // Resume: a complete file is reused; a corrupt one is an error, not
      // something to overwrite silently.  A compressed one is decoded once
      // into a raw scratch copy, mapped like the others.
      auto existing = std::make_unique<const MappedLevel>(file, rules, m, k);
      if (!existing->values()) {
        std::filesystem::create_directories(scratch);
        LevelFileWriter copy(scratch, rules, m, k, size, raw);
        std::vector<std::int8_t> chunk(std::min<std::uint64_t>(size, std::uint64_t(1) << 26));
        for (std::uint64_t at = 0; at < size; at += chunk.size()) {
          const std::uint64_t n = std::min<std::uint64_t>(chunk.size(), size - at);
          existing->read(at, n, chunk.data());
          copy.append(chunk.data(), n);
        }
        copy.finish();
        existing = std::make_unique<const MappedLevel>(level_path(scratch, k), rules, m, k);
      }
      levels.adopt_next(std::move(existing));
      report.push_back({k, size, true, 0, 0});
      if (progress) {
        progress->positions_done += size;
        progress->positions_reused += size;
      }
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const LevelStats stats = levels.build_next();
    write_level_file(dir, rules, m, k, levels.level(k), raw, hooks);
    levels.map_level(k, std::make_unique<const MappedLevel>(file, rules, m, k));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.push_back({k, size, false, seconds, stats.passes});
    append_build_time(dir, rules, m, k, size, seconds, stats.passes);
    if (hooks && hooks->level_written) hooks->level_written(k);
  }
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  return report;
}

}  // namespace

namespace {

// "12345678 bytes (11.77 MiB)": exact, so that a refusal's two figures can
// be compared, with MiB for the reader.
std::string bytes_text(std::uint64_t bytes) {
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.2f", double(bytes) / double(1 << 20));
  return std::to_string(bytes) + " bytes (" + mib + " MiB)";
}

// The directory itself when it exists, else its nearest existing ancestor:
// where the files will go, for statvfs, before anything is created.
std::filesystem::path existing_ancestor(std::filesystem::path dir) {
  for (;;) {
    std::error_code ec;
    if (dir.empty()) return ".";
    if (std::filesystem::exists(dir, ec) || !dir.has_relative_path()) return dir;
    dir = dir.parent_path();
  }
}

}  // namespace

BuildLock::BuildLock(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "build.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw InputError("cannot open the lock file " + file.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw InputError("the lock file " + file.string() + " is not a regular file");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    if (e == EWOULDBLOCK)
      throw InputError("table directory " + dir.string() + " is being built by another process (it holds " + file.string() +
                       "); wait for that build to end, or build into another directory");
    throw InputError("cannot lock " + file.string() + ": " + std::strerror(e));
  }
}

BuildLock::BuildLock(BuildLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

BuildLock& BuildLock::operator=(BuildLock&& other) noexcept {
  std::swap(fd_, other.fd_);
  return *this;
}

BuildLock::~BuildLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

BuildLock prepare_build(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int max_seeds,
                        std::uint64_t memory_per_process, int processes_per_node, std::uint64_t extra_disk) {
  if (max_seeds < 0 || max_seeds > kMaxTableSeeds)
    throw InputError("--max-seeds must be between 0 and " + std::to_string(kMaxTableSeeds));
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
  if (dir.empty()) throw InputError("the table directory (--out) is empty");
  const BoardIndex index(2 * pits_per_side, max_seeds);
  // Refuse up front what cannot finish: memory and disk, before anything is
  // created (a refused build leaves no directory behind).
  const std::uint64_t memory = memory_per_process * std::uint64_t(std::max(1, processes_per_node));
  const std::uint64_t physical = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE));
  if (memory > physical)
    throw InputError("the build needs about " + bytes_text(memory) + " of memory, the machine has " + bytes_text(physical));
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);
  const bool exists = st.type() != std::filesystem::file_type::not_found;
  if (exists && ec) throw InputError("table directory " + dir.string() + ": cannot access: " + ec.message());
  if (exists && st.type() != std::filesystem::file_type::directory)
    throw InputError("table directory " + dir.string() + " is not a directory");
  // Disk: the levels not there yet (a resumed build reuses the others), each
  // file rounded up to the file system's blocks, and build_times.csv.
  const std::filesystem::path where = existing_ancestor(dir);
  struct statvfs fs {};
  if (::statvfs(where.c_str(), &fs) == 0 && fs.f_blocks > 0) {  // procfs and such have no blocks to count
    const std::uint64_t block = std::max<std::uint64_t>({fs.f_bsize, fs.f_frsize, 512});
    const std::uint64_t header = 68 + rules.digest().size();  // table_file.hpp: 64 + L bytes, then the CRC
    std::uint64_t disk = block + extra_disk;
    for (int k = 0; k <= max_seeds; ++k)
      if (!exists || !level_file_exists(level_path(dir, k))) disk += (header + index.level_size(k) + block - 1) / block * block;
    const std::uint64_t free = std::uint64_t(fs.f_bavail) * fs.f_frsize;
    if (free < disk)
      throw InputError("the tables need " + bytes_text(disk) + " of disk, " + where.string() + " has " + bytes_text(free) +
                       " free");
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create table directory " + dir.string() + ": " + ec.message());
  return BuildLock(dir);
}

namespace {
// The threads a build runs on: its arena's, within the program's limit.
int build_threads() {
  return int(std::min<std::size_t>(std::size_t(tbb::this_task_arena::max_concurrency()),
                                   tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}
}  // namespace

void append_build_time(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                       std::uint64_t positions, double seconds, int passes) {
  // open(2) with O_NONBLOCK and a check of what was opened: a FIFO in place
  // of the file would block an ofstream forever, a directory fail silently.
  const std::filesystem::path file = dir / "build_times.csv";
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENXIO) throw InputError(file.string() + " is not a regular file");  // a FIFO without a reader
  if (fd < 0) throw InputError("cannot append to " + file.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(file.string() + " is not a regular file");
  }
  std::ostringstream row;  // the formatting of the std::ofstream this replaced
  // A new file starts with its header row (files from before it have none;
  // readers skip every row that does not start with the ruleset).
  if (st.st_size == 0) row << kBuildTimesHeader << "\n";
  row << rules.digest() << "," << pits_per_side << "," << seeds << "," << positions << "," << seconds << "," << passes << ","
      << build_threads() << "," << source_commit() << "\n";
  const std::string text = row.str();
  const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  const int e = errno;
  ::close(fd);
  if (!ok) throw InputError("cannot append to " + file.string() + ": " + std::strerror(e));
}

std::vector<BuiltLevel> build_tables(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side,
                                     int max_seeds, BuildProgress* progress, const BuildTestHooks* hooks,
                                     const LevelFormat& format) {
  if (max_seeds < 0 || max_seeds > kMaxTableSeeds)
    throw InputError("--max-seeds must be between 0 and " + std::to_string(kMaxTableSeeds));
  if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
    throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
  // Held until the last level is written: no second build writes here meanwhile.
  // A compressing build converts a level at a time: the new file beside the
  // raw one, at most the raw one's size.
  const std::uint64_t converting = format.codec == Codec::None ? 0 : BoardIndex(2 * pits_per_side, max_seeds).level_size(max_seeds);
  const BuildLock lock =
      prepare_build(dir, rules, pits_per_side, max_seeds, build_memory_estimate(rules, pits_per_side, max_seeds), 1, converting);
  if (progress) progress->positions_total = BoardIndex(2 * pits_per_side, max_seeds).level_offset(max_seeds + 1);
  std::vector<BuiltLevel> report =
      dispatch(rules, [&](auto R) { return build_with<decltype(R)>(dir, rules, pits_per_side, max_seeds, progress, hooks, format); });
  for (int k = 0; k <= max_seeds; ++k) convert_level(dir, rules, pits_per_side, k, format);
  return report;
}

bool convert_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds, const LevelFormat& format) {
  const std::filesystem::path file = level_path(dir, seeds);
  const MappedLevel level(file, rules, pits_per_side, seeds);
  const TableHeader& h = level.header();
  if (h.version == int(kTableFormatVersion) && h.codec == format.codec && h.block_log2 == format.block_log2) return false;
  LevelFileWriter writer(dir, rules, pits_per_side, seeds, level.size(), format);
  // Pieces of whole blocks, so that the writer codes them in parallel.
  const std::uint64_t piece = std::uint64_t(64) << format.block_log2;
  std::vector<std::int8_t> values(std::min(piece, level.size()));
  for (std::uint64_t at = 0; at < level.size(); at += piece) {
    const std::uint64_t n = std::min(piece, level.size() - at);
    level.read(at, n, values.data());
    writer.append(values.data(), n);
  }
  writer.finish();
  return true;
}

}  // namespace mancala::tables
