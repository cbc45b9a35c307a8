#include "collision/triangle_geometry.h"

#include <array>

#include "collision/segment_geometry.h"

namespace contactlab {

// Minimizes |a + s (b - a) + t (c - a) - p|^2 over the triangle s, t >= 0, s + t <= 1: the
// unconstrained minimum if it lies inside, else the minimum over the nearest of the three edges
// (a convex quadratic on a convex set has its constrained minimum on the boundary when the free
// one is outside, and then on the edge whose closest point is nearest).
TrianglePoint closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double abab = ab.dot(ab), abac = ab.dot(ac), acac = ac.dot(ac);
  const double abap = ab.dot(ap), acap = ac.dot(ap);
  const double det = abab * acac - abac * abac;
  const double s = (acac * abap - abac * acap) / det;
  const double t = (abab * acap - abac * abap) / det;
  if (s >= 0.0 && t >= 0.0 && s + t <= 1.0) return {a + s * ab + t * ac, true};

  TrianglePoint best{a, false};
  double bestDistance = -1.0;
  const std::array<Segment, 3> edges{Segment{a, b}, Segment{b, c}, Segment{c, a}};
  for (int k = 0; k < 3; ++k) {
    const double u = closestParameter(edges[k], p);
    const Vec3 q = edges[k].at(u);
    const double d = (q - p).squaredNorm();
    if (bestDistance >= 0.0 && d >= bestDistance) continue;
    best.point = q;
    bestDistance = d;
    best.edge = u > 0.0 && u < 1.0 ? k : -1;
    best.corner = u <= 0.0 ? k : u >= 1.0 ? (k + 1) % 3 : -1;
  }
  return best;
}

bool tetrahedronContains(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // Each face's orientation determinant with p in place of the opposite vertex: all four are
  // non-negative exactly when p's barycentric coordinates are.
  auto volume = [](const Vec3& o, const Vec3& x, const Vec3& y, const Vec3& z) { return (x - o).dot((y - o).cross(z - o)); };
  return volume(p, b, c, d) >= 0.0 && volume(a, p, c, d) >= 0.0 && volume(a, b, p, d) >= 0.0 &&
         volume(a, b, c, p) >= 0.0;
}

}  // namespace contactlab
