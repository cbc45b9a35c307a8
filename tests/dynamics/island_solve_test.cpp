// The step's report from its islands' (engine/src/dynamics/island_solve.h, joinReports).
#include "dynamics/island_solve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

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

// Islands' merits combine as the solver's merit is made: a largest value (PROX), a sum (PGS-SM's
// half sum of squares) or a Euclidean norm (modulus-GS). An island that stopped counts with its final
// merit, here different from its last sweep's (a solve that restores its best iterate), and the
// r-factor history of the largest island holds its last value to the step's length.
TEST(JoinReports, IslandMeritsCombineAsTheSolversMeritIsMade) {
  SolveReport stopped = report(2, Convergence::Relative, 0.0, 0.5);
  stopped.residualHistory = {4.0, 1.0};  // ended on its best iterate, merit 0.5
  stopped.rFactorHistory = {1.0, 0.5};
  SolveReport running = report(3, Convergence::Absolute, 0.0, 2.0);
  running.residualHistory = {3.0, 3.0, 2.0};
  const auto join = [&](ContactSolver::MeritOfParts kind) { return joinReports({&stopped, &running}, {500, 10}, kind); };

  const SolveReport largest = join(ContactSolver::MeritOfParts::Largest);
  EXPECT_EQ(largest.residualHistory, (std::vector<double>{4.0, 3.0, 2.0}));
  EXPECT_EQ(largest.residual, 2.0);
  EXPECT_EQ(largest.rFactorHistory, (std::vector<double>{1.0, 0.5, 0.5}));
  const SolveReport sum = join(ContactSolver::MeritOfParts::Sum);
  EXPECT_EQ(sum.residualHistory, (std::vector<double>{7.0, 4.0, 2.5}));
  EXPECT_EQ(sum.residual, 2.5);
  const SolveReport norm = join(ContactSolver::MeritOfParts::RootSumOfSquares);
  EXPECT_EQ(norm.residualHistory, (std::vector<double>{5.0, std::sqrt(10.0), std::sqrt(4.25)}));

  running.residualHistory[1] = std::nan("");  // a diverging sweep stays visible
  EXPECT_TRUE(std::isnan(join(ContactSolver::MeritOfParts::Largest).residualHistory[1]));
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
