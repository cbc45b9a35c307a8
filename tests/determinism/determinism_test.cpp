// The same scene run twice gives bit-identical states (Box2D test_determinism, Jolt -validate_hash).
#include <gtest/gtest.h>

#include <cstring>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

// FNV-1a over the raw bytes of every body's state: equal hashes mean bit-identical states.
std::uint64_t stateHash(const World& world) {
  std::uint64_t hash = 1469598103934665603ull;
  auto mix = [&](const double* values, int count) {
    unsigned char bytes[sizeof(double)];
    for (int i = 0; i < count; ++i) {
      std::memcpy(bytes, &values[i], sizeof(double));
      for (unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
    }
  };
  for (const Body& b : world.bodies()) {
    mix(b.position.data(), 3);
    mix(b.orientation.coeffs().data(), 4);
    mix(b.velocity.data(), 3);
    mix(b.angularVelocity.data(), 3);
  }
  return hash;
}

std::uint64_t runAndHash(const std::string& scene, const SceneParams& params, const std::string& solver, int steps) {
  SolverSettings settings;
  settings.solver = solver;
  World world(buildBuiltinScene(scene, params, 7), settings);
  for (int i = 0; i < steps; ++i) world.step();
  return stateHash(world);
}

TEST(Determinism, SameSceneTwiceGivesBitIdenticalStates) {
  for (const char* solver : {"prox-gs", "prox-jacobi"}) {
    const std::uint64_t first = runAndHash("pile", {{"count", 60}}, solver, 150);
    EXPECT_EQ(first, runAndHash("pile", {{"count", 60}}, solver, 150)) << solver;
  }
  EXPECT_EQ(runAndHash("tower", {}, "prox-gs", 100), runAndHash("tower", {}, "prox-gs", 100));
}

}  // namespace
}  // namespace contactlab
