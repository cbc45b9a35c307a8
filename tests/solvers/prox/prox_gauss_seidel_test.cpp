// The body-space PROX Gauss-Seidel sweep on problems large enough for its grouping and group order
// (interleaveGroups) to matter: hundreds of contacts whose bodies recur across groups.
#include <gtest/gtest.h>

#include "core/thread_pool.h"
#include "solvers/contact_solver.h"
#include "problem/natural_map.h"
#include "solvers/prox/prox_gauss_seidel.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

// The sweep visits the groups out of packing order (every problem is interleaved) and gives static
// sides zero slots chosen by the group's position. Neither may change what the iteration converges
// to (A is positive definite here, so the solution is unique and the natural map is zero only
// there), nor the invariant the world integrates with: w = M^-1 J^T lambda for the iterate
// returned, and zero in the zero slots.
TEST(ProxGaussSeidel, InterleavedSweepConvergesToTheSolutionAndKeepsItsResponse) {
  for (const RFactorStrategy strategy : {RFactorStrategy::Global, RFactorStrategy::Local}) {
    for (const unsigned seed : {1u, 2u}) {
      const ContactProblem problem = test::makeRandomProblem(300, seed, 0.5);
      SolverSettings settings;
      settings.solver = "prox-gs";
      settings.prox.rFactor = strategy;
      settings.maxIterations = 20000;
      settings.tolAbs = 1e-12;
      settings.tolRel = 0.0;
      settings.stallWindow = 0;
      const auto solver = makeSolver(settings.solver);
      Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
      const SolveReport report = solver->solve(problem, settings, lambda);
      const std::string context = rFactorName(strategy) + std::string(" seed ") + std::to_string(seed);
      EXPECT_TRUE(report.converged()) << context;
      EXPECT_LT(naturalMapResidual(problem, lambda), 1e-9) << context;
      ASSERT_GT(lambda.maxCoeff(), 0.1) << "the problem must have active contacts";

      Eigen::VectorXd w;
      applyInvMassJt(problem, lambda, w);
      const Eigen::VectorXd* response = solver->bodySpaceResponse();
      ASSERT_NE(response, nullptr);
      ASSERT_GT(response->size(), w.size());
      EXPECT_LT((response->head(w.size()) - w).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + w.cwiseAbs().maxCoeff())) << context;
      EXPECT_EQ(response->tail(response->size() - w.size()).cwiseAbs().maxCoeff(), 0.0) << context;
    }
  }
}

// Runs of independent groups are updated together, with the lanes of the whole run gathered for
// the closest-point search (sixteen, eight or four at a time) and the results scattered back
// (searchRun); group by group, each group searches its own lanes. Both must give bit-identical
// iterates and w, with 300 contacts among 300 bodies (each body B of one contact, A of some others)
// and with 2400 among 400 (6 contacts per body: fewer groups qualify, runs of every length), for
// every r-factor strategy (Blocked projects outside the runs). A sixteen-lane search that drops a
// lane fails this test and two others here.
TEST(ProxGaussSeidel, RunsOfGroupsGiveTheBitsOfGroupByGroup) {
  struct Case {
    int contacts, bodies;
  };
  for (const Case c : {Case{300, -1}, Case{2400, 400}}) {
    const ContactProblem problem = test::makeRandomProblem(c.contacts, 3, 0.5, c.bodies);
    for (const RFactorStrategy strategy : {RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked}) {
      SolverSettings settings;
      settings.prox.rFactor = strategy;
      settings.maxIterations = 12;
      settings.tolAbs = settings.tolRel = 0.0;
      ProxGaussSeidel byRuns, byGroups(1);  // runs of up to kMaxRun groups, and of one
      Eigen::VectorXd lambdaByRuns = Eigen::VectorXd::Zero(problem.numRows()), lambdaByGroups = lambdaByRuns;
      byRuns.solve(problem, settings, lambdaByRuns);
      byGroups.solve(problem, settings, lambdaByGroups);
      const std::string context = rFactorName(strategy) + std::string(", ") + std::to_string(c.contacts) + " contacts";
      ASSERT_GT(lambdaByRuns.cwiseAbs().maxCoeff(), 0.1) << context;
      EXPECT_TRUE(lambdaByRuns == lambdaByGroups) << context;
      EXPECT_TRUE(*byRuns.bodySpaceResponse() == *byGroups.bodySpaceResponse()) << context;
    }
  }
}

// A problem of at least splitFromContacts contacts is swept in three parts, the first two on two
// threads at once (they share no dynamic body). The iterates and w must be bit-identical whether
// one thread or two run the sweep, for every r-factor strategy, and differ from the unsplit sweep's
// (another order: without the split the test would compare a solve with itself).
TEST(ProxGaussSeidel, SplitSweepGivesTheSameBitsOnOneThreadAndTwo) {
  const ContactProblem problem = test::makeRandomProblem(2000, 6, 0.5);
  ThreadPool twoThreads(2);
  for (const RFactorStrategy strategy : {RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked}) {
    SolverSettings settings;
    settings.prox.rFactor = strategy;
    settings.maxIterations = 12;
    settings.tolAbs = settings.tolRel = 0.0;
    constexpr int kSplitFrom = 1000;
    constexpr int kRuns = ProxGaussSeidel::kMaxRun;  // the default runs
    ProxGaussSeidel oneThread(kRuns, kSplitFrom), twoThread(kRuns, kSplitFrom), unsplit;
    twoThread.setThreadPool(&twoThreads);
    Eigen::VectorXd lambdaOne = Eigen::VectorXd::Zero(problem.numRows()), lambdaTwo = lambdaOne, lambdaUnsplit = lambdaOne;
    oneThread.solve(problem, settings, lambdaOne);
    twoThread.solve(problem, settings, lambdaTwo);
    unsplit.solve(problem, settings, lambdaUnsplit);
    const std::string context = rFactorName(strategy);
    ASSERT_GT(lambdaOne.cwiseAbs().maxCoeff(), 0.1) << context;
    EXPECT_TRUE(lambdaOne == lambdaTwo) << context;
    EXPECT_TRUE(*oneThread.bodySpaceResponse() == *twoThread.bodySpaceResponse()) << context;
    EXPECT_FALSE(lambdaOne == lambdaUnsplit) << context << ": the split should change the sweep order";
  }
}

// The split sweep, on two threads, converges to the problem's unique solution and keeps w = M^-1
// J^T lambda, with zeros in every part's zero slots.
TEST(ProxGaussSeidel, SplitSweepConvergesToTheSolutionAndKeepsItsResponse) {
  const ContactProblem problem = test::makeRandomProblem(2000, 7, 0.5);
  ThreadPool twoThreads(2);
  SolverSettings settings;
  settings.maxIterations = 20000;
  settings.tolAbs = 1e-12;
  settings.tolRel = 0.0;
  settings.stallWindow = 0;
  ProxGaussSeidel solver(ProxGaussSeidel::kMaxRun, 1000);  // the default runs; split from 1000 contacts
  solver.setThreadPool(&twoThreads);
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  const SolveReport report = solver.solve(problem, settings, lambda);
  EXPECT_TRUE(report.converged());
  EXPECT_LT(naturalMapResidual(problem, lambda), 1e-9);
  ASSERT_GT(lambda.maxCoeff(), 0.1) << "the problem must have active contacts";
  Eigen::VectorXd w;
  applyInvMassJt(problem, lambda, w);
  const Eigen::VectorXd& response = *solver.bodySpaceResponse();
  EXPECT_LT((response.head(w.size()) - w).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + w.cwiseAbs().maxCoeff()));
  EXPECT_EQ(response.tail(response.size() - w.size()).cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace contactlab
