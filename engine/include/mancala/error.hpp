#pragma once

#include <stdexcept>
#include <string>

namespace mancala {

// Bad input from the user: a malformed position, an illegal move, an unknown
// option.  The command line prints what() as one line and exits with status 2.
// Messages quote the user's text, which may hold a NUL byte (a line piped to
// probe or play): what() is a C string, so a NUL would end the message there
// and lose the reason after it.  It is written as "\0" instead.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(without_nul(what)) {}

 private:
  static std::string without_nul(const std::string& text) {
    if (text.find('\0') == std::string::npos) return text;
    std::string out;
    for (const char c : text) {
      if (c == '\0')
        out += "\\0";
      else
        out += c;
    }
    return out;
  }
};

}  // namespace mancala
