#pragma once
// The elastic ring of Verschoor & Jalba 2019's "Rings" scene (sec. 6.2: 108 tetrahedra, 72
// vertices, 144 boundary triangles each), built tetrahedron by tetrahedron instead of by tetgen.
#include "geometry/tet_mesh.h"

namespace contactlab {

// A ring of square cross-section round the z axis, centred at the origin: `segments` sections at
// angles 2 pi k / segments, each the square of half width `sectionHalfWidth` centred at distance
// `majorRadius` from the axis (radially from majorRadius - sectionHalfWidth to majorRadius +
// sectionHalfWidth, z from -sectionHalfWidth to +sectionHalfWidth). Vertex 4 k + c is corner c of
// section k, the corners in the order (inner, bottom), (outer, bottom), (outer, top), (inner, top).
// Consecutive sections (the last joining the first) bound a straight segment, a prism over a
// trapezoid, cut into 6 positively oriented tetrahedra; every segment is cut the same way, so a
// section's square is split along the same diagonal (corner 0 to corner 2) from both sides and the
// mesh is conforming. With n segments, R the major radius and w the half width: 4 n vertices, all
// on the boundary, 6 n tetrahedra, 8 n boundary triangles (extractBoundary: closed, facing out),
// and the volume of the polygonal ring, 4 n R w^2 sin(2 pi / n) (n trapezoids of area
// 2 R w sin(2 pi / n), 2 w thick).
// Throws std::invalid_argument for a size that is not positive and finite, a section half width not
// below the major radius (the ring would reach the axis), or fewer than 3 segments.
TetMesh ringTetMesh(double majorRadius, double sectionHalfWidth, int segments = 18);

}  // namespace contactlab
