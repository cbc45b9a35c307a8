#include "collision/box_geometry.h"
#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"

namespace contactlab {

// The mesh's contact points near the box (forEachVertexNearBox) against the box's exact signed
// distance, and the box's corners against the mesh. Box edges crossing a mesh face with no corner
// inside are not seen.
void collideMeshBox(const MeshCollisionModel& mesh, const Pose& meshPose, const BoxShape& box, const Pose& boxPose,
                    ContactBuffer& buffer) {
  forEachVertexNearBox(mesh, meshPose, boxPose, box.halfExtents, buffer.margin(), [&](int vertex) {
    const Vec3 point = toWorld(meshPose, mesh.contactPoints()[vertex]);
    addBallBoxContact(point, 0.0, closestBoxSurfacePoint(box, boxPose, point), static_cast<std::uint32_t>(vertex),
                      buffer);
  });
  for (int corner = 0; corner < 8; ++corner)
    addMeshBallContact(mesh, meshPose, true, boxVertex(box, boxPose, corner), 0.0,
                       kSecondShapeFeature | static_cast<std::uint32_t>(corner), buffer);
}

}  // namespace contactlab
