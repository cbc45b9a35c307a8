// The exact one-contact Coulomb solve (solvers/coulomb_local_solve.cpp) against closed-form
// solutions of each case, an anisotropic slide solved by bisection here, and random problems
// checked against the law itself (the natural map).
#include "solvers/coulomb_local_solve.h"

#include <gtest/gtest.h>

#include <random>

#include "problem/natural_map.h"

namespace contactlab {
namespace {

double lawError(const Mat3& a, const Vec3& b, const Vec3& r, double muT, double muS) {
  const Vec3 v = a * r + b;
  return naturalMapError(Vec4(r[0], r[1], r[2], 0.0), Vec4(v[0], v[1], v[2], 0.0), Vec3(muT, muS, 0.0));
}

// The identity but for W_nn and the symmetric coupling W_nt = W_tn.
Mat3 coupledNormalRow(double normal, double coupling) {
  Mat3 a = Mat3::Identity();
  a(0, 0) = normal;
  a(0, 1) = a(1, 0) = coupling;
  return a;
}

TEST(CoulombLocalSolve, TakeOffWhenTheContactSeparatesOnItsOwn) {
  const auto r = solveCoulombContact(Mat3::Identity(), Vec3(0.5, 3.0, -1.0), 0.5, 0.5, Vec3::Zero());
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, Vec3::Zero());
}

TEST(CoulombLocalSolve, StickingInsideTheCone) {
  // A = I: v = 0 needs r = -b = (1, -0.2, 0.1), inside the cone (|r_f| = 0.22 < 0.5).
  const auto r = solveCoulombContact(Mat3::Identity(), Vec3(-1.0, 0.2, -0.1), 0.5, 0.5, Vec3::Zero());
  ASSERT_TRUE(r.has_value());
  EXPECT_LT((*r - Vec3(1.0, -0.2, 0.1)).norm(), 1e-14);
}

TEST(CoulombLocalSolve, SlidingWithCoupledNormalAndTangentRows) {
  // W = [2 0.5 0; 0.5 1 0; 0 0 1], q = (-1, 3, 0), mu = 0.5 (prox_delassus_test.cpp's contact):
  // lambda_t = -mu lambda_n, v_n = 0 gives lambda_n = 1 / (2 - 0.25) = 1 / 1.75.
  const auto r = solveCoulombContact(coupledNormalRow(2.0, 0.5), Vec3(-1.0, 3.0, 0.0), 0.5, 0.5, Vec3::Zero());
  ASSERT_TRUE(r.has_value());
  EXPECT_LT((*r - Vec3(1.0 / 1.75, -0.5 / 1.75, 0.0)).norm(), 1e-14);
}

TEST(CoulombLocalSolve, SlidingObliquelyOnAnEllipticDisk) {
  // A = I, so r_n = -b_n = 1 and v_f = r_f + b_f. On the ellipse (r_t / mu_t)^2 + (r_s / mu_s)^2 = 1,
  // maximal dissipation v_f = -beta diag(1/mu_t^2, 1/mu_s^2) r_f gives r_i = -b_i / (1 + beta / mu_i^2);
  // beta is found here by bisection on the ellipse equation (decreasing in beta).
  const double muT = 0.5, muS = 0.25;
  const Vec3 b(-1.0, 3.0, 4.0);
  auto onEllipse = [&](double beta) {
    const double rt = -b[1] / (1.0 + beta / (muT * muT)), rs = -b[2] / (1.0 + beta / (muS * muS));
    return rt * rt / (muT * muT) + rs * rs / (muS * muS) - 1.0;
  };
  double low = 0.0, high = 1e3;
  for (int i = 0; i < 200; ++i) (onEllipse(0.5 * (low + high)) > 0.0 ? low : high) = 0.5 * (low + high);
  const double beta = 0.5 * (low + high);
  const Vec3 expected(1.0, -b[1] / (1.0 + beta / (muT * muT)), -b[2] / (1.0 + beta / (muS * muS)));
  const auto r = solveCoulombContact(Mat3::Identity(), b, muT, muS, Vec3::Zero());
  ASSERT_TRUE(r.has_value());
  EXPECT_LT((*r - expected).norm(), 1e-12) << r->transpose() << " / " << expected.transpose();
}

TEST(CoulombLocalSolve, FrictionlessContactAndSegmentDisk) {
  const Mat3 a = coupledNormalRow(4.0, 1.0);
  const auto r = solveCoulombContact(a, Vec3(-2.0, 5.0, 1.0), 0.0, 0.0, Vec3::Zero());
  ASSERT_TRUE(r.has_value());
  EXPECT_LT((*r - Vec3(0.5, 0.0, 0.0)).norm(), 1e-15);
  // A disk flattened to a segment (one mu zero) is not this solver's: the caller falls back.
  EXPECT_FALSE(solveCoulombContact(a, Vec3(-2.0, 5.0, 1.0), 0.5, 0.0, Vec3::Zero()).has_value());
}

TEST(CoulombLocalSolve, SolvesRandomPositiveDefiniteProblems) {
  // A = M M^T + 0.05 I (symmetric positive definite, as W_kk of a body-space problem), b and mu
  // random: a solution always exists; every one returned must satisfy the law.
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> entry(-1.0, 1.0), friction(0.05, 1.5);
  int sliding = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 m;
    for (int i = 0; i < 9; ++i) m(i / 3, i % 3) = entry(engine);
    const Mat3 a = m * m.transpose() + 0.05 * Mat3::Identity();
    const Vec3 b(entry(engine), 3.0 * entry(engine), 3.0 * entry(engine));
    const double muT = friction(engine), muS = trial % 2 == 0 ? muT : friction(engine);
    const auto r = solveCoulombContact(a, b, muT, muS, Vec3::Zero());
    ASSERT_TRUE(r.has_value()) << "trial " << trial;
    const double size = std::max({b.cwiseAbs().maxCoeff(), r->cwiseAbs().maxCoeff(), (a * *r).cwiseAbs().maxCoeff()});
    EXPECT_LT(lawError(a, b, *r, muT, muS), 1e-10 * size) << "trial " << trial;
    const Vec3 v = a * *r + b;
    if ((*r)[0] > 0.0 && v.tail<2>().norm() > 1e-6) ++sliding;
  }
  EXPECT_GT(sliding, 500);  // the sliding case is exercised, not only take-off and sticking
}

}  // namespace
}  // namespace contactlab
