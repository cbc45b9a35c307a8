// Per-tetrahedron elasticity: invariance under rotation, the Lame stress of a stretch, forces as
// the energy's gradient, the stiffness against finite differences, and finite results for
// inverted, flat and collapsed elements.
#include "deformable/elasticity.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

namespace contactlab::elasticity_test {

using Corners = std::array<Vec3, 4>;

// A skewed tetrahedron about 10 cm across, positively oriented.
Corners restCorners() {
  return {Vec3(0.01, -0.02, 0.0), Vec3(0.11, 0.0, 0.01), Vec3(0.03, 0.09, -0.01), Vec3(0.02, 0.01, 0.12)};
}

Material material(MaterialModel model) {
  Material m;
  m.model = model;
  m.youngsModulus = 1e5;
  m.poissonRatio = 0.3;
  return m;
}

// x_i = F X_i + t: the element under a homogeneous deformation F.
Corners deformed(const Corners& rest, const Mat3& F, const Vec3& translation = Vec3::Zero()) {
  Corners x;
  for (int i = 0; i < 4; ++i) x[i] = F * rest[i] + translation;
  return x;
}

Vec12 flatten(const Corners& x) {
  Vec12 v;
  for (int i = 0; i < 4; ++i) v.segment<3>(3 * i) = x[i];
  return v;
}

Corners unflatten(const Vec12& v) {
  Corners x;
  for (int i = 0; i < 4; ++i) x[i] = v.segment<3>(3 * i);
  return x;
}

// Column c: -(g(x + h e_c) - g(x - h e_c)) / 2h, the negated central difference of a quantity g of
// the element's corner positions (a vector of any size, or a 1-vector).
template <class Quantity>
auto negatedCentralDifferences(const Corners& x, double h, Quantity&& g) {
  const Vec12 x0 = flatten(x);
  using Column = decltype(g(x));
  Eigen::Matrix<double, Column::RowsAtCompileTime, 12> derivative;
  for (int c = 0; c < 12; ++c) {
    Vec12 plus = x0, minus = x0;
    plus[c] += h;
    minus[c] -= h;
    derivative.col(c) = -(g(unflatten(plus)) - g(unflatten(minus))) / (2.0 * h);
  }
  return derivative;
}

// -df/dx by central differences of the nodal forces.
Mat12 finiteDifferenceStiffness(const Material& m, const TetRest& rest, const Corners& x, double h) {
  return negatedCentralDifferences(x, h, [&](const Corners& y) { return evaluateElement(m, rest, y, false).force; });
}

// -dE/dx by central differences of the energy.
Vec12 finiteDifferenceForce(const Material& m, const TetRest& rest, const Corners& x, double h) {
  return negatedCentralDifferences(x, h, [&](const Corners& y) {
           return Eigen::Matrix<double, 1, 1>(evaluateElement(m, rest, y, false).energy);
         }).transpose();
}

Mat3 rotation(double angle, const Vec3& axis) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

// A moderate deformation with distinct stretches above 1, rotated: F = R S with S symmetric
// positive definite.
Mat3 moderateDeformation() {
  Mat3 S;
  S << 1.15, 0.04, -0.02,  //
      0.04, 1.08, 0.03,    //
      -0.02, 0.03, 1.22;
  return rotation(0.7, Vec3(1, -2, 0.5)) * S;
}

bool allFinite(const ElementResponse& r) {
  return r.force.allFinite() && std::isfinite(r.energy) && r.firstPiola.allFinite() && r.stiffness.allFinite() &&
         std::isfinite(vonMisesStress(r));
}

double smallestEigenvalue(const Mat12& K) { return Eigen::SelfAdjointEigenSolver<Mat12>(K).eigenvalues().minCoeff(); }

const MaterialModel kModels[] = {MaterialModel::Corotational, MaterialModel::NeoHookean};

TEST(Elasticity, LameParametersFollowYoungsModulusAndPoissonRatio) {
  Material m;
  m.youngsModulus = 2.6e6;
  m.poissonRatio = 0.3;
  const LameParameters lame = lameParameters(m);
  EXPECT_NEAR(lame.mu, 1e6, 1e-6);
  EXPECT_NEAR(lame.lambda, 2.6e6 * 0.3 / (1.3 * 0.4), 1e-6);
  m.poissonRatio = 0.5;
  EXPECT_THROW(validateMaterial(m), std::invalid_argument);
  m.poissonRatio = 0.2;
  m.youngsModulus = 0.0;
  EXPECT_THROW(validateMaterial(m), std::invalid_argument);
  m.youngsModulus = 1.0;
  m.neoHookeanExtrapolationRatio = 0.0;
  EXPECT_THROW(validateMaterial(m), std::invalid_argument);
}

TEST(Elasticity, RestShapeInverseAndVolume) {
  const Corners x{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 3, 0), Vec3(0, 0, 4)};
  const TetRest rest = makeTetRest(x);
  EXPECT_NEAR(rest.volume, 4.0, 1e-14);
  EXPECT_TRUE(rest.restShapeInverse.isApprox(Vec3(0.5, 1.0 / 3.0, 0.25).asDiagonal().toDenseMatrix(), 1e-14));
  EXPECT_TRUE(deformationGradient(rest, x).isApprox(Mat3::Identity(), 1e-14));
}

TEST(Elasticity, MakeTetRestRejectsDegenerateAndNegativeTetrahedra) {
  const Corners flat{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
  EXPECT_THROW(makeTetRest(flat), std::invalid_argument);
  const Corners negative{Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)};
  EXPECT_THROW(makeTetRest(negative), std::invalid_argument);
  const Corners collapsed{Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)};
  EXPECT_THROW(makeTetRest(collapsed), std::invalid_argument);
  const Corners notFinite{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, NAN)};
  EXPECT_THROW(makeTetRest(notFinite), std::invalid_argument);
}

TEST(Elasticity, RigidMotionHasNoForceNorEnergy) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  for (MaterialModel model : kModels) {
    const Material m = material(model);
    const Corners x = deformed(rest, rotation(2.3, Vec3(0.3, -1, 0.4)), Vec3(5, -2, 1));
    const ElementResponse r = evaluateElement(m, tet, x, true);
    // Forces are compared with mu V / (edge length), the size of a force at unit strain.
    const double forceScale = lameParameters(m).mu * tet.volume / 0.1;
    EXPECT_LT(r.force.norm(), 1e-10 * forceScale);
    EXPECT_LT(std::abs(r.energy), 1e-12 * lameParameters(m).mu * tet.volume);
    EXPECT_EQ(r.clampedModes, 0);
  }
}

TEST(Elasticity, UniformStretchGivesLameStress) {
  // F = I + eps with eps diagonal: R = I, so the co-rotational stress is linear elasticity's
  // P = 2 mu eps + lambda tr(eps) I exactly, at any magnitude.
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  const Material m = material(MaterialModel::Corotational);
  const LameParameters lame = lameParameters(m);
  const Vec3 strain(0.1, -0.05, 0.02);
  const Mat3 F = Mat3::Identity() + Mat3(strain.asDiagonal());
  const ElementResponse r = evaluateElement(m, tet, deformed(rest, F), false);
  const Mat3 expected = 2.0 * lame.mu * Mat3(strain.asDiagonal()) + lame.lambda * strain.sum() * Mat3::Identity();
  EXPECT_TRUE(r.firstPiola.isApprox(expected, 1e-12)) << r.firstPiola << "\nexpected\n" << expected;
  // Eq. 2: the forces are -V P Dm^-T, column by column (node 0 takes minus their sum).
  const Mat3 H = -tet.volume * r.firstPiola * tet.restShapeInverse.transpose();
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(r.force.segment<3>(3 * (k + 1)).isApprox(H.col(k), 1e-12));
  EXPECT_LT((r.force.segment<3>(0) + H.rowwise().sum()).norm(), 1e-12 * H.norm());
  // psi = mu |eps|^2 + lambda/2 (tr eps)^2.
  EXPECT_NEAR(r.energy, tet.volume * (lame.mu * strain.squaredNorm() + 0.5 * lame.lambda * strain.sum() * strain.sum()),
              1e-12 * r.energy);
}

TEST(Elasticity, ForcesAreMinusTheEnergyGradient) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  for (MaterialModel model : kModels) {
    const Material m = material(model);
    const Corners x = deformed(rest, moderateDeformation(), Vec3(0.3, 0.1, -0.2));
    const ElementResponse r = evaluateElement(m, tet, x, false);
    const Vec12 numeric = finiteDifferenceForce(m, tet, x, 1e-7);
    EXPECT_LT((r.force - numeric).norm(), 1e-6 * r.force.norm()) << "model " << static_cast<int>(model);
    EXPECT_LT(r.force.reshaped(3, 4).rowwise().sum().norm(), 1e-12 * r.force.norm());
  }
}

TEST(Elasticity, StiffnessMatchesFiniteDifferencesOfTheForces) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  for (MaterialModel model : kModels) {
    const Material m = material(model);
    for (const Mat3& F : {Mat3(Mat3::Identity()), moderateDeformation()}) {
      const Corners x = deformed(rest, F, Vec3(-0.1, 0.2, 0.05));
      const ElementResponse r = evaluateElement(m, tet, x, true);
      ASSERT_EQ(r.clampedModes, 0) << "the comparison needs an element whose eigenvalues are not clamped";
      const Mat12 numeric = finiteDifferenceStiffness(m, tet, x, 1e-7);
      EXPECT_LT((r.stiffness - numeric).norm(), 1e-6 * r.stiffness.norm())
          << "model " << static_cast<int>(model) << "\nanalytic\n"
          << r.stiffness << "\nnumeric\n"
          << numeric;
      EXPECT_TRUE(r.stiffness.isApprox(r.stiffness.transpose(), 1e-14));
    }
  }
}

TEST(Elasticity, RepeatedStretchesNeedNoSpecialCase) {
  // Two equal singular values (a stretch about an axis) and three (uniform scaling): the limit of
  // (P_i - P_j) / (s_i - s_j) is built into the closed forms.
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  const Mat3 R = rotation(-0.4, Vec3(1, 1, 0));
  for (MaterialModel model : kModels) {
    const Material m = material(model);
    for (const Vec3& stretch : {Vec3(1.1, 1.1, 1.3), Vec3(1.2, 1.2, 1.2)}) {
      const Corners x = deformed(rest, R * stretch.asDiagonal());
      const ElementResponse r = evaluateElement(m, tet, x, true);
      ASSERT_EQ(r.clampedModes, 0);
      const Mat12 numeric = finiteDifferenceStiffness(m, tet, x, 1e-7);
      EXPECT_LT((r.stiffness - numeric).norm(), 1e-6 * r.stiffness.norm()) << "model " << static_cast<int>(model);
    }
  }
}

TEST(Elasticity, StiffnessIsPositiveSemiDefiniteWithTranslationsInItsNullSpace) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  for (MaterialModel model : kModels) {
    const Material m = material(model);
    // Under compression the rotational eigenvalues of dP/dF turn negative and are clamped.
    for (const Mat3& F : {moderateDeformation(), Mat3(0.6 * rotation(0.3, Vec3(0, 0, 1)))}) {
      const ElementResponse r = evaluateElement(m, tet, deformed(rest, F), true);
      EXPECT_GE(smallestEigenvalue(r.stiffness), -1e-9 * r.stiffness.norm());
      Vec12 translation;
      for (int i = 0; i < 4; ++i) translation.segment<3>(3 * i) = Vec3(0.3, -1.0, 0.2);
      EXPECT_LT((r.stiffness * translation).norm(), 1e-10 * r.stiffness.norm());
    }
  }
  const ElementResponse compressed =
      evaluateElement(material(MaterialModel::Corotational), tet, deformed(rest, Mat3(0.6 * Mat3::Identity())), true);
  EXPECT_GT(compressed.clampedModes, 0);
}

TEST(Elasticity, NeoHookeanAgreesWithCorotationalAtSmallStrain) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  Mat3 strain;
  strain << 2.0, 0.5, -1.0,  //
      0.5, -1.5, 0.7,        //
      -1.0, 0.7, 1.0;
  const Mat3 F = rotation(1.1, Vec3(0.2, 1, -0.3)) * (Mat3::Identity() + 1e-4 * strain);
  const Corners x = deformed(rest, F);
  const ElementResponse corotational = evaluateElement(material(MaterialModel::Corotational), tet, x, true);
  const ElementResponse neoHookean = evaluateElement(material(MaterialModel::NeoHookean), tet, x, true);
  EXPECT_LT((neoHookean.force - corotational.force).norm(), 1e-3 * corotational.force.norm());
  EXPECT_LT((neoHookean.firstPiola - corotational.firstPiola).norm(), 1e-3 * corotational.firstPiola.norm());
  EXPECT_NEAR(neoHookean.energy, corotational.energy, 1e-3 * corotational.energy);
  EXPECT_LT((neoHookean.stiffness - corotational.stiffness).norm(), 1e-3 * corotational.stiffness.norm());
}

TEST(Elasticity, NeoHookeanExtensionIsContinuousAtTheExtrapolationRatio) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  const Material m = material(MaterialModel::NeoHookean);
  const double J0 = m.neoHookeanExtrapolationRatio;
  // Uniaxial compression to J just above and just below J0.
  const auto at = [&](double J) {
    return evaluateElement(m, tet, deformed(rest, Vec3(1.0, 1.0, J).asDiagonal().toDenseMatrix()), true);
  };
  const ElementResponse above = at(J0 + 1e-9), below = at(J0 - 1e-9);
  EXPECT_NEAR(above.energy, below.energy, 1e-7 * std::abs(above.energy));
  EXPECT_LT((above.force - below.force).norm(), 1e-6 * above.force.norm());
  // Below J0 the forces stay the tangent's: finite, and they push the volume back up.
  for (double J : {0.3, 0.0, -0.5}) {
    const ElementResponse r = at(J);
    EXPECT_TRUE(allFinite(r)) << "J = " << J;
    EXPECT_LT(r.firstPiola(2, 2), 0.0) << "J = " << J;  // compressive: resists further compression
  }
}

TEST(Elasticity, InvertedElementHasFiniteForcesThatPushItBack) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  // Node 3 pushed through the opposite face (0, 1, 2), to its mirror image and beyond.
  const Vec3 normal = (rest[1] - rest[0]).cross(rest[2] - rest[0]).normalized();  // towards node 3's side
  for (MaterialModel model : kModels) {
    for (double depth : {0.3, 1.0, 2.0}) {
      Corners x = rest;
      const double height = (rest[3] - rest[0]).dot(normal);
      x[3] -= (1.0 + depth) * height * normal;
      const ElementResponse r = evaluateElement(material(model), tet, x, true);
      ASSERT_TRUE(allFinite(r)) << "model " << static_cast<int>(model) << " depth " << depth;
      EXPECT_LT(r.principalStretches[2], 0.0);
      EXPECT_GT(r.force.segment<3>(9).dot(normal), 0.0) << "node 3 is pushed back through the face";
      EXPECT_GE(smallestEigenvalue(r.stiffness), -1e-9 * r.stiffness.norm());
    }
  }
}

TEST(Elasticity, FlatAndCollapsedElementsStayFinite) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  Corners flat = rest;  // node 3 in the plane of face (0, 1, 2)
  flat[3] = (rest[0] + rest[1] + rest[2]) / 3.0;
  Corners edge = rest;  // every node on one line
  for (int i = 0; i < 4; ++i) edge[i] = Vec3(0.02 * i * i, 0.0, 0.0);
  Corners pair = rest;  // two nodes on top of each other
  pair[2] = pair[1];
  Corners point;  // all four at one point: F = 0
  point.fill(Vec3(0.5, 0.5, 0.5));
  for (MaterialModel model : kModels)
    for (const Corners& x : {flat, edge, pair, point}) {
      const ElementResponse r = evaluateElement(material(model), tet, x, true);
      EXPECT_TRUE(allFinite(r)) << "model " << static_cast<int>(model);
      EXPECT_GE(smallestEigenvalue(r.stiffness), -1e-9 * std::max(r.stiffness.norm(), 1.0));
    }
}

TEST(Elasticity, VonMisesStressOfUniaxialStretch) {
  const Corners rest = restCorners();
  const TetRest tet = makeTetRest(rest);
  Material m = material(MaterialModel::Corotational);
  m.poissonRatio = 0.0;  // lambda = 0: the stretch is a uniaxial stress sigma_xx = E eps / J
  const ElementResponse r = evaluateElement(m, tet, deformed(rest, Vec3(1.01, 1.0, 1.0).asDiagonal().toDenseMatrix()), false);
  EXPECT_NEAR(vonMisesStress(r), m.youngsModulus * 0.01, 1e-9 * m.youngsModulus);
  EXPECT_NEAR(vonMisesStress(evaluateElement(m, tet, rest, false)), 0.0, 1e-9);
}

}  // namespace contactlab::elasticity_test
