// The Delassus form (engine/src/problem/delassus_problem.cpp) against W = J M^-1 J^T formed densely
// column by column through the body-space operators, and PROX on it against PROX on the bodies.
#include "problem/delassus_problem.h"

#include <gtest/gtest.h>

#include "solvers/contact_solver.h"
#include "problem/natural_map.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

TEST(DelassusProblem, MatchesDenseJMinvJt) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    const auto p = test::makeColumnProblem(5, seed);
    const DelassusProblem d = toDelassus(p.problem);
    const Eigen::MatrixXd dense = test::denseDelassus(p.problem);
    ASSERT_EQ(d.numContacts(), 5);
    EXPECT_LT((d.denseW() - dense).cwiseAbs().maxCoeff(), 1e-12 * dense.cwiseAbs().maxCoeff());
    // Block rows: the contacts of neighbouring boxes couple, the others do not.
    for (int k = 0; k < 5; ++k) {
      const int expected = (k > 0) + 1 + (k < 4);
      EXPECT_EQ(d.rowStart[k + 1] - d.rowStart[k], expected);
      EXPECT_EQ(d.blockColumn[d.diagonalIndex[k]], k);
      EXPECT_EQ(Vec4(d.q.segment<4>(4 * k)), p.problem.blocks[k].b);
      EXPECT_EQ(d.friction[k], p.problem.blocks[k].friction);
      // The stored diagonal of A agrees with W's.
      EXPECT_LT((Vec4(d.diagonalBlock(k).diagonal()) - p.problem.blocks[k].diagonalA).cwiseAbs().maxCoeff(),
                1e-12 * dense.cwiseAbs().maxCoeff());
    }
    // v = W lambda + q the same both ways.
    const Eigen::VectorXd lambda = Eigen::VectorXd::Random(p.problem.numRows());
    Eigen::VectorXd response;
    applyInvMassJt(p.problem, lambda, response);
    for (int k = 0; k < 5; ++k)
      EXPECT_LT((d.velocity(k, lambda) - contactVelocity(p.problem.blocks[k], response)).norm(), 1e-10);
  }
}

TEST(DelassusProblem, ProxOnWReachesTheBodySpaceSolution) {
  // The column problem's solution is unique (contact_problems.h): PROX on W and on the bodies agree.
  const auto p = test::makeColumnProblem(6, 4);
  const DelassusProblem d = toDelassus(p.problem);
  for (const char* name : {"prox-gs", "prox-jacobi"})
    for (const RFactorStrategy strategy : {RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked}) {
      SCOPED_TRACE(std::string(name) + " " + rFactorName(strategy));
      SolverSettings settings;
      settings.prox.rFactor = strategy;
      settings.tolAbs = 1e-13;
      settings.tolRel = 0.0;
      settings.stallWindow = 0;
      settings.maxIterations = 20000;
      Eigen::VectorXd bodies = Eigen::VectorXd::Zero(p.problem.numRows()), delassus = bodies;
      makeSolver(name)->solve(p.problem, settings, bodies);
      const SolveReport report = makeSolver(name)->solve(d, settings, delassus);
      EXPECT_TRUE(report.converged());
      EXPECT_LT((bodies - delassus).cwiseAbs().maxCoeff(), 1e-8 * bodies.cwiseAbs().maxCoeff());
      EXPECT_LT(report.naturalMapResidual, 1e-10);
      EXPECT_EQ(report.naturalMapResidual, naturalMapResidual(d, delassus));
    }
}

TEST(DelassusProblem, SolversWithoutADelassusSweepSayTheyNeedBodies) {
  struct BodiesOnly final : ContactSolver {
    SolveReport solve(const ContactProblem&, const SolverSettings&, Eigen::VectorXd&) override { return {}; }
    using ContactSolver::solve;
  } solver;
  solver.setName("bodies-only");
  EXPECT_FALSE(solver.acceptsDelassus());
  Eigen::VectorXd lambda;
  try {
    solver.solve(DelassusProblem{}, SolverSettings{}, lambda);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bodies-only needs bodies: ", 0), 0u) << e.what();
  }
  for (const char* name : {"prox-gs", "prox-jacobi", "pgs", "psor", "pgs-sm", "modulus-gs"})
    EXPECT_TRUE(makeSolver(name)->acceptsDelassus()) << name;
  // FFD works per body (its feasible set T and its impulse split live in body space).
  for (const char* name : {"ffd", "ffd-id"}) {
    EXPECT_FALSE(makeSolver(name)->acceptsDelassus()) << name;
    EXPECT_THROW(makeSolver(name)->solve(DelassusProblem{}, SolverSettings{}, lambda), std::invalid_argument);
  }
}

}  // namespace
}  // namespace contactlab
