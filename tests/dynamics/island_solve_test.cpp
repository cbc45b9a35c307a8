// The step's report from its islands' (engine/src/dynamics/island_solve.h, joinReports).
#include "dynamics/island_solve.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

SolveReport report(int iterations, Convergence convergence, double seconds, double residual) {
  SolveReport r;
  r.iterations = iterations;
  r.convergence = convergence;
  r.seconds = seconds;
  r.residual = residual;
  r.residualHistory.assign(iterations, residual);
  return r;
}

TEST(JoinReports, MostSweepsWorstConvergenceSummedCostsAndTheLargestIslandsHistory) {
  const SolveReport small = report(40, Convergence::None, 0.002, 3e-3);
  const SolveReport large = report(12, Convergence::Absolute, 0.010, 5e-4);
  const SolveReport joined = joinReports({&small, &large}, {10, 500});
  EXPECT_EQ(joined.iterations, 40);
  EXPECT_EQ(joined.convergence, Convergence::None);
  EXPECT_DOUBLE_EQ(joined.seconds, 0.012);
  EXPECT_DOUBLE_EQ(joined.residual, 3e-3);
  EXPECT_DOUBLE_EQ(joined.contactSweeps, 10.0 * 40 + 500.0 * 12);  // per-contact costs divide by this
  EXPECT_EQ(joined.residualHistory.size(), 12u);                     // the plots show the largest island
}

TEST(JoinReports, OneIslandKeepsItsReport) {
  const SolveReport only = report(7, Convergence::Relative, 0.001, 1e-3);
  const SolveReport joined = joinReports({&only}, {30});
  EXPECT_EQ(joined.iterations, 7);
  EXPECT_EQ(joined.convergence, Convergence::Relative);
  EXPECT_DOUBLE_EQ(joined.contactSweeps, 210.0);
}

}  // namespace
}  // namespace contactlab
