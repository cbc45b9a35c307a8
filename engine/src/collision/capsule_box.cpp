#include <algorithm>
#include <cmath>

#include "collision/box_geometry.h"
#include "collision/pair_functions.h"
#include "collision/segment_geometry.h"

namespace contactlab {

namespace {

// Feature ids: a contact at the deepest point alone is the box region it lies in (< 27); the ends of
// the axis clipped to a face are flagged, with the face in bits 4-6, the end in bit 3 and what
// bounded that end in bits 0-2 (0: the segment's own end, 1 + 2 * slot + side: a side plane of the face).
constexpr std::uint32_t kFaceClipFeature = 1u << 7;

// Parameter of the axis point deepest in the box (least signed distance). The signed distance to a
// convex set is convex along a line, so a golden-section search brackets the minimum; the ends
// are compared explicitly because the search only approaches them.
double deepestParameter(const Segment& localAxis, const Vec3& halfExtents) {
  auto distanceAt = [&](double t) { return boxSignedDistance(halfExtents, localAxis.at(t)); };
  constexpr int kIterations = 60;  // shrinks the bracket by 0.618^60, about 3e-13
  const double inverseGolden = (std::sqrt(5.0) - 1.0) / 2.0;
  double lower = 0.0, upper = 1.0;
  double left = upper - inverseGolden, right = inverseGolden;
  double leftDistance = distanceAt(left), rightDistance = distanceAt(right);
  for (int i = 0; i < kIterations; ++i) {
    if (leftDistance <= rightDistance) {
      upper = right, right = left, rightDistance = leftDistance;
      left = upper - inverseGolden * (upper - lower), leftDistance = distanceAt(left);
    } else {
      lower = left, left = right, leftDistance = rightDistance;
      right = lower + inverseGolden * (upper - lower), rightDistance = distanceAt(right);
    }
  }
  double best = 0.0;
  for (const double candidate : {1.0, 0.5 * (lower + upper)})
    if (distanceAt(candidate) < distanceAt(best)) best = candidate;
  return best;
}

struct ClippedEnd {
  double t;
  std::uint32_t boundedBy;  // 0: the segment's own end; 1 + 2 * slot + side: a side plane
};

// Clips the axis (box coordinates) to the slab |x[axis]| <= halfExtents[axis] of each axis other
// than the face's, i.e. to the prism over the face. `fallbackT` lies inside it in exact arithmetic;
// it is returned for both ends if rounding empties the interval.
std::pair<ClippedEnd, ClippedEnd> clipToFacePrism(const Segment& localAxis, const Vec3& halfExtents, int faceAxis,
                                                  double fallbackT) {
  ClippedEnd lower{0.0, 0}, upper{1.0, 0};
  const Vec3 direction = localAxis.direction();
  for (int slot = 0; slot < 2; ++slot) {
    const int axis = (faceAxis + 1 + slot) % 3;
    if (std::abs(direction[axis]) < 1e-12) continue;  // parallel to the slab: inside it all along
    double tMinus = (-halfExtents[axis] - localAxis.start[axis]) / direction[axis];
    double tPlus = (halfExtents[axis] - localAxis.start[axis]) / direction[axis];
    std::uint32_t minusPlane = 1 + 2 * slot, plusPlane = 2 + 2 * slot;
    if (tMinus > tPlus) std::swap(tMinus, tPlus), std::swap(minusPlane, plusPlane);
    if (tMinus > lower.t) lower = {tMinus, minusPlane};
    if (tPlus < upper.t) upper = {tPlus, plusPlane};
  }
  if (lower.t > upper.t) lower = upper = {fallbackT, 0};
  return {lower, upper};
}

}  // namespace

// The deepest point of the capsule's axis finds the box feature the capsule rests on. On a face,
// the capsule may lie along it, so the axis is clipped to the face's prism and both ends reported
// (one point would let it rock); on an edge or a vertex the deepest point is the contact.
void collideCapsuleBox(const CapsuleShape& capsule, const Pose& capsulePose, const BoxShape& box,
                       const Pose& boxPose, ContactBuffer& buffer) {
  const Segment axis = capsuleSegment(capsule, capsulePose);
  const Mat3 toBox = boxPose.rotation.transpose();
  const Segment localAxis{toBox * (axis.start - boxPose.position), toBox * (axis.end - boxPose.position)};
  const double deepestT = deepestParameter(localAxis, box.halfExtents);
  const BoxSurfacePoint deepest = closestBoxSurfacePoint(box, boxPose, axis.at(deepestT));
  if (deepest.faceAxis < 0) {
    addBallBoxContact(axis.at(deepestT), capsule.radius, deepest, deepest.region, buffer);
    return;
  }

  const Vec3 faceNormal = deepest.outwardNormal;
  const std::uint32_t face = boxFaceIndex(deepest.faceAxis, deepest.faceSign);
  const auto [lower, upper] = clipToFacePrism(localAxis, box.halfExtents, deepest.faceAxis, deepestT);
  std::uint32_t endIndex = 0;
  for (const ClippedEnd& end : {lower, upper}) {
    const Vec3 onAxis = axis.at(end.t);
    const Vec3 onFace = onAxis - faceNormal.dot(onAxis - deepest.point) * faceNormal;
    buffer.add(onAxis - capsule.radius * faceNormal, onFace, -faceNormal,
               kFaceClipFeature | face << 4 | endIndex++ << 3 | end.boundedBy);
  }
}

}  // namespace contactlab
