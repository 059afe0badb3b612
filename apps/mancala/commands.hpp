// The subcommands of `mancala`; each returns the process exit status.
#pragma once

#include "cli_common.hpp"

namespace mancala::cli {

int cmd_show(const Args& args);
int cmd_moves(const Args& args);
int cmd_apply(const Args& args);
int cmd_perft(const Args& args);
int cmd_solve(const Args& args);
int cmd_analyze(const Args& args);
int cmd_bench(const Args& args);
int cmd_build(const Args& args);
int cmd_probe(const Args& args);
int cmd_verify(const Args& args);
int cmd_info(const Args& args);
int cmd_convert(const Args& args);
int cmd_batch(const Args& args);
int cmd_opening(const Args& args);
int cmd_match(const Args& args);
int cmd_play(const Args& args);

}  // namespace mancala::cli
