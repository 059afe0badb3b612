#include "build_options.hpp"

#include <unistd.h>

#include <bit>

#include "mancala/error.hpp"
#include "progress.hpp"

namespace mancala::cli {

void add_build_options(po::options_description& desc, po::options_description& hidden) {
  // A build has no start position: --position and --seeds are refused
  // (read_build_options), and so left out of the help.
  add_game_options(desc, "kalah", false, &hidden, {.position = false, .seeds = false});
  desc.add_options()
      ("max-seeds", po::value<int>()->required(), "build levels 0..K (boards with up to K seeds)")
      ("out", po::value<std::string>()->required(), "table directory (created; complete levels are reused)")
      ("quiet", po::bool_switch(), "no progress line on stderr");
  add_format_options(desc);
  add_threads_option(desc, "TBB threads (per process)");
}

void add_format_options(po::options_description& desc) {
  desc.add_options()
      ("compression", po::value<std::string>()->default_value(tables::codec_name(tables::LevelFormat{}.codec)),
       "how level files store their values: none (raw, read in place), packed (a few bits a value, read in place) or zstd (smallest; a probe decodes a block)")
      ("block-size", po::value<long long>()->default_value(65536),
       "values a block of a level file (a power of two, 1024 to 16777216); a probe of a zstd file decodes one block")
      ("zstd-level", po::value<int>()->default_value(tables::LevelFormat{}.zstd_level),
       "zstd's effort, 1 to 22 (with --compression zstd; the files depend on it)");
}

tables::LevelFormat read_format_options(const po::variables_map& vm) {
  tables::LevelFormat f;
  f.codec = tables::parse_codec(vm["compression"].as<std::string>());
  const std::uint64_t block = std::uint64_t(int_option(vm, "block-size", 1024, 1 << 24));
  if (!std::has_single_bit(block)) throw InputError("--block-size must be a power of two, got " + std::to_string(block));
  f.block_log2 = std::countr_zero(block);
  f.zstd_level = int(int_option(vm, "zstd-level", 1, 22));
  if (!vm["zstd-level"].defaulted() && f.codec != tables::Codec::Zstd)
    throw InputError("--zstd-level is for --compression zstd");
  return f;
}

void add_build_test_options(po::options_description& hidden) {
  hidden.add_options()
      ("test-stop-after-level", po::value<int>(), "test only: exit 75 once this run has written level K")
      ("test-stop-mid-level", po::value<int>(), "test only: exit 75 with half of level K's .tmp written");
}

BuildOptions read_build_options(const po::variables_map& vm) {
  if (vm.count("position")) throw InputError("build takes --pits, not --position");
  if (!vm.count("pits")) throw InputError("build needs --pits");
  // --seeds names a start position's seeds a pit; a build has no position,
  // and its top level is --max-seeds.  Ignored, it would look obeyed.
  if (vm.count("seeds")) throw InputError("build takes --max-seeds (the tables' top level), not --seeds");
  BuildOptions o;
  o.game = game_setup(vm);
  o.threads = threads_option(vm);
  o.max_seeds = int(int_option(vm, "max-seeds", 0, tables::kMaxTableSeeds));
  o.out = vm["out"].as<std::string>();
  if (o.out.empty()) throw InputError("--out must name the table directory, it is empty");
  o.quiet = vm["quiet"].as<bool>();
  o.json = vm["json"].as<bool>();
  o.format = read_format_options(vm);
  if (vm.count("test-stop-after-level")) o.test_stop_after_level = int(int_option(vm, "test-stop-after-level", 0, o.max_seeds));
  if (vm.count("test-stop-mid-level")) o.test_stop_mid_level = int(int_option(vm, "test-stop-mid-level", 0, o.max_seeds));
  return o;
}

namespace {

[[noreturn]] void test_stop(const std::string& line) {
  // A drawn progress line is ended first, as the SIGINT handler does.
  const std::string text = (ProgressLine::drawn() ? "\n" : "") + line + "\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
  ::_exit(kTestStopStatus);
}

}  // namespace

tables::BuildTestHooks test_stop_hooks(const BuildOptions& opt, const std::string& who) {
  tables::BuildTestHooks hooks;
  if (const int after = opt.test_stop_after_level; after >= 0)
    hooks.level_written = [after, who](int k) {
      if (k == after) test_stop(who + ": test stop after level " + std::to_string(k) + " (--test-stop-after-level)");
    };
  if (const int mid = opt.test_stop_mid_level; mid >= 0)
    hooks.level_half_written = [mid, who](int k) {
      if (k == mid) test_stop(who + ": test stop half-way through writing level " + std::to_string(k) + " (--test-stop-mid-level)");
    };
  return hooks;
}

}  // namespace mancala::cli
