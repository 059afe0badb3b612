#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace mancala::cli {

bool ProgressLine::wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

ProgressLine::ProgressLine(bool enabled, std::function<std::string(double)> line) {
  if (!enabled) return;
  shown_ = true;
  thread_ = std::thread([this, line = std::move(line)] {
    const auto t0 = std::chrono::steady_clock::now();
    auto next = t0 + std::chrono::seconds(2);  // short runs print nothing
    while (!stop_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const auto now = std::chrono::steady_clock::now();
      if (now < next) continue;
      next = now + std::chrono::seconds(1);
      const std::string text = line(std::chrono::duration<double>(now - t0).count());
      std::fprintf(stderr, "\r\033[K%s", text.c_str());
      std::fflush(stderr);
    }
  });
}

ProgressLine::~ProgressLine() {
  if (!shown_) return;
  stop_ = true;
  thread_.join();
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace mancala::cli
