// The subcommands of `mancala`; each returns the process exit status.
#pragma once

#include "cli_common.hpp"

namespace mancala::cli {

int cmd_show(const Args& args);
int cmd_moves(const Args& args);
int cmd_apply(const Args& args);
int cmd_perft(const Args& args);

}  // namespace mancala::cli
