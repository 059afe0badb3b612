// The two Congkak capture rules as the engine and the oracle spell them, for
// the tests of the opening and of matches.
#pragma once

#include "mancala/ruleset.hpp"
#include "oracle/oracle.hpp"

namespace congkak_test {

struct Variant {
  const char* name;
  mancala::Ruleset rules;
  oracle::Rules oracle_rules;
};

inline const Variant kVariants[] = {
    {"always", {.game = mancala::Game::Congkak}, {"congkak", false, "no-capture", false}},
    {"needs-opposite", {.game = mancala::Game::Congkak, .congkak_capture = mancala::CongkakCapture::NeedsOpposite},
     {"congkak", false, "no-capture", true}},
};

}  // namespace congkak_test
