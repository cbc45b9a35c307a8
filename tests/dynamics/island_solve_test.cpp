// The step's report from its islands' (engine/src/dynamics/island_solve.h, joinReports).
#include "dynamics/island_solve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// A solve whose merit falls tenfold a sweep from `first` to `residual`, its final merit.
SolveReport report(int iterations, Convergence convergence, double seconds, double residual, double first = 1.0) {
  SolveReport r;
  r.iterations = iterations;
  r.convergence = convergence;
  r.seconds = seconds;
  r.residual = residual;
  for (int k = 0; k < iterations; ++k) r.residualHistory.push_back(std::max(first * std::pow(0.1, k), residual));
  return r;
}

TEST(JoinReports, MostSweepsWorstConvergenceSummedCostsAndTheMeritOfTheWholeProblem) {
  const SolveReport small = report(40, Convergence::None, 0.002, 3e-3, 0.1);
  const SolveReport large = report(12, Convergence::Absolute, 0.010, 5e-4, 10.0);
  const SolveReport joined = joinReports({&small, &large}, {10, 500});
  EXPECT_EQ(joined.iterations, 40);
  EXPECT_EQ(joined.convergence, Convergence::None);
  EXPECT_DOUBLE_EQ(joined.seconds, 0.012);
  EXPECT_DOUBLE_EQ(joined.residual, 3e-3);
  EXPECT_DOUBLE_EQ(joined.contactSweeps, 10.0 * 40 + 500.0 * 12);  // per-contact costs divide by this
  // The merit (a maximum over contacts) of the whole problem after each sweep: the larger of the
  // islands', the finished island's final merit counting after its last sweep.
  ASSERT_EQ(joined.residualHistory.size(), 40u);
  EXPECT_DOUBLE_EQ(joined.residualHistory[0], 10.0);   // the large island's first sweep
  EXPECT_DOUBLE_EQ(joined.residualHistory[1], 1.0);
  EXPECT_DOUBLE_EQ(joined.residualHistory[3], 1e-2);   // 10 x 0.1^3 against the small one's 1e-4 -> 3e-3
  EXPECT_DOUBLE_EQ(joined.residualHistory[5], 3e-3);   // the small island's floor from here on
  EXPECT_DOUBLE_EQ(joined.residualHistory[39], 3e-3);
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
