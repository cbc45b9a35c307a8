#pragma once
// Closest points on triangles and point-in-tetrahedron tests, for mesh contacts.
#include "contactlab/math.h"

namespace contactlab {

struct TrianglePoint {
  Vec3 point;
  bool interior;  // inside the face, not on an edge or at a vertex
  // Where it lies when not interior: on edge k (from corner k to corner k + 1 mod 3) between its
  // ends, or at corner k; the other one is -1.
  int edge = -1;
  int corner = -1;
};

// The point of triangle abc nearest to p (a non-degenerate triangle).
TrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

// Whether p lies in the positively oriented tetrahedron abcd (det[b-a, c-a, d-a] > 0) or on its
// boundary: p is on the inner side of all four faces.
bool tetrahedronContains(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

}  // namespace contactlab
