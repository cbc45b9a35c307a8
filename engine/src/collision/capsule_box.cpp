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
// A contact normal this close to a face normal (cosine) counts as resting on that face. The
// deepest point of a capsule lying flat can sit on the rim of the face's region, just past an
// edge by rounding; its normal is the face's all the same.
constexpr double kFaceAlignment = 0.9999;

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

// Golden-section search finds a minimum only to about the square root of the rounding error where
// the distance is quadratic in t. Past an edge or a vertex of the box the closest box feature is
// known, so the exact closest point to it replaces the estimate.
double refineNearEdgeOrVertex(const Segment& localAxis, const Vec3& halfExtents, std::uint32_t region,
                              double estimate) {
  Vec3 corner;  // the vertex, or the middle of the edge
  int outsideAxes = 0, edgeAxis = 0;
  for (int axis = 0; axis < 3; ++axis, region /= 3) {
    const int side = static_cast<int>(region % 3) - 1;  // -1 below, 0 within, +1 above the box
    if (side == 0) edgeAxis = axis;
    else ++outsideAxes;
    corner[axis] = side * halfExtents[axis];
  }
  if (outsideAxes == 3) return closestParameter(localAxis, corner);
  if (outsideAxes < 2) return estimate;
  const Vec3 halfEdge = halfExtents[edgeAxis] * Vec3::Unit(edgeAxis);
  return closestParameters(localAxis, Segment{corner - halfEdge, corner + halfEdge}).first;
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

// The deepest point of the capsule's axis finds the box feature the capsule rests on. Facing a face,
// the capsule may lie along it, so the axis is clipped to the face's prism and both ends reported
// (one point would let it rock); on an edge or a vertex the deepest point is the contact.
void collideCapsuleBox(const CapsuleShape& capsule, const Pose& capsulePose, const BoxShape& box,
                       const Pose& boxPose, ContactBuffer& buffer) {
  const Segment axis = capsuleSegment(capsule, capsulePose);
  const Mat3 toBox = boxPose.rotation.transpose();
  const Segment localAxis{toBox * (axis.start - boxPose.position), toBox * (axis.end - boxPose.position)};
  const double estimate = deepestParameter(localAxis, box.halfExtents);
  const std::uint32_t estimateRegion = closestBoxSurfacePoint(box, boxPose, axis.at(estimate)).region;
  const double deepestT = refineNearEdgeOrVertex(localAxis, box.halfExtents, estimateRegion, estimate);
  const BoxSurfacePoint deepest = closestBoxSurfacePoint(box, boxPose, axis.at(deepestT));
  const Vec3 localNormal = toBox * deepest.outwardNormal;
  int faceAxis = 0;
  if (localNormal.cwiseAbs().maxCoeff(&faceAxis) < kFaceAlignment) {
    addBallBoxContact(axis.at(deepestT), capsule.radius, deepest, deepest.region, buffer);
    return;
  }

  const Vec3 faceNormal = boxPose.rotation.col(faceAxis) * (localNormal[faceAxis] > 0.0 ? 1.0 : -1.0);
  const std::uint32_t face = boxFaceIndex(faceAxis, localNormal[faceAxis]);
  const auto [lower, upper] = clipToFacePrism(localAxis, box.halfExtents, faceAxis, deepestT);
  std::uint32_t endIndex = 0;
  for (const ClippedEnd& end : {lower, upper}) {
    const Vec3 onAxis = axis.at(end.t);
    const Vec3 onFace = onAxis - faceNormal.dot(onAxis - deepest.point) * faceNormal;
    buffer.add(onAxis - capsule.radius * faceNormal, onFace, -faceNormal,
               kFaceClipFeature | face << 4 | endIndex++ << 3 | end.boundedBy);
  }
}

}  // namespace contactlab
