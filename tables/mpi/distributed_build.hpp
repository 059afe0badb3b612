// `mancala build` over MPI processes: levels 0..K into a table directory,
// byte-identical to tables::build_tables(), each level's work split between
// the processes (each of which also runs TBB threads).
//
// What every process holds: its own slice of every level, nothing more.
// Ownership (slice_begin in cyclic_slice.hpp, slice_owner in remote_values.hpp): level k, of S positions, is cut into P
// contiguous blocks of board ranks, process r holding
// [slice_begin(S, P, r), slice_begin(S, P, r + 1)), i.e. floor(S r / P) on.
// The values of successors held elsewhere are fetched in request rounds:
// each process lists the (level, rank) keys of the children it does not
// hold for a batch of its positions and sends one list per owner in one
// all-to-all; the owners answer with the 1-byte values in a second.  Every
// process takes part in as many rounds as the busiest one.
//
// How a level is built:
//  * Kalah, BrainKing, Congkak (acyclic levels) by row-sum classes
//    (row_sum_classes.hpp, row_sum_slice.hpp) where they deal out evenly
//    (AcyclicSplit below): an in-level move swaps the row sums, so each
//    process values its classes' exits with request rounds, walks their
//    in-level chains alone, and sends the values to their rank slices (a
//    byte a board).
//  * Otherwise by ranks (acyclic_slice.hpp): first
//    the exits of each process's slice, in rank order, batches of up to
//    2^20 positions with a request round each (8-byte keys as asked);
//    then the positions that have in-level moves, sorted by potential Phi
//    (phi_buckets.hpp), bucket by bucket from the largest Phi down, all
//    processes in step: a position's in-level successors have a larger
//    Phi, so their owners valued them in earlier buckets.  Each round's
//    work is dealt out evenly: a process with more of the bucket sends
//    positions (rank and best exit) to one with fewer and gets the values
//    back.
//  * Oware (cyclic levels): each process's slice keeps the retrograde state
//    of its positions (cyclic_slice.hpp).  The exits are valued first, a
//    batch of the slice at a time, with a request round each (each move
//    played once, 8-byte keys as asked).  Then every
//    frontier round, each process generates the predecessor updates of its
//    newly decided positions and the updates go to the owners of the
//    predecessors in one all-to-all (8 bytes each), then a sum over
//    processes says whether any frontier is left.
//
// Ownership is aligned to the blocks of the level files (2^b values, the
// --block-size): slice boundaries are floor(S r / P) rounded down to a
// block, so that every block belongs to one process (a level of fewer than
// P blocks leaves the first processes without a slice of it).
//
// Files (FileAccess below).  Shared: each process codes its own blocks in
// the build's format and writes them at their offset in the level's .tmp
// (the offsets are a sum of the stored sizes of the slices before it; the
// content hash, FNV-1a, is chained through the slices in rank order); rank
// 0 gathers the block index (16 bytes a block), writes the header and
// renames the file into place.  A resume: every process reads and checks
// the blocks of its own slice of a complete level.  Root: rank 0 alone
// touches the directory, so it need not be shared; it writes a level from
// the slices in rank order (its own, then each other rank's received in
// chunks of 16 MiB) with the streaming writer (table_file.hpp), never
// holding the level whole, and to resume maps a complete level's file and
// sends each rank its slice, in chunks.  Either way the files are those of
// `mancala build`, byte for byte.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "comm.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/table_build.hpp"

namespace mancala::mpi {

// Live figures for rank 0's progress line.
struct DistributedProgress {
  std::atomic<int> level{0};
  std::atomic<std::uint64_t> positions_done{0};   // all processes, levels so far
  std::atomic<std::uint64_t> positions_total{0};
};

// Who touches the table directory.  Shared: every process writes its own
// slices of each level file at their offsets (rank 0 the header and index)
// and reads them back on a resume, so no process ever holds more than its
// slices; the directory must be one that every process sees.  Root: rank 0
// alone writes and reads the files, receiving and sending the slices (for a
// directory only rank 0 sees).  Auto: shared when every process sees the
// directory rank 0 prepared (a token written there and read back), else root.
enum class FileAccess { Auto, Shared, Root };

// How an acyclic level's work is split.  RowSums: by row-sum classes (at
// most 8 pits a side); Ranks: by rank slices and Phi order; Auto: row sums
// where the largest process's share is within 5% of the mean
// (RowSumClasses::balanced), ranks elsewhere.  The files never depend on it.
enum class AcyclicSplit { Auto, RowSums, Ranks };

// What a run held and asked for, on this process.
struct DistributedFigures {
  bool shared_files = false;            // the directory was written by every process
  std::uint64_t values_held_peak = 0;   // level values (1 byte each) held at most at once: slices, and the level being built
  std::uint64_t values_requested = 0;   // distinct keys asked of other processes, summed over rounds
};

// Bytes one process keeps at its peak for levels 0..K with `processes`
// processes: its slice of every level (1 byte a position), plus for acyclic
// levels the larger of the slice's Phi order (4 bytes a position of level
// K, 8 for a slice of 2^32 positions or more) and its row-sum classes'
// working state (4 bytes a position, 5% over a slice), or its
// retrograde state and update buffers for Oware, plus the request batches.
std::uint64_t distributed_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds, int processes);

// Collective: every process calls it with the same arguments.  Returns the
// per-level report (the same on every process).  Throws InputError on every
// process for a bad request or directory (the message is the same).
// `hooks` (test-only, table_build.hpp) may differ between processes:
// level_written is called on every process that has it, once rank 0 has
// written the level and its build_times.csv row; level_half_written only on
// rank 0, the one that writes the files.
std::vector<tables::BuiltLevel> build_tables_distributed(Comm& comm, const std::filesystem::path& dir,
                                                         const Ruleset& rules, int pits_per_side, int max_seeds,
                                                         DistributedProgress* progress = nullptr,
                                                         DistributedFigures* figures = nullptr,
                                                         const tables::BuildTestHooks* hooks = nullptr,
                                                         const tables::LevelFormat& format = {},
                                                         FileAccess access = FileAccess::Auto,
                                                         AcyclicSplit split = AcyclicSplit::Auto);

}  // namespace mancala::mpi
