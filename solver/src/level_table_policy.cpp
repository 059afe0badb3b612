#include "level_table_policy.hpp"

#include <unistd.h>

#include <algorithm>
#include <string>

#include "mancala/error.hpp"
#include "mancala/tables/cyclic_level.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::solver::detail {

std::uint64_t cyclic_levels_bytes(const tables::BoardIndex& keys, int top) {
  return keys.level_offset(top) + std::max(keys.level_size(top), tables::cyclic_detail::working_bytes(keys.level_size(top)));
}

std::uint64_t full_table_budget(const SolveOptions& options) {
  if (options.full_table_bytes) return options.full_table_bytes;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) / 2 : kOwareLevelBudget;
}

int automatic_level_top(const tables::BoardIndex& keys, int seeds, bool cycles, std::uint64_t full_bytes) {
  // Oware's full tables, when they fit: its start positions are out of the
  // search's reach otherwise (a line of play longer than its ply guard).
  if (cycles && seeds <= tables::kMaxTableSeeds && cyclic_levels_bytes(keys, seeds) <= full_bytes) return seeds;
  const std::uint64_t budget = cycles ? kOwareLevelBudget : kAcyclicLevelBudget;
  int top = -1;
  while (top < seeds && keys.level_offset(top + 2) <= budget && top < tables::kMaxTableSeeds) ++top;
  if (!cycles && top + kAcyclicMargin > seeds) top = -1;
  return top;
}

int level_table_top(const tables::BoardIndex& keys, int seeds, bool cycles, const SolveOptions& options) {
  const int top = automatic_level_top(keys, seeds, cycles, full_table_budget(options));
  if (options.level_table_seeds < 0) return top;
  const int asked = std::min({options.level_table_seeds, seeds, tables::kMaxTableSeeds});
  // Oware's search above a level it does not have in memory meets every
  // cycle of that level and stores nothing that met one: a single missing
  // level multiplied the nodes of a 5-seed board by millions
  // (results/README.md).  So fewer levels than fit the budget are refused
  // rather than run for hours.
  if (cycles && asked < top && !options.oware_search_below_levels)
    throw InputError("--level-tables " + std::to_string(options.level_table_seeds) +
                     " leaves Oware boards of up to " + std::to_string(top) +
                     " seeds to the search, which is exponential in their cycles; give at least " +
                     std::to_string(top) + ", or -1 (automatic)");
  return asked;
}

}  // namespace mancala::solver::detail
