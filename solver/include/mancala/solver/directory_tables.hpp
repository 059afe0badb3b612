// A table directory (tables/table_directory.hpp) as the solver's endgame tables.
#pragma once

#include <filesystem>

#include "mancala/solver/solver.hpp"
#include "mancala/tables/table_directory.hpp"

namespace mancala::solver {

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
  const std::int8_t* level_values(int pits_per_side, int seeds) const override {
    if (pits_per_side != tables_.pits_per_side() || seeds < 0 || seeds > tables_.max_seeds()) return nullptr;
    return tables_.level(seeds).values();  // null for a compressed level: then probe() decodes
  }
  const tables::TableDirectory& directory() const { return tables_; }

 private:
  tables::TableDirectory tables_;
};

}  // namespace mancala::solver
