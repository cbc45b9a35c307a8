#include "collision/segment_geometry.h"

#include <algorithm>

namespace contactlab {

namespace {
// Squared lengths below this (relative to the other squared quantities) count as a point.
constexpr double kDegenerate = 1e-24;
}  // namespace

Segment capsuleSegment(const CapsuleShape& capsule, const Pose& pose) {
  const Vec3 halfAxis = capsule.halfLength * pose.rotation.col(2);
  return {pose.position - halfAxis, pose.position + halfAxis};
}

double closestParameter(const Segment& segment, const Vec3& point) {
  const Vec3 d = segment.direction();
  const double lengthSquared = d.squaredNorm();
  if (lengthSquared <= kDegenerate) return 0.0;
  return std::clamp(d.dot(point - segment.start) / lengthSquared, 0.0, 1.0);
}

// Minimizes |a(s) - b(t)|^2 over the unit square: the unconstrained minimum along s with t
// eliminated, clamped, then t for that s, clamped, and s again if t was clamped.
std::pair<double, double> closestParameters(const Segment& a, const Segment& b) {
  const Vec3 da = a.direction(), db = b.direction(), r = a.start - b.start;
  const double aa = da.squaredNorm(), bb = db.squaredNorm();
  if (aa <= kDegenerate) return {0.0, closestParameter(b, a.start)};
  if (bb <= kDegenerate) return {closestParameter(a, b.start), 0.0};
  const double ab = da.dot(db), ar = da.dot(r), br = db.dot(r);
  const double denominator = aa * bb - ab * ab;  // |da x db|^2, zero for parallel segments
  double s = denominator > 1e-12 * aa * bb ? std::clamp((ab * br - ar * bb) / denominator, 0.0, 1.0) : 0.0;
  double t = (ab * s + br) / bb;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-ar / aa, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((ab - ar) / aa, 0.0, 1.0);
  }
  return {s, t};
}

std::uint32_t segmentFeature(double t) { return t <= 0.0 ? 0u : (t >= 1.0 ? 2u : 1u); }

Vec3 anyPerpendicular(const Vec3& v) {
  // Crossing with the world axis least aligned with v keeps the result well conditioned.
  int leastAligned = 0;
  v.cwiseAbs().minCoeff(&leastAligned);
  return v.cross(Vec3::Unit(leastAligned)).normalized();
}

}  // namespace contactlab
