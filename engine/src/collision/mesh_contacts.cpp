#include "collision/mesh_contacts.h"

namespace contactlab {

Pose relativePose(const Pose& frame, const Pose& other) {
  return {toBody(frame, other.position), frame.rotation.transpose() * other.rotation};
}

void addMeshBallContact(const MeshCollisionModel& mesh, const Pose& meshPose, bool meshIsFirst, const Vec3& centre,
                        double radius, std::uint32_t feature, ContactBuffer& buffer) {
  const auto surface = mesh.closestSurfacePoint(toBody(meshPose, centre), buffer.margin() + radius);
  if (!surface) return;
  const Vec3 surfacePoint = toWorld(meshPose, surface->point);
  const Vec3 outward = meshPose.rotation * surface->outwardNormal;
  // The ball's point nearest the mesh lies against the outward normal from its centre.
  const Vec3 ballPoint = centre - radius * outward;
  if (meshIsFirst) buffer.add(surfacePoint, ballPoint, outward, feature);
  else buffer.add(ballPoint, surfacePoint, -outward, feature);
}

}  // namespace contactlab
