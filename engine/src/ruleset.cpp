#include "mancala/ruleset.hpp"

#include "mancala/error.hpp"

namespace mancala {

std::string game_name(Game g) {
  switch (g) {
    case Game::Kalah: return "kalah";
    case Game::BrainKing: return "brainking";
    case Game::Oware: return "oware";
    case Game::Congkak: return "congkak";
  }
  return "?";
}

Game parse_game(const std::string& name) {
  for (Game g : {Game::Kalah, Game::BrainKing, Game::Oware, Game::Congkak})
    if (game_name(g) == name) return g;
  throw InputError("unknown game '" + name + "' (expected kalah, brainking, oware or congkak)");
}

std::string grand_slam_name(GrandSlam g) {
  switch (g) {
    case GrandSlam::NoCapture: return "no-capture";
    case GrandSlam::Forbidden: return "forbidden";
    case GrandSlam::CaptureAll: return "capture-all";
  }
  return "?";
}

GrandSlam parse_grand_slam(const std::string& name) {
  for (GrandSlam g : {GrandSlam::NoCapture, GrandSlam::Forbidden, GrandSlam::CaptureAll})
    if (grand_slam_name(g) == name) return g;
  throw InputError("unknown grand-slam rule '" + name + "' (expected no-capture, forbidden or capture-all)");
}

std::string congkak_capture_name(CongkakCapture c) {
  return c == CongkakCapture::Always ? "always" : "needs-opposite";
}

CongkakCapture parse_congkak_capture(const std::string& name) {
  if (name == "always") return CongkakCapture::Always;
  if (name == "needs-opposite") return CongkakCapture::NeedsOpposite;
  throw InputError("unknown capture rule '" + name + "' (expected always or needs-opposite)");
}

std::string Ruleset::digest() const {
  std::string d = game_name(game);
  if (game == Game::Kalah && empty_capture) d += "+empty-capture";
  if (game == Game::Oware && grand_slam != GrandSlam::NoCapture) d += "+grand-slam=" + grand_slam_name(grand_slam);
  if (game == Game::Congkak && congkak_capture != CongkakCapture::Always)
    d += "+capture=" + congkak_capture_name(congkak_capture);
  return d;
}

int Ruleset::default_pits() const { return game == Game::Congkak ? 7 : 6; }
int Ruleset::default_seeds() const { return game == Game::Congkak ? 7 : 4; }

Ruleset parse_digest(const std::string& digest) {
  Ruleset r;
  const auto plus = digest.find('+');
  r.game = parse_game(digest.substr(0, plus));
  if (plus == std::string::npos) return r;
  const std::string opt = digest.substr(plus + 1);
  if (r.game == Game::Kalah && opt == "empty-capture") {
    r.empty_capture = true;
  } else if (r.game == Game::Oware && opt.rfind("grand-slam=", 0) == 0) {
    r.grand_slam = parse_grand_slam(opt.substr(11));
  } else if (r.game == Game::Congkak && opt.rfind("capture=", 0) == 0) {
    r.congkak_capture = parse_congkak_capture(opt.substr(8));
  } else {
    throw InputError("unknown ruleset digest '" + digest + "'");
  }
  if (r.digest() != digest) throw InputError("non-canonical ruleset digest '" + digest + "'");
  return r;
}

}  // namespace mancala
