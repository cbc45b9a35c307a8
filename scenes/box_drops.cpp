// Mesh bodies dropped into an open box container with seeded orientations and jitter: the PROX
// paper's jacks (sec. 5, non-convex six-armed jacks of about 35 kg) and rigid Stanford bunnies.
#include "scene_building.h"

namespace contactlab::scenes {

SceneEntry jacksScene() {
  return {"jacks",
          "jacks (three crossed capsule arms) dropped into an open box container, seeded orientations",
          {{"count", 362, "number of jacks"},
           {"scale", 0.8, "jack size tip to tip, m"},
           {"mass", 35, "mass of a jack, kg (PROX paper: about 35 kg)"},
           {"width", 8, "inside width of the square container, m"}},
          [](const SceneParams& params, std::uint64_t seed) {
            const double mass = ParamReader("jacks", params).positive("mass");
            return dropMeshesIntoBox("jacks", "jack", params, seed, [&](BodyDesc& jack) { jack.mass = mass; });
          }};
}

SceneEntry bunniesRigidScene() {
  return {"bunnies-rigid",
          "rigid Stanford bunnies (glmark2-data's model, simplified) dropped into an open box container",
          {{"count", 120, "number of bunnies"},
           {"scale", 0.25, "bunny size: 0.25 makes it 0.5 m long (density 1000 kg/m^3)"},
           {"width", 4, "inside width of the square container, m"}},
          [](const SceneParams& params, std::uint64_t seed) {
            return dropMeshesIntoBox("bunnies-rigid", "bunny", params, seed);
          }};
}

}  // namespace contactlab::scenes
