// build, probe, verify, info: the endgame-table subcommands.
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "build_options.hpp"
#include "commands.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/probe.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/tables/table_build.hpp"
#include "mancala/tables/table_check.hpp"
#include "progress.hpp"
#include <tbb/global_control.h>

namespace mancala::cli {

namespace {
// A problem as one line (a path or a digest read from a file may hold any
// byte), as main() does for errors.
std::string one_line(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) out += (c < 0x20 || c == 0x7f) ? '?' : char(c);
  return out;
}
}  // namespace

int cmd_build(const Args& args) {
  po::options_description desc("build: endgame tables by retrograde analysis, one file per level");
  po::options_description hidden;
  add_build_options(desc, hidden);
  add_build_test_options(hidden);
  po::variables_map vm;
  if (!parse_args("mancala build", kBuildSynopsis, desc, args, vm, nullptr, &hidden)) return 0;
  const BuildOptions opt = read_build_options(vm);
  const tables::BuildTestHooks hooks = test_stop_hooks(opt, "mancala");
  const GameSetup& g = opt.game;
  std::optional<tbb::global_control> limit;
  limit.emplace(tbb::global_control::max_allowed_parallelism, std::size_t(opt.threads));
  const int max_seeds = opt.max_seeds;
  tables::BuildProgress status;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<tables::BuiltLevel> built;
  {
    // "level 17 of 20, 120.0M of 340.0M positions, 2.1M positions/s, 35 s, ~104 s left".  The
    // time left assumes the rate so far, which falls as the levels grow
    // (their boards have more moves and miss the cache more): a lower bound.
    ProgressLine progress(ProgressLine::wanted(opt.quiet), [&](double t) {
      const double done = double(status.positions_done.load()), total = double(status.positions_total.load());
      const double rate = t > 0 ? (done - double(status.positions_reused.load())) / t : 0;
      return "build: level " + std::to_string(status.level.load()) + " of " + std::to_string(max_seeds) + ", " + human(done) +
             " of " + human(total) + " positions, " + human(rate) + " positions/s, " + fixed(t, 0) + " s" +
             (rate > 0 ? ", ~" + fixed((total - done) / rate, 0) + " s left" : "");
    });
    built = tables::build_tables(opt.out, g.rules, g.position.m(), max_seeds, &status, &hooks, opt.format);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json levels = nlohmann::json::array();
  std::uint64_t total = 0;
  for (const auto& b : built) {
    total += b.positions;
    levels.push_back({{"seeds", b.seeds}, {"positions", b.positions}, {"reused", b.reused}, {"seconds", b.seconds}, {"passes", b.passes}});
  }
  if (vm["json"].as<bool>()) {
    print_json({{"ruleset", g.rules.digest()}, {"pits_per_side", g.position.m()}, {"max_seeds", max_seeds},
                {"positions", total}, {"seconds", seconds}, {"levels", levels}});
    return 0;
  }
  for (const auto& b : built)
    std::cout << "level " << b.seeds << "  " << b.positions << " positions  "
              << (b.reused ? std::string("reused") : seconds_text(b.seconds)) << "\n";
  std::cout << "total " << total << " positions in " << seconds_text(seconds) << "\n";
  return 0;
}

namespace {

nlohmann::json probe_json(const Position& p, const ProbeResult& r, const Ruleset& rules) {
  nlohmann::json moves = nlohmann::json::array();
  for (const ProbedMove& m : r.moves) moves.push_back({{"move", m.pit}, {"value", m.value}, {"result", outcome_name(outcome_of(m.value))}});
  return {{"position", format_position(p)},
          {"value", r.value},
          {"result", outcome_name(r.outcome)},
          {"board_value", r.value - p.store_difference()},
          {"best_move", r.best_move ? nlohmann::json(r.best_move) : nlohmann::json(nullptr)},
          {"moves", moves},
          {"ruleset", rules.digest()}};
}

// Batch probing: a position a line on stdin, a JSON object a line on stdout
// (blank lines and lines starting with '#' are skipped).  A line that cannot
// be probed gets {"line", "input", "error"} and the rest go on; the exit
// status is then 2, with one line on stderr counting them.
int probe_stream(const TableProber& tables) {
  if (isatty(STDIN_FILENO))
    std::cerr << "probe: reading positions from stdin, one a line (Ctrl-D ends; --position P probes one)" << std::endl;
  std::string text;
  std::uint64_t line = 0, refused = 0, first_refused = 0;
  std::string first_error;
  while (std::getline(std::cin, text)) {
    ++line;
    if (text.empty() || text[0] == '#') continue;
    if (text.back() == '\r') text.pop_back();
    nlohmann::json out;
    Position p;
    ProbeAnswer a;
    try {
      p = parse_position(text);
      a = tables.probe(p);
    } catch (const InputError& e) {
      a.error = e.what();
    }
    if (a) {
      out = probe_json(p, *a.result, tables.rules());
    } else {
      out = {{"line", line}, {"input", text}, {"error", a.error}};
      if (!refused++) {
        first_refused = line;
        first_error = a.error;
      }
    }
    with_version(out);
    std::cout << out.dump() << std::endl;
  }
  if (refused)
    throw InputError(std::to_string(refused) + " of the input lines could not be probed (the first, line " +
                     std::to_string(first_refused) + ": " + first_error + ")");
  return 0;
}

}  // namespace

int cmd_probe(const Args& args) {
  po::options_description desc("probe: value and best move of a position from endgame tables (the ruleset is the tables')");
  add_game_options(desc, "kalah", true);
  desc.add_options()("tables", po::value<std::string>()->required(), "table directory");
  po::variables_map vm;
  if (!parse_args("mancala probe",
                  "--tables DIR [--position P | --pits m --seeds n] [--moves LIST] [--json]\n"
                  "       mancala probe --tables DIR < positions    (one position a line; one JSON object a line)",
                  desc, args, vm))
    return 0;
  std::string error;
  const auto tables = TableProber::open(vm["tables"].as<std::string>(), error);
  if (!tables) throw InputError(error);
  if (ruleset_given(vm)) {
    const Ruleset asked = ruleset_setup(vm);
    if (asked != tables->rules())
      throw InputError("the tables were built for ruleset '" + tables->rules().digest() + "', not '" + asked.digest() + "'");
  }
  if (!vm.count("position") && !vm.count("pits") && !vm.count("seeds")) {
    if (vm.count("moves")) throw InputError("--moves needs a position (--position, or --pits and --seeds)");
    return probe_stream(*tables);
  }
  if (!vm.count("position") && !vm.count("pits"))
    throw InputError("--seeds needs --pits with probe (the tables are for " + std::to_string(tables->pits_per_side()) + " pits a side)");
  const GameSetup g = game_setup_for(vm, tables->rules());
  const ProbeAnswer a = tables->probe(g.position);
  if (!a) throw InputError(a.error);
  const ProbeResult& r = *a.result;
  if (vm["json"].as<bool>()) {
    print_json(probe_json(g.position, r, tables->rules()));
    return 0;
  }
  std::cout << "position   " << format_position(g.position) << "  (" << tables->rules().digest() << ")\n"
            << "value      " << r.value << "  (" << outcome_name(r.outcome) << " for the player to move)\n"
            << "best move  " << (r.best_move ? std::to_string(r.best_move) : "none: the game is over") << "\n";
  for (const ProbedMove& m : r.moves) std::cout << "  move " << m.pit << "  value " << m.value << "\n";
  return 0;
}

int cmd_verify(const Args& args) {
  po::options_description desc("verify: re-read every table file and re-derive every value from its successors");
  desc.add_options()("dir", po::value<std::string>()->required(), "table directory")("quiet", po::bool_switch(), "no progress line")(
      "checksums", po::value<std::string>(),
      "also compare every level's content hash with this list (mancala info DIR --checksums writes one)")(
      "from-level", po::value<int>()->default_value(0),
      "re-derive the values of this level and up only; the files below are still read in full and every block and "
      "content hash checked (for a build that went on from verified levels; with --checksums, tied to a list)");
  add_threads_option(desc, "TBB threads");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (!parse_args("mancala verify", "DIR [--checksums FILE] [--from-level K] [--threads T] [--quiet] [--json]", desc, args,
                  vm, &pos))
    return 0;
  const std::string dir = vm["dir"].as<std::string>();
  std::optional<tables::ChecksumList> checksums;  // a bad list is misuse: exit status 2, before any work
  if (vm.count("checksums")) checksums = tables::read_checksums(vm["checksums"].as<std::string>());
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads_option(vm)));
  // Exit status: 2 when the command was misused (an unknown option, no DIR,
  // DIR not a directory: InputError from here on), 1 when the tables are bad
  // (every TableError is a problem of the verdict), 0 when they are sound.
  int top = -1;  // for the progress line
  try {
    top = tables::scan_level_files(dir).top;
  } catch (const tables::TableError&) {  // check_tables reports it
  }
  const int from_level = vm["from-level"].as<int>();
  if (from_level < 0 || (top >= 0 && from_level > top))
    throw InputError("--from-level " + std::to_string(from_level) + " is not a level of " + dir + " (levels 0.." +
                     std::to_string(top) + ")");
  std::atomic<int> level{0};
  const auto t0 = std::chrono::steady_clock::now();
  tables::TableCheck check;
  {
    ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) {
      return "verify: level " + std::to_string(level.load()) + " of " + std::to_string(top) + ", " + seconds_text(t);
    });
    check = tables::check_tables(dir, [&](int k) { level = k; }, from_level);
  }
  int compared = 0;
  if (checksums && check.problems.empty()) {
    std::vector<std::string> more = tables::compare_checksums(dir, *checksums, compared);
    check.problems.insert(check.problems.end(), more.begin(), more.end());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!check.problems.empty()) {
    if (vm["json"].as<bool>()) {
      nlohmann::json verdict{{"ok", false}, {"problems", check.problems}, {"error", check.problems.front()}, {"seconds", seconds}};
      if (check.info) {
        verdict["ruleset"] = check.info->rules.digest();
        verdict["pits_per_side"] = check.info->pits_per_side;
        verdict["max_seeds"] = check.info->max_seeds;
      }
      print_json(verdict);
    }
    for (const std::string& problem : check.problems) std::cerr << "mancala: verify failed: " << one_line(problem) << "\n";
    return 1;
  }
  const tables::DirectoryInfo& info = *check.info;
  if (vm["json"].as<bool>()) {
    nlohmann::json j{{"ok", true}, {"ruleset", info.rules.digest()}, {"pits_per_side", info.pits_per_side},
                     {"max_seeds", info.max_seeds}, {"first_derived_level", from_level}, {"seconds", seconds}};
    if (checksums) j["checksums_compared"] = compared;
    print_json(j);
    return 0;
  }
  std::cout << "ok: " << info.rules.digest() << ", " << info.pits_per_side << " pits, levels 0.." << info.max_seeds
            << " verified";
  if (from_level > 0)
    std::cout << " (values re-derived from level " << from_level << " up; levels 0.." << from_level - 1
              << " by their block and content hashes)";
  std::cout << " in " << seconds_text(seconds);
  if (checksums) std::cout << "; " << compared << " levels match the checksum list";
  std::cout << "\n";
  return 0;
}

int cmd_convert(const Args& args) {
  po::options_description desc("convert: rewrite a table directory's level files in another format (the values stay)");
  desc.add_options()("dir", po::value<std::string>()->required(), "table directory")("quiet", po::bool_switch(), "no progress line");
  add_format_options(desc);
  add_threads_option(desc, "TBB threads (blocks are coded in parallel)");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (!parse_args("mancala convert", "DIR [--compression none|packed|zstd] [--block-size N] [--zstd-level L] [--threads T] [--quiet] [--json]",
                  desc, args, vm, &pos))
    return 0;
  const std::string dir = vm["dir"].as<std::string>();
  const tables::LevelFormat format = read_format_options(vm);
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads_option(vm)));
  const tables::DirectoryInfo info = tables::describe_directory(dir);
  // The build lock: no build (or other convert) rewrites these files meanwhile.
  const tables::BuildLock lock(dir);
  std::atomic<int> level{0};
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json levels = nlohmann::json::array();
  std::uint64_t before = 0, after = 0, positions = 0;
  {
    ProgressLine progress(ProgressLine::wanted(vm["quiet"].as<bool>()), [&](double t) {
      return "convert: level " + std::to_string(level.load()) + " of " + std::to_string(info.max_seeds) + ", " + seconds_text(t);
    });
    for (int k = 0; k <= info.max_seeds; ++k) {
      level = k;
      const std::filesystem::path file = tables::level_path(dir, k);
      const tables::TableHeader old = tables::read_header(file);
      const bool rewritten = tables::convert_level(dir, info.rules, info.pits_per_side, k, format);
      const tables::TableHeader now = tables::read_header(file);
      before += old.file_bytes;
      after += now.file_bytes;
      positions += now.entries;
      levels.push_back({{"seeds", k}, {"rewritten", rewritten}, {"bytes_before", old.file_bytes}, {"bytes", now.file_bytes},
                        {"bits_per_position", 8.0 * double(now.file_bytes) / double(now.entries)}});
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (vm["json"].as<bool>()) {
    print_json({{"ruleset", info.rules.digest()}, {"pits_per_side", info.pits_per_side}, {"max_seeds", info.max_seeds},
                {"compression", tables::codec_name(format.codec)}, {"bytes_before", before}, {"bytes", after},
                {"bits_per_position", 8.0 * double(after) / double(positions)}, {"seconds", seconds}, {"levels", levels}});
    return 0;
  }
  std::cout << "converted " << dir << " to " << tables::codec_name(format.codec) << ": " << before << " -> " << after << " bytes ("
            << fixed(8.0 * double(after) / double(positions), 2) << " bits a position) in " << seconds_text(seconds) << "\n";
  return 0;
}

int cmd_info(const Args& args) {
  po::options_description desc("info: per-level positions, value histogram, win/draw/loss counts and build time");
  desc.add_options()("dir", po::value<std::string>()->required(), "table directory")(
      "checksums", po::bool_switch(), "print the directory's checksum list instead (for verify --checksums), from the headers");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (!parse_args("mancala info", "DIR [--checksums] [--json]", desc, args, vm, &pos)) return 0;
  const std::string dir = vm["dir"].as<std::string>();
  const tables::DirectoryInfo info = tables::describe_directory(dir);
  if (vm["checksums"].as<bool>()) {
    if (vm["json"].as<bool>()) throw InputError("--checksums prints the list itself; leave out --json");
    // The headers' content hashes (each file opened and checked, not
    // re-hashed: verify does that).
    const tables::TableDirectory tables(dir, info.rules, info.pits_per_side);
    std::vector<tables::LevelChecksum> levels;
    for (int k = 0; k <= info.max_seeds; ++k)
      levels.push_back({k, tables.level(k).size(), tables.level(k).header().payload_hash});
    std::cout << tables::format_checksums(info, levels);
    return 0;
  }
  const auto levels = tables::summarize_tables(dir);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : levels) {
    nlohmann::json hist = nlohmann::json::object();
    for (const auto& [v, c] : s.histogram) hist[std::to_string(v)] = c;
    char hash[20];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(s.payload_hash));
    list.push_back({{"seeds", s.seeds}, {"positions", s.positions}, {"wins", s.wins}, {"draws", s.draws},
                    {"losses", s.losses}, {"histogram", hist}, {"payload_fnv1a64", hash},
                    {"build_seconds", s.build_seconds < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.build_seconds)},
                    {"format_version", s.header.version}, {"compression", tables::codec_name(s.header.codec)},
                    {"block_size", s.header.block_log2 ? nlohmann::json(std::uint64_t(1) << s.header.block_log2) : nlohmann::json(nullptr)},
                    {"file_bytes", s.header.file_bytes},
                    {"bits_per_position", 8.0 * double(s.header.file_bytes) / double(s.positions)}});
  }
  if (vm["json"].as<bool>()) {
    print_json({{"ruleset", info.rules.digest()}, {"pits_per_side", info.pits_per_side}, {"max_seeds", info.max_seeds},
                {"levels", list}});
    return 0;
  }
  std::cout << info.rules.digest() << ", " << info.pits_per_side << " pits a side, levels 0.." << info.max_seeds
            << " (board values for the player to move, stores excluded)\n";
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const tables::LevelSummary& s = levels[i];
    std::cout << "level " << s.seeds << "  positions " << s.positions << "  win " << s.wins << "  draw " << s.draws
              << "  loss " << s.losses << "  payload " << list[i]["payload_fnv1a64"].get<std::string>() << "  v"
              << s.header.version << " " << tables::codec_name(s.header.codec) << " " << fixed(list[i]["bits_per_position"].get<double>(), 2)
              << " bits/position  build ";
    if (s.build_seconds < 0)
      std::cout << "unrecorded";
    else
      std::cout << s.build_seconds << " s";
    std::cout << "\n  values";
    for (const auto& [v, c] : s.histogram) std::cout << " " << v << ":" << c;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace mancala::cli
