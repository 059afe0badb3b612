// FUZZ_CHECK(cond, input): a property every input must keep.  A violation
// prints what failed and the input, then aborts, which libFuzzer reports as a
// crash (and saves the input) and the corpus replay as a failed test.  Not
// assert(): the targets are also built with NDEBUG (Release).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace mancala::fuzz {

[[noreturn]] inline void check_failed(const char* what, const char* file, int line, std::string_view input) {
  std::fprintf(stderr, "%s:%d: fuzz check failed: %s\ninput (%zu bytes): '", file, line, what, input.size());
  for (const char c : input) {
    if (c >= 0x20 && c < 0x7f)
      std::fputc(c, stderr);
    else
      std::fprintf(stderr, "\\x%02x", static_cast<unsigned char>(c));
  }
  std::fputs("'\n", stderr);
  std::abort();
}

}  // namespace mancala::fuzz

#define FUZZ_CHECK(cond, input) \
  ((cond) ? void(0) : ::mancala::fuzz::check_failed(#cond, __FILE__, __LINE__, (input)))
