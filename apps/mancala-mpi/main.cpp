// `mancala-mpi`: the distributed table build,
//     mpirun -np N mancala-mpi build --game G --pits m --max-seeds K --out DIR [--threads T]
// with the options of `mancala build` (apps/common/build_options.hpp) and the
// same files, byte for byte (distributed_build.hpp).  Errors in the input
// are one line on stderr from rank 0 and exit status 2 on every process; the
// other ranks print nothing.  Progress goes to rank 0's stderr when it is a
// terminal and --quiet is not given.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include <tbb/global_control.h>

#include "build_options.hpp"
#include "comm.hpp"
#include "distributed_build.hpp"
#include "mancala/error.hpp"
#include "mancala/version.hpp"
#include "progress.hpp"

namespace {

using namespace mancala;
using namespace mancala::cli;

// The build's own estimate of a process's memory, for an out-of-memory
// message (0 until the options are read).
std::uint64_t memory_needed = 0;

std::string one_line(const std::string& text) {
  std::string out;
  for (unsigned char c : text) out += (c < 0x20 || c == 0x7f) ? '?' : char(c);
  return out;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int usage(std::ostream& out, int status) {
  out << "Usage: mpirun -np N mancala-mpi build [options]     (mancala-mpi build --help for its options)\n\n"
         "Builds endgame tables (levels 0..K) like `mancala build`, split over the MPI processes;\n"
         "the files are byte-identical to those of `mancala build`.\n";
  return status;
}

int cmd_build(mpi::Comm& comm, const Args& args) {
  po::options_description desc("build: endgame tables by retrograde analysis, one file per level, over MPI processes");
  po::options_description hidden;
  add_build_options(desc, hidden);
  add_build_test_options(hidden);
  hidden.add_options()("test-stop-rank", po::value<int>(), "test only: the one rank that stops (default: every rank)")(
      "test-out-of-memory-rank", po::value<int>(), "test only: this rank runs out of memory after level 2");
  desc.add_options()("files", po::value<std::string>()->default_value("auto"),
                     "who writes the table directory: shared (every process its own slices of each file, on a file "
                     "system all see), root (rank 0 alone, for a directory only it sees) or auto (shared when every "
                     "process sees the directory)");
  desc.add_options()("split", po::value<std::string>()->default_value("auto"),
                     "how a Kalah, BrainKing or Congkak level is split between the processes: row-sums (each "
                     "process its row-sum classes, whose moves within the level stay with it; at most 8 pits a side), "
                     "ranks (rank slices, in-level moves by Phi order, with messages) or auto (row-sums where they "
                     "deal out within 5%, else ranks); the files do not depend on it");
  po::variables_map vm;
  if (!parse_args("mpirun -np N mancala-mpi build", kBuildSynopsis, desc, args, vm, nullptr, &hidden)) return 0;
  const BuildOptions opt = read_build_options(vm);
  const std::string files = vm["files"].as<std::string>();
  mpi::FileAccess access = mpi::FileAccess::Auto;
  if (files == "shared")
    access = mpi::FileAccess::Shared;
  else if (files == "root")
    access = mpi::FileAccess::Root;
  else if (files != "auto")
    throw InputError("--files must be auto, shared or root, not '" + files + "'");
  const std::string split_name = vm["split"].as<std::string>();
  mpi::AcyclicSplit split = mpi::AcyclicSplit::Auto;
  if (split_name == "row-sums")
    split = mpi::AcyclicSplit::RowSums;
  else if (split_name == "ranks")
    split = mpi::AcyclicSplit::Ranks;
  else if (split_name != "auto")
    throw InputError("--split must be auto, row-sums or ranks, not '" + split_name + "'");
  // The test stops (build_options.hpp) on every rank, or on the one of
  // --test-stop-rank: a rank that ends alone leaves the others waiting in a
  // collective until mpirun ends them, as when one node of a job dies.
  int stop_rank = -1;
  if (vm.count("test-stop-rank")) {
    stop_rank = int(int_option(vm, "test-stop-rank", 0, comm.size() - 1));
    if (opt.test_stop_after_level < 0 && opt.test_stop_mid_level < 0)
      throw InputError("--test-stop-rank needs --test-stop-after-level or --test-stop-mid-level");
    // Rank 0 alone writes the files, so only it reaches that point.
    if (opt.test_stop_mid_level >= 0 && stop_rank != 0)
      throw InputError("--test-stop-mid-level stops rank 0, the one that writes the files: --test-stop-rank must be 0");
  }
  tables::BuildTestHooks hooks = stop_rank < 0 || stop_rank == comm.rank()
                                     ? test_stop_hooks(opt, "mancala-mpi: rank " + std::to_string(comm.rank()))
                                     : tables::BuildTestHooks{};
  // An allocation that fails on one rank only, as when one node's memory runs out.
  if (vm.count("test-out-of-memory-rank") && int(int_option(vm, "test-out-of-memory-rank", 0, comm.size() - 1)) == comm.rank())
    hooks.level_written = [](int k) {
      if (k == 2) throw std::bad_alloc();
    };
  memory_needed = mpi::distributed_memory_estimate(opt.game.rules, opt.game.position.m(), opt.max_seeds, comm.size());
  std::optional<tbb::global_control> limit;
  limit.emplace(tbb::global_control::max_allowed_parallelism, std::size_t(opt.threads));
  const int max_seeds = opt.max_seeds;
  mpi::DistributedProgress status;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<tables::BuiltLevel> built;
  mpi::DistributedFigures figures;
  {
    ProgressLine progress(comm.root() && ProgressLine::wanted(opt.quiet), [&](double t) {
      const double done = double(status.positions_done.load()), total = double(status.positions_total.load());
      return "build: level " + std::to_string(status.level.load()) + " of " + std::to_string(max_seeds) + ", " + human(done) +
             " of " + human(total) + " positions, " + std::to_string(comm.size()) + " processes, " + fixed(t, 0) + " s";
    });
    built = mpi::build_tables_distributed(comm, opt.out, opt.game.rules, opt.game.position.m(), max_seeds, &status, &figures,
                                          &hooks, opt.format, access, split);
  }
  const double seconds = comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const std::uint64_t sent_total = comm.sum(comm.bytes_sent());
  const std::uint64_t sent_max = comm.max(comm.bytes_sent());
  const double rss_max = comm.max(peak_rss_mb());
  const double comm_max = comm.max(comm.seconds_in_comm());
  const double cpu_max = comm.max(cpu_seconds());
  const std::uint64_t held_max = comm.max(figures.values_held_peak);
  const std::uint64_t requested_total = comm.sum(figures.values_requested);
  // Every rank's peak RSS, in rank order (rank 0 collects them).
  std::vector<double> rss_per_rank;
  for (int r = 0; r < comm.size(); ++r) {
    const double mine = r == comm.rank() ? peak_rss_mb() : 0.0;
    rss_per_rank.push_back(comm.max(mine));
  }
  if (!comm.root()) return 0;
  nlohmann::json levels = nlohmann::json::array();
  std::uint64_t total = 0;
  for (const auto& b : built) {
    total += b.positions;
    levels.push_back({{"seeds", b.seeds}, {"positions", b.positions}, {"reused", b.reused}, {"seconds", b.seconds}, {"passes", b.passes}});
  }
  const int threads = opt.threads;
  if (opt.json) {
    print_json({{"ruleset", opt.game.rules.digest()}, {"pits_per_side", opt.game.position.m()}, {"max_seeds", max_seeds},
                {"positions", total}, {"seconds", seconds}, {"levels", levels}, {"ranks", comm.size()},
                {"threads_per_rank", threads}, {"bytes_sent_total", sent_total}, {"bytes_sent_max_rank", sent_max},
                {"peak_rss_mb_max_rank", rss_max}, {"comm_seconds_max_rank", comm_max}, {"cpu_seconds_max_rank", cpu_max},
                {"peak_rss_mb_per_rank", rss_per_rank}, {"max_resident_values_per_rank", held_max},
                {"values_requested_total", requested_total}, {"shared_files", figures.shared_files}});
    return 0;
  }
  for (const auto& b : built)
    std::cout << "level " << b.seeds << "  " << b.positions << " positions  " << (b.reused ? std::string("reused") : seconds_text(b.seconds)) << "\n";
  std::cout << "total " << total << " positions in " << seconds_text(seconds) << " on " << comm.size() << " processes\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mpi::Session session(&argc, &argv);
  mpi::Comm comm;
  // Only rank 0 talks: the others' standard output goes nowhere.
  if (!comm.root()) std::cout.rdbuf(nullptr);
  const auto fail = [&](const std::string& what) {
    if (comm.root()) std::cerr << "mancala-mpi: error: " << one_line(what) << "\n";
    return 2;
  };
  // Rank 0's status once its output is out (stdout_write_error); the other
  // ranks print nothing.  Under mpirun, stdout is mpirun's pipe, and a
  // failure past it is mpirun's to report.
  const auto delivered = [&](int status) {
    if (!comm.root()) return status;
    const std::string error = stdout_write_error();
    return error.empty() ? status : fail(error);
  };
  if (argc < 2) return usage(comm.root() ? std::cerr : std::cout, 2);
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") return delivered(usage(std::cout, 0));
  if (name == "--version" || name == "-V") {
    if (comm.root()) std::cout << "mancala-mpi " << mancala::version() << " (commit " << mancala::source_commit() << ")\n";
    return delivered(0);
  }
  if (name != "build") return fail("unknown command '" + name + "' (mancala-mpi has one: build)");
  try {
    return delivered(cmd_build(comm, Args(argv + 2, argv + argc)));
  } catch (const InputError& e) {
    return fail(e.what());  // every process throws the same error (parsing, or rank 0's broadcast)
  } catch (const boost::program_options::error& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    // One rank's memory ran out: the others wait in a collective, so the job
    // is ended from here, with the reason.
    std::cerr << "mancala-mpi: error: rank " << comm.rank() << " of " << comm.size() << " ran out of memory";
    if (memory_needed > 0)
      std::cerr << " (the build needs about " << (memory_needed + (1 << 20) - 1) / (1 << 20)
                << " MiB a process: run it on more processes, or on nodes with more memory)";
    std::cerr << "\n";
    comm.abort(4);
  } catch (const std::exception& e) {
    // Something only this process saw: the others may wait in a collective.
    std::cerr << "mancala-mpi: internal error on rank " << comm.rank() << ": " << one_line(e.what()) << "\n";
    comm.abort(3);
  }
}
