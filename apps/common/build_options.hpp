// The options of `mancala build`, shared with `mancala-mpi build`
// (apps/mancala-mpi/), so that both take and check exactly the same arguments.
#pragma once

#include <string>

#include "cli_common.hpp"

namespace mancala::cli {

struct BuildOptions {
  GameSetup game;
  int max_seeds = 0;
  std::string out;
  int threads = 0;  // TBB threads (per process); 0: all cores
  bool quiet = false;
  bool json = false;
};

// Adds the game options, --max-seeds, --out, --threads and --quiet.
void add_build_options(po::options_description& desc);
// Reads them back; throws InputError on a bad combination.
BuildOptions read_build_options(const po::variables_map& vm);

inline const char* kBuildSynopsis =
    "--pits m --max-seeds K --out DIR [--game G] [ruleset options] [--threads T] [--quiet] [--json]";

}  // namespace mancala::cli
