#include "mancala/tables/table_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/level_tiles.hpp"

namespace mancala::tables {

DirectoryInfo describe_directory(const std::filesystem::path& dir) {
  const TableDirectory tables(dir);
  return {tables.rules(), tables.pits_per_side(), tables.max_seeds()};
}

namespace {

// Bellman re-derivation of level k: every value must be the best over its
// moves of the store gain plus the child's value (sign by whose turn it is),
// with the children read from the files themselves (levels 0..k, all
// validated).  The level is gone through in tiles (level_tiles.hpp), so that
// the children come in rank order, and a batch of boards is played before
// any child is read, the children prefetched.  Width > 0: boards of Width
// pits a side (the moves, ranks and row copies unroll).  Returns the
// problem, or "".
template <class R, int Width>
std::string verify_level_of(const std::filesystem::path& dir, const DirectoryInfo& info, const BoardIndex& index,
                            const std::vector<const std::int8_t*>& level_values, int k) {
  const std::int8_t* stored = level_values[std::size_t(k)];
  constexpr std::size_t kBatch = 64;
  const LevelTiles tiles(index, info.pits_per_side, k);
  std::atomic<std::uint64_t> first_bad{~std::uint64_t(0)};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tiles.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    struct Child {
      const std::int8_t* value;  // null when the move ended the game
      int delta;
      bool same_mover;
      std::uint32_t board;       // within the batch
    };
    std::vector<Child> children;
    std::array<int, kBatch> expect{};
    std::array<std::uint64_t, kBatch> ranks{};
    std::size_t waiting = 0;
    auto check_batch = [&] {
      for (const Child& c : children) {
        const int v = c.value ? int(*c.value) : 0;
        expect[c.board] = std::max(expect[c.board], move_value(c.same_mover, c.delta, v));
      }
      for (std::size_t i = 0; i < waiting; ++i) {
        if (expect[i] == stored[ranks[i]]) continue;
        std::uint64_t cur = first_bad.load();
        while (ranks[i] < cur && !first_bad.compare_exchange_weak(cur, ranks[i])) {
        }
      }
      children.clear();
      waiting = 0;
    };
    Position p;
    p.pits_per_side = std::uint8_t(info.pits_per_side);
    const auto never = [](std::uint64_t) { return false; };
    for (std::size_t t = r.begin(); t != r.end(); ++t) {
      // Flattened: GCC called the ruleset's play out of line here (22% of a
      // 5-pit verify's samples), where the board's width is known.
      tiles.for_each_board<Width>(t, p, never, [&](const Position& board, std::uint64_t rank) __attribute__((flatten)) {
        const std::size_t i = waiting++;
        ranks[i] = rank;
        assume_board_width<Width>(board);
        if (R::is_terminal(board)) {
          expect[i] = finished_board_value(board);
        } else {
          expect[i] = kBelowEveryValue;
          for (MoveMask rest = R::legal_moves(board); rest; rest &= rest - 1) {
            Position c = board;
            assume_board_width<Width>(c);
            const MoveResult res = R::play(c, std::countr_zero(rest));
            assume_board_width<Width>(c);
            const int delta = move_gain(c, res.extra_turn, 0);
            const std::int8_t* v = nullptr;
            if (!res.game_over) {
              const int cs = c.board_seeds();
              v = level_values[std::size_t(cs)] + index.template rank_for_width<Width>(c.pits.data(), cs);
              __builtin_prefetch(v);
            }
            children.push_back({v, delta, res.extra_turn, std::uint32_t(i)});
          }
        }
        if (waiting == kBatch) check_batch();
      });
    }
    check_batch();
  });
  if (first_bad.load() != ~std::uint64_t(0))
    return "table file " + level_path(dir, k).string() + ": level " + std::to_string(k) + " position " +
           std::to_string(first_bad.load()) + " does not follow from its successors";
  return "";
}

template <class R>
std::string verify_level(const std::filesystem::path& dir, const DirectoryInfo& info, const BoardIndex& index,
                         const std::vector<const std::int8_t*>& level_values, int k) {
  std::string problem;
  with_board_width(info.pits_per_side,
                   [&](auto width) { problem = verify_level_of<R, decltype(width)::value>(dir, info, index, level_values, k); });
  return problem;
}

}  // namespace

TableCheck check_tables(const std::filesystem::path& dir, const std::function<void(int)>& progress, int first_derived) {
  TableCheck out;
  LevelFiles files;
  try {
    files = scan_level_files(dir);  // an InputError (not a directory) is the caller's: a misused command
  } catch (const TableError& e) {
    out.problems.push_back(e.what());
    return out;
  }
  if (const std::string problem = level_files_problem(dir, files); !problem.empty()) out.problems.push_back(problem);
  if (files.top < 0) return out;
  try {
    const TableHeader h = read_header(level_path(dir, 0));
    out.info = DirectoryInfo{parse_digest(h.digest), h.pits_per_side, files.top};
  } catch (const TableError& e) {
    out.problems.push_back(e.what());
    return out;
  }
  const DirectoryInfo& info = *out.info;
  // Every file is read in full (header against level 0's, size, payload
  // hash), each problem reported; a level's values are re-derived as long as
  // it and every level below it are sound files.
  // A compressed level is decoded into memory (the re-derivation reads
  // every level at random); a raw one is read in place.
  std::vector<std::unique_ptr<MappedLevel>> levels;
  std::vector<std::vector<std::int8_t>> decoded;
  std::vector<const std::int8_t*> level_values;
  bool sound = true;
  dispatch(info.rules, [&](auto R) {
    for (int k = 0; k <= info.max_seeds; ++k) {
      if (progress) progress(k);
      try {
        levels.push_back(std::make_unique<MappedLevel>(level_path(dir, k), info.rules, info.pits_per_side, k));
        const MappedLevel& level = *levels.back();
        level.check_payload();  // every block and the content hash
        if (level.values()) {
          level_values.push_back(level.values());
        } else {
          decoded.emplace_back(level.size());
          level.read(0, level.size(), decoded.back().data());
          level_values.push_back(decoded.back().data());
        }
      } catch (const TableError& e) {
        out.problems.push_back(e.what());
        sound = false;
      }
      if (!sound || k < first_derived) continue;
      // Indexed up to level k only once the files of 0..k are sound: a count
      // of files alone (forged headers) could ask for an index that does not
      // fit in 64 bits, whereas sound files bound it by their own sizes.
      const BoardIndex index(2 * info.pits_per_side, k);
      if (std::string problem = verify_level<decltype(R)>(dir, info, index, level_values, k); !problem.empty())
        out.problems.push_back(std::move(problem));
    }
  });
  return out;
}

void verify_tables(const std::filesystem::path& dir, const std::function<void(int)>& progress) {
  const TableCheck check = check_tables(dir, progress);
  if (!check.problems.empty()) throw TableError(check.problems.front());
}

namespace {

// The text of build_times.csv ("" when there is none).  open(2) with
// O_NONBLOCK and a check of what was opened: a FIFO in its place would block
// an ifstream forever.
std::string build_times_text(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "build_times.csv";
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return "";
    throw TableError("cannot read " + file.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw TableError(file.string() + " is not a regular file");
  }
  std::string text;
  char buf[65536];
  for (ssize_t got; (got = ::read(fd, buf, sizeof buf)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int e = errno;
      ::close(fd);
      throw TableError("cannot read " + file.string() + ": " + std::strerror(e));
    }
    text.append(buf, std::size_t(got));
  }
  ::close(fd);
  return text;
}

// Level -> seconds, from rows "digest,pits,level,positions,seconds,passes".
std::map<int, double> recorded_build_times(const std::filesystem::path& dir, const DirectoryInfo& info) {
  std::map<int, double> out;
  std::istringstream in(build_times_text(dir));
  const std::string prefix = info.rules.digest() + "," + std::to_string(info.pits_per_side) + ",";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::istringstream row(line.substr(prefix.size()));
    std::string level, positions, seconds;
    if (!std::getline(row, level, ',') || !std::getline(row, positions, ',') || !std::getline(row, seconds, ',')) continue;
    try {
      out[std::stoi(level)] = std::stod(seconds);
    } catch (const std::exception&) {  // a damaged row only loses its time
    }
  }
  return out;
}

}  // namespace

std::vector<LevelSummary> summarize_tables(const std::filesystem::path& dir) {
  const DirectoryInfo info = describe_directory(dir);
  const std::map<int, double> times = recorded_build_times(dir, info);
  const TableDirectory tables(dir, info.rules, info.pits_per_side);
  std::vector<LevelSummary> out;
  for (int k = 0; k <= info.max_seeds; ++k) {
    const MappedLevel& level = tables.level(k);
    const auto time = times.find(k);
    LevelSummary s{k, level.size(), 0, 0, 0, {}, level.header().payload_hash, time == times.end() ? -1.0 : time->second,
                   level.header()};
    std::array<std::uint64_t, 256> counts{};
    std::vector<std::int8_t> chunk(std::min<std::uint64_t>(level.size(), std::uint64_t(1) << 24));
    for (std::uint64_t at = 0; at < level.size(); at += chunk.size()) {
      const std::uint64_t n = std::min<std::uint64_t>(chunk.size(), level.size() - at);
      level.read(at, n, chunk.data());
      for (std::uint64_t i = 0; i < n; ++i) ++counts[std::uint8_t(chunk[i])];
    }
    for (int v = -128; v < 128; ++v) {
      const std::uint64_t c = counts[std::uint8_t(std::int8_t(v))];
      if (!c) continue;
      s.histogram[v] = c;
      (v > 0 ? s.wins : v < 0 ? s.losses : s.draws) += c;
    }
    out.push_back(s);
  }
  return out;
}

namespace {
std::string hex64(std::uint64_t v) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}
}  // namespace

ChecksumList read_checksums(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw InputError("checksum list " + file.string() + " is not a readable file");
  std::ifstream in(file);
  if (!in) throw InputError("cannot read the checksum list " + file.string());
  ChecksumList list;
  bool have_rules = false;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.size() > 4096) throw InputError("checksum list " + file.string() + " line " + std::to_string(line_number) + " is too long");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto bad = [&](const std::string& why) -> InputError {
      return InputError("checksum list " + file.string() + " line " + std::to_string(line_number) + ": " + why);
    };
    std::istringstream words(line);
    std::string key, rest;
    words >> key;
    if (key == "ruleset") {
      std::string digest;
      if (!(words >> digest) || (words >> rest)) throw bad("expected 'ruleset DIGEST'");
      try {
        list.rules = parse_digest(digest);
      } catch (const InputError&) {
        throw bad("unknown ruleset '" + digest + "'");
      }
      have_rules = true;
    } else if (key == "pits_per_side") {
      if (!(words >> list.pits_per_side) || (words >> rest) || list.pits_per_side < 1 || list.pits_per_side > kMaxPitsPerSide)
        throw bad("expected 'pits_per_side M' with M from 1 to " + std::to_string(kMaxPitsPerSide));
    } else if (key.rfind("level_", 0) == 0 && key.size() == 13 && key.substr(9) == ".mtb") {
      LevelChecksum c{};
      std::string hash;
      try {
        std::size_t used = 0;
        c.seeds = std::stoi(key.substr(6, 3), &used);
        if (used != 3) throw std::invalid_argument("level");
      } catch (const std::exception&) {
        throw bad("'" + key + "' is not a level file name");
      }
      if (!(words >> c.positions >> hash) || (words >> rest) || hash.size() != 16 ||
          hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw bad("expected 'level_NNN.mtb POSITIONS HASH' (16 lower-case hex digits)");
      c.hash = std::stoull(hash, nullptr, 16);
      if (!list.levels.empty() && c.seeds <= list.levels.back().seeds) throw bad("levels out of order or repeated");
      list.levels.push_back(c);
    } else {
      throw bad("unknown line '" + key + "'");
    }
  }
  if (!have_rules || list.pits_per_side == 0) throw InputError("checksum list " + file.string() + " lacks its ruleset or pits_per_side line");
  return list;
}

std::string format_checksums(const DirectoryInfo& info, const std::vector<LevelChecksum>& levels) {
  std::ostringstream out;
  out << "# mancala table checksums: the FNV-1a 64 of each level's values in rank order (any file format)\n"
      << "ruleset " << info.rules.digest() << "\npits_per_side " << info.pits_per_side << "\n";
  char name[32];
  for (const LevelChecksum& c : levels) {
    std::snprintf(name, sizeof name, "level_%03d.mtb", c.seeds);
    out << name << " " << c.positions << " " << hex64(c.hash) << "\n";
  }
  return out.str();
}

std::vector<std::string> compare_checksums(const std::filesystem::path& dir, const ChecksumList& list, int& compared) {
  std::vector<std::string> problems;
  compared = 0;
  const DirectoryInfo info = describe_directory(dir);
  if (info.rules != list.rules || info.pits_per_side != list.pits_per_side) {
    problems.push_back("table directory " + dir.string() + " holds " + info.rules.digest() + " with " +
                       std::to_string(info.pits_per_side) + " pits a side; the checksum list is for " + list.rules.digest() +
                       " with " + std::to_string(list.pits_per_side));
    return problems;
  }
  for (const LevelChecksum& c : list.levels) {
    if (c.seeds > info.max_seeds) break;
    const std::filesystem::path file = level_path(dir, c.seeds);
    const TableHeader h = read_header(file);
    ++compared;
    if (h.entries != c.positions)
      problems.push_back("table file " + file.string() + ": " + std::to_string(h.entries) + " positions, the checksum list says " +
                         std::to_string(c.positions));
    else if (h.payload_hash != c.hash)
      problems.push_back("table file " + file.string() + ": content hash " + hex64(h.payload_hash) + ", the checksum list says " +
                         hex64(c.hash));
  }
  return problems;
}

}  // namespace mancala::tables
