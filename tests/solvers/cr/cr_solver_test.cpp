// The CR solve of the deformable MLCP (Verschoor & Jalba 2019, Alg. 1-3) against exact solutions:
// an enumerated active set on small random problems, and Coulomb's law for a node on a plane.
#include "solvers/cr/cr_solver.h"

#include <gtest/gtest.h>

#include <random>

namespace contactlab {
namespace {

// A random symmetric positive definite A (well conditioned: a mass-like diagonal plus a stiffness-like
// part) over `nodes` nodes, as a block matrix with every block present.
BlockSparseMatrix3 randomSpd(int nodes, std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::MatrixXd G(3 * nodes, 3 * nodes);
  for (int i = 0; i < G.size(); ++i) G.data()[i] = normal(rng);
  const Eigen::MatrixXd dense = G * G.transpose() * 0.1 + Eigen::MatrixXd::Identity(3 * nodes, 3 * nodes);
  std::vector<BlockSparseMatrix3::Entry> entries;
  for (int i = 0; i < nodes; ++i)
    for (int j = 0; j < nodes; ++j) entries.push_back({i, j, dense.block<3, 3>(3 * i, 3 * j)});
  BlockSparseMatrix3 A;
  A.assign(nodes, entries);
  return A;
}

Mat3 frameAround(const Vec3& normal) {
  const Vec3 n = normal.normalized();
  const Vec3 t = n.unitOrthogonal();
  Mat3 frame;
  frame << n, t, n.cross(t);
  return frame;
}

// The dense rows L (normal rows only) of the problem's constraints.
Eigen::MatrixXd normalRows(const DeformableProblem& problem) {
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(problem.numConstraints(), 3 * problem.numNodes());
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const DeformableConstraint& c = problem.constraints[k];
    for (int i = 0; i < 4; ++i)
      if (c.node[i] >= 0) L.block<1, 3>(k, 3 * c.node[i]) += problem.dt * c.weight[i] * c.frame.col(0).transpose();
  }
  return L;
}

// The exact solution of min 1/2 v^T A v - b^T v subject to L v >= c by trying every active set and
// keeping the one that satisfies the KKT conditions (lambda >= 0, L v >= c).
Eigen::VectorXd enumeratedSolution(const DeformableProblem& problem) {
  const Eigen::MatrixXd A = problem.A.dense(), L = normalRows(problem);
  const int n = A.rows(), m = L.rows();
  Eigen::VectorXd c(m);
  for (int k = 0; k < m; ++k) c[k] = problem.constraints[k].cn;
  for (int set = 0; set < (1 << m); ++set) {
    std::vector<int> active;
    for (int k = 0; k < m; ++k)
      if (set & (1 << k)) active.push_back(k);
    const int a = static_cast<int>(active.size());
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + a, n + a);
    Eigen::VectorXd rhs(n + a);
    K.topLeftCorner(n, n) = A;
    rhs.head(n) = problem.b;
    for (int i = 0; i < a; ++i) {
      K.block(n + i, 0, 1, n) = L.row(active[i]);
      K.block(0, n + i, n, 1) = -L.row(active[i]).transpose();
      rhs[n + i] = c[active[i]];
    }
    const Eigen::VectorXd x = K.fullPivLu().solve(rhs);
    const Eigen::VectorXd v = x.head(n);
    const bool feasible = ((L * v - c).array() >= -1e-12).all() && (x.tail(a).array() >= -1e-12).all();
    if (feasible) return v;
  }
  ADD_FAILURE() << "no active set satisfies the KKT conditions";
  return Eigen::VectorXd::Zero(n);
}

DeformableProblem randomFrictionlessProblem(std::mt19937& rng, int nodes, int constraints) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pickNode(0, nodes - 1);
  std::uniform_real_distribution<double> weight(0.0, 1.0);
  DeformableProblem problem;
  problem.dt = 0.01;
  problem.A = randomSpd(nodes, rng);
  problem.b = Eigen::VectorXd::NullaryExpr(3 * nodes, [&] { return normal(rng); });
  for (int k = 0; k < constraints; ++k) {
    DeformableConstraint c;
    // A vertex against a face: one node with weight 1, two others sharing -1 (three distinct nodes,
    // so that the row is not zero).
    std::array<int, 3> nodes{};
    do nodes = {pickNode(rng), pickNode(rng), pickNode(rng)};
    while (nodes[0] == nodes[1] || nodes[0] == nodes[2] || nodes[1] == nodes[2]);
    c.node = {nodes[0], nodes[1], nodes[2], -1};
    const double w = weight(rng);
    c.weight = {1.0, -w, -(1.0 - w), 0.0};
    c.frame = frameAround(Vec3(normal(rng), normal(rng), normal(rng)));
    c.cn = 0.01 * normal(rng);
    problem.constraints.push_back(c);
  }
  return problem;
}

class CrSolverBothPreconditioners : public ::testing::TestWithParam<const char*> {};

TEST_P(CrSolverBothPreconditioners, WithoutConstraintsSolvesAvEqualsB) {
  std::mt19937 rng(3);
  DeformableProblem problem = randomFrictionlessProblem(rng, 5, 0);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(15);
  const DeformableSolveReport report = makeDeformableSolver(GetParam())->solve(problem, {}, nullptr, v);
  EXPECT_TRUE(report.converged());
  const Eigen::VectorXd exact = problem.A.dense().ldlt().solve(problem.b);
  EXPECT_LT((v - exact).norm(), 1e-4 * exact.norm());
}

TEST_P(CrSolverBothPreconditioners, MatchesTheEnumeratedActiveSetOnRandomProblems) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    DeformableProblem problem = randomFrictionlessProblem(rng, 4, 5);
    const Eigen::VectorXd exact = enumeratedSolution(problem);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
    DeformableSolverSettings settings;
    settings.relativeTolerance = 1e-10;
    settings.absoluteTolerance = 1e-12;
    const DeformableSolveReport report = makeDeformableSolver(GetParam())->solve(problem, settings, nullptr, v);
    EXPECT_TRUE(report.converged()) << "trial " << trial;
    EXPECT_LT((v - exact).norm(), 1e-6 * (1.0 + exact.norm())) << "trial " << trial;
  }
}

// One node of mass m moving along a plane at speed u, pushed onto it by gravity over one step:
// the normal force is m g, and Coulomb friction takes mu g dt off the speed, or stops it.
DeformableProblem nodeOnPlane(double mass, double speed, double mu, double dt) {
  constexpr double g = 9.81;
  DeformableProblem problem;
  problem.dt = dt;
  problem.A.assign(1, {{0, 0, mass * Mat3::Identity()}});
  problem.b = mass * Vec3(speed, 0.0, 0.0) + dt * mass * Vec3(0.0, 0.0, -g);
  DeformableConstraint c;
  c.node = {0, -1, -1, -1};
  c.weight = {1.0, 0.0, 0.0, 0.0};
  c.frame = frameAround(Vec3::UnitZ());
  c.cn = 0.0;
  c.mu = mu;
  problem.constraints.push_back(c);
  return problem;
}

TEST_P(CrSolverBothPreconditioners, SlidingNodeLosesMuGDtOfItsSpeed) {
  const double mass = 2.0, speed = 1.0, mu = 0.5, dt = 0.01, g = 9.81;
  DeformableProblem problem = nodeOnPlane(mass, speed, mu, dt);
  CrSolver solver = *makeDeformableSolver(GetParam());
  Eigen::VectorXd v = Vec3(speed, 0.0, 0.0);
  const DeformableSolveReport report = solver.solve(problem, {}, nullptr, v);
  EXPECT_TRUE(report.converged());
  EXPECT_NEAR(v.z(), 0.0, 1e-6);
  EXPECT_NEAR(v.x(), speed - mu * g * dt, 1e-4 * speed);
  EXPECT_NEAR(v.y(), 0.0, 1e-6);
  EXPECT_NEAR(solver.constraintForces()[0], mass * g, 1e-3 * mass * g);
  EXPECT_EQ(solver.states()[0].friction, FrictionMode::Kinetic);
}

TEST_P(CrSolverBothPreconditioners, SlowNodeSticks) {
  const double mass = 2.0, speed = 0.01, mu = 0.5, dt = 0.01, g = 9.81;
  DeformableProblem problem = nodeOnPlane(mass, speed, mu, dt);
  CrSolver solver = *makeDeformableSolver(GetParam());
  Eigen::VectorXd v = Vec3(speed, 0.0, 0.0);
  const DeformableSolveReport report = solver.solve(problem, {}, nullptr, v);
  EXPECT_TRUE(report.converged());
  EXPECT_LT(v.norm(), 1e-5);
  EXPECT_EQ(solver.states()[0].friction, FrictionMode::Static);
  // The friction force that stopped it: m u / dt, inside the cone mu m g.
  EXPECT_NEAR(solver.constraintForces().segment<2>(1).norm(), mass * speed / dt, 1e-3 * mass * speed / dt);
}

// The friction pyramid (DeformableFriction::Pyramid, the paper's CR (Diag)): each tangent row of the
// contact frame holds its own Coulomb law, |gamma_a| <= mu lambda. A node of mass 2 kg on a plane
// (mu 0.5, dt 0.01 s) moving at u1, u2 along the frame's tangents; returns the velocity's (normal,
// t1, t2) components after the pyramid's solve.
constexpr double kPyramidMass = 2.0, kPyramidMu = 0.5, kPyramidDt = 0.01, kG = 9.81;
Vec3 pyramidSolve(CrSolver& solver, double u1, double u2) {
  DeformableProblem problem = nodeOnPlane(kPyramidMass, 0.0, kPyramidMu, kPyramidDt);
  const Mat3 frame = problem.constraints[0].frame;
  problem.b.head<3>() += kPyramidMass * (u1 * frame.col(1) + u2 * frame.col(2));
  Eigen::VectorXd v = u1 * frame.col(1) + u2 * frame.col(2);
  DeformableSolverSettings settings;
  settings.friction = DeformableFriction::Pyramid;
  EXPECT_TRUE(solver.solve(problem, settings, nullptr, v).converged());
  return frame.transpose() * Vec3(v.head<3>());
}

// Sliding along both rows, each loses mu g dt of its own speed: the node slows by mu g dt sqrt 2,
// not along its sliding (the pyramid's corner), where the cone takes mu g dt along it.
TEST_P(CrSolverBothPreconditioners, PyramidSlowsEachSlidingRowByMuGDt) {
  CrSolver solver = *makeDeformableSolver(GetParam());
  const Vec3 v = pyramidSolve(solver, 1.0, 0.4);
  EXPECT_NEAR(v[0], 0.0, 1e-6);
  EXPECT_NEAR(v[1], 1.0 - kPyramidMu * kG * kPyramidDt, 1e-4);
  EXPECT_NEAR(v[2], 0.4 - kPyramidMu * kG * kPyramidDt, 1e-4);
  EXPECT_EQ(solver.states()[0].friction, FrictionMode::Kinetic);
}

// A fast row slides while a slow one sticks: the sticking row's force m u2 / dt stays inside its own
// bound mu m g whatever the other row takes.
TEST_P(CrSolverBothPreconditioners, PyramidSticksTheSlowRowAndSlidesTheFastOne) {
  CrSolver solver = *makeDeformableSolver(GetParam());
  const double u2 = 0.02;
  const Vec3 v = pyramidSolve(solver, 1.0, u2);
  EXPECT_NEAR(v[1], 1.0 - kPyramidMu * kG * kPyramidDt, 1e-4);
  EXPECT_NEAR(v[2], 0.0, 1e-5);
  EXPECT_NEAR(solver.constraintForces()[2], -kPyramidMass * u2 / kPyramidDt, 1e-3 * kPyramidMass * u2 / kPyramidDt);
}

// Adds, once, a constraint for a node that the velocity would carry below z = 0 (a floor), as the
// deformable subsystem does at convergence (Alg. 1, line 25).
class FloorUpdater : public ConstraintUpdater {
 public:
  explicit FloorUpdater(double height) : height_(height) {}
  int addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) override {
    if (added_ || height_ + problem.dt * v.z() >= 0.0) return 0;
    DeformableConstraint c;
    c.node = {0, -1, -1, -1};
    c.weight = {1.0, 0.0, 0.0, 0.0};
    c.frame = frameAround(Vec3::UnitZ());
    c.cn = -height_;  // dt v_z >= -d
    problem.constraints.push_back(c);
    added_ = true;
    return 1;
  }
  int relinearize(const Eigen::VectorXd&, const std::vector<std::uint8_t>&, DeformableProblem&) override { return 0; }

 private:
  double height_;
  bool added_ = false;
};

TEST_P(CrSolverBothPreconditioners, AddsCollisionsFoundAtConvergenceAndStopsAtTheFloor) {
  const double mass = 1.0, dt = 0.01, height = 0.005;
  DeformableProblem problem;
  problem.dt = dt;
  problem.A.assign(1, {{0, 0, mass * Mat3::Identity()}});
  problem.b = mass * Vec3(0.0, 0.0, -2.0);  // falling at 2 m/s: 2 cm in the step, from 5 mm above
  FloorUpdater floor(height);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(3);
  const DeformableSolveReport report = makeDeformableSolver(GetParam())->solve(problem, {}, &floor, v);
  EXPECT_TRUE(report.converged());
  EXPECT_EQ(report.collisionRounds, 1);
  EXPECT_EQ(problem.numConstraints(), 1);
  EXPECT_NEAR(height + dt * v.z(), 0.0, 1e-6) << "ends the step on the floor";
}

TEST(CrSolverRegistry, UnknownNameIsAnErrorListingTheKnownOnes) {
  try {
    makeDeformableSolver("cr-nope");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cr-full"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(CrSolver, CrSolverBothPreconditioners, ::testing::Values("cr-full", "cr-diag"),
                         [](const auto& info) { return std::string(info.param) == "cr-full" ? "Full" : "Diag"; });

}  // namespace
}  // namespace contactlab
