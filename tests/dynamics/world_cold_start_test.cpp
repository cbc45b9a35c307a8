// A cold start (engine/src/dynamics/world.cpp, World::Impl::solve): the first solve of bodies that
// rest on each other, which no warm start knows, runs without the stall test and without friction
// first; the solves after it keep SolverSettings::stallWindow.
#include <gtest/gtest.h>

#include <algorithm>

#include "contactlab/world.h"

namespace contactlab {
namespace {

TEST(WorldColdStart, TheFirstSolveOfAStackRunsToTheToleranceAndTheNextStopByATest) {
  const Scene scene = buildBuiltinScene("pyramid", {{"rows", 10}}, 1);
  WorldSettings settings;
  ASSERT_GT(settings.solver.stallWindow, 0);
  World world(scene, settings);
  world.step();
  const SolveReport& first = world.lastMetrics().solve;
  EXPECT_EQ(first.convergence, Convergence::Absolute);
  EXPECT_LT(first.residual, settings.solver.tolAbs);
  // Both passes are in its report: more sweeps than the window, each with its merit.
  EXPECT_GT(first.iterations, settings.solver.stallWindow + 1);
  EXPECT_EQ(static_cast<int>(first.residualHistory.size()), first.iterations);
  for (int i = 0; i < 50; ++i) {
    world.step();
    EXPECT_TRUE(world.lastMetrics().solve.converged()) << "step " << i + 2;
  }
}

// Boxes placed at rest in a symmetric pyramid need no friction to stand (every load is vertical).
// Solved frictionless first, the first step's friction stays a trace of the normal impulses; solved
// with friction from zero, the first sweeps' partial loads turned the boxes and 40 % of the normal
// impulse at the median stayed locked in as friction. (Contacts carrying next to nothing may sit on
// their friction cone either way; they hold no load worth the name.)
TEST(WorldColdStart, AStackPlacedAtRestTakesNoFrictionItDoesNotNeed) {
  const Scene scene = buildBuiltinScene("pyramid", {{"rows", 8}}, 1);
  World world(scene, WorldSettings{});
  world.step();
  double largest = 0.0, normal = 0.0, friction = 0.0;
  for (const ContactReport& c : world.contacts()) largest = std::max(largest, c.lambda[0]);
  double worstLoaded = 0.0;
  for (const ContactReport& c : world.contacts()) {
    normal += c.lambda[0];
    friction += c.lambda.segment<2>(1).norm();
    if (c.lambda[0] > 0.01 * largest) worstLoaded = std::max(worstLoaded, c.lambda.segment<2>(1).norm() / c.lambda[0]);
  }
  ASSERT_GT(normal, 0.0);
  EXPECT_LT(friction / normal, 1e-3);
  EXPECT_LT(worstLoaded, 0.01);
}

}  // namespace
}  // namespace contactlab
