// Drift anchors (engine/src/dynamics/contact_anchors.h): a sticking contact keeps its slip and the
// next problem asks it to undo a fraction of it; a sliding or separating contact lets go.
#include "dynamics/contact_anchors.h"

#include <gtest/gtest.h>

#include <memory>

#include "solvers/contact_solver.h"

namespace contactlab {
namespace {

constexpr double kDt = 0.01;

// One contact of a dynamic body (slot 0) on static ground, normal +z, friction 0.5.
ContactProblem restingContact() {
  ContactProblem problem;
  problem.numSlots = 1;
  problem.inverseMass = {{Mat3::Identity(), 1.0}};
  ContactBlock block;
  block.frame << Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY();  // columns n, t, s
  block.slotB = 0;
  block.friction = Vec3(0.5, 0.5, 0.0);
  problem.blocks = {block};
  return problem;
}

TEST(ContactAnchors, TheBiasUndoesAFixedShareOfTheSlipOverTheStep) {
  ContactProblem problem = restingContact();
  const std::vector<ContactSlip> slips{{Vec3(2e-4, -1e-4, 0.0)}};
  std::vector<Vec4> bias;
  biasTowardAnchors(slips, kDt, problem, bias);
  EXPECT_DOUBLE_EQ(bias[0][kTangentT], kAnchorRate * 2e-4 / kDt);
  EXPECT_DOUBLE_EQ(bias[0][kTangentS], kAnchorRate * -1e-4 / kDt);
  EXPECT_EQ(bias[0][kNormal], 0.0);
  EXPECT_EQ(problem.blocks[0].b, Vec4(0.0, kAnchorRate * 2e-4 / kDt, kAnchorRate * -1e-4 / kDt, 0.0));
}

// Solved, a sticking contact undoes kAnchorRate of its slip over the step: the body resting under
// gravity (b_n = -g dt) ends the step moving back by kAnchorRate * slip / dt, and its slip shrinks
// to (1 - kAnchorRate) of what it was.
TEST(ContactAnchors, ASolvedStickingContactMovesBackByTheAnchorRateOfItsSlip) {
  ContactProblem problem = restingContact();
  problem.blocks[0].b[kNormal] = -9.81 * kDt;
  problem.blocks[0].armB = Vec3::Zero();  // at the centre of mass: no turning
  problem.blocks[0].diagonalA = diagonalBlock(problem, 0).diagonal();
  std::vector<ContactSlip> slips{{Vec3(3e-4, 0, 0)}};
  std::vector<Vec4> bias;
  biasTowardAnchors(slips, kDt, problem, bias);
  SolverSettings settings;
  settings.tolAbs = 1e-12;
  settings.tolRel = 0.0;
  std::unique_ptr<ContactSolver> solver = makeSolver("prox-gs");
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(4);
  solver->solve(problem, settings, lambda);
  Eigen::VectorXd response;
  applyInvMassJt(problem, lambda, response);
  EXPECT_NEAR(response[0], -kAnchorRate * 3e-4 / kDt, 1e-9);  // the body's velocity along t = x
  advanceSlips(problem, lambda, response, bias, kDt, slips);
  EXPECT_NEAR(slips[0].slip.x(), (1.0 - kAnchorRate) * 3e-4, 1e-11);
}

TEST(ContactAnchors, StickingContactsAddTheirRelativeMotionOthersLetGo) {
  const ContactProblem problem = restingContact();
  const std::vector<Vec4> noBias{Vec4::Zero()};
  // The body moves at 1 mm/s along x after the step: a sticking contact (friction well inside the
  // cone) slips 10 um further.
  Eigen::VectorXd response = Eigen::VectorXd::Zero(6);
  response[0] = 1e-3;
  Eigen::VectorXd lambda(4);
  lambda << 1.0, 0.1, 0.0, 0.0;
  std::vector<ContactSlip> slips{{Vec3(5e-6, 0, 0)}};
  advanceSlips(problem, lambda, response, noBias, kDt, slips);
  EXPECT_NEAR(slips[0].slip.x(), 5e-6 + kDt * 1e-3, 1e-18);
  // On the cone's boundary (|lambda_t| = mu lambda_n) it slides: the anchor is dropped.
  lambda[kTangentT] = 0.5;
  advanceSlips(problem, lambda, response, noBias, kDt, slips);
  EXPECT_EQ(slips[0].slip, Vec3::Zero());
  // So does a contact that carries no load.
  slips[0].slip = Vec3(5e-6, 0, 0);
  lambda << 0.0, 0.0, 0.0, 0.0;
  advanceSlips(problem, lambda, response, noBias, kDt, slips);
  EXPECT_EQ(slips[0].slip, Vec3::Zero());
}

TEST(ContactAnchors, ASlipLongerThanTheLimitIsASlidingContact) {
  const ContactProblem problem = restingContact();
  Eigen::VectorXd response = Eigen::VectorXd::Zero(6);
  response[0] = 1.0;  // 1 m/s: 1 cm over the step
  Eigen::VectorXd lambda(4);
  lambda << 1.0, 0.0, 0.0, 0.0;
  std::vector<ContactSlip> slips(1);
  advanceSlips(problem, lambda, response, {Vec4::Zero()}, kDt, slips);
  EXPECT_EQ(slips[0].slip, Vec3::Zero());
}

}  // namespace
}  // namespace contactlab
