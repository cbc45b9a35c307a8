#include <algorithm>

#include "collision/pair_functions.h"
#include "collision/segment_geometry.h"

namespace contactlab {

namespace {

// Axes closer to parallel than this (sine of the angle) touch along a line rather than at a point.
constexpr double kParallelSine = 0.02;
// Feature ids: closest-point contacts use segmentFeature(s) * 3 + segmentFeature(t) (< 9); the two
// ends of a parallel overlap get their own ids.
constexpr std::uint32_t kOverlapEndFeature = 16;

}  // namespace

// The closest points of the two axis segments. When the axes are nearly parallel the capsules
// touch along a line, so the two ends of the overlap of the segments are reported as well: one
// point alone would let the capsules rock about it.
void collideCapsuleCapsule(const CapsuleShape& a, const Pose& poseA, const CapsuleShape& b, const Pose& poseB,
                           ContactBuffer& buffer) {
  const Segment axisA = capsuleSegment(a, poseA), axisB = capsuleSegment(b, poseB);
  const Vec3 directionA = axisA.direction(), directionB = axisB.direction();
  const Vec3 crossed = directionA.cross(directionB);
  const double lengthProduct = directionA.norm() * directionB.norm();
  const bool parallel = crossed.norm() <= kParallelSine * lengthProduct;

  // Used only when the axes intersect: then the capsules are pushed apart across both axes.
  Vec3 fallbackNormal = parallel ? anyPerpendicular(directionA.norm() > 0.0 ? directionA : Vec3::UnitZ())
                                 : Vec3(crossed.normalized());
  if (fallbackNormal.dot(poseB.position - poseA.position) < 0.0) fallbackNormal = -fallbackNormal;

  const auto [s, t] = closestParameters(axisA, axisB);
  addBallContact(axisA.at(s), a.radius, axisB.at(t), b.radius, fallbackNormal,
                 segmentFeature(s) * 3 + segmentFeature(t), buffer);
  if (!parallel || lengthProduct == 0.0) return;

  // B's ends projected onto A's axis bound the overlap; each end pairs with its nearest point on B.
  const double sStart = closestParameter(axisA, axisB.start), sEnd = closestParameter(axisA, axisB.end);
  const double overlapEnds[2] = {std::min(sStart, sEnd), std::max(sStart, sEnd)};
  for (std::uint32_t end = 0; end < 2; ++end) {
    const Vec3 onA = axisA.at(overlapEnds[end]);
    addBallContact(onA, a.radius, axisB.at(closestParameter(axisB, onA)), b.radius, fallbackNormal,
                   kOverlapEndFeature + end, buffer);
  }
}

}  // namespace contactlab
