// One deformable body: lumped masses, the assembled step A v = b (eq. 4) against its definition,
// pinned nodes, several bodies in one problem, the contact-free CG step, and a free body's
// momentum and energy.
#include "deformable/fem_body.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "deformable/conjugate_gradient.h"
#include "geometry/tet_mesh.h"

namespace contactlab::fem_body_test {

FemBodySettings softSettings() {
  FemBodySettings s;
  s.material.youngsModulus = 2e5;
  s.material.poissonRatio = 0.3;
  s.density = 800.0;
  return s;
}

// Every node moved by a homogeneous deformation plus a small, fixed pseudo-random jitter.
void deform(FemBody& body, const Mat3& F, double jitter) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int i = 0; i < body.numNodes(); ++i)
    body.state().positions[i] =
        F * body.rest().mesh.vertices[i] + jitter * Vec3(uniform(random), uniform(random), uniform(random));
}

// The stacked forces sum_t f_t of the body at its current positions.
Eigen::VectorXd elasticForces(const FemBody& body) {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * body.numNodes());
  for (int t = 0; t < body.numTets(); ++t) {
    const ElementResponse r =
        evaluateElement(body.rest().settings.material, body.rest().tets[t], body.tetPositions(t), false);
    for (int k = 0; k < 4; ++k) f.segment<3>(3 * body.rest().mesh.tetrahedra[t][k]) += r.force.segment<3>(3 * k);
  }
  return f;
}

TEST(FemBody, LumpedMassesAddUpToDensityTimesVolume) {
  const FemBody body(boxTetMesh(Vec3(0.2, 0.3, 0.4), 2, 3, 2), softSettings());
  EXPECT_EQ(body.numNodes(), 3 * 4 * 3);
  EXPECT_EQ(body.numTets(), 6 * 12);
  double sum = 0.0;
  for (double m : body.rest().nodeMass) {
    EXPECT_GT(m, 0.0);
    sum += m;
  }
  EXPECT_NEAR(sum, 800.0 * 0.024, 1e-12);
  EXPECT_NEAR(body.rest().totalMass, 800.0 * 0.024, 1e-12);
  EXPECT_TRUE(centerOfMass(body).isZero(1e-14));
  EXPECT_NEAR(elasticEnergy(body), 0.0, 1e-18);
  EXPECT_EQ(kineticEnergy(body), 0.0);
}

TEST(FemBody, RejectsBadMeshesAndSettings) {
  TetMesh mesh = boxTetMesh(Vec3(1, 1, 1), 1, 1, 1);
  FemBodySettings settings = softSettings();
  settings.density = 0.0;
  EXPECT_THROW(FemBody(mesh, settings), std::invalid_argument);
  settings = softSettings();
  settings.material.poissonRatio = 0.5;
  EXPECT_THROW(FemBody(mesh, settings), std::invalid_argument);
  TetMesh flipped = mesh;
  std::swap(flipped.tetrahedra[2][1], flipped.tetrahedra[2][2]);
  EXPECT_THROW(FemBody(flipped, softSettings()), std::invalid_argument);
  TetMesh outOfRange = mesh;
  outOfRange.tetrahedra[0][3] = 8;
  EXPECT_THROW(FemBody(outOfRange, softSettings()), std::invalid_argument);
  FemBody body(mesh, softSettings());
  EXPECT_THROW(body.setPinned(8, true), std::invalid_argument);
}

TEST(FemBody, AssemblyMatchesMassStiffnessAndForcesByDefinition) {
  FemBodySettings settings = softSettings();
  settings.rayleighAlpha = 0.5;
  settings.rayleighBeta = 0.01;
  FemBody body(boxTetMesh(Vec3(0.2, 0.1, 0.1), 2, 1, 1), settings);
  // Stretched by 10-20 %, so no element's eigenvalues are clamped and K is the true -df/dx.
  deform(body, Vec3(1.2, 1.1, 1.15).asDiagonal().toDenseMatrix(), 1e-3);
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (Vec3& v : body.state().velocities) v = Vec3(uniform(random), uniform(random), uniform(random));
  const double dt = 0.01;
  const Vec3 gravity(0.0, 0.0, -9.81);
  DeformableProblem problem;
  assembleDeformableProblem({&body}, dt, gravity, problem);
  const int n = body.numNodes();
  ASSERT_EQ(problem.numNodes(), n);
  EXPECT_EQ(problem.dt, dt);

  Eigen::VectorXd mass(3 * n), v(3 * n), g(3 * n);
  for (int i = 0; i < n; ++i) {
    mass.segment<3>(3 * i).setConstant(body.rest().nodeMass[i]);
    v.segment<3>(3 * i) = body.state().velocities[i];
    g.segment<3>(3 * i) = gravity;
  }
  // K = -df/dx by central differences of the assembled forces.
  const Eigen::VectorXd f = elasticForces(body);
  Eigen::MatrixXd K(3 * n, 3 * n);
  const double h = 1e-7;
  for (int c = 0; c < 3 * n; ++c) {
    FemBody plus = body, minus = body;
    plus.state().positions[c / 3][c % 3] += h;
    minus.state().positions[c / 3][c % 3] -= h;
    K.col(c) = -(elasticForces(plus) - elasticForces(minus)) / (2.0 * h);
  }
  // Eq. 4: A = M + dt (alpha M + beta K) + dt^2 K; b = M v + dt (f + M g).
  const Eigen::MatrixXd expectedA =
      Eigen::MatrixXd(((1.0 + dt * settings.rayleighAlpha) * mass).asDiagonal()) + (dt * settings.rayleighBeta + dt * dt) * K;
  const Eigen::MatrixXd A = problem.A.dense();
  EXPECT_LT((A - expectedA).norm(), 1e-6 * expectedA.norm());
  EXPECT_LT((A - A.transpose()).norm(), 1e-14 * A.norm());
  const Eigen::VectorXd expectedB = mass.cwiseProduct(v) + dt * (f + mass.cwiseProduct(g));
  EXPECT_LT((problem.b - expectedB).norm(), 1e-12 * expectedB.norm());
}

TEST(FemBody, AssembledMatrixIsPositiveDefiniteUnderCompression) {
  FemBody body(boxTetMesh(Vec3(0.2, 0.1, 0.1), 2, 1, 1), softSettings());
  deform(body, 0.5 * Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()).toRotationMatrix(), 1e-2);
  DeformableProblem problem;
  assembleDeformableProblem({&body}, 0.01, Vec3::Zero(), problem);
  const Eigen::VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(problem.A.dense()).eigenvalues();
  EXPECT_GE(eigenvalues.minCoeff(), *std::min_element(body.rest().nodeMass.begin(), body.rest().nodeMass.end()) *
                                        (1.0 - 1e-9));
}

TEST(FemBody, PinnedNodesHaveOnlyTheirMassAndStayPut) {
  FemBody body(boxTetMesh(Vec3(0.3, 0.1, 0.1), 3, 1, 1), softSettings());
  std::vector<int> pinned;
  for (int i = 0; i < body.numNodes(); ++i)
    if (body.rest().mesh.vertices[i].x() < -0.149) pinned.push_back(i);
  ASSERT_EQ(pinned.size(), 4u);
  for (int i : pinned) body.setPinned(i, true);
  deform(body, Mat3::Identity(), 5e-3);
  for (int i : pinned) body.state().positions[i] = body.rest().mesh.vertices[i];
  DeformableProblem problem;
  const Vec3 gravity(0, 0, -9.81);
  assembleDeformableProblem({&body}, 0.01, gravity, problem);
  for (int i : pinned) {
    EXPECT_EQ(problem.A.rowStart()[i + 1] - problem.A.rowStart()[i], 1) << "a pinned node couples to nothing";
    EXPECT_TRUE(problem.A.diagonalBlock(i).isApprox(body.rest().nodeMass[i] * Mat3::Identity(), 1e-15));
    EXPECT_TRUE(problem.b.segment<3>(3 * i).isZero(0.0));
    for (int r = 0; r < body.numNodes(); ++r)
      if (r != i) EXPECT_EQ(problem.A.find(r, i), -1);
  }
  for (int step = 0; step < 20; ++step) stepWithoutContacts(body, 0.01, gravity, {1e-10, 0});
  for (int i : pinned) {
    EXPECT_EQ(body.state().positions[i], body.rest().mesh.vertices[i]);
    EXPECT_EQ(body.state().velocities[i], Vec3::Zero());
  }
  EXPECT_LT(centerOfMass(body).z(), -1e-4) << "the free end sags";
}

TEST(FemBody, SeveralBodiesAssembleIntoOneBlockDiagonalProblem) {
  FemBody a(boxTetMesh(Vec3(0.2, 0.1, 0.1), 2, 1, 1), softSettings());
  FemBody b(boxTetMesh(Vec3(0.1, 0.1, 0.1), 1, 1, 1), softSettings());
  deform(a, Vec3(1.1, 1.0, 0.95).asDiagonal().toDenseMatrix(), 1e-3);
  deform(b, Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix(), 1e-3);
  b.state().velocities.assign(b.numNodes(), Vec3(0.1, 0.2, 0.3));
  b.setPinned(0, true);
  const Vec3 gravity(0, -9.81, 0);
  DeformableProblem both, onlyA, onlyB;
  assembleDeformableProblem({&a, &b}, 0.005, gravity, both);
  assembleDeformableProblem({&a}, 0.005, gravity, onlyA);
  assembleDeformableProblem({&b}, 0.005, gravity, onlyB);
  const int na = a.numNodes(), nb = b.numNodes();
  ASSERT_EQ(both.numNodes(), na + nb);
  const Eigen::MatrixXd A = both.A.dense();
  EXPECT_EQ(A.topLeftCorner(3 * na, 3 * na), onlyA.A.dense());
  EXPECT_EQ(A.bottomRightCorner(3 * nb, 3 * nb), onlyB.A.dense());
  EXPECT_TRUE(A.topRightCorner(3 * na, 3 * nb).isZero(0.0));
  EXPECT_EQ(both.b.head(3 * na), onlyA.b);
  EXPECT_EQ(both.b.tail(3 * nb), onlyB.b);
}

TEST(FemBodyConjugateGradient, SolvesABlockSystemToTheTolerance) {
  // A = M + dt^2 K of a compressed, rotated bar: block-sparse, symmetric positive definite.
  FemBody body(boxTetMesh(Vec3(0.4, 0.1, 0.1), 4, 1, 1), softSettings());
  deform(body, 0.8 * Eigen::AngleAxisd(0.5, Vec3(0, 1, 1).normalized()).toRotationMatrix(), 2e-3);
  DeformableProblem problem;
  assembleDeformableProblem({&body}, 0.02, Vec3(0, 0, -9.81), problem);
  const Eigen::VectorXd exact = problem.A.dense().ldlt().solve(problem.b);
  for (double tolerance : {1e-4, 1e-10}) {
    Eigen::VectorXd x;
    const ConjugateGradientReport report = solveConjugateGradient(problem.A, problem.b, x, {tolerance, 0});
    EXPECT_TRUE(report.converged);
    EXPECT_GT(report.iterations, 0);
    EXPECT_LE(report.relativeResidual, tolerance);
    Eigen::VectorXd Ax;
    problem.A.multiply(x, Ax);
    EXPECT_LE((problem.b - Ax).norm(), 1.01 * tolerance * problem.b.norm());
    if (tolerance == 1e-10) EXPECT_LT((x - exact).norm(), 1e-7 * exact.norm());
  }
  // Warm-started from the solution, no iteration is needed; b = 0 gives x = 0.
  Eigen::VectorXd x = exact;
  EXPECT_EQ(solveConjugateGradient(problem.A, problem.b, x, {1e-8, 0}).iterations, 0);
  x.setOnes();
  const ConjugateGradientReport zero = solveConjugateGradient(problem.A, Eigen::VectorXd::Zero(problem.b.size()), x);
  EXPECT_TRUE(zero.converged);
  EXPECT_TRUE(x.isZero(0.0));
  // An iteration cap is reported as not converged.
  x.resize(0);
  const ConjugateGradientReport capped = solveConjugateGradient(problem.A, problem.b, x, {1e-14, 2});
  EXPECT_EQ(capped.iterations, 2);
  EXPECT_FALSE(capped.converged);
}

TEST(FemBody, GravityAddsMomentumMgDtPerStep) {
  FemBody body(boxTetMesh(Vec3(0.2, 0.2, 0.2), 2, 2, 2), softSettings());
  const Vec3 gravity(0, 0, -9.81);
  const double dt = 0.01;
  for (int step = 0; step < 10; ++step) stepWithoutContacts(body, dt, gravity, {1e-12, 0});
  const Vec3 expected = body.rest().totalMass * gravity * 10 * dt;
  EXPECT_LT((linearMomentum(body) - expected).norm(), 1e-9 * expected.norm());
  // A uniform velocity field stays uniform: the body falls without deforming.
  EXPECT_LT(elasticEnergy(body), 1e-12 * kineticEnergy(body));
}

TEST(FemBody, FreeSpinningBodyKeepsMomentumAndDoesNotGainEnergy) {
  // A soft cube in zero gravity, thrown and spun at 1.9 rad/s about an off-principal axis.
  // Linear momentum is exact up to the CG tolerance (K has the translations in its null space). The
  // linearly implicit step (eq. 4-5) loses angular momentum at a rate of about |w|^2 dt: x += dt v
  // moves along the tangents, and the stiffness at that stretched state resists part of the
  // rotation. Here about 0.4 % in the second (3.6 % at 3.7 rad/s and dt = 2 ms).
  FemBodySettings settings = softSettings();
  settings.material.youngsModulus = 5e5;
  FemBody body(boxTetMesh(Vec3(0.2, 0.3, 0.25), 3, 3, 3), settings);
  const Vec3 velocity(0.5, -0.2, 0.1), spin(0.5, 1.5, -1.0);
  for (int i = 0; i < body.numNodes(); ++i)
    body.state().velocities[i] = velocity + spin.cross(body.state().positions[i]);
  const Vec3 p0 = linearMomentum(body), L0 = angularMomentum(body, centerOfMass(body));
  const double dt = 1e-3;
  const int steps = 1000;  // one second: about a third of a turn
  double energy = kineticEnergy(body) + elasticEnergy(body), worstGain = 0.0, worstL = 0.0, worstP = 0.0;
  const double energy0 = energy;
  for (int step = 0; step < steps; ++step) {
    const ConjugateGradientReport report = stepWithoutContacts(body, dt, Vec3::Zero(), {1e-12, 0});
    ASSERT_TRUE(report.converged);
    const double next = kineticEnergy(body) + elasticEnergy(body);
    worstGain = std::max(worstGain, (next - energy) / energy);
    energy = next;
    worstP = std::max(worstP, (linearMomentum(body) - p0).norm() / p0.norm());
    worstL = std::max(worstL, (angularMomentum(body, centerOfMass(body)) - L0).norm() / L0.norm());
  }
  EXPECT_LT(worstP, 1e-4);
  EXPECT_LT(worstL, 0.01);
  EXPECT_LT(worstGain, 1e-3);
  EXPECT_LT(energy, energy0);
  EXPECT_GT(energy, 0.99 * energy0) << "the implicit step damps, but not the rigid motion away";
  EXPECT_TRUE((centerOfMass(body) - velocity * steps * dt).isZero(1e-9));
}

TEST(FemBody, RayleighDampingSlowsMotionAndVibration) {
  // Mass-proportional damping: a uniform velocity (K v = 0, no elastic force) is divided by
  // 1 + dt alpha each step.
  FemBodySettings settings = softSettings();
  settings.rayleighAlpha = 2.0;
  FemBody moving(boxTetMesh(Vec3(0.1, 0.1, 0.1), 1, 1, 1), settings);
  moving.state().velocities.assign(moving.numNodes(), Vec3(1.0, -2.0, 0.5));
  const double dt = 0.01;
  stepWithoutContacts(moving, dt, Vec3::Zero(), {1e-12, 0});
  for (const Vec3& v : moving.state().velocities) EXPECT_TRUE(v.isApprox(Vec3(1.0, -2.0, 0.5) / (1.0 + dt * 2.0), 1e-10));
  // Stiffness-proportional damping: a released stretched bar loses more of its vibration energy.
  const auto energyAfterRelease = [&](double beta) {
    FemBodySettings s = softSettings();
    s.rayleighBeta = beta;
    FemBody bar(boxTetMesh(Vec3(0.3, 0.1, 0.1), 3, 1, 1), s);
    deform(bar, Vec3(1.05, 1.0, 1.0).asDiagonal().toDenseMatrix(), 0.0);
    for (int step = 0; step < 50; ++step) stepWithoutContacts(bar, 1e-3, Vec3::Zero(), {1e-12, 0});
    return kineticEnergy(bar) + elasticEnergy(bar);
  };
  EXPECT_LT(energyAfterRelease(5e-3), 0.5 * energyAfterRelease(0.0));
}

TEST(FemBody, ElementStressIsZeroAtRestAndUniformUnderUniformStretch) {
  FemBodySettings settings = softSettings();
  settings.material.poissonRatio = 0.0;
  FemBody body(boxTetMesh(Vec3(0.2, 0.1, 0.1), 2, 1, 1), settings);
  for (double s : elementVonMisesStress(body)) EXPECT_NEAR(s, 0.0, 1e-9);
  deform(body, Vec3(1.02, 1.0, 1.0).asDiagonal().toDenseMatrix(), 0.0);
  for (double s : elementVonMisesStress(body)) EXPECT_NEAR(s, 0.02 * settings.material.youngsModulus, 1e-6);
  // psi = mu eps^2 with lambda = 0, over the whole volume.
  EXPECT_NEAR(elasticEnergy(body), 0.5 * settings.material.youngsModulus * 0.02 * 0.02 * 0.002, 1e-12);
}

}  // namespace contactlab::fem_body_test
