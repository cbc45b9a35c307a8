#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "collision/box_geometry.h"
#include "collision/contact_generation.h"
#include "collision/pair_functions.h"
#include "collision/segment_geometry.h"

namespace contactlab {

namespace {

// Feature ids. Face contacts: the reference face in bits 9-11, the incident face in bits 6-8 and
// the clip vertex in bits 0-5 (see ClipVertex); the same whichever argument the reference box
// came as. Edge contacts: bit 12, then the edge of A in bits 4-7 and the edge of B in bits 0-3.
constexpr std::uint32_t kEdgeContact = 1u << 12;

// An edge axis must beat the best face axis by this fraction of the smallest half-extent, and one
// box's face the other's by as much to become the reference: a box resting on another then keeps
// the same face contact from step to step instead of flickering with rounding.
constexpr double kFaceAxisPreference = 0.01;
// Edge axes from edges closer to parallel than this (sine of the angle) are ill defined; the
// face axes cover those configurations.
constexpr double kParallelEdges = 1e-6;

// a . b and c . h, each summed in this one order: the same for the pair taken either way round,
// which keeps the separations below bitwise symmetric in the two boxes.
double dot3(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double weightedSum(double c0, double c1, double c2, const Vec3& h) { return c0 * h[0] + c1 * h[1] + c2 * h[2]; }

struct SeparatingAxis {
  enum Kind { kFaceOfA, kFaceOfB, kEdges } kind = kFaceOfA;
  Vec3 normal = Vec3::Zero();  // unit, from A towards B
  double separation = -std::numeric_limits<double>::infinity();
  int axisA = -1, axisB = -1;  // body axis of A and/or B the normal comes from
};

// The SAT axis along which the boxes overlap least, with the bias above; none when some axis
// separates them by the margin or more (the separation along any axis bounds their distance).
// A box's shadow on an axis is its half-extents weighted by |axis . its own axes|; for all 15 axes
// these weights are entries of C = A^T B, the two boxes' axes against each other, so C is formed
// once (Gottschalk, Lin, Manocha, "OBBTree", SIGGRAPH 1996) rather than each box projected on each axis.
std::optional<SeparatingAxis> leastOverlapAxis(const BoxShape& a, const Pose& poseA, const BoxShape& b,
                                               const Pose& poseB, double margin) {
  const Vec3 centreOffset = poseB.position - poseA.position;
  const Mat3& axesA = poseA.rotation;
  const Mat3& axesB = poseB.rotation;
  const Vec3& halfA = a.halfExtents;
  const Vec3& halfB = b.halfExtents;
  Mat3 absC;  // |a_i . b_j|
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) absC(i, j) = std::abs(dot3(axesA.col(i), axesB.col(j)));
  // Keeps in `best` the axis (unnormalized, of length `length`) if it separates more: `along` is
  // the centre offset along the axis and `radii` the two shadows, both in units of `length`; the
  // normal points from A to B. Radii are summed first, so that swapping the boxes gives bitwise
  // the same separation.
  auto keepBetter = [&](SeparatingAxis& best, const Vec3& axis, double length, double along, double radii,
                        SeparatingAxis::Kind kind, int axisA, int axisB) {
    const double separation = (std::abs(along) - radii) / length;
    if (!(separation > best.separation)) return;
    const Vec3 normal = axis / length;
    best = {kind, along < 0.0 ? Vec3(-normal) : normal, separation, axisA, axisB};
  };
  SeparatingAxis faceA, faceB, edges;
  for (int i = 0; i < 3; ++i) {
    keepBetter(faceA, axesA.col(i), 1.0, dot3(axesA.col(i), centreOffset),
               halfA[i] + weightedSum(absC(i, 0), absC(i, 1), absC(i, 2), halfB), SeparatingAxis::kFaceOfA, i, -1);
    keepBetter(faceB, axesB.col(i), 1.0, dot3(axesB.col(i), centreOffset),
               weightedSum(absC(0, i), absC(1, i), absC(2, i), halfA) + halfB[i], SeparatingAxis::kFaceOfB, -1, i);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 crossed = axesA.col(i).cross(axesB.col(j));
      const double length = crossed.norm();
      if (length < kParallelEdges) continue;
      // |a_k . (a_i x b_j)| for A's other two axes k is |b_j . a_(other k)|, and likewise for B:
      // entries of C (the axes are right-handed, being rotations).
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double radiusA = halfA[i1] * absC(i2, j) + halfA[i2] * absC(i1, j);
      const double radiusB = halfB[j1] * absC(i, j2) + halfB[j2] * absC(i, j1);
      keepBetter(edges, crossed, length, dot3(crossed, centreOffset), radiusA + radiusB, SeparatingAxis::kEdges, i, j);
    }

  if (std::max({faceA.separation, faceB.separation, edges.separation}) >= margin) return std::nullopt;
  const double preference = kFaceAxisPreference * std::min(a.halfExtents.minCoeff(), b.halfExtents.minCoeff());
  const double bestFaceSeparation = std::max(faceA.separation, faceB.separation);
  if (edges.separation > bestFaceSeparation + preference) return edges;
  if (std::abs(faceA.separation - faceB.separation) > preference)
    return faceA.separation > faceB.separation ? faceA : faceB;
  // Nearly as good: the reference face belongs to the box lower along the contact normal, with
  // the normal's sign fixed by its largest component. That picks the same box whichever argument
  // it came as (the swapped call gives the same points), and the same box every step.
  const Vec3 direction = faceA.normal + faceB.normal;
  int dominant = 0;
  direction.cwiseAbs().maxCoeff(&dominant);
  return direction[dominant] >= 0.0 ? faceA : faceB;
}

// A vertex of the incident face during clipping. Its id is the pair of polygon edges meeting at it
// (incoming, outgoing), each tagged 0-3 for an edge of the incident face or 4-7 for a side plane
// of the reference face; the pair stays the same while the same features cross.
struct ClipVertex {
  Vec3 position;
  std::uint32_t inTag, outTag;
  std::uint32_t id() const { return inTag << 3 | outTag; }
};
struct ClipPolygon {
  // Clipping a quad by four planes leaves at most 8 vertices.
  std::array<ClipVertex, 8> vertices;
  int size = 0;
  void push(const ClipVertex& v) { vertices[size++] = v; }
};

// Sutherland-Hodgman: writes to `clipped` the part of the polygon where normal . x <= offset.
// (Into the caller's second polygon rather than returned: the four clips alternate between two
// polygons instead of copying one back each time.)
void clipByPlane(const ClipPolygon& polygon, const Vec3& normal, double offset, std::uint32_t planeTag,
                 ClipPolygon& clipped) {
  clipped.size = 0;
  if (polygon.size == 0) return;
  // Each vertex's distance is computed once and carried to the next edge, which starts there.
  const ClipVertex* previous = &polygon.vertices[polygon.size - 1];
  double previousDistance = normal.dot(previous->position) - offset;
  for (int i = 0; i < polygon.size; ++i) {
    const ClipVertex& current = polygon.vertices[i];
    const double currentDistance = normal.dot(current.position) - offset;
    if ((previousDistance <= 0.0) != (currentDistance <= 0.0)) {
      const double t = previousDistance / (previousDistance - currentDistance);
      const Vec3 crossing = previous->position + t * (current.position - previous->position);
      // Entering, the polygon arrives along the plane; leaving, it departs along it.
      if (currentDistance <= 0.0) clipped.push({crossing, planeTag, previous->outTag});
      else clipped.push({crossing, previous->outTag, planeTag});
    }
    if (currentDistance <= 0.0) clipped.push(current);
    previous = &current;
    previousDistance = currentDistance;
  }
}

// A clipped vertex this close to the segment between its neighbours (measured in the reference
// plane) is dropped: the support polygon's edge moves by at most this much, a tenth of the skin.
constexpr double kStraightVertexTolerance = 0.1 * kContactSkin;

// Drops the vertices that lie on the straight line between their neighbours, within
// kStraightVertexTolerance. Where an incident edge runs along a side plane of the reference face
// (a box resting on another of the same depth, as in a wall or a pyramid), the edge crosses the
// plane wherever rounding and a hair of yaw put it, anywhere along its length, and Sutherland-Hodgman
// makes that crossing a vertex: it moved by centimetres between steps while the boxes stood still,
// took the place of the corner beside it among the four points a pair keeps, and every such jump
// made the next solve redistribute the load the warm start had right. The crossing lies on the
// polygon's straight edge, so it adds nothing to the support polygon, and without it the corners
// stay put.
void dropStraightVertices(ClipPolygon& polygon, const Vec3& normal) {
  const auto inPlane = [&](const Vec3& x) { return Vec3(x - normal.dot(x) * normal); };
  for (int i = 0; i < polygon.size && polygon.size > 3;) {
    const Vec3 previous = inPlane(polygon.vertices[(i + polygon.size - 1) % polygon.size].position);
    const Vec3 next = inPlane(polygon.vertices[(i + 1) % polygon.size].position);
    const Vec3 chord = next - previous, offset = inPlane(polygon.vertices[i].position) - previous;
    const double squaredLength = chord.squaredNorm();
    const double along = squaredLength > 0.0 ? chord.dot(offset) / squaredLength : 0.0;
    const bool straight = along >= 0.0 && along <= 1.0 &&
                          (offset - along * chord).squaredNorm() <= kStraightVertexTolerance * kStraightVertexTolerance;
    if (!straight) {
      ++i;
      continue;
    }
    std::copy(polygon.vertices.begin() + i + 1, polygon.vertices.begin() + polygon.size, polygon.vertices.begin() + i);
    --polygon.size;
    i = 0;  // a neighbour of the dropped vertex may now be straight
  }
}

// Face contact: the incident box's face most opposed to the reference normal, clipped to the
// side planes of the reference face and freed of straight vertices; each remaining vertex faces its
// projection on that face.
void addFaceContacts(const BoxShape& reference, const Pose& referencePose, int referenceAxis,
                     const Vec3& referenceNormal, const BoxShape& incident, const Pose& incidentPose,
                     bool referenceIsA, ContactBuffer& buffer) {
  const Vec3 alignment = incidentPose.rotation.transpose() * referenceNormal;
  int incidentAxis = 0;
  alignment.cwiseAbs().maxCoeff(&incidentAxis);
  const double incidentSign = alignment[incidentAxis] > 0.0 ? -1.0 : 1.0;

  // The incident face's corners in order around it; edge k runs from corner k to corner k + 1.
  const int u = (incidentAxis + 1) % 3, v = (incidentAxis + 2) % 3;
  ClipPolygon polygon, scratch;
  for (std::uint32_t k = 0; k < 4; ++k) {
    int vertexIndex = (incidentSign > 0.0 ? 1 : 0) << incidentAxis;
    // Corners k = 0..3 take the signs (+,+), (-,+), (-,-), (+,-) along (u, v): once around the face.
    // (Computed, not read from a constexpr table: GCC 12 with -fsanitize=address,undefined
    // miscompiled the table lookup into an out-of-bounds read.)
    const bool positiveU = k == 0 || k == 3, positiveV = k < 2;
    vertexIndex |= (positiveU ? 1 : 0) << u | (positiveV ? 1 : 0) << v;
    polygon.push({boxVertex(incident, incidentPose, vertexIndex), (k + 3) % 4, k});
  }

  std::uint32_t planeTag = 4;
  for (int slot = 1; slot <= 2; ++slot) {
    const int axis = (referenceAxis + slot) % 3;
    const Vec3 sideNormal = referencePose.rotation.col(axis);
    const double centre = sideNormal.dot(referencePose.position), half = reference.halfExtents[axis];
    clipByPlane(polygon, sideNormal, centre + half, planeTag++, scratch);
    clipByPlane(scratch, -sideNormal, -centre + half, planeTag++, polygon);
  }
  dropStraightVertices(polygon, referenceNormal);

  const double referenceSign = referenceNormal.dot(referencePose.rotation.col(referenceAxis)) > 0.0 ? 1.0 : -1.0;
  const Vec3 faceCentre = referencePose.position + reference.halfExtents[referenceAxis] * referenceNormal;
  const std::uint32_t faces = static_cast<std::uint32_t>(boxFaceIndex(referenceAxis, referenceSign) << 9 |
                                                         boxFaceIndex(incidentAxis, incidentSign) << 6);
  for (int i = 0; i < polygon.size; ++i) {
    const Vec3& onIncident = polygon.vertices[i].position;
    const Vec3 onReference = onIncident - referenceNormal.dot(onIncident - faceCentre) * referenceNormal;
    const std::uint32_t feature = faces | polygon.vertices[i].id();
    if (referenceIsA) buffer.add(onReference, onIncident, referenceNormal, feature);
    else buffer.add(onIncident, onReference, -referenceNormal, feature);
  }
}

// The edge of the box along body axis `axis` that lies farthest along `direction`, and its id
// (4 * axis + the sides taken on the two other axes).
std::pair<Segment, std::uint32_t> supportingEdge(const BoxShape& box, const Pose& pose, int axis,
                                                 const Vec3& direction) {
  Vec3 centre = pose.position;
  std::uint32_t sides = 0;
  for (int slot = 1; slot <= 2; ++slot) {
    const int other = (axis + slot) % 3;
    const bool positive = pose.rotation.col(other).dot(direction) >= 0.0;
    centre += (positive ? 1.0 : -1.0) * box.halfExtents[other] * pose.rotation.col(other);
    sides |= (positive ? 1u : 0u) << (slot - 1);
  }
  const Vec3 halfEdge = box.halfExtents[axis] * pose.rotation.col(axis);
  return {Segment{centre - halfEdge, centre + halfEdge}, static_cast<std::uint32_t>(4 * axis) | sides};
}

}  // namespace

// Separating axis test over the 15 axes (3 faces of each box, 9 edge-edge crossings). A face axis
// gives a face contact of up to 8 clipped points (reduced to 4 by the buffer); an edge axis gives
// the single closest point of the two supporting edges.
void collideBoxBox(const BoxShape& a, const Pose& poseA, const BoxShape& b, const Pose& poseB,
                   ContactBuffer& buffer) {
  const std::optional<SeparatingAxis> found = leastOverlapAxis(a, poseA, b, poseB, buffer.margin());
  if (!found) return;
  const SeparatingAxis& axis = *found;
  switch (axis.kind) {
    case SeparatingAxis::kFaceOfA:
      addFaceContacts(a, poseA, axis.axisA, axis.normal, b, poseB, true, buffer);
      break;
    case SeparatingAxis::kFaceOfB:
      addFaceContacts(b, poseB, axis.axisB, -axis.normal, a, poseA, false, buffer);
      break;
    case SeparatingAxis::kEdges: {
      const auto [edgeA, idA] = supportingEdge(a, poseA, axis.axisA, axis.normal);
      const auto [edgeB, idB] = supportingEdge(b, poseB, axis.axisB, -axis.normal);
      const auto [s, t] = closestParameters(edgeA, edgeB);
      buffer.add(edgeA.at(s), edgeB.at(t), axis.normal, kEdgeContact | idA << 4 | idB);
      break;
    }
  }
}

}  // namespace contactlab
