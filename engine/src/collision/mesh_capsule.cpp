#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"
#include "collision/segment_geometry.h"

namespace contactlab {

// The capsule's two end balls against the mesh (a capsule lying on a face touches along its axis,
// which the ends bound), and the mesh's contact points near the capsule's box
// (forEachVertexNearBox) against the capsule's exact distance.
void collideMeshCapsule(const MeshCollisionModel& mesh, const Pose& meshPose, const CapsuleShape& capsule,
                        const Pose& capsulePose, ContactBuffer& buffer) {
  const Segment axis = capsuleSegment(capsule, capsulePose);
  addMeshBallContact(mesh, meshPose, true, axis.start, capsule.radius, kSecondShapeFeature, buffer);
  addMeshBallContact(mesh, meshPose, true, axis.end, capsule.radius, kSecondShapeFeature | 1u, buffer);

  const Vec3 halfExtents(capsule.radius, capsule.radius, capsule.halfLength + capsule.radius);
  const Vec3 fallbackNormal = capsulePose.rotation.col(0);  // any direction across the axis
  forEachVertexNearBox(mesh, meshPose, capsulePose, halfExtents, buffer.margin(), [&](int vertex) {
    const Vec3 point = toWorld(meshPose, mesh.contactPoints()[vertex]);
    addBallContact(point, 0.0, axis.at(closestParameter(axis, point)), capsule.radius, fallbackNormal,
                   static_cast<std::uint32_t>(vertex), buffer);
  });
}

}  // namespace contactlab
