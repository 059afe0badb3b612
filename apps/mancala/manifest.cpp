#include "manifest.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "mancala/error.hpp"

namespace mancala::cli {

namespace {

constexpr std::string_view kBlanks = " \t\r\f\v";

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(kBlanks);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(kBlanks);
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (kBlanks.find(c) != std::string_view::npos) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == '\'') {
      const auto end = text.find('\'', i + 1);
      if (end == std::string_view::npos) throw InputError("unterminated ' quote");
      word += text.substr(i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (c == '"') {
      in_word = true;
      for (++i;; ++i) {
        if (i >= text.size()) throw InputError("unterminated \" quote");
        if (text[i] == '"') break;
        if (text[i] == '\\' && i + 1 < text.size() && std::strchr("\"\\$`", text[i + 1])) ++i;
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 >= text.size()) throw InputError("backslash at the end of the line");
      word += text[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

}  // namespace

ManifestLine parse_manifest_line(std::string_view text) {
  // A NUL byte would end its word when the words become the child's argv
  // (C strings), silently dropping the rest of the line.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError("the line holds a NUL byte (byte " + std::to_string(nul + 1) + "); a manifest is text");
  if (text.size() > kMaxManifestLineBytes)
    throw InputError("the line is " + std::to_string(text.size()) + " bytes long, more than the limit of " +
                     std::to_string(kMaxManifestLineBytes));
  ManifestLine ml{split_words(text)};
  if (ml.words.size() > kMaxManifestWords)
    throw InputError("the line holds " + std::to_string(ml.words.size()) + " words, more than the limit of " +
                     std::to_string(kMaxManifestWords));
  auto& words = ml.words;
  if (!words.empty() && words[0] == "mancala") words.erase(words.begin());
  if (words.empty()) throw InputError("no command on the line");
  if (words[0] == "batch") throw InputError("batch cannot run inside a batch manifest");
  // play is a dialogue on a terminal: no one result, and its input would be
  // the batch's.
  if (words[0] == "play") throw InputError("play is interactive and prints no one result; it cannot run in a batch manifest");
  // A help text is not a result: refused rather than recorded as a line
  // whose output is not JSON.  The same words `mancala` itself takes as a
  // request for help (there is no unique-prefix matching of option names).
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool help = words[i] == "--help" || words[i] == "-h" || (i == 0 && words[i] == "help");
    if (help)
      throw InputError("'" + words[i] + "' prints a help text, not a result (run `mancala " +
                       (i == 0 ? std::string("--help") : words[0] + " --help") + "` outside the manifest)");
  }
  return ml;
}

std::vector<ManifestEntry> split_manifest(std::string_view content) {
  std::vector<ManifestEntry> lines;
  int number = 1;
  for (std::size_t start = 0; start < content.size(); ++number) {
    auto end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view text = trim(content.substr(start, end - start));
    if (!text.empty() && text[0] != '#') lines.push_back({number, std::string(text)});
    start = end + 1;
  }
  return lines;
}

std::vector<ManifestEntry> read_manifest(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw InputError("manifest '" + path + "' does not exist");
  if (std::filesystem::is_directory(status)) throw InputError("manifest '" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read manifest '" + path + "': " + std::strerror(errno));
  // Line by line: a read error (libstdc++ reports it as badbit from inside
  // getline) is told apart from the end of the file.
  std::string content, raw;
  while (std::getline(in, raw)) {
    content += raw;
    content += '\n';
  }
  if (in.bad()) throw InputError("cannot read manifest '" + path + "': " + std::strerror(errno));
  return split_manifest(content);
}

}  // namespace mancala::cli
