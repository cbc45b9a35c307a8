// The FFD-ID paper's Truck benchmark (sec. V.C, Fig. 7): pieces fall onto a moving truck that stops
// suddenly. The truck is a kinematic bed following a velocity schedule (full speed from t = 0, at
// rest from stop_time on); the pieces are upright boxes dropped from rest. Friction has to drag
// each piece up to the bed's speed, carry it, and after the stop let it slide on by v^2 / (2 mu g)
// (docs/solvers.md compares ffd and ffd-id on it).
#include <string>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// The bed: long enough in x for the pieces to slide on after the stop whatever the speed leaves
// them, its top face at z = 0.
const Vec3 kBedSize(16.0, 3.0, 0.2);
// A piece's footprint and height. Width / height = 0.75 exceeds the paper's mu = 0.4, so a piece
// dragged by friction at its base slides rather than tips (it tips only for mu > width / height).
const Vec3 kPieceSize(0.3, 0.3, 0.4);
// Columns of three pieces across the bed (y = -0.8, 0, 0.8), one column after another along x.
constexpr int kPiecesPerColumn = 3;
constexpr double kPieceSpacing = 0.8;  // centre to centre, m
// The pieces start over the bed's rear, leaving its front for the slide after the stop.
constexpr double kFirstPieceX = -4.0;
constexpr int kMaxPieces = 3 * kPiecesPerColumn;

Scene buildTruck(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("truck", params);
  const double speed = read.nonNegative("speed");
  const double stopTime = read.positive("stop_time");
  read.inRange("pieces", 1, kMaxPieces);
  const int pieces = read.count("pieces");
  const double dropHeight = read.nonNegative("drop_height");
  Scene scene;
  // Bed and pieces share the scene's mu, so their pair's sqrt(mu * mu) is mu itself.
  scene.friction.mu = read.nonNegative("mu");
  BodyDesc bed = staticBox("truck", kBedSize, Vec3(0, 0, -0.5 * kBedSize.z()));
  bed.motion = MotionType::Kinematic;
  bed.velocitySchedule = {{0.0, Vec3(speed, 0, 0)}, {stopTime, Vec3::Zero()}};
  scene.bodies.push_back(bed);
  for (int i = 0; i < pieces; ++i) {
    const Vec3 centre(kFirstPieceX + (i / kPiecesPerColumn) * kPieceSpacing, (i % kPiecesPerColumn - 1) * kPieceSpacing,
                      dropHeight + 0.5 * kPieceSize.z());
    scene.bodies.push_back(dynamicBox("piece_" + std::to_string(i), kPieceSize, centre));
  }
  return scene;
}

}  // namespace

SceneEntry truckScene() {
  return {"truck",
          "FFD-ID paper's Truck: upright boxes dropped onto a kinematic bed that moves along +x and stops",
          {{"speed", 2, "the bed's speed until it stops, m/s (the paper gives none)"},
           {"stop_time", 1.5, "when the bed stops, s"},
           {"mu", 0.4, "friction coefficient of pieces and bed (the paper's 0.4)"},
           {"pieces", 6, "number of pieces, 1 to 9, in columns of 3 across the bed (the paper has 6 chess pieces)"},
           {"drop_height", 0.05, "gap between the pieces' bottoms and the bed at the start, m"}},
          buildTruck};
}

}  // namespace contactlab::scenes
