#include "collision/box_geometry.h"
#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"

namespace contactlab {

// The mesh's surface vertices near the box against the box's exact signed distance, and the box's
// corners against the mesh. Box edges crossing a mesh face with no corner inside are not seen.
// The vertices near the box are found in the box's frame: the vertex tree's node boxes, turned into
// it, against the box's own slabs grown by the margin. A vertex within the margin of the box lies
// within them, so no contact is lost; the box's kDOP in the mesh's frame, used until 25 Nov, grew
// with the turn (a tilted jack on a 20 m floor slab proposed its whole top as well).
void collideMeshBox(const MeshCollisionModel& mesh, const Pose& meshPose, const BoxShape& box, const Pose& boxPose,
                    ContactBuffer& buffer) {
  const Pose meshInBox = relativePose(boxPose, meshPose);
  const KdopTree& vertices = mesh.vertexTree();
  const std::span<const Vec3> boxAxes = vertices.axes().first(3);  // x, y, z: the box's face normals
  Kdop boxSlabs = Kdop::empty();
  for (int i = 0; i < 3; ++i) boxSlabs.lower[i] = -box.halfExtents[i], boxSlabs.upper[i] = box.halfExtents[i];
  // Rounding of the turned node boxes, relative to the coordinates involved.
  const double slack = 1e-9 * (1.0 + meshInBox.position.norm() + box.halfExtents.norm());
  vertices.forEachBoxOverlapping(
      OrientedBoxTest(boxAxes, meshInBox, buffer.margin() + slack), boxSlabs,
      [&](int vertex) {
        const Vec3 point = toWorld(meshPose, mesh.geometry().surface.vertices[vertex]);
        addBallBoxContact(point, 0.0, closestBoxSurfacePoint(box, boxPose, point), static_cast<std::uint32_t>(vertex),
                          buffer);
      });
  for (int corner = 0; corner < 8; ++corner)
    addMeshBallContact(mesh, meshPose, true, boxVertex(box, boxPose, corner), 0.0,
                       kSecondShapeFeature | static_cast<std::uint32_t>(corner), buffer);
}

}  // namespace contactlab
