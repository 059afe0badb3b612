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

 private:
  std::atomic<bool> stop_{false};
  bool shown_ = false;
  std::thread thread_;
};

}  // namespace mancala::cli
