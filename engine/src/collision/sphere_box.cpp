#include "collision/box_geometry.h"
#include "collision/pair_functions.h"

namespace contactlab {

// The sphere's centre against the box: outside, the nearest surface point (face, edge or vertex);
// inside, the nearest face. The feature is the box region the centre lies in.
void collideSphereBox(const SphereShape& sphere, const Pose& spherePose, const BoxShape& box, const Pose& boxPose,
                      ContactBuffer& buffer) {
  const BoxSurfacePoint surface = closestBoxSurfacePoint(box, boxPose, spherePose.position);
  addBallBoxContact(spherePose.position, sphere.radius, surface, surface.region, buffer);
}

}  // namespace contactlab
