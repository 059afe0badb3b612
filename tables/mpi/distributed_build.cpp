#include "distributed_build.hpp"

#include <algorithm>
#include <chrono>
#include <span>
#include <string>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/acyclic_positions.hpp"
#include "mancala/tables/cyclic_slice.hpp"
#include "mancala/tables/level_values.hpp"
#include "mancala/tables/phi_buckets.hpp"
#include "mancala/tables/table_file.hpp"

namespace mancala::mpi {

namespace {

// Runs f on rank 0 only; an InputError there becomes an InputError with the
// same message on every process, so that all of them stop together.
template <class F>
void on_root(Comm& comm, F&& f) {
  std::string error;
  if (comm.root()) {
    try {
      f();
    } catch (const InputError& e) {
      error = e.what();
      if (error.empty()) error = "error on rank 0";
    }
  }
  comm.broadcast(error);
  if (!error.empty()) throw InputError(error);
}

template <class R>
std::vector<std::int8_t> build_acyclic_level(Comm& comm, const tables::LevelValues<R>& lower, int m, int k,
                                             DistributedProgress* progress) {
  const tables::BoardIndex& index = lower.index();
  const tables::PhiBuckets buckets(index, m, k);
  std::vector<std::int8_t> level(index.level_size(k), tables::kUnknownValue);
  std::vector<std::int8_t> mine;
  for (int phi = buckets.max_phi(); phi >= 0; --phi) {
    const auto bucket = buckets.bucket(phi);
    if (bucket.empty()) continue;  // every process skips the same buckets
    const std::uint64_t lo = tables::slice_begin(bucket.size(), comm.size(), comm.rank());
    const std::uint64_t hi = tables::slice_begin(bucket.size(), comm.size(), comm.rank() + 1);
    mine.resize(hi - lo);
    tables::solve_acyclic_positions<R>(index, m, k, [&](int s) { return lower.level(s).data(); }, level.data(),
                                       bucket.subspan(lo, hi - lo), mine.data());
    const std::vector<std::int8_t> values = comm.all_gather(mine);  // the bucket, in its order
    if (values.size() != bucket.size()) throw std::logic_error("bucket exchange lost values");
    for (std::size_t i = 0; i < bucket.size(); ++i) level[bucket[i]] = values[i];
    if (progress) progress->positions_done += bucket.size();
  }
  return level;
}

template <class R>
std::vector<std::int8_t> build_cyclic_level(Comm& comm, const tables::LevelValues<R>& lower, int m, int k, int* rounds,
                                            DistributedProgress* progress) {
  const tables::BoardIndex& index = lower.index();
  const std::uint64_t size = index.level_size(k);
  const int parts = comm.size();
  std::vector<std::uint64_t> bounds;
  for (int r = 0; r <= parts; ++r) bounds.push_back(tables::slice_begin(size, parts, r));
  tables::CyclicSlice<R> slice(index, m, k, bounds[std::size_t(comm.rank())], bounds[std::size_t(comm.rank()) + 1]);
  slice.scan([&](int s) { return lower.level(s).data(); });
  if (progress) progress->positions_done += size / 2;
  std::uint64_t decided = 0;
  *rounds = 0;
  for (int t = k; t >= 1; --t) {
    std::vector<std::uint64_t> frontier = slice.seed(t);
    for (;;) {
      const std::uint64_t total = comm.sum(frontier.size());
      if (total == 0) break;
      ++*rounds;
      decided += total;
      if (progress) progress->positions_done += total / 2;
      // Updates sorted by rank: each owner's share is one contiguous run.
      const std::vector<std::uint64_t> updates = slice.expand(frontier);
      std::vector<std::span<const std::uint64_t>> out;
      auto at = updates.begin();
      for (int r = 0; r < parts; ++r) {
        const auto end = std::lower_bound(at, updates.end(), bounds[std::size_t(r) + 1] << 1);
        out.emplace_back(updates.data() + (at - updates.begin()), std::size_t(end - at));
        at = end;
      }
      const std::vector<std::uint64_t> in = comm.all_to_all(out);
      frontier = slice.apply(in, t);
    }
  }
  if (progress) progress->positions_done += size - size / 2 - decided / 2;
  const std::vector<std::int8_t> values = slice.values();
  std::vector<std::int8_t> level = comm.all_gather(values);
  if (level.size() != size) throw std::logic_error("level exchange lost values");
  return level;
}

template <class R>
std::vector<tables::BuiltLevel> build_with(Comm& comm, const std::filesystem::path& dir, const Ruleset& rules, int m,
                                           int max_seeds, DistributedProgress* progress) {
  tables::LevelValues<R> levels(m, max_seeds);
  std::vector<tables::BuiltLevel> report;
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = levels.index().level_size(k);
    if (progress) progress->level = k;
    const std::filesystem::path file = tables::level_path(dir, k);
    // Resume: rank 0 reads a complete level file (a corrupt one is an error,
    // as in build_tables) and broadcasts its values.
    std::vector<std::int8_t> values;
    std::string reused = "0";
    on_root(comm, [&] {
      if (!std::filesystem::exists(file)) return;
      const tables::MappedLevel existing(file, rules, m, k);
      values.assign(existing.values(), existing.values() + existing.size());
      reused = "1";
    });
    comm.broadcast(reused);
    if (reused == "1") {
      comm.broadcast(values);
      levels.adopt_next(std::move(values));
      report.push_back({k, size, true, 0, 0});
      if (progress) progress->positions_done += size;
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    int passes = 1;
    if constexpr (R::game == Game::Oware)
      values = build_cyclic_level<R>(comm, levels, m, k, &passes, progress);
    else
      values = build_acyclic_level<R>(comm, levels, m, k, progress);
    on_root(comm, [&] { tables::write_level(dir, rules, m, k, values); });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    on_root(comm, [&] { tables::append_build_time(dir, rules, m, k, size, seconds, passes); });
    report.push_back({k, size, false, seconds, passes});
    levels.adopt_next(std::move(values));
  }
  return report;
}

}  // namespace

std::uint64_t distributed_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds, int processes) {
  const tables::BoardIndex index(2 * pits_per_side, max_seeds);
  const std::uint64_t top = index.level_size(max_seeds);
  std::uint64_t bytes = index.level_offset(max_seeds + 1);  // every level, replicated
  if (rules.game == Game::Oware)  // the slice's cells, frontier and update buffers (about 3 predecessors each)
    bytes += top / std::uint64_t(processes) * (4 + 8 + 2 * 3 * 8) + top;
  else
    bytes += 4 * top;  // the bucket order
  return bytes;
}

std::vector<tables::BuiltLevel> build_tables_distributed(Comm& comm, const std::filesystem::path& dir,
                                                         const Ruleset& rules, int pits_per_side, int max_seeds,
                                                         DistributedProgress* progress) {
  const int per_node = comm.node_size();
  on_root(comm, [&] {
    if (max_seeds < 0 || max_seeds > 127) throw InputError("--max-seeds must be between 0 and 127");
    if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
      throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
    tables::prepare_build(dir, rules, pits_per_side, max_seeds,
                          distributed_memory_estimate(rules, pits_per_side, max_seeds, comm.size()), per_node);
  });
  if (progress) progress->positions_total = tables::BoardIndex(2 * pits_per_side, max_seeds).level_offset(max_seeds + 1);
  return dispatch(rules, [&](auto R) { return build_with<decltype(R)>(comm, dir, rules, pits_per_side, max_seeds, progress); });
}

}  // namespace mancala::mpi
