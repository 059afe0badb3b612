// SIGINT and SIGTERM in the `mancala` program (not in the libraries, whose
// callers choose their own signal handling): the program stops at once and
// says so, instead of dying silently with a progress line left unterminated.
//
// The handler does only async-signal-safe things (see set_stop_request for
// the one exception, a solve that prints its bounds): it passes the signal on to
// the command `mancala batch` is running (if any), ends a progress line with
// a newline, writes one line "mancala: interrupted by SIGINT" (or SIGTERM)
// with write(2) and calls _exit(128 + signal): exit status 130 for SIGINT,
// 143 for SIGTERM, as a shell reports a process killed by them.  Nothing is
// flushed or unwound: a solve holds no state worth saving, and a table build
// writes each level to a temporary file renamed only when complete, so an
// interrupted build resumes from its last complete level.
#pragma once

#include <sys/types.h>

#include <atomic>

namespace mancala::cli {

// Installs the handler for SIGINT and SIGTERM.  A signal that was ignored
// when the program started (e.g. SIGINT of a background job started by a
// non-interactive shell) stays ignored.
void install_interrupt_handlers();

// The child process `mancala batch` is running, or 0: the handler sends it
// the same signal before exiting, so that no command is left running
// without its batch.  Set it with SIGINT and SIGTERM blocked around the
// spawn, and clear it before reaping the child (the pid may be reused after).
void set_running_child(pid_t pid) noexcept;

// A solve that can stop early (solve_stop.hpp): while `flag` is set, the
// first SIGINT or SIGTERM stores its number in `signal`, raises `flag` and
// returns, so that the solve can print what it has proven; a second one
// exits as above.  Null to clear.
void set_stop_request(std::atomic<bool>* flag, std::atomic<int>* signal) noexcept;

}  // namespace mancala::cli
