#include "collision/pair_functions.h"
#include "collision/segment_geometry.h"

namespace contactlab {

// The sphere against the nearest point of the capsule's axis segment.
void collideCapsuleSphere(const CapsuleShape& capsule, const Pose& capsulePose, const SphereShape& sphere,
                          const Pose& spherePose, ContactBuffer& buffer) {
  const Segment axis = capsuleSegment(capsule, capsulePose);
  const double t = closestParameter(axis, spherePose.position);
  // A centre on the axis: push out sideways, along the capsule's body x axis.
  addBallContact(axis.at(t), capsule.radius, spherePose.position, sphere.radius, capsulePose.rotation.col(0),
                 segmentFeature(t), buffer);
}

}  // namespace contactlab
