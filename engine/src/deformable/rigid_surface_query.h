#pragma once
// The nearest point of a rigid body's surface to a point, for the constraints of deformable vertices
// against rigid bodies (Verschoor & Jalba sec. 2.3, eq. 6 with the rigid surface as the face side).
#include <optional>

#include "collision/mesh_model.h"
#include "contactlab/body.h"

namespace contactlab {

struct RigidSurfacePoint {
  Vec3 point;     // on the surface, world
  Vec3 normal;    // unit, outward from the rigid body
  double distance;  // signed distance of the query point: negative inside the body
};

// For a query point inside the shape at `pose` or within `reach` of its surface; nothing farther
// out. Mesh shapes need their model in `meshes` (MeshModelCache::prepare).
std::optional<RigidSurfacePoint> nearestRigidSurfacePoint(const Shape& shape, const Pose& pose,
                                                          const MeshModelCache& meshes, const Vec3& point, double reach);
// The same for a body at its current pose.
inline std::optional<RigidSurfacePoint> nearestRigidSurfacePoint(const Body& body, const MeshModelCache& meshes,
                                                                 const Vec3& point, double reach) {
  return nearestRigidSurfacePoint(body.shape, {body.position, body.rotation()}, meshes, point, reach);
}

}  // namespace contactlab
