#pragma once
// Exact mass properties of a closed triangle mesh, and the checks that make them meaningful.
#include <string>

#include "contactlab/mesh.h"

namespace contactlab {

// Throws MeshError naming `source` unless the mesh is a closed, consistently oriented surface: every
// index in range, no triangle repeating a vertex, and every directed edge (a, b) used by exactly one
// triangle whose neighbour across it uses (b, a). Vertices must be finite.
void requireClosedOrientedSurface(const TriangleMesh& mesh, const std::string& source);

struct MeshMassProperties {
  double volume = 0.0;
  Vec3 centreOfMass = Vec3::Zero();
  Mat3 inertiaAboutCentreOfMass = Mat3::Zero();  // unit density, the mesh's own axes
};

// Volume, centre of mass and inertia tensor of the solid a closed oriented surface bounds, at unit
// density, by the divergence theorem: the solid is the signed sum of the tetrahedra (p, a, b, c)
// joining a reference point p to every triangle (Tonon 2004, "Explicit exact formulas for the 3-D
// tetrahedron inertia tensor in terms of its vertex coordinates"). Exact up to rounding for any
// closed mesh, convex or not. The surface must have passed requireClosedOrientedSurface.
MeshMassProperties integrateMassProperties(const TriangleMesh& mesh);

struct PrincipalAxes {
  Mat3 axes = Mat3::Identity();  // columns: the principal directions, a right-handed rotation
  Vec3 moments = Vec3::Zero();   // the inertia about each column's direction
};

// The eigen-decomposition of a symmetric inertia tensor. A tensor diagonal to kNearlyDiagonal of its
// trace keeps the input axes and its diagonal: a shape symmetric by design (a cube, a sphere, a
// jack) has equal or nearly equal moments, whose eigenvectors are arbitrary or decided by the
// discretization's rounding noise, and keeping the input's axes keeps it aligned as its author drew
// it. The products of inertia dropped then change its dynamics by less than 1e-4 relative, far
// below the mesh's own discretization error (the jack's off-diagonals are 6e-5 of its trace).
inline constexpr double kNearlyDiagonal = 1e-4;
PrincipalAxes principalAxes(const Mat3& inertia);

}  // namespace contactlab
