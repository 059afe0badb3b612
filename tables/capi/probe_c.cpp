// The C interface (mancala/probe.h) over mancala::TableProber.
//
// Every entry point catches everything: no C++ exception crosses into C.
// The codes are the prober's ProbeError kinds, the messages its own.
#include "mancala/probe.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "mancala/probe.hpp"
#include "mancala/version.hpp"

struct mancala_tables {
  std::unique_ptr<mancala::TableProber> prober;
  std::string ruleset;  // the digest, for mancala_tables_ruleset()
};

namespace {

// Copies a message into err: at most err_len - 1 bytes, always terminated.
void set_error(char* err, std::size_t err_len, const char* message) noexcept {
  if (!err || err_len == 0) return;
  const std::size_t n = std::min(std::strlen(message), err_len - 1);
  std::memcpy(err, message, n);
  err[n] = '\0';
}

int fail(char* err, std::size_t err_len, int code, const char* message) noexcept {
  set_error(err, err_len, message);
  return code;
}

// The prober's answer as a C code, message and result.
struct Probed {
  int code = MANCALA_OK;
  std::string error;
  mancala::ProbeResult result;
};

int code_of(mancala::ProbeError kind) {
  switch (kind) {
    case mancala::ProbeError::None: return MANCALA_OK;
    case mancala::ProbeError::Position: return MANCALA_ERR_POSITION;
    case mancala::ProbeError::NotCovered: return MANCALA_ERR_NOT_COVERED;
    case mancala::ProbeError::Table: return MANCALA_ERR_TABLE;
    case mancala::ProbeError::Internal: break;
  }
  return MANCALA_ERR_INTERNAL;
}

Probed probe(const mancala_tables& t, const char* text) {
  Probed out;
  mancala::ProbeAnswer a = t.prober->probe(std::string_view(text));
  if (a) {
    out.result = std::move(*a.result);
    return out;
  }
  out.code = code_of(a.kind);
  out.error = std::move(a.error);
  return out;
}

// Runs f() (which returns a code), turning any exception into one.
template <class F>
int guarded(char* err, std::size_t err_len, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(err, err_len, MANCALA_ERR_INTERNAL, "out of memory");
  } catch (const std::exception& e) {
    return fail(err, err_len, MANCALA_ERR_INTERNAL, e.what());
  } catch (...) {
    return fail(err, err_len, MANCALA_ERR_INTERNAL, "unknown internal error");
  }
}

}  // namespace

extern "C" {

mancala_tables* mancala_open_tables(const char* dir, char* err, std::size_t err_len) {
  mancala_tables* opened = nullptr;
  const int code = guarded(err, err_len, [&] {
    if (!dir) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no table directory given (dir is NULL)");
    std::string error;
    auto prober = mancala::TableProber::open(dir, error);
    if (!prober) {
      if (error.empty()) error = "the table directory could not be opened";
      return fail(err, err_len, MANCALA_ERR_TABLE, error.c_str());
    }
    auto t = std::make_unique<mancala_tables>();
    t->ruleset = prober->rules().digest();
    t->prober = std::move(prober);
    opened = t.release();
    set_error(err, err_len, "");
    return MANCALA_OK;
  });
  return code == MANCALA_OK ? opened : nullptr;
}

void mancala_close_tables(mancala_tables* t) {
  try {
    delete t;
  } catch (...) {  // destructors do not throw; nothing may cross into C regardless
  }
}

int mancala_probe(const mancala_tables* t, const char* position, int* value, int* best_move, char* err,
                  std::size_t err_len) {
  return guarded(err, err_len, [&] {
    if (!t) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no tables given (the handle is NULL)");
    if (!position) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no position given (it is NULL)");
    const Probed r = probe(*t, position);
    if (r.code != MANCALA_OK) return fail(err, err_len, r.code, r.error.c_str());
    if (value) *value = r.result.value;
    if (best_move) *best_move = r.result.best_move;
    set_error(err, err_len, "");
    return MANCALA_OK;
  });
}

int mancala_probe_moves(const mancala_tables* t, const char* position, int* pits, int* values,
                        std::size_t capacity, std::size_t* count, char* err, std::size_t err_len) {
  return guarded(err, err_len, [&] {
    if (!t) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no tables given (the handle is NULL)");
    if (!position) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no position given (it is NULL)");
    if (!count) return fail(err, err_len, MANCALA_ERR_ARGUMENT, "no place for the move count given (count is NULL)");
    if (capacity > 0 && (!pits || !values))
      return fail(err, err_len, MANCALA_ERR_ARGUMENT, "pits or values is NULL with a capacity above 0");
    const Probed r = probe(*t, position);
    if (r.code != MANCALA_OK) return fail(err, err_len, r.code, r.error.c_str());
    const std::size_t n = r.result.moves.size();
    if (n > capacity) {
      *count = n;
      const std::string message = "the position has " + std::to_string(n) + " moves; the arrays hold " +
                                  std::to_string(capacity);
      return fail(err, err_len, MANCALA_ERR_CAPACITY, message.c_str());
    }
    for (std::size_t i = 0; i < n; ++i) {
      pits[i] = r.result.moves[i].pit;
      values[i] = r.result.moves[i].value;
    }
    *count = n;
    set_error(err, err_len, "");
    return MANCALA_OK;
  });
}

const char* mancala_tables_ruleset(const mancala_tables* t) { return t ? t->ruleset.c_str() : nullptr; }

int mancala_tables_pits_per_side(const mancala_tables* t) { return t ? t->prober->pits_per_side() : -1; }

int mancala_tables_max_seeds(const mancala_tables* t) { return t ? t->prober->max_seeds() : -1; }

int mancala_outcome(int value) { return value > 0 ? MANCALA_WIN : value < 0 ? MANCALA_LOSS : MANCALA_DRAW; }

const char* mancala_version(void) { return mancala::version(); }

const char* mancala_source_commit(void) { return mancala::source_commit(); }

const char* mancala_error_name(int code) {
  switch (code) {
    case MANCALA_OK: return "ok";
    case MANCALA_ERR_ARGUMENT: return "bad argument";
    case MANCALA_ERR_POSITION: return "bad position";
    case MANCALA_ERR_NOT_COVERED: return "not covered by the tables";
    case MANCALA_ERR_TABLE: return "bad tables";
    case MANCALA_ERR_CAPACITY: return "capacity too small";
    case MANCALA_ERR_INTERNAL: return "internal error";
    default: return "unknown error";
  }
}

}  // extern "C"
