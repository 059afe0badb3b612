#include "mancala/version.hpp"

#include "mancala_build_info.hpp"

namespace mancala {

const char* version() noexcept { return MANCALA_VERSION; }
const char* source_commit() noexcept { return MANCALA_COMMIT; }

}  // namespace mancala
