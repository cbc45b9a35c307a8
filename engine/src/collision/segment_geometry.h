#pragma once
// Segments: the core of capsules (and box edges), and closest points between them.
#include <cstdint>
#include <utility>

#include "contactlab/body.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

struct Segment {
  Vec3 start;
  Vec3 end;
  Vec3 at(double t) const { return start + t * (end - start); }
  Vec3 direction() const { return end - start; }
};

// The capsule's axis segment in world coordinates (the body z axis, centred on the pose).
Segment capsuleSegment(const CapsuleShape& capsule, const Pose& pose);

// Parameter in [0, 1] of the point of `segment` closest to `point`.
double closestParameter(const Segment& segment, const Vec3& point);

// Parameters (s on a, t on b) of a closest pair of points. Parallel segments have many such pairs;
// then s is the smallest one that works, so the choice is deterministic.
std::pair<double, double> closestParameters(const Segment& a, const Segment& b);

// Which feature of a segment a parameter names (0 start, 1 interior, 2 end), for contact ids.
std::uint32_t segmentFeature(double t);

// Some unit vector perpendicular to v (v non-zero), for normals of degenerate configurations.
Vec3 anyPerpendicular(const Vec3& v);

}  // namespace contactlab
