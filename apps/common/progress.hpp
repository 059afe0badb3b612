// A progress line on stderr for long solves: shown only when stderr is a
// terminal and --quiet was not given; redrawn once a second.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace mancala::cli {

class ProgressLine {
 public:
  // `line(elapsed_seconds)` builds the text; it runs on the progress thread.
  ProgressLine(bool enabled, std::function<std::string(double)> line);
  ~ProgressLine();  // clears the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // True when progress should be shown: stderr is a terminal and not quiet.
  static bool wanted(bool quiet);

  // True while a progress line may be on the terminal (from just before its
  // first drawing until it is cleared).  Read by the `mancala` program's
  // SIGINT/SIGTERM handler, which ends such a line with a newline before its
  // message; a lock-free atomic, so safe to read inside a signal handler.
  static bool drawn() noexcept;

 private:
  std::atomic<bool> stop_{false};
  bool shown_ = false;
  std::thread thread_;
};

}  // namespace mancala::cli
