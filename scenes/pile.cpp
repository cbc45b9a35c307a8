// A random pile: boxes and spheres dropped into an open box container (the PROX paper's random-pile
// behaviour, as opposed to its structured stacks).
#include <algorithm>
#include <cmath>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

constexpr double kMinSize = 0.2, kMaxSize = 0.4;  // box sides and sphere diameters, m
// Lattice cells hold the largest box in any orientation (half diagonal sqrt(3) * 0.2) plus the
// jitter, so no two bodies overlap at the start, nor a body and the container.
constexpr double kCellSize = 0.75;
static_assert(0.5 * kCellSize >= 0.5 * kMaxSize * 1.7320508075688772 + kLatticeJitter);
constexpr double kMinWallHeight = 1.5;

Scene buildPile(const SceneParams& params, std::uint64_t seed) {
  const int count = ParamReader("pile", params).count("count");
  // A roughly cubic lattice: as many cells across as layers high.
  const int cellsAcross = std::max(2, static_cast<int>(std::ceil(std::cbrt(static_cast<double>(count)))));
  const double inner = cellsAcross * kCellSize;  // container's inside width
  const double wallHeight = std::max(kMinWallHeight, 0.25 * inner);

  Scene scene;
  addBoxContainer(scene, inner, wallHeight, kContainerWallThickness);

  SceneRandom random(seed);
  const int cellsPerLayer = cellsAcross * cellsAcross;
  for (int i = 0; i < count; ++i) {
    const int layer = i / cellsPerLayer, cell = i % cellsPerLayer;
    const Vec3 cellCentre((cell % cellsAcross + 0.5) * kCellSize - 0.5 * inner,
                          (cell / cellsAcross + 0.5) * kCellSize - 0.5 * inner,
                          kFloorClearance + (layer + 0.5) * kCellSize);
    const Vec3 jitter(random.uniform(-kLatticeJitter, kLatticeJitter),
                      random.uniform(-kLatticeJitter, kLatticeJitter),
                      random.uniform(-kLatticeJitter, kLatticeJitter));
    if (i % 2 == 0) {
      const Vec3 size(random.uniform(kMinSize, kMaxSize), random.uniform(kMinSize, kMaxSize),
                      random.uniform(kMinSize, kMaxSize));
      scene.bodies.push_back(
          dynamicBox("box_" + std::to_string(i), size, cellCentre + jitter, random.orientation()));
    } else {
      scene.bodies.push_back(dynamicSphere("sphere_" + std::to_string(i),
                                           0.5 * random.uniform(kMinSize, kMaxSize), cellCentre + jitter));
    }
  }
  return scene;
}

}  // namespace

SceneEntry pileScene() {
  return {"pile",
          "boxes and spheres (0.2-0.4 m, alternating, seeded jitter) dropped into an open box container",
          {{"count", 2000, "number of falling bodies"}},
          buildPile};
}

}  // namespace contactlab::scenes
