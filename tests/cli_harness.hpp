// The harness of the command-line tests: runs the real `mancala` binary
// (MANCALA_BIN, set by CMake) without a shell and checks the error contract:
//
//   every user error prints exactly ONE line on stderr starting with
//   "mancala: error: " that names the problem, nothing on stdout, and exits
//   with status 2; success exits 0; nothing ever crashes.
//
// Header-only so that every command-line test file (cli_test.cpp and the
// suites beside it) includes the same runner.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace cli_harness {

using json = nlohmann::json;
using Args = std::vector<std::string>;
using namespace std::chrono_literals;

// ---------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------

inline constexpr std::chrono::milliseconds kDefaultTimeout = 10s;

struct RunResult {
  Args args;                // the arguments after the program name
  int exit_code = -1;       // exit status when the process exited normally
  int term_signal = 0;      // the signal that ended it, or 0
  bool timed_out = false;   // killed by the helper after the timeout
  std::string spawn_error;  // the binary could not be started
  std::string out;          // stdout
  std::string err;          // stderr
};

inline std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+") ==
                        std::string::npos)
    return s;
  const bool control = std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
  if (control) {  // bash's $'...' so that a newline shows as \n
    std::string q = "$'";
    for (unsigned char c : s) {
      if (c == '\n') {
        q += "\\n";
      } else if (c == '\t') {
        q += "\\t";
      } else if (c == '\r') {
        q += "\\r";
      } else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
        q += buf;
      } else {
        if (c == '\'' || c == '\\') q += '\\';
        q += char(c);
      }
    }
    q += '\'';
    return q;
  }
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  q += '\'';
  return q;
}

// The command as a user would type it, for failure messages.
inline std::string command_line(const Args& args) {
  std::string line = "mancala";
  for (const auto& a : args) {
    line += ' ';
    line += shell_quote(a);
  }
  return line;
}

inline std::string describe(const RunResult& r) {
  std::ostringstream os;
  os << "command: " << command_line(r.args) << "\n";
  if (!r.spawn_error.empty()) os << "spawn error: " << r.spawn_error << "\n";
  if (r.timed_out) os << "TIMED OUT (killed)\n";
  if (r.term_signal) os << "killed by signal " << r.term_signal << " (" << strsignal(r.term_signal) << ")\n";
  if (!r.timed_out && !r.term_signal) os << "exit status: " << r.exit_code << "\n";
  os << "stdout: <<" << r.out << ">>\nstderr: <<" << r.err << ">>";
  return os.str();
}

// Runs MANCALA_BIN with exactly `args` (no shell), stdin from `stdin_path`
// (/dev/null unless given); captures stdout (unless `stdout_path` names
// where it goes instead: then `out` stays empty), stderr and the exit
// status.  A process still running after `timeout` is killed and reported
// as timed out.
inline RunResult run_mancala(const Args& args, std::chrono::milliseconds timeout = kDefaultTimeout,
                             const std::string& stdin_path = "/dev/null", const std::string& stdout_path = "") {
  RunResult r;
  r.args = args;
  int out_pipe[2];
  int err_pipe[2];
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
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path.c_str(), O_RDONLY, 0);
  if (stdout_path.empty())
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(), O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);

  std::string program = MANCALA_BIN;
  std::vector<char*> argv;
  argv.push_back(program.data());
  std::vector<std::string> storage = args;  // argv needs mutable strings
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    r.spawn_error = "posix_spawn " + program + ": " + std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return r;
  }

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto ms_left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  };

  // Read both pipes until both are closed (or time runs out).
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = ms_left();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    const int ready = poll(fds, 2, int(std::min<long long>(left, 1000)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
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

  // Reap, still within the deadline; past it, kill.
  int status = 0;
  for (;;) {
    if (!r.timed_out && ms_left() <= 0) r.timed_out = true;
    if (r.timed_out) kill(pid, SIGKILL);
    const pid_t done = waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      r.spawn_error = std::string("waitpid: ") + std::strerror(errno);
      return r;
    }
    if (done == 0) std::this_thread::sleep_for(1ms);
  }
  if (r.timed_out) return r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

inline constexpr const char* kErrorPrefix = "mancala: error: ";

// Lines of a text; a final '\n' ends the last line rather than starting one.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// `keyword` may list alternatives separated by '|'; matching ignores case.
inline bool mentions(const std::string& text, const std::string& keyword) {
  const std::string hay = lower(text);
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = keyword.find('|', start);
    const std::string alt = lower(keyword.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (hay.find(alt) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

inline bool ended_normally(const RunResult& r) { return r.spawn_error.empty() && !r.timed_out && r.term_signal == 0; }

// The same with `input` on stdin (through a temporary file, so that the
// program sees a regular file, not a terminal: a scripted session).
inline RunResult run_mancala_input(const Args& args, const std::string& input,
                                   std::chrono::milliseconds timeout = kDefaultTimeout) {
  std::string path = (std::filesystem::temp_directory_path() / "mancala_cli_stdin_XXXXXX").string();
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    RunResult r;
    r.args = args;
    r.spawn_error = std::string("mkstemp: ") + std::strerror(errno);
    return r;
  }
  const bool written = write(fd, input.data(), input.size()) == ssize_t(input.size());
  close(fd);
  RunResult r = written ? run_mancala(args, timeout, path) : RunResult{};
  if (!written) r.spawn_error = "cannot write the input file";
  unlink(path.c_str());
  return r;
}

// The user-error contract, each part its own assertion.
inline void expect_user_error(const RunResult& r, const std::vector<std::string>& keywords) {
  SCOPED_TRACE(describe(r));
  ASSERT_TRUE(r.spawn_error.empty());
  EXPECT_FALSE(r.timed_out) << "the process hung";
  EXPECT_EQ(r.term_signal, 0) << "the process crashed";
  EXPECT_EQ(r.exit_code, 2) << "exit status of a user error";
  EXPECT_EQ(r.out, "") << "stdout must be empty on a user error";
  EXPECT_TRUE(!r.err.empty() && r.err.find('\n') == r.err.size() - 1)
      << "stderr must hold exactly one newline-terminated line, it holds " << lines_of(r.err).size();
  EXPECT_EQ(r.err.rfind(kErrorPrefix, 0), 0u) << "stderr must start with '" << kErrorPrefix << "'";
  const std::string message = r.err.size() > std::strlen(kErrorPrefix) ? r.err.substr(std::strlen(kErrorPrefix)) : "";
  for (const auto& kw : keywords)
    EXPECT_TRUE(mentions(message, kw)) << "the message should name the problem: expected '" << kw << "'";
}

inline void expect_success(const RunResult& r) {
  SCOPED_TRACE(describe(r));
  ASSERT_TRUE(r.spawn_error.empty());
  EXPECT_FALSE(r.timed_out) << "the process hung";
  EXPECT_EQ(r.term_signal, 0) << "the process crashed";
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "") << "stderr must be empty on success";
  EXPECT_FALSE(r.out.empty()) << "stdout must not be empty on success";
}

// Runs a command that must succeed with --json and returns its one object.
inline json run_json(Args args, std::chrono::milliseconds timeout = kDefaultTimeout) {
  args.push_back("--json");
  const RunResult r = run_mancala(args, timeout);
  expect_success(r);
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(lines_of(r.out).size(), 1u) << "--json prints exactly one line";
  EXPECT_TRUE(!r.out.empty() && r.out.back() == '\n') << "the JSON line ends with a newline";
  json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "stdout is not valid JSON";
  EXPECT_TRUE(j.is_object()) << "stdout is not a JSON object";
  return j.is_object() ? j : json::object();
}

inline Args cat(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace cli_harness
