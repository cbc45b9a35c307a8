#pragma once
// Closed, consistently oriented surfaces built in code (no mesh files in the repository): test
// solids, solids of revolution (torus, glass, funnel, chess pieces) and the jack. Every mesh here
// passes requireClosedOrientedSurface; sizes are in metres before a scene's scale.
#include <vector>

#include "contactlab/body.h"
#include "contactlab/mesh.h"

namespace contactlab {

// The box [-h, h] (12 triangles).
TriangleMesh boxMesh(const Vec3& halfExtents);
// A sphere of `radius` with `slices` meridians and `stacks` bands between the poles.
TriangleMesh uvSphereMesh(double radius, int slices, int stacks);

// A point of a profile in the (r, z) half-plane, revolved about the z axis.
struct ProfilePoint {
  double r = 0.0;
  double z = 0.0;
};
// The solid swept by revolving `profile` about z with `segments` steps round the axis. A profile
// whose first and last points lie on the axis (r = 0) and the rest off it gives a solid without a
// hole (a pole at each end); a profile entirely off the axis is read as a closed loop (its last
// point joins its first) and gives a ring. Either way the triangles are oriented outwards.
TriangleMesh revolvedMesh(const std::vector<ProfilePoint>& profile, int segments);

// Three capsules of `armRadius` along x, y and z, each reaching `reach` from the centre to its tip:
// the closed surface of their union, by marching tetrahedra on its signed distance, then simplified
// (simplifyMesh) to about `targetTriangles`.
TriangleMesh jackMesh(double reach, double armRadius, int targetTriangles);
// Tube of radius `tubeRadius` round the z axis at distance `ringRadius`.
TriangleMesh torusMesh(double ringRadius, double tubeRadius, int ringSegments, int tubeSegments);
// A cup standing on z = 0: outer radius, height, wall and base thickness.
TriangleMesh glassMesh(double outerRadius, double height, double wall, double base);
// A thick-walled open cone (mouth up) ending in a cylindrical spout, both open: a ring-like solid
// with its spout's lower end at z = 0.
TriangleMesh funnelMesh(double mouthRadius, double spoutRadius, double coneHeight, double spoutLength, double wall);

// Chess pieces as solids of revolution, standing on z = 0, the king 1 tall (scale them together).
// The knight is a revolved stand-in (a base and a tilted-looking cap), not a horse's head.
enum class ChessPiece { Pawn, Rook, Knight, Bishop, Queen, King };
TriangleMesh chessPieceMesh(ChessPiece piece);

// A body shape's surface in its body frame, for output (VTK): spheres and capsules tessellated at
// 24 segments round, a mesh's own surface, a plane as a square of `planeHalfSize` about the point of
// the plane nearest the origin (two triangles; not closed).
TriangleMesh shapeSurface(const Shape& shape, double planeHalfSize);

}  // namespace contactlab
