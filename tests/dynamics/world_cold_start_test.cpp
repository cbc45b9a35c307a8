// A cold start (engine/src/dynamics/world.cpp, World::Impl::solve): the first solve of bodies that
// rest on each other, which no warm start knows, runs without the stall test; the solves after it
// keep SolverSettings::stallWindow.
#include <gtest/gtest.h>

#include "contactlab/world.h"

namespace contactlab {
namespace {

TEST(WorldColdStart, TheFirstSolveOfAStackIsNotStoppedByTheStallTestTheNextMayBe) {
  const Scene scene = buildBuiltinScene("pyramid", {{"rows", 10}}, 1);
  WorldSettings settings;
  ASSERT_GT(settings.solver.stallWindow, 0);
  World world(scene, settings);
  world.step();
  const SolveReport& first = world.lastMetrics().solve;
  EXPECT_NE(first.convergence, Convergence::Stalled);
  EXPECT_GT(first.iterations, settings.solver.stallWindow + 1);
  // Its warm start known, the next solve is held to the window: it ends by a test, and the stall
  // test stops it one sweep past the window at the latest after a sweep that did not halve the merit.
  bool stalled = false;
  for (int i = 0; i < 50 && !stalled; ++i) {
    world.step();
    const SolveReport& later = world.lastMetrics().solve;
    EXPECT_TRUE(later.converged());
    stalled = later.convergence == Convergence::Stalled;
  }
  EXPECT_TRUE(stalled);
}

}  // namespace
}  // namespace contactlab
