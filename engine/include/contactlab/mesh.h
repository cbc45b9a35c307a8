#pragma once
// Mesh bodies: the geometry that every body made of the same mesh shares. A MeshGeometry is
// immutable once built; bodies hold it through MeshShape's shared pointer, so 362 jacks keep one
// copy of the jack. The collision module builds its bounding-volume hierarchies per World from
// this data (with the World's kDOP setting), so the geometry itself does not depend on them.
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

// A closed, consistently oriented surface: triangles are counter-clockwise seen from outside, so
// (b - a) x (c - a) points out of the solid.
struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

struct MeshGeometry {
  // What the mesh was made from, as a scene names it ("jack", "bunny", an OBJ path, ...): used in
  // error messages and written back when a scene is saved, with the scale and whether source is an
  // OBJ file path (scene key "obj") or a procedural mesh name (scene key "mesh").
  std::string source;
  bool sourceIsObjFile = false;
  double scale = 1.0;  // uniform factor applied to the source's coordinates before anything else
  // Body frame: the centre of mass is at the origin and the principal axes of inertia lie along
  // x, y and z, as for the primitive shapes (Body::inertiaBody holds principal moments).
  TriangleMesh surface;
  // The solid's tetrahedralization (by the tetgen program unless directTetrahedra) in the same
  // frame. Its vertex list starts with the surface's vertices, in the same order; interior
  // (Steiner) points follow.
  std::vector<Vec3> tetVertices;
  std::vector<std::array<int, 4>> tetrahedra;  // positively oriented: det[b-a, c-a, d-a] > 0
  // The tetrahedra were built with the surface (the "ring", engine/src/geometry/ring_mesh.h), not
  // by tetgen, and the surface is their boundary. A deformable body made of this mesh uses them as
  // they are (its max_tet_volume does not apply); the vertex order above holds all the same.
  bool directTetrahedra = false;
  // Exact mass properties of the closed surface at unit density, in the body frame above.
  double volume = 0.0;
  Vec3 principalInertiaPerUnitDensity = Vec3::Zero();
  double boundingRadius = 0.0;  // of the smallest origin-centred ball holding the surface
  Vec3 boundsLower = Vec3::Zero(), boundsUpper = Vec3::Zero();  // the surface's box in the body frame
  // Where the body frame sits in the source's own coordinates (after scaling): x_source =
  // bodyToSourceRotation x_body + centreOfMassInSource. A scene uses it to place a mesh by its
  // file's frame instead of its centre of mass and principal axes.
  Quat bodyToSourceRotation = Quat::Identity();
  Vec3 centreOfMassInSource = Vec3::Zero();
};

// A mesh that cannot be used (open, inconsistently oriented, unreadable file, tetgen failure...):
// the message names the mesh's source and the problem.
class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MeshShape {
  std::shared_ptr<const MeshGeometry> geometry;
};

}  // namespace contactlab
