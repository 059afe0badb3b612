#include "solve_stop.hpp"

#include <signal.h>

#include <chrono>

#include "interrupt.hpp"

namespace mancala::cli {

SolveStop::SolveStop(double time_limit_seconds) {
  set_stop_request(&raised_, &signal_);
  if (time_limit_seconds > 0) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(time_limit_seconds));
    timer_ = std::thread([this, deadline] {
      std::unique_lock lock(mutex_);
      if (!wake_.wait_until(lock, deadline, [this] { return done_; })) raised_ = true;
    });
  }
}

SolveStop::~SolveStop() {
  set_stop_request(nullptr, nullptr);
  if (timer_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    timer_.join();
  }
}

std::string SolveStop::reason() const {
  switch (signal_.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "time limit";
  }
}

}  // namespace mancala::cli
