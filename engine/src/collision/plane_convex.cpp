#include "collision/box_geometry.h"
#include "collision/pair_functions.h"
#include "collision/plane_geometry.h"
#include "collision/segment_geometry.h"

namespace contactlab {

void addPlaneBallContact(const PlaneShape& plane, const Vec3& centre, double radius, std::uint32_t feature,
                         ContactBuffer& buffer) {
  const double normalLength = plane.normal.norm();
  const Vec3 normal = plane.normal / normalLength;
  const double heightAbovePlane = normal.dot(centre) - plane.offset / normalLength;
  buffer.add(centre - heightAbovePlane * normal, centre - radius * normal, normal, feature);
}

void collidePlaneSphere(const PlaneShape& plane, const Pose&, const SphereShape& sphere, const Pose& spherePose,
                        ContactBuffer& buffer) {
  addPlaneBallContact(plane, spherePose.position, sphere.radius, 0, buffer);
}

// Every box vertex closer than the margin, keyed by its vertex index. A resting box gives its four
// lowest corners; a box sunk deeper gives up to eight, which the buffer reduces to four.
void collidePlaneBox(const PlaneShape& plane, const Pose&, const BoxShape& box, const Pose& boxPose,
                     ContactBuffer& buffer) {
  for (int vertex = 0; vertex < 8; ++vertex)
    addPlaneBallContact(plane, boxVertex(box, boxPose, vertex), 0.0, static_cast<std::uint32_t>(vertex), buffer);
}

// The two end caps: a capsule lying on the plane touches along its whole axis, and the two ends
// bound that line of contact.
void collidePlaneCapsule(const PlaneShape& plane, const Pose&, const CapsuleShape& capsule,
                         const Pose& capsulePose, ContactBuffer& buffer) {
  const Segment axis = capsuleSegment(capsule, capsulePose);
  addPlaneBallContact(plane, axis.start, capsule.radius, 0, buffer);
  addPlaneBallContact(plane, axis.end, capsule.radius, 1, buffer);
}

}  // namespace contactlab
