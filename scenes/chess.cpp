// The FFD-ID paper's chess scene: chess pieces (solids of revolution) dropped onto the ground in
// seeded orientations, whole sets of 32 in the usual proportions.
#include <algorithm>
#include <array>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// The ground reaches this many drop areas across, room for pieces that roll away.
constexpr double kGroundPerDropWidth = 3.0;

// One set: 16 pawns, 4 each of rooks, knights and bishops, 2 queens, 2 kings.
struct PieceShare {
  const char* mesh;
  int perSet;
};
constexpr std::array<PieceShare, 6> kSet{
    {{"pawn", 16}, {"rook", 4}, {"knight", 4}, {"bishop", 4}, {"queen", 2}, {"king", 2}}};
constexpr int piecesPerSet() {
  int pieces = 0;
  for (const PieceShare& share : kSet) pieces += share.perSet;
  return pieces;
}
constexpr int kPiecesPerSet = piecesPerSet();
static_assert(kPiecesPerSet == 32);

Scene buildChess(const SceneParams& params, std::uint64_t seed) {
  const ParamReader read("chess", params);
  const int count = read.count("count");
  const double scale = read.positive("scale");
  const double width = read.positive("width");
  // The i-th piece of a set, in kSet's order.
  std::vector<std::shared_ptr<const MeshGeometry>> set;
  for (const PieceShare& share : kSet)
    set.insert(set.end(), share.perSet, sceneMesh("chess", share.mesh, scale));
  double largestRadius = 0.0;
  for (const auto& piece : set) largestRadius = std::max(largestRadius, piece->boundingRadius);

  Scene scene;
  scene.bodies.push_back(groundBox(kGroundPerDropWidth * width));
  SceneRandom random(seed);
  const std::vector<Vec3> drops =
      dropPositions("chess", count, Footprint::Square, 0.5 * width, largestRadius, kLatticeJitter, kFloorClearance,
                    random);
  for (int i = 0; i < count; ++i) {
    const auto& piece = set[i % kPiecesPerSet];
    scene.bodies.push_back(meshBody(piece->source + "_" + std::to_string(i), piece, drops[i], random.orientation()));
  }
  return scene;
}

}  // namespace

SceneEntry chessScene() {
  return {"chess",
          "chess pieces (whole sets) dropped onto the ground in seeded orientations",
          {{"count", 320, "number of pieces (10 sets)"},
           {"scale", 0.3, "piece size: the king's height, m"},
           {"width", 6, "width of the square the pieces are dropped over, m"}},
          buildChess};
}

}  // namespace contactlab::scenes
