// A table directory (tables/table_directory.hpp) as the solver's endgame tables.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "mancala/solver/solver.hpp"
#include "mancala/tables/page_buffer.hpp"
#include "mancala/tables/table_directory.hpp"

namespace mancala::solver {

// Whether DirectoryTables::prepare_for copies the levels into memory.
enum class TablesInMemory { Auto, Yes, No };
// "auto", "yes" or "no" (the command line's --tables-in-memory, Python's
// tables_in_memory=); nullopt for anything else, which the caller reports
// under its own name for the setting.
std::optional<TablesInMemory> tables_in_memory_from(std::string_view name);

class DirectoryTables final : public EndgameTables {
 public:
  // Throws InputError if the directory was built for another ruleset or width.
  DirectoryTables(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side)
      : tables_(dir, rules, pits_per_side) {}
  int max_seeds() const override { return tables_.max_seeds(); }
  bool probe(const Position& p, int& board_value) const override {
    const int seeds = p.board_seeds();
    if (p.m() != tables_.pits_per_side() || seeds > tables_.max_seeds()) return false;
    board_value = tables_.value(p.pits.data(), seeds);
    return true;
  }
  // In memory once load_into_memory() copied the level there; otherwise in
  // place in the file's mapping, or null for a compressed level (then
  // probe() decodes it a block at a time).
  const std::int8_t* level_values(int pits_per_side, int seeds) const override {
    if (pits_per_side != tables_.pits_per_side() || seeds < 0 || seeds > tables_.max_seeds()) return nullptr;
    if (std::size_t(seeds) < in_memory_.size()) return in_memory_[std::size_t(seeds)].data();
    return tables_.level(seeds).values();
  }
  const tables::TableDirectory& directory() const { return tables_; }

  // Bytes of the values of levels 0..top (top <= max_seeds()).
  std::uint64_t level_bytes(int top) const;
  // Whether any of levels 0..top is stored compressed.
  bool any_compressed(int top) const;
  // Copies the values of levels 0..top into anonymous memory on huge pages
  // (decoding compressed levels, every block checked), for level_values().
  // A search above the tables reads them at random, one read a child: from a
  // file's mapping each read on 4 KiB pages is a TLB miss as well
  // (results/README.md, "A compact transposition table, and endgame
  // tables in memory").  Throws InputError (a corrupt file) or
  // std::bad_alloc.  Not thread-safe: call it before a solve.
  void load_into_memory(int top);
  int levels_in_memory() const { return int(in_memory_.size()) - 1; }
  // Auto copies raw levels only from this size up.  The copy lands on fresh
  // memory, which the project's virtual machine backs at about 2 s a GiB:
  // a Kalah(5,6) solve right after its build, two threads, took 5.5-5.8 s
  // reading 131 MB of levels in place against 6.0-6.5 s copying them, and
  // 2.5-2.6 s against 3.3-3.8 s with 472 MB, the same user time either way;
  // on standard Kalah(6,5) with 1.25 GB of levels, the copy saved 2-17% of
  // the user time of a billion nodes' reads (results/README.md, "Levels
  // copied into memory only from 1 GiB").
  static constexpr std::uint64_t kAutoCopyMinBytes = std::uint64_t(1) << 30;
  // Before a solve of `root`: loads the levels a search from it can reach
  // (0..its seeds) into memory when `mode` says so.  Auto: when the root is
  // above the tables (a root inside them is one read), those levels take
  // at most a quarter of the machine's memory, and either some of them are
  // compressed (in place, a compressed level is decoded a block a read) or
  // they take at least kAutoCopyMinBytes.  Yes: always, but throws
  // InputError naming the sizes when they take more than half of it.
  void prepare_for(const Position& root, TablesInMemory mode);
  // The same rule against `physical_bytes` of memory in place of the
  // machine's and `auto_min_bytes` in place of kAutoCopyMinBytes (tests
  // reach the limits with them).
  void prepare_for(const Position& root, TablesInMemory mode, std::uint64_t physical_bytes,
                   std::uint64_t auto_min_bytes = kAutoCopyMinBytes);

 private:
  tables::TableDirectory tables_;
  std::vector<tables::PageBuffer<std::int8_t>> in_memory_;  // levels 0..levels_in_memory()
};

}  // namespace mancala::solver
