#include "mancala/solver/directory_tables.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "mancala/error.hpp"

namespace mancala::solver {

std::uint64_t DirectoryTables::level_bytes(int top) const {
  std::uint64_t bytes = 0;
  for (int k = 0; k <= std::min(top, tables_.max_seeds()); ++k) bytes += tables_.level(k).size();
  return bytes;
}

void DirectoryTables::load_into_memory(int top) {
  top = std::min(top, tables_.max_seeds());
  for (int k = levels_in_memory() + 1; k <= top; ++k) {
    const tables::MappedLevel& level = tables_.level(k);
    tables::PageBuffer<std::int8_t> values(level.size());
    if (level.values())
      std::memcpy(values.data(), level.values(), level.size());
    else
      level.read(0, level.size(), values.data());
    in_memory_.push_back(std::move(values));
  }
}

std::optional<TablesInMemory> tables_in_memory_from(std::string_view name) {
  if (name == "auto") return TablesInMemory::Auto;
  if (name == "yes") return TablesInMemory::Yes;
  if (name == "no") return TablesInMemory::No;
  return std::nullopt;
}

void DirectoryTables::prepare_for(const Position& root, TablesInMemory mode) {
  prepare_for(root, mode, std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE)));
}

bool DirectoryTables::any_compressed(int top) const {
  for (int k = 0; k <= std::min(top, tables_.max_seeds()); ++k)
    if (!tables_.level(k).values()) return true;
  return false;
}

void DirectoryTables::prepare_for(const Position& root, TablesInMemory mode, std::uint64_t physical,
                                  std::uint64_t auto_min_bytes) {
  if (mode == TablesInMemory::No) return;
  const int top = std::min(root.board_seeds(), tables_.max_seeds());
  const std::uint64_t bytes = level_bytes(top);
  if (mode == TablesInMemory::Yes && bytes > physical / 2)
    throw InputError("tables in memory: levels 0.." + std::to_string(top) + " take " + std::to_string(bytes >> 20) +
                     " MiB, more than half of the machine's " + std::to_string(physical >> 20) +
                     " MiB (the limit of yes; auto would read them from the files)");
  const bool auto_copies = root.board_seeds() > tables_.max_seeds() && bytes <= physical / 4 &&
                           (bytes >= auto_min_bytes || any_compressed(top));
  if (mode == TablesInMemory::Yes || auto_copies) load_into_memory(top);
}

}  // namespace mancala::solver
