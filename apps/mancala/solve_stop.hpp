// Stopping a solve early: --time-limit, SIGINT and SIGTERM, for solve and
// analyze.  The solver stops when the flag handed to it
// (SolveOptions::stop) is raised, and returns what it has proven; the
// command prints that and exits with kStoppedStatus.  A second SIGINT or
// SIGTERM while the solve winds down ends the program at once, as
// interrupt.hpp does for every other command.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mancala::cli {

// The exit status of a command that stopped early and printed its bounds
// (main.cpp lists every status).
inline constexpr int kStoppedStatus = 4;

class SolveStop {
 public:
  // time_limit <= 0: no time limit, only the signals.
  explicit SolveStop(double time_limit_seconds);
  ~SolveStop();
  SolveStop(const SolveStop&) = delete;
  SolveStop& operator=(const SolveStop&) = delete;

  const std::atomic<bool>* flag() const { return &raised_; }
  bool raised() const { return raised_.load(); }
  // Why: "time limit", "SIGINT", "SIGTERM" (once raised).
  std::string reason() const;

 private:
  std::atomic<bool> raised_{false};
  std::atomic<int> signal_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread timer_;
};

}  // namespace mancala::cli
