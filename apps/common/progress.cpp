#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace mancala::cli {

namespace {
std::atomic<bool> line_drawn{false};
static_assert(std::atomic<bool>::is_always_lock_free, "read in a signal handler");
}  // namespace

bool ProgressLine::drawn() noexcept { return line_drawn.load(); }

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
      line_drawn = true;  // before the text: a signal mid-way still ends the line
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
  line_drawn = false;
}

}  // namespace mancala::cli
