#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"
#include "collision/plane_geometry.h"

namespace contactlab {

// Every contact point below the plane's surface plus the margin, found by the vertex tree's
// half-space query in the mesh frame, keyed by its vertex index.
void collidePlaneMesh(const PlaneShape& plane, const Pose&, const MeshCollisionModel& mesh, const Pose& meshPose,
                      ContactBuffer& buffer) {
  const double normalLength = plane.normal.norm();
  const Vec3 normal = plane.normal / normalLength;
  // {x : normal . x <= offset + margin} in the mesh's body coordinates.
  const Vec3 bodyNormal = meshPose.rotation.transpose() * normal;
  const double bodyOffset = plane.offset / normalLength - normal.dot(meshPose.position) + buffer.margin();
  mesh.vertexTree().forEachBelowPlane(bodyNormal, bodyOffset, [&](int vertex) {
    addPlaneBallContact(plane, toWorld(meshPose, mesh.contactPoints()[vertex]), 0.0,
                        static_cast<std::uint32_t>(vertex), buffer);
  });
}

}  // namespace contactlab
