#include "mancala/solver/directory_tables.hpp"

#include <algorithm>
#include <cstring>

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

}  // namespace mancala::solver
