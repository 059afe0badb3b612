// `mancala build` over MPI processes: levels 0..K into a table directory,
// byte-identical to tables::build_tables(), each level's work split between
// the processes (each of which also runs TBB threads).
//
// What every process holds: all levels below the one being built (their
// values, replicated), because any position's exits can land anywhere in a
// lower level.  Rank 0 alone touches the directory: it reads the levels a
// previous run completed (resume) and broadcasts them, and it writes each new
// level with the same writer as the single-machine build.  The directory
// therefore needs to be visible to rank 0 only.
//
// How a level is split:
//  * Kalah, BrainKing, Congkak (acyclic levels): the level is cut into
//    buckets of equal potential Phi (phi_buckets.hpp), processed from the
//    largest Phi down.  Each process computes an equal share of a bucket
//    (acyclic_positions.hpp); the bucket's values are then all-gathered (one
//    collective per bucket, 1 byte per position), so every process holds the
//    whole level being built, which the next buckets' in-level successors
//    are read from.  Chosen over contiguous slices with request rounds
//    because it needs no requests at all, balances every bucket exactly and
//    sends each value once.
//  * Oware (cyclic levels): contiguous slices of the level's ranks, one per
//    process, each with the retrograde state of its own positions
//    (cyclic_slice.hpp).  Every frontier round, each process generates the
//    predecessor updates of its newly decided positions, and the updates go
//    to the owners of the predecessors in one all-to-all (8 bytes each),
//    then a sum over processes says whether any frontier is left.  At the
//    end the slices' values are all-gathered.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "comm.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/table_directory.hpp"

namespace mancala::mpi {

// Live figures for rank 0's progress line.
struct DistributedProgress {
  std::atomic<int> level{0};
  std::atomic<std::uint64_t> positions_done{0};   // all processes, levels so far
  std::atomic<std::uint64_t> positions_total{0};
};

// Bytes one process keeps at its peak for levels 0..K with `processes`
// processes: every level's values, plus the bucket order (4 bytes a
// position of level K) for acyclic levels, or its slice's retrograde state
// and update buffers for Oware.
std::uint64_t distributed_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds, int processes);

// Collective: every process calls it with the same arguments.  Returns the
// per-level report (the same on every process).  Throws InputError on every
// process for a bad request or directory (the message is the same).
std::vector<tables::BuiltLevel> build_tables_distributed(Comm& comm, const std::filesystem::path& dir,
                                                         const Ruleset& rules, int pits_per_side, int max_seeds,
                                                         DistributedProgress* progress = nullptr);

}  // namespace mancala::mpi
