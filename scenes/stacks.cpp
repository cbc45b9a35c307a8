// Structured stacks: the wall and tower of the PROX paper's r-factor study, and a 2D box pyramid.
// Bodies that rest on each other are placed exactly touching, so a stack starts in equilibrium.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// Bricks are long along x; the wall runs along x and is one brick deep.
const Vec3 kBrickSize(0.4, 0.2, 0.2);

Scene buildWall(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("wall", params);
  const int rows = read.count("rows"), columns = read.count("columns");
  const double length = kBrickSize.x(), height = kBrickSize.z();
  Scene scene;
  scene.bodies.push_back(groundBox(std::max(40.0, 2.0 * columns * length)));
  for (int row = 0; row < rows; ++row) {
    // Running bond with alternate rows shifted by a quarter brick (not the usual half): the end
    // bricks of a shifted row then still have their centre of mass over the brick below.
    const double shift = (row % 2) * 0.25 * length;
    for (int column = 0; column < columns; ++column) {
      const Vec3 centre((column - 0.5 * (columns - 1)) * length + shift, 0.0, (row + 0.5) * height);
      scene.bodies.push_back(
          dynamicBox("brick_" + std::to_string(row) + "_" + std::to_string(column), kBrickSize, centre));
    }
  }
  return scene;
}

// Tower boxes lie tangentially in a ring: local x is radial, local y tangential.
const Vec3 kTowerBoxSize(0.2, 0.8, 0.2);
// Neighbours in a ring would touch at their inner corners if the boxes were 1/kRingFill times as
// long; the rest is a gap so that they do not rub.
constexpr double kRingFill = 0.92;

Scene buildTower(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("tower", params);
  const int layers = read.count("layers"), perLayer = read.count("per_layer", 3);
  const double depth = kTowerBoxSize.x(), halfLength = 0.5 * kTowerBoxSize.y(), height = kTowerBoxSize.z();
  const double spacing = 2.0 * std::numbers::pi / perLayer;
  // A box's inner corners sit at angle atan(halfLength / innerRadius) from its centre line; keeping
  // that below half the spacing keeps neighbours apart.
  const double innerRadius = halfLength / (kRingFill * std::tan(0.5 * spacing));
  const double ringRadius = innerRadius + 0.5 * depth;
  Scene scene;
  scene.bodies.push_back(groundBox(std::max(40.0, 4.0 * ringRadius)));
  for (int layer = 0; layer < layers; ++layer) {
    // Odd layers turn by half the spacing, so each box bridges the gap between two boxes below.
    const double layerTurn = (layer % 2) * 0.5 * spacing;
    for (int i = 0; i < perLayer; ++i) {
      const double angle = i * spacing + layerTurn;
      const Vec3 centre(ringRadius * std::cos(angle), ringRadius * std::sin(angle), (layer + 0.5) * height);
      scene.bodies.push_back(dynamicBox("block_" + std::to_string(layer) + "_" + std::to_string(i), kTowerBoxSize,
                                        centre, Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()))));
    }
  }
  return scene;
}

constexpr double kPyramidBoxSize = 1.0;

// Boxes of a row are spaced `gap` of their width apart: 1 % by default, so that they do not touch
// sideways; gap=0 builds the pyramid of Box2D's and Bullet's demos, whose row neighbours touch.
Scene buildPyramid(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader reader("pyramid", params);
  const int rows = reader.count("rows");
  const double pitch = kPyramidBoxSize * (1.0 + reader.inRange("gap", 0.0, 1.0));
  Scene scene;
  scene.bodies.push_back(groundBox(std::max(40.0, 2.0 * rows * pitch)));
  for (int row = 0; row < rows; ++row) {
    const int boxes = rows - row;
    for (int i = 0; i < boxes; ++i) {
      const Vec3 centre((i - 0.5 * (boxes - 1)) * pitch, 0.0, (row + 0.5) * kPyramidBoxSize);
      scene.bodies.push_back(dynamicBox("box_" + std::to_string(row) + "_" + std::to_string(i),
                                        Vec3::Constant(kPyramidBoxSize), centre));
    }
  }
  return scene;
}

}  // namespace

SceneEntry wallScene() {
  return {"wall",
          "running-bond brick wall (PROX paper's Wall: 81 bricks of 0.4 x 0.2 x 0.2 m)",
          {{"rows", 9, "courses of bricks"}, {"columns", 9, "bricks per course"}},
          buildWall};
}

SceneEntry towerScene() {
  return {"tower",
          "ring tower of tangential boxes, each bridging two below (PROX paper's Tower: 49 boxes)",
          {{"layers", 7, "layers of boxes"}, {"per_layer", 7, "boxes per ring, at least 3"}},
          buildTower};
}

SceneEntry pyramidScene() {
  return {"pyramid",
          "2D pyramid of 1 m boxes, gaps within a row",
          {{"rows", 20, "boxes in the bottom row"}, {"gap", 0.01, "gap between row neighbours, a fraction of the box width"}},
          buildPyramid};
}

}  // namespace contactlab::scenes
