// Many deformable bodies dropped into an open box container, the Verschoor & Jalba paper's sec. 6.2
// scenes: elastic rings that tangle as they pile up, and soft Stanford bunnies.
#include "scene_building.h"

// Named after the file, not anonymous: the scenes are compiled in unity batches.
namespace contactlab::scenes::soft_piles {

// The paper's material and step: E = 5e5 Pa (the rings) or 5e6 Pa (the bunnies), nu = 0.2,
// density 1000 kg/m^3, mu = 0.5, dt = 1 ms.
constexpr double kDt = 1e-3;
constexpr double kPoisson = 0.2;
constexpr double kMu = 0.5;

// `mesh` bodies made deformable (co-rotational, the scene's "youngs_modulus"), dropped with a
// downward "speed" into a container as wide as the scene's "width"; container and bodies take mu.
Scene dropSoftBodies(const std::string& sceneName, const std::string& mesh, const SceneParams& params,
                     std::uint64_t seed) {
  const ParamReader read(sceneName, params);
  const double youngsModulus = read.positive("youngs_modulus");
  const double speed = read.nonNegative("speed");
  Scene scene = dropMeshesIntoBox(sceneName, mesh, params, seed, [&](BodyDesc& body) {
    body.velocity = Vec3(0, 0, -speed);
    body.deformable = DeformableDesc{};
    body.deformable->youngsModulus = youngsModulus;
    body.deformable->poissonRatio = kPoisson;
  });
  scene.dt = kDt;
  scene.friction.mu = kMu;
  return scene;
}

}  // namespace contactlab::scenes::soft_piles

namespace contactlab::scenes {

// The paper's rings: 108 tetrahedra each, built directly (the "ring" mesh: 18 segments of square
// section, 72 vertices, 144 boundary triangles). 120 rings fill a 1.2 m container five layers
// deep; at 3 m/s the top layer, about 1.1 m up, lands within the first 0.4 s.
SceneEntry ringsScene() {
  return {"rings",
          "elastic rings (108 tetrahedra each, E 5e5 Pa) dropped into a container, where they tangle",
          {{"count", 120, "number of rings"},
           {"scale", 1, "ring size: 1 makes it 0.225 m across with a 2.5 cm square section"},
           {"width", 1.2, "inside width of the square container, m"},
           {"speed", 3, "downward speed at the start, m/s"},
           {"youngs_modulus", 5e5, "Young's modulus, Pa"}},
          [](const SceneParams& params, std::uint64_t seed) {
            return soft_piles::dropSoftBodies("rings", "ring", params, seed);
          }};
}

// glmark2-data's bunny as the "bunny-coarse" mesh (simplified to 400 triangles), filled by tetgen at
// the deformable default (the body's volume / 150 per tetrahedron; tetgen keeps the surface's
// triangles, so the count follows them: the 1000-triangle "bunny" gives 1833).
SceneEntry bunniesScene() {
  return {"bunnies",
          "soft Stanford bunnies (E 5e6 Pa) dropped into a container; they squash and recover",
          {{"count", 120, "number of bunnies"},
           {"scale", 0.1, "bunny size: 0.1 makes it 0.2 m long"},
           {"width", 1.2, "inside width of the square container, m"},
           {"speed", 3, "downward speed at the start, m/s"},
           {"youngs_modulus", 5e6, "Young's modulus, Pa"}},
          [](const SceneParams& params, std::uint64_t seed) {
            return soft_piles::dropSoftBodies("bunnies", "bunny-coarse", params, seed);
          }};
}

}  // namespace contactlab::scenes
