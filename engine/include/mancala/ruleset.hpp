// The run-time description of a ruleset: which game and which options.
//
// Everything that plays moves is a template on a compile-time rules policy
// (rules.hpp); `dispatch` turns a Ruleset into the matching policy once, at
// the top of a command, so the hot paths never branch on the variant.
#pragma once

#include <string>

namespace mancala {

enum class Game { Kalah, BrainKing, Oware, Congkak };

// Oware: what happens to a move that would capture all of the opponent's seeds.
enum class GrandSlam { NoCapture, Forbidden, CaptureAll };

// Congkak: does a last seed in an empty own hole capture when the opposite hole is empty?
enum class CongkakCapture { Always, NeedsOpposite };

struct Ruleset {
  Game game = Game::Kalah;
  bool empty_capture = false;                           // kalah only
  GrandSlam grand_slam = GrandSlam::NoCapture;          // oware only
  CongkakCapture congkak_capture = CongkakCapture::Always;  // congkak only

  // The ruleset and its options as canonical text, e.g. "kalah" or
  // "kalah+empty-capture" or "oware+grand-slam=forbidden".  Only options that
  // change play appear; it goes into table headers and results rows.
  std::string digest() const;

  // Default board of the game when the user gives no --pits/--seeds.
  int default_pits() const;
  int default_seeds() const;

  friend bool operator==(const Ruleset&, const Ruleset&) = default;
};

std::string game_name(Game g);
// Throws InputError naming the unknown game.
Game parse_game(const std::string& name);
GrandSlam parse_grand_slam(const std::string& name);
CongkakCapture parse_congkak_capture(const std::string& name);
std::string grand_slam_name(GrandSlam g);
std::string congkak_capture_name(CongkakCapture c);

// Inverse of digest(); throws InputError on unknown text.
Ruleset parse_digest(const std::string& digest);

}  // namespace mancala
