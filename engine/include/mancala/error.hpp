#pragma once

#include <stdexcept>
#include <string>

namespace mancala {

// Bad input from the user: a malformed position, an illegal move, an unknown
// option.  The command line prints what() as one line and exits with status 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace mancala
