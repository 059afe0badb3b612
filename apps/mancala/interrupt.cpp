#include "interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "progress.hpp"

namespace mancala::cli {

namespace {

std::atomic<pid_t> running_child{0};
std::atomic<std::atomic<bool>*> stop_flag{nullptr};
std::atomic<std::atomic<int>*> stop_signal{nullptr};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free, "read in a signal handler");
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free, "written in a signal handler");
static_assert(std::atomic<pid_t>::is_always_lock_free, "read in a signal handler");

// Writes all of `text` (without its terminating NUL) to stderr.
template <std::size_t N>
void say(const char (&text)[N]) {
  std::size_t done = 0;
  while (done < N - 1) {
    const ssize_t n = write(STDERR_FILENO, text + done, N - 1 - done);
    if (n <= 0) return;  // nothing more to be done about stderr here
    done += std::size_t(n);
  }
}

extern "C" void on_interrupt(int sig) {
  if (std::atomic<bool>* flag = stop_flag.load(); flag && !flag->load()) {
    if (std::atomic<int>* which = stop_signal.load()) which->store(sig);
    flag->store(true);
    return;
  }
  if (const pid_t child = running_child.load(); child > 0) kill(child, sig);
  if (ProgressLine::drawn()) say("\n");
  if (sig == SIGINT)
    say("mancala: interrupted by SIGINT\n");
  else
    say("mancala: interrupted by SIGTERM\n");
  _exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old{};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction action{};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    // Both blocked while the handler runs: a second signal does not start a
    // second message.
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    action.sa_flags = SA_RESTART;
    sigaction(sig, &action, nullptr);
  }
}

void set_running_child(pid_t pid) noexcept { running_child = pid; }

void set_stop_request(std::atomic<bool>* flag, std::atomic<int>* signal) noexcept {
  stop_signal = signal;
  stop_flag = flag;
}

}  // namespace mancala::cli
