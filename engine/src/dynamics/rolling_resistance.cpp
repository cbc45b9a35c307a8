#include "dynamics/rolling_resistance.h"

#include <cmath>

namespace contactlab {

void resistRolling(const std::vector<double>& normalImpulse, const std::vector<double>& arm,
                   std::vector<Vec6>& freeVelocity, Eigen::VectorXd& velocityChange, ContactProblem& problem) {
  velocityChange.setZero(6 * problem.numSlots);
  bool any = false;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const double largest = arm[k] * normalImpulse[k];
    if (!(largest > 0.0)) continue;
    const ContactBlock& block = problem.blocks[k];
    const int a = block.slotA, b = block.slotB;
    // The relative angular velocity, and I_i^-1 + I_j^-1.
    Vec3 relative = Vec3::Zero();
    Mat3 invInertia = Mat3::Zero();
    if (b >= 0) {
      relative += freeVelocity[b].tail<3>();
      invInertia += problem.inverseMass[b].invInertiaWorld;
    }
    if (a >= 0) {
      relative -= freeVelocity[a].tail<3>();
      invInertia += problem.inverseMass[a].invInertiaWorld;
    }
    // The tangent plane's axes C = [t s]; the rolling is C^T w_rel, and an angular impulse C p on
    // body j (minus it on body i) changes it by K p with K = C^T (I_i^-1 + I_j^-1) C, positive
    // definite since one body at least moves.
    const auto axes = block.frame.rightCols<2>();
    const Eigen::Vector2d rolling = axes.transpose() * relative;
    if (rolling.isZero(0.0)) continue;
    const Eigen::Matrix<double, 3, 2> invInertiaAxes = invInertia * axes;
    const Eigen::Matrix2d k2 = axes.transpose() * invInertiaAxes;
    Eigen::Vector2d impulse = -(k2.inverse() * rolling);
    const double squaredSize = impulse.squaredNorm();
    if (squaredSize > largest * largest) impulse *= largest / std::sqrt(squaredSize);
    const Vec3 angular = axes * impulse;
    if (b >= 0) {
      const Vec3 change = problem.inverseMass[b].invInertiaWorld * angular;
      freeVelocity[b].tail<3>() += change;
      velocityChange.segment<3>(6 * b + 3) += change;
    }
    if (a >= 0) {
      const Vec3 change = problem.inverseMass[a].invInertiaWorld * angular;
      freeVelocity[a].tail<3>() -= change;
      velocityChange.segment<3>(6 * a + 3) -= change;
    }
    any = true;
  }
  if (!any) return;
  if (!problem.freeVelocity.empty()) problem.freeVelocity = freeVelocity;
  // Only the contacts of bodies it turned: the others' b keep their bits (an island the resistance
  // left alone is solved as it would have been without it).
  const auto turned = [&](int slot) { return slot >= 0 && !velocityChange.segment<3>(6 * slot + 3).isZero(0.0); };
  for (ContactBlock& block : problem.blocks)
    if (turned(block.slotA) || turned(block.slotB)) block.b += jacobianTimes(block, velocityChange);
}

}  // namespace contactlab
