#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"

namespace contactlab {

// The sphere's centre against the mesh (its nearest surface point: a sphere on a face touches
// inside the face, far from any vertex), and the mesh's contact points near the sphere against
// the sphere's exact distance.
void collideMeshSphere(const MeshCollisionModel& mesh, const Pose& meshPose, const SphereShape& sphere,
                       const Pose& spherePose, ContactBuffer& buffer) {
  const Vec3& centre = spherePose.position;
  addMeshBallContact(mesh, meshPose, true, centre, sphere.radius, kSecondShapeFeature, buffer);
  // A vertex at the very centre has no direction to the surface; any normal is as good as another
  // there, and this one points out of the mesh's centre of mass.
  const Vec3 away = centre - meshPose.position;
  const Vec3 fallbackNormal = away.norm() > 0.0 ? Vec3(away.normalized()) : Vec3::UnitZ();
  mesh.vertexTree().forEachNear(toBody(meshPose, centre), sphere.radius + buffer.margin(), [&](int vertex) {
    addBallContact(toWorld(meshPose, mesh.contactPoints()[vertex]), 0.0, centre, sphere.radius,
                   fallbackNormal, static_cast<std::uint32_t>(vertex), buffer);
  });
}

}  // namespace contactlab
