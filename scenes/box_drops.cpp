// Mesh bodies dropped into an open box container with seeded orientations and jitter: the PROX
// paper's jacks (sec. 5, non-convex six-armed jacks of about 35 kg) and rigid Stanford bunnies.
#include <algorithm>
#include <cmath>
#include <optional>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// `count` bodies of the named mesh at `scale`, with `mass` when given (else the default density).
Scene dropMeshesIntoBox(const std::string& sceneName, const std::string& mesh, const SceneParams& params,
                        std::optional<double> mass, std::uint64_t seed) {
  const ParamReader read(sceneName, params);
  const int count = read.count("count");
  const double width = read.positive("width");
  const auto geometry = sceneMesh(sceneName, mesh, read.positive("scale"));

  SceneRandom random(seed);
  const std::vector<Vec3> drops = dropPositions(sceneName, count, Footprint::Square, 0.5 * width,
                                                geometry->boundingRadius, kLatticeJitter, kFloorClearance, random);
  Scene scene;
  // Walls as high as the falling column, so nothing leaves the container on its way down.
  double columnTop = 0.0;
  for (const Vec3& drop : drops) columnTop = std::max(columnTop, drop.z() + geometry->boundingRadius);
  addBoxContainer(scene, width, columnTop, kContainerWallThickness);
  for (int i = 0; i < count; ++i) {
    BodyDesc body = meshBody(mesh + "_" + std::to_string(i), geometry, drops[i], random.orientation());
    body.mass = mass;
    scene.bodies.push_back(std::move(body));
  }
  return scene;
}

}  // namespace

SceneEntry jacksScene() {
  return {"jacks",
          "jacks (three crossed capsule arms) dropped into an open box container, seeded orientations",
          {{"count", 362, "number of jacks"},
           {"scale", 0.8, "jack size tip to tip, m"},
           {"mass", 35, "mass of a jack, kg (PROX paper: about 35 kg)"},
           {"width", 8, "inside width of the square container, m"}},
          [](const SceneParams& params, std::uint64_t seed) {
            return dropMeshesIntoBox("jacks", "jack", params, ParamReader("jacks", params).positive("mass"), seed);
          }};
}

SceneEntry bunniesRigidScene() {
  return {"bunnies-rigid",
          "rigid Stanford bunnies (glmark2-data's model, simplified) dropped into an open box container",
          {{"count", 120, "number of bunnies"},
           {"scale", 0.25, "bunny size: 0.25 makes it 0.5 m long (density 1000 kg/m^3)"},
           {"width", 4, "inside width of the square container, m"}},
          [](const SceneParams& params, std::uint64_t seed) {
            return dropMeshesIntoBox("bunnies-rigid", "bunny", params, std::nullopt, seed);
          }};
}

}  // namespace contactlab::scenes
