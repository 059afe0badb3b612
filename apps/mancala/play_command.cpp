// play: the perfect engine in the terminal.
#include "commands.hpp"
#include "mancala/error.hpp"

namespace mancala::cli {

int cmd_play(const Args&) { throw InputError("play: not yet"); }

}  // namespace mancala::cli
