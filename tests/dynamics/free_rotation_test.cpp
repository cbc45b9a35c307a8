#include "dynamics/free_rotation.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

TEST(FreeRotation, ImplicitMidpointConservesEnergyAndMomentumMagnitudeEachStep) {
  const Vec3 inertia(1.0, 2.0, 3.0);
  Vec3 omega(0.1, 10.0, 0.05);  // close to the intermediate axis
  const double energy = 0.5 * omega.dot(inertia.cwiseProduct(omega));
  const double momentum = inertia.cwiseProduct(omega).norm();
  for (int step = 0; step < 1000; ++step) omega = freeRotationStep(omega, inertia, 0.01);
  EXPECT_NEAR(0.5 * omega.dot(inertia.cwiseProduct(omega)), energy, 1e-10 * energy);
  EXPECT_NEAR(inertia.cwiseProduct(omega).norm(), momentum, 1e-10 * momentum);
}

TEST(FreeRotation, SymmetricBodyKeepsItsSpin) {
  const Vec3 omega(0.0, 0.0, 4.0);
  EXPECT_LT((freeRotationStep(omega, Vec3(2, 2, 1), 0.01) - omega).norm(), 1e-15);
}

TEST(FreeRotation, ExponentialMapRotatesAboutTheAngularVelocity) {
  const Quat q = rotateByAngularVelocity(Quat::Identity(), Vec3(0, 0, 2.0), 0.25);  // half a radian
  EXPECT_NEAR(Eigen::AngleAxisd(q).angle(), 0.5, 1e-15);
  EXPECT_NEAR((q * Vec3::UnitX() - Vec3(std::cos(0.5), std::sin(0.5), 0)).norm(), 0.0, 1e-15);
}

}  // namespace
}  // namespace contactlab
