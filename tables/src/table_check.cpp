#include "mancala/tables/table_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <mutex>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"

namespace mancala::tables {

DirectoryInfo describe_directory(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) throw InputError("table directory " + dir.string() + " does not exist");
  const std::filesystem::path first = level_path(dir, 0);
  if (!std::filesystem::exists(first)) throw InputError("table directory " + dir.string() + " holds no level 0 file");
  const TableHeader h = read_header(first);
  DirectoryInfo info{parse_digest(h.digest), h.pits_per_side, -1};
  info.max_seeds = TableDirectory(dir, info.rules, info.pits_per_side).max_seeds();
  return info;
}

namespace {

template <class R>
void verify_with(const std::filesystem::path& dir, const DirectoryInfo& info, const std::function<void(int)>& progress) {
  const TableDirectory tables(dir, info.rules, info.pits_per_side);
  const BoardIndex index(2 * info.pits_per_side, info.max_seeds);
  for (int k = 0; k <= info.max_seeds; ++k) {
    if (progress) progress(k);
    const MappedLevel& level = tables.level(k);  // header, size and checksum
    std::atomic<std::uint64_t> first_bad{~std::uint64_t(0)};
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, level.size()), [&](const tbb::blocked_range<std::uint64_t>& r) {
      Position p;
      p.pits_per_side = std::uint8_t(info.pits_per_side);
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank) {
        index.unrank(rank, k, p.pits.data());
        int expect;
        if (R::is_terminal(p)) {
          expect = p.mover_row_sum() - p.opponent_row_sum();
        } else {
          expect = -1000;
          for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
            Position c = p;
            const MoveResult res = R::play(c, std::countr_zero(rest));
            const int delta = res.extra_turn ? c.store_difference() : -c.store_difference();
            const int v = res.game_over ? 0 : tables.value(c.pits.data(), c.board_seeds());
            expect = std::max(expect, res.extra_turn ? delta + v : delta - v);
          }
        }
        if (expect != level.values()[rank]) {
          std::uint64_t cur = first_bad.load();
          while (rank < cur && !first_bad.compare_exchange_weak(cur, rank)) {
          }
        }
      }
    });
    if (first_bad.load() != ~std::uint64_t(0))
      throw InputError("table file " + level_path(dir, k).string() + ": level " + std::to_string(k) +
                       " position " + std::to_string(first_bad.load()) + " does not follow from its successors");
  }
}

}  // namespace

void verify_tables(const std::filesystem::path& dir, const std::function<void(int)>& progress) {
  const DirectoryInfo info = describe_directory(dir);
  dispatch(info.rules, [&](auto R) { verify_with<decltype(R)>(dir, info, progress); });
}

std::vector<LevelSummary> summarize_tables(const std::filesystem::path& dir) {
  const DirectoryInfo info = describe_directory(dir);
  const TableDirectory tables(dir, info.rules, info.pits_per_side);
  std::vector<LevelSummary> out;
  for (int k = 0; k <= info.max_seeds; ++k) {
    const MappedLevel& level = tables.level(k);
    LevelSummary s{k, level.size(), 0, 0, 0, {}, level.header().payload_hash};
    std::array<std::uint64_t, 256> counts{};
    for (std::uint64_t i = 0; i < level.size(); ++i) ++counts[std::uint8_t(level.values()[i])];
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

}  // namespace mancala::tables
