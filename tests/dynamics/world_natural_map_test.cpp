// WorldSettings::computeNaturalMap: the World reports the common merit of each body-space solve.
#include <gtest/gtest.h>

#include "contactlab/world.h"
#include "dynamics/world_problem.h"
#include "problem/natural_map.h"

namespace contactlab {
namespace {

TEST(WorldNaturalMap, ReportedOnlyWhenAskedAndMatchesTheProblemAndImpulses) {
  const Scene scene = buildBuiltinScene("incline", {}, 1);
  WorldSettings settings;
  settings.solver.prox.rFactor = RFactorStrategy::Local;
  // The first steps at the PROX paper's tolerances, which leave the box creeping: at rest its four
  // coplanar contacts make a problem Local PROX-GS solves only to about 2e-5 (docs/fc3d.md).
  settings.solver.tolAbs = settings.solver.tolRel = 1e-3;
  settings.solver.stallWindow = 0;
  World world(scene, settings);
  for (int i = 0; i < 3; ++i) world.step();
  EXPECT_EQ(world.lastMetrics().solve.naturalMapResidual, -1.0);

  settings.computeNaturalMap = true;
  settings.solver.tolAbs = 1e-12;
  settings.solver.tolRel = 0.0;
  settings.solver.stallWindow = 0;
  settings.solver.maxIterations = 5000;
  world.setSettings(settings);
  world.step();
  const ContactProblem& problem = lastContactProblem(world);
  ASSERT_GT(problem.numContacts(), 0);
  Eigen::VectorXd lambda(problem.numRows());
  for (int k = 0; k < problem.numContacts(); ++k) lambda.segment<4>(4 * k) = world.contacts()[k].lambda;
  const double reported = world.lastMetrics().solve.naturalMapResidual;
  EXPECT_EQ(reported, naturalMapResidual(problem, lambda));
  EXPECT_LT(reported, 1e-9);

  // One sweep from a warm start is not a solution to that precision.
  settings.solver.maxIterations = 1;
  settings.warmStart = false;
  world.setSettings(settings);
  world.step();
  EXPECT_GT(world.lastMetrics().solve.naturalMapResidual, 1e-6);
}

}  // namespace
}  // namespace contactlab
