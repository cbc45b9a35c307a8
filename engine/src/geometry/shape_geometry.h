#pragma once
// Geometric queries on shapes that do not depend on another shape: bounds and mass properties.
#include "contactlab/body.h"

namespace contactlab {

struct Pose {
  Vec3 position = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();  // body -> world
};

struct Aabb {
  Vec3 lower = Vec3::Zero();
  Vec3 upper = Vec3::Zero();
  bool overlaps(const Aabb& o) const {
    return (lower.array() <= o.upper.array()).all() && (o.lower.array() <= upper.array()).all();
  }
  bool contains(const Vec3& p) const { return (p.array() >= lower.array()).all() && (p.array() <= upper.array()).all(); }
  Aabb inflated(double by) const { return {lower.array() - by, upper.array() + by}; }
};

// Half-spaces are unbounded; their box is clamped to this extent so grid arithmetic stays finite.
inline constexpr double kUnboundedExtent = 1e6;

Aabb shapeAabb(const Shape& shape, const Pose& pose);
// Radius of the smallest origin-centred ball holding the shape (0 for a plane: it never rotates).
double boundingRadius(const Shape& shape);

struct MassProperties {
  double volume = 0.0;
  Vec3 principalInertiaPerUnitDensity = Vec3::Zero();  // about the centre of mass, body axes
};
// Exact volume and inertia of a solid shape of unit density. Planes have none (they are static).
MassProperties unitDensityMassProperties(const Shape& shape);

// Throws SceneError-style messages via the returned string: empty when the shape is valid.
std::string shapeProblem(const Shape& shape);
// What is wrong with a mesh's data ("" if nothing): no triangles or tetrahedra, an index out of
// range, a tetrahedron vertex list that does not start with the surface's vertices, a coordinate
// that is not finite. shapeProblem checks it for every mesh body (so a World refuses a bad
// hand-built mesh with a SceneError naming the body), and the collision model before it builds its
// trees, where a NaN would make the median splits compare inconsistently.
std::string meshGeometryProblem(const MeshGeometry& mesh);

}  // namespace contactlab
