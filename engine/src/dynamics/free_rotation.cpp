#include "dynamics/free_rotation.h"

#include <Eigen/LU>
#include <cmath>

namespace contactlab {
namespace {

Mat3 skew(const Vec3& v) {
  Mat3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

}  // namespace

Vec3 freeRotationStep(const Vec3& omegaBody, const Vec3& principalInertia, double dt) {
  const Mat3 inertia = principalInertia.asDiagonal();
  // Residual F(W) = I (W - Omega) + dt * m x I m with the midpoint m = (Omega + W) / 2.
  Vec3 next = omegaBody;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const Vec3 mid = 0.5 * (omegaBody + next);
    const Vec3 residual = inertia * (next - omegaBody) + dt * mid.cross(inertia * mid);
    // dF/dW = I + dt/2 ( [m]x I - [I m]x ).
    const Mat3 jacobian = inertia + 0.5 * dt * (skew(mid) * inertia - skew(inertia * mid));
    // The 3x3 cofactor inverse (Eigen's closed form): no pivoting and no loops, cheaper than an LU
    // solve (docs/benchmarks.md). The Jacobian is
    // the inertia plus a term of relative size dt |omega|; where it is singular, both give
    // non-finite velocities, which the world reports.
    const Vec3 correction = jacobian.inverse() * residual;
    next -= correction;
    if (correction.norm() <= 1e-14 * (1.0 + next.norm())) break;
  }
  return next;
}

Quat rotateByAngularVelocity(const Quat& q, const Vec3& omegaWorld, double h) {
  const double speed = omegaWorld.norm();
  if (speed == 0.0) return q;
  const Quat delta(Eigen::AngleAxisd(speed * h, omegaWorld / speed));
  return (delta * q).normalized();
}

}  // namespace contactlab
