// batch: runs the `mancala` command lines of a manifest and writes one JSON
// object per line (the command's own --json result plus where, when and how
// it ran), for experiment grids and Slurm job arrays.
//
// Each manifest line runs in a child process: this same binary, re-executed
// through /proc/self/exe with --json added.  Chosen over calling the cmd_*
// functions in-process because
//   - a line that crashes, runs out of memory or is killed by its --timeout
//     becomes one error record; the other lines' results are kept;
//   - every line starts from a fresh process: no transposition table, TBB
//     thread limit or mapped table files left over from the line before, so
//     a line's time, memory and result do not depend on its neighbours;
//   - the child's peak memory (wait4's ru_maxrss) is measured per line;
//   - the exit status and stderr are exactly those of `mancala CMD --json`.
// /proc/self/exe names the running binary even if the file was rebuilt or
// replaced meanwhile, so every line runs the commit recorded in `commit`.
// Starting a process costs about a millisecond, nothing next to a solve.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <optional>
#include <thread>

#include "commands.hpp"
#include "interrupt.hpp"
#include "manifest.hpp"
#include "mancala/error.hpp"
#include "mancala/version.hpp"

extern char** environ;

namespace mancala::cli {

namespace {

using ojson = nlohmann::ordered_json;

const char* kBatchSynopsis =
    "--manifest FILE [--out FILE] [--index I | --all] [--timeout S] [--count]\n\n"
    "The manifest holds one mancala command line per line: the words after\n"
    "`mancala`, e.g. `solve --game kalah --pits 4 --seeds 3` (a leading word\n"
    "`mancala` is allowed).  Words are split as by a POSIX shell: single and\n"
    "double quotes, backslash escapes, `#` starting a comment.  Blank lines and\n"
    "comment lines are skipped; every other line is a command, numbered from 0\n"
    "in file order: that number is the index of --index and of\n"
    "SLURM_ARRAY_TASK_ID, so `sbatch --array=0-(N-1)` covers a manifest of N\n"
    "commands (`mancala batch --manifest FILE --count` prints N).\n\n"
    "Output: one JSON object per command, in order: command, line (1-based line\n"
    "number in the file), index, exit_status, error (failed lines only),\n"
    "commit, host, threads, seconds (wall time of the line), peak_rss_mib,\n"
    "started (UTC), then the keys of the command's own --json result; a key of\n"
    "that result which batch also writes is kept as result_KEY when its value\n"
    "differs (e.g. result_seconds, the solver's own time).  A failing line also\n"
    "prints one line on stderr naming its line number; batch goes on with the\n"
    "next line and exits 2 if any line had an input error (bad line, unknown\n"
    "command or option, bad position, ...), otherwise 1 if any line failed in\n"
    "another way (non-zero exit, signal, timeout), otherwise 0.  Bad lines\n"
    "include a NUL byte, more than 16384 bytes or 1024 words, a nested batch,\n"
    "play (a dialogue, not a result) and --help, -h or help (a help text is not\n"
    "a result).  --timeout kills only a command still running when it falls\n"
    "due.  batch's output is always JSON lines; --json is accepted and changes\n"
    "nothing.";

static_assert(kMaxManifestLineBytes == 16384 && kMaxManifestWords == 1024, "the help text above names these limits");

// A non-negative index given as text (--index or SLURM_ARRAY_TASK_ID).
std::optional<long> parse_index(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stol(text);
}

// The threads a command line asks for: its --threads, else the command's
// default (0 for every command that takes --threads, the rest one thread).
// 0 means every available core (cli_common.hpp).  Null when --threads is not
// a number (the command itself then reports the error).
ojson threads_of(const std::vector<std::string>& words) {
  std::optional<std::string> given;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "--threads" && i + 1 < words.size()) given = words[i + 1];
    if (words[i].rfind("--threads=", 0) == 0) given = words[i].substr(10);
  }
  static const char* const kThreaded[] = {"solve", "analyze", "opening", "build", "verify"};
  long threads = std::find(std::begin(kThreaded), std::end(kThreaded), words[0]) != std::end(kThreaded) ? 0 : 1;
  if (given) {
    const auto n = parse_index(*given);
    if (!n) return nullptr;
    threads = *n;
  }
  return threads == 0 ? long(available_cpus()) : threads;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct ChildRun {
  std::string spawn_error;
  int exit_status = -1;  // when it exited
  int signal = 0;        // when a signal ended it
  bool timed_out = false;
  std::string out, err;
  double seconds = 0;
  double peak_rss_mib = 0;
};

// Whether the child has exited, without reaping it (its pid stays reserved
// until wait4, so the interrupt handler never signals a reused pid).
bool has_exited(pid_t pid) {
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0) return info.si_pid == pid;
    if (errno != EINTR) return true;  // not our child any more: wait4 below reports it
  }
}

// Runs `mancala WORDS...` (this binary) with stdin from /dev/null; collects
// stdout and stderr; kills it with SIGKILL after `timeout` seconds (0: none).
//
// The timeout applies only to a child that is still running when it falls
// due: one that has already exited, its output perhaps still in the pipes,
// keeps its result, and all of its output is read before it is reaped.  A
// line counts as timed out only when the SIGKILL is what ended it (a child
// that exits between the check and the kill has exited normally).
ChildRun run_self(const std::vector<std::string>& words, double timeout) {
  ChildRun r;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.spawn_error = std::string("pipe: ") + std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  std::vector<std::string> storage{"mancala"};
  storage.insert(storage.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (auto& w : storage) argv.push_back(w.data());
  argv.push_back(nullptr);
  // SIGINT and SIGTERM are blocked from before the spawn until the interrupt
  // handler knows the child's pid, so that a signal in between cannot leave
  // the child running without its batch; the child starts with batch's own
  // signal mask.
  sigset_t interrupts, old_mask;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &interrupts, &old_mask);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigmask(&attr, &old_mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv.data(), environ);
  if (rc == 0) set_running_child(pid);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    r.spawn_error = std::string("cannot start /proc/self/exe: ") + std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return r;
  }
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  bool deadline_passed = timeout <= 0;  // true once the timeout has been dealt with (or there is none)
  bool killed = false;
  const auto at_deadline = [&] {
    deadline_passed = true;
    if (!has_exited(pid)) {
      kill(pid, SIGKILL);
      killed = true;
    }
  };
  // Both pipes to their end: the child is their only writer, so they end
  // when it has exited (or been killed), and nothing it wrote is lost.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  for (int open_fds = 2; open_fds > 0;) {
    int wait_ms = -1;
    if (!deadline_passed) {
      const double left = timeout - elapsed();
      if (left <= 0) {
        at_deadline();
        continue;
      }
      wait_ms = int(std::min(1000.0, std::ceil(left * 1000)));
    }
    const int ready = poll(fds, 2, wait_ms);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[65536];
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, std::size_t(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  // A child that closed its pipes but is still running is still under the
  // timeout.
  while (!has_exited(pid)) {
    if (!deadline_passed && elapsed() >= timeout) at_deadline();
    poll(nullptr, 0, 1);
  }
  set_running_child(0);  // before reaping: afterwards the pid may be reused
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.seconds = elapsed();
  r.peak_rss_mib = double(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.timed_out = killed && r.signal == SIGKILL;
  return r;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\f\v");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\f\v");
  return s.substr(b, e - b + 1);
}

// The one-line message of a failed child: its last "mancala: ..." line on
// stderr without the "mancala: error: " prefix, else what ended it.
std::string child_error(const ChildRun& r, double timeout) {
  if (!r.spawn_error.empty()) return r.spawn_error;
  if (r.timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s (--timeout) and killed", timeout);
    return buf;
  }
  if (r.signal) return std::string("killed by signal ") + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")";
  std::string message;
  std::size_t start = 0;
  while (start < r.err.size()) {
    auto end = r.err.find('\n', start);
    if (end == std::string::npos) end = r.err.size();
    const std::string line = trim(r.err.substr(start, end - start));
    if (line.rfind("mancala: ", 0) == 0) message = line;
    start = end + 1;
  }
  const std::string prefix = "mancala: error: ";
  if (message.rfind(prefix, 0) == 0) return message.substr(prefix.size());
  if (!message.empty()) return message.substr(9);
  return "exit status " + std::to_string(r.exit_status);
}

// User text in a one-line message: control characters escaped.
std::string one_line(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n') out += "\\n";
    else if (c < 0x20 || c == 0x7f) out += "?";
    else out += char(c);
  }
  return out;
}

enum class Outcome { Ok, InputError, Failed };

// What batch was asked to do.
struct BatchPlan {
  std::string manifest;
  std::vector<ManifestEntry> lines;
  std::size_t first = 0, last = 0;  // the commands to run: lines[first..last)
  double timeout = 0;               // seconds, 0: none
  std::optional<std::string> out;   // --out
  bool count = false;               // --count: print lines.size() only
};

// Parses batch's own options and reads the manifest; every error here is
// batch's own bad input, raised before anything runs.  Nullopt after --help.
std::optional<BatchPlan> parse_batch(const Args& args) {
  po::options_description desc("batch: run the mancala commands of a manifest, one JSON line each");
  desc.add_options()
      ("manifest", po::value<std::string>()->required(), "file of mancala command lines (the words after `mancala`)")
      ("out", po::value<std::string>(), "append the JSON lines to this file (default: stdout)")
      ("index", po::value<std::string>(), "run only command I (0-based; default: $SLURM_ARRAY_TASK_ID when set)")
      ("all", po::bool_switch(), "run every command even when SLURM_ARRAY_TASK_ID is set")
      ("timeout", po::value<double>()->default_value(0), "kill a command after S seconds and record the timeout (0: no limit)")
      ("count", po::bool_switch(), "print the number of commands N (array tasks 0..N-1) and run nothing");
  po::variables_map vm;
  if (!parse_args("mancala batch", kBatchSynopsis, desc, args, vm)) return std::nullopt;
  BatchPlan plan;
  plan.manifest = vm["manifest"].as<std::string>();
  plan.timeout = vm["timeout"].as<double>();
  if (!(plan.timeout >= 0) || plan.timeout > 1e9) throw InputError("--timeout must be a number of seconds between 0 and 1e9");
  if (vm.count("index") && vm["all"].as<bool>()) throw InputError("--index and --all cannot be combined");
  if (vm.count("out")) plan.out = vm["out"].as<std::string>();
  plan.count = vm["count"].as<bool>();

  plan.lines = read_manifest(plan.manifest);
  if (plan.lines.empty()) throw InputError("manifest '" + plan.manifest + "' holds no commands");
  plan.last = plan.lines.size();
  if (plan.count) return plan;

  // Which commands to run: --index, else SLURM_ARRAY_TASK_ID, else all.
  std::optional<std::string> index_text;
  std::string index_source = "--index";
  if (vm.count("index")) {
    index_text = vm["index"].as<std::string>();
  } else if (const char* task = std::getenv("SLURM_ARRAY_TASK_ID"); task && !vm["all"].as<bool>()) {
    index_text = task;
    index_source = "SLURM_ARRAY_TASK_ID";
  }
  if (index_text) {
    const std::size_t n = plan.lines.size();
    const auto i = parse_index(*index_text);
    if (!i) throw InputError(index_source + " '" + *index_text + "' is not a command index (0, 1, 2, ...)");
    if (std::size_t(*i) >= n)
      throw InputError(index_source + " " + *index_text + " is out of range: manifest '" + plan.manifest + "' holds " +
                       std::to_string(n) + (n == 1 ? " command" : " commands") + " (0.." + std::to_string(n - 1) + ")");
    plan.first = std::size_t(*i);
    plan.last = plan.first + 1;
  }
  return plan;
}

// One manifest line, run (or refused).
struct LineRun {
  std::vector<std::string> words;  // the command's words; empty when the line was refused
  std::string started;             // UTC
  bool spawned = false;            // a child process ran
  ChildRun child;
  ojson result;                    // the command's --json object, or null
  Outcome outcome = Outcome::Ok;
  std::string error;               // when outcome != Ok
};

LineRun run_line(const ManifestEntry& entry, double timeout) {
  LineRun r;
  try {
    r.words = parse_manifest_line(entry.text).words;
  } catch (const InputError& e) {
    r.outcome = Outcome::InputError;
    r.error = e.what();
  }
  r.started = utc_now();
  if (r.outcome != Outcome::Ok) return r;
  std::vector<std::string> child_words = r.words;
  if (std::find(r.words.begin(), r.words.end(), "--json") == r.words.end()) child_words.push_back("--json");
  r.child = run_self(child_words, timeout);
  const ChildRun& c = r.child;
  r.spawned = c.spawn_error.empty();
  if (r.spawned && !c.timed_out && c.signal == 0) {
    r.result = ojson::parse(c.out, nullptr, /*allow_exceptions=*/false);
    if (!r.result.is_object()) r.result = ojson();
  }
  if (c.exit_status == 2) {
    r.outcome = Outcome::InputError;
    r.error = child_error(c, timeout);
  } else if (c.exit_status != 0) {
    r.outcome = Outcome::Failed;
    r.error = child_error(c, timeout);
  } else if (!r.result.is_object()) {
    r.outcome = Outcome::Failed;
    r.error = "the output is not one JSON object";
  }
  return r;
}

// The JSON record of a line: where, when and how it ran, then its result.
ojson make_record(const ManifestEntry& entry, std::size_t index, const LineRun& r, const std::string& commit,
                  const std::string& host) {
  ojson record;
  record["command"] = entry.text;
  record["line"] = entry.line;
  record["index"] = index;
  // exit_status: the command's; 2 for a line batch refused itself; null
  // when a signal or the timeout ended it or it could not be started.
  if (r.spawned)
    record["exit_status"] = r.child.exit_status >= 0 ? ojson(r.child.exit_status) : ojson(nullptr);
  else
    record["exit_status"] = r.outcome == Outcome::InputError ? ojson(2) : ojson(nullptr);
  if (r.outcome != Outcome::Ok) record["error"] = one_line(r.error);
  record["commit"] = commit;
  record["version"] = version();
  record["schema_version"] = kJsonSchemaVersion;
  record["host"] = host;
  record["threads"] = r.words.empty() ? ojson(nullptr) : threads_of(r.words);
  record["seconds"] = r.spawned ? ojson(r.child.seconds) : ojson(nullptr);
  record["peak_rss_mib"] = r.spawned ? ojson(std::round(r.child.peak_rss_mib * 10) / 10) : ojson(nullptr);
  record["started"] = r.started;
  if (r.result.is_object()) {
    for (const auto& [key, value] : r.result.items()) {
      if (!record.contains(key))
        record[key] = value;
      else if (record[key] != value)
        record["result_" + key] = value;
    }
  }
  return record;
}

// Where the records go: appended to --out (opened before anything runs, so
// that a bad path fails at once), else stdout; each record written as it is
// done.
class RecordSink {
 public:
  explicit RecordSink(const std::optional<std::string>& out) {
    if (!out) return;
    fd_ = open(out->c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError("cannot open --out '" + *out + "' for appending: " + std::strerror(errno));
  }
  RecordSink(const RecordSink&) = delete;
  RecordSink& operator=(const RecordSink&) = delete;
  ~RecordSink() {
    if (fd_ != STDOUT_FILENO) ::close(fd_);
  }

  void write(const ojson& record) {
    const std::string text = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    // One write() per record: records from several processes appending to
    // one file do not interleave.
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw InputError(std::string("cannot write the results: ") + std::strerror(errno));
      done += std::size_t(n);
    }
  }

  void close() {
    const int fd = fd_;
    fd_ = STDOUT_FILENO;
    if (fd != STDOUT_FILENO && ::close(fd) != 0)
      throw InputError(std::string("cannot write the results: ") + std::strerror(errno));
  }

 private:
  int fd_ = STDOUT_FILENO;
};

}  // namespace

int cmd_batch(const Args& args) {
  const std::optional<BatchPlan> plan = parse_batch(args);
  if (!plan) return 0;
  if (plan->count) {
    std::cout << plan->lines.size() << "\n";
    return 0;
  }
  RecordSink sink(plan->out);
  const std::string commit = source_commit();
  const std::string host = host_name();
  bool input_errors = false, failures = false;
  for (std::size_t index = plan->first; index < plan->last; ++index) {
    const ManifestEntry& entry = plan->lines[index];
    const LineRun run = run_line(entry, plan->timeout);
    const ojson record = make_record(entry, index, run, commit, host);
    // Child stderr of a successful line (warnings) is passed on unchanged.
    if (run.outcome == Outcome::Ok)
      std::cerr << run.child.err;
    else
      std::cerr << "mancala: error: " << one_line(plan->manifest) << " line " << entry.line << ": " << one_line(run.error)
                << std::endl;
    sink.write(record);
    input_errors |= run.outcome == Outcome::InputError;
    failures |= run.outcome == Outcome::Failed;
  }
  sink.close();
  return input_errors ? 2 : failures ? 1 : 0;
}

}  // namespace mancala::cli
