// The manifest of `mancala batch`: a text file of `mancala` command lines,
// one a line.  Reading the file and turning a line into the words of a
// command are kept apart from running them, as pure functions over text, so
// that tests and a fuzz target can call them directly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mancala::cli {

// The longest command line, in bytes, and the most words on one.  Both are
// checked before anything is started, so that a line beyond the kernel's
// limits for a new process's arguments (Linux: 128 KiB for one argument,
// ARG_MAX for all of them with the environment) is an input error naming its
// line, not a failure to start it.  Real command lines are well under 1 KiB.
inline constexpr std::size_t kMaxManifestLineBytes = 16384;
inline constexpr std::size_t kMaxManifestWords = 1024;

// A command line of a manifest file, as read from it.
struct ManifestEntry {
  int line;          // 1-based line number in the file
  std::string text;  // the line without surrounding blanks
};

// A command line split into words.
struct ManifestLine {
  std::vector<std::string> words;  // the command (words[0]) and its arguments, without a leading `mancala`
};

// Splits one command line into the words after `mancala`, like a POSIX
// shell without expansions: blanks separate words; '...' keeps everything;
// "..." keeps everything but \" \\ \$ \`; a backslash outside quotes escapes
// the next character; an unquoted '#' at the start of a word starts a
// comment; a leading word `mancala` is dropped.  Throws InputError (a
// one-line message without the line number) for a line that is not a
// command batch runs: a NUL byte, more than kMaxManifestLineBytes bytes or
// kMaxManifestWords words, an unbalanced quote, a backslash at the end, no
// command, a nested `batch`, or --help / -h / `help` (they print a help
// text, not a result).  Pure: no I/O, no global state.
ManifestLine parse_manifest_line(std::string_view text);

// The command lines of a manifest's content, split at '\n' (a final line
// without one counts too): every line but blank ones and those whose first
// non-blank character is '#', with surrounding blanks (" \t\r\f\v", so CRLF
// files read as LF files) removed.  Lines are not checked here: a bad line
// is numbered like any other and reported when it is run.  Pure.
std::vector<ManifestEntry> split_manifest(std::string_view content);

// split_manifest of the file at `path`; throws InputError naming the file
// when it does not exist, is a directory or cannot be read.
std::vector<ManifestEntry> read_manifest(const std::string& path);

}  // namespace mancala::cli
