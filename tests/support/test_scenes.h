#pragma once
// Bodies and worlds for the physics tests, built in code so each test shows its whole setup.
#include <functional>
#include <string>

#include "contactlab/world.h"

namespace contactlab::test {

// |Scene::gravity| by default, m/s^2: the analytic results the physics tests compare with use it.
constexpr double kG = 9.81;

inline BodyDesc staticGround(double friction = 0.75) {
  BodyDesc ground;
  ground.name = "ground";
  ground.shape = BoxShape{Vec3(20, 20, 0.5)};
  ground.position = Vec3(0, 0, -0.5);  // top face at z = 0
  ground.motion = MotionType::Static;
  ground.material.mu = friction;
  return ground;
}

inline BodyDesc box(const Vec3& size, const Vec3& position) {
  BodyDesc b;
  b.shape = BoxShape{0.5 * size};
  b.position = position;
  return b;
}

// A deformable cube of edge `size` with the default material (DeformableDesc).
inline BodyDesc softCube(double size, const Vec3& position) {
  BodyDesc b = box(Vec3::Constant(size), position);
  b.deformable = DeformableDesc{};
  return b;
}

inline BodyDesc sphere(double radius, const Vec3& position) {
  BodyDesc b;
  b.shape = SphereShape{radius};
  b.position = position;
  return b;
}

// The scene's body of that name; null when there is none.
inline const BodyDesc* bodyNamed(const Scene& scene, const std::string& name) {
  for (const BodyDesc& body : scene.bodies)
    if (body.name == name) return &body;
  return nullptr;
}

// The SceneError message of building the built-in scene with these parameters; empty when it builds.
inline std::string builtinSceneError(const std::string& name, const SceneParams& params) {
  try {
    buildBuiltinScene(name, params, 1);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

// A soft box (DeformableDesc's defaults) of `halfExtents` centred at `position`, named "soft", over a
// static 2 x 2 x 0.2 m slab named "ground" whose top is at z = 0; dt = 1 ms.
inline Scene softBoxOnSlab(const Vec3& halfExtents, const Vec3& position) {
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc ground;
  ground.name = "ground";
  ground.shape = BoxShape{Vec3(1, 1, 0.1)};
  ground.position = Vec3(0, 0, -0.1);
  ground.motion = MotionType::Static;
  BodyDesc soft;
  soft.name = "soft";
  soft.shape = BoxShape{halfExtents};
  soft.position = position;
  soft.deformable = DeformableDesc{};
  scene.bodies = {ground, soft};
  return scene;
}

// Steps until `time` seconds have passed, calling `observe` after every step.
inline void runFor(World& world, double seconds, const std::function<void(const World&)>& observe = {}) {
  const int steps = static_cast<int>(std::lround(seconds / world.dt()));
  for (int i = 0; i < steps; ++i) {
    world.step();
    if (observe) observe(world);
  }
}

}  // namespace contactlab::test
