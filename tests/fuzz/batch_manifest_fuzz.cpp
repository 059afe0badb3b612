// Fuzz target: the manifest of `mancala batch` (apps/mancala/manifest.hpp).
//
// The input is the content of a manifest file.  split_manifest() must cut it
// into numbered, trimmed, non-blank, non-comment lines; parse_manifest_line()
// must turn each into words or refuse it with InputError, and the words it
// gives must keep the documented limits (no nested batch, no play, no help, at most
// kMaxManifestWords words from at most kMaxManifestLineBytes bytes) and
// survive a round trip: quoted again word by word, they parse to the same
// words.  Every input is also parsed whole as one line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "mancala/error.hpp"
#include "manifest.hpp"

namespace mancala::cli {
namespace {

// A word in single quotes, as a shell would need it ('\'' for a quote).
std::string quoted(const std::string& word) {
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'')
      out.append("'\\''");
    else
      out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

void check_line(std::string_view text, std::string_view input) {
  ManifestLine parsed;
  try {
    parsed = parse_manifest_line(text);
  } catch (const InputError&) {
    return;
  }
  FUZZ_CHECK(text.size() <= kMaxManifestLineBytes, input);
  FUZZ_CHECK(!parsed.words.empty(), input);
  FUZZ_CHECK(parsed.words.size() <= kMaxManifestWords, input);
  FUZZ_CHECK(parsed.words[0] != "batch", input);
  FUZZ_CHECK(parsed.words[0] != "play", input);
  std::string again;
  for (const std::string& w : parsed.words) {
    FUZZ_CHECK(w.find('\0') == std::string::npos, input);
    FUZZ_CHECK(w != "--help" && w != "-h", input);
    if (!again.empty()) again.push_back(' ');
    again.append(quoted(w));
  }
  // A leading word `mancala` is dropped by the parser, so words that start
  // with it again do not come back the same; nor does a line that quoting
  // made longer than the limit.
  if (parsed.words[0] == "mancala" || again.size() > kMaxManifestLineBytes) return;
  ManifestLine back;
  try {
    back = parse_manifest_line(again);
  } catch (const InputError&) {
    FUZZ_CHECK(!"the words of a line, quoted again, are refused", input);
  }
  FUZZ_CHECK(back.words == parsed.words, input);
}

}  // namespace
}  // namespace mancala::cli

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala::cli;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<ManifestEntry> entries = split_manifest(input);
  int last_line = 0;
  std::size_t lines = 1;
  for (const char c : input) lines += c == '\n';
  for (const ManifestEntry& e : entries) {
    FUZZ_CHECK(e.line > last_line && std::size_t(e.line) <= lines, input);
    last_line = e.line;
    FUZZ_CHECK(!e.text.empty() && e.text.find('\n') == std::string::npos, input);
    FUZZ_CHECK(e.text[0] != '#', input);
    FUZZ_CHECK(e.text.find_first_of(" \t\r\f\v") != 0 && e.text.find_last_of(" \t\r\f\v") != e.text.size() - 1, input);
    check_line(e.text, input);
  }
  check_line(input, input);
  return 0;
}
