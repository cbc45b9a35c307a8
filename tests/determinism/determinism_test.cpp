// The same scene run twice gives bit-identical states (Box2D test_determinism, Jolt -validate_hash).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

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
  WorldSettings settings;
  settings.solver.solver = solver;
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

// Every dynamic body's state (position, orientation, velocity, angular velocity) after every step.
std::vector<double> runAndTrace(const std::string& scene, const SceneParams& params, const std::string& solver,
                                int steps, int threads) {
  WorldSettings settings;
  settings.solver.solver = solver;
  settings.threads = threads;
  World world(buildBuiltinScene(scene, params, 7), settings);
  std::vector<double> trace;
  for (int i = 0; i < steps; ++i) {
    world.step();
    for (const Body& b : world.bodies()) {
      if (!b.isDynamic()) continue;
      trace.insert(trace.end(), b.position.data(), b.position.data() + 3);
      trace.insert(trace.end(), b.orientation.coeffs().data(), b.orientation.coeffs().data() + 4);
      trace.insert(trace.end(), b.velocity.data(), b.velocity.data() + 3);
      trace.insert(trace.end(), b.angularVelocity.data(), b.angularVelocity.data() + 3);
    }
  }
  // More than two of the contact loops' chunks of 256 (contact_assembly.cpp), so both threads work.
  EXPECT_GT(world.lastMetrics().contacts, 512) << scene << ": too few contacts to split over threads";
  return trace;
}

// docs/threads.md: the parallel stages write per-index slots combined in index order, so the thread
// count cannot change a bit. The 300-body pile has landed by step 120 (thousands of contacts, so
// every parallel loop runs many chunks); the wall stands on the ground from the first step.
TEST(Determinism, ThreadCountDoesNotChangeABit) {
  struct Case {
    const char* scene;
    SceneParams params;
    int steps;
  };
  for (const Case& c : {Case{"pile", {{"count", 300}}, 120}, Case{"wall", {}, 40}})
    for (const char* solver : {"prox-gs", "prox-jacobi"}) {
      SCOPED_TRACE(::testing::Message() << c.scene << ", " << solver);
      const std::vector<double> serial = runAndTrace(c.scene, c.params, solver, c.steps, 1);
      for (const int threads : {2, 3, 4}) {
        const std::vector<double> parallel = runAndTrace(c.scene, c.params, solver, c.steps, threads);
        ASSERT_EQ(parallel.size(), serial.size());
        // memcmp, not ==: bit-identical, including the signs of zeros.
        EXPECT_EQ(std::memcmp(parallel.data(), serial.data(), serial.size() * sizeof(double)), 0)
            << threads << " threads";
      }
    }
}

// With sleeping on, as `run` and the app have it: islands fall asleep and wake at the same steps,
// and the states are the same bits, for any thread count. 60 bodies have landed and most sleep by
// step 500.
TEST(Determinism, ThreadCountDoesNotChangeABitWithSleeping) {
  const auto run = [](int threads, int& sleeping) {
    WorldSettings settings = interactiveSettings();
    settings.threads = threads;
    World world(buildBuiltinScene("pile", {{"count", 60}}, 7), settings);
    std::vector<double> trace;
    for (int i = 0; i < 500; ++i) {
      world.step();
      for (const Body& b : world.bodies()) {
        trace.insert(trace.end(), b.position.data(), b.position.data() + 3);
        trace.insert(trace.end(), b.orientation.coeffs().data(), b.orientation.coeffs().data() + 4);
      }
    }
    sleeping = static_cast<int>(std::count_if(world.bodies().begin(), world.bodies().end(), [](const Body& b) { return b.asleep; }));
    return trace;
  };
  int sleepingSerial = 0, sleepingParallel = 0;
  const std::vector<double> serial = run(1, sleepingSerial), parallel = run(2, sleepingParallel);
  EXPECT_GT(sleepingSerial, 30);
  EXPECT_EQ(sleepingParallel, sleepingSerial);
  ASSERT_EQ(parallel.size(), serial.size());
  EXPECT_EQ(std::memcmp(parallel.data(), serial.data(), serial.size() * sizeof(double)), 0);
}

// The same for mesh bodies, whose contacts come from the parallel narrowphase's kDOP tree
// traversals (docs/threads.md): 80 jacks in a 3 m box have landed by step 90 (over 600 contacts).
TEST(Determinism, ThreadCountDoesNotChangeABitOnMeshes) {
  const SceneParams params{{"count", 80}, {"width", 3}};
  const std::vector<double> serial = runAndTrace("jacks", params, "prox-gs", 90, 1);
  const std::vector<double> parallel = runAndTrace("jacks", params, "prox-gs", 90, 2);
  ASSERT_EQ(parallel.size(), serial.size());
  EXPECT_EQ(std::memcmp(parallel.data(), serial.data(), serial.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace contactlab
