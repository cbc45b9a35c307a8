#include "geometry/ring_mesh.h"

#include <array>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace contactlab {
// This file's helpers, in a namespace of its own: a unity build compiles several files as one, and
// their file-local names must not meet.
namespace ring_mesh_impl {
namespace {

[[noreturn]] void reject(const std::string& what, double majorRadius, double sectionHalfWidth, int segments) {
  std::ostringstream message;
  message << "ringTetMesh: " << what << " (got major radius " << majorRadius << ", section half width "
          << sectionHalfWidth << ", " << segments << " segments)";
  throw std::invalid_argument(message.str());
}

// Corner c of a section by its radial (a) and vertical (b) side, 0 inner / bottom, 1 outer / top.
constexpr std::array<std::array<int, 2>, 2> kCorner{{{0, 3}, {1, 2}}};

}  // namespace
}  // namespace ring_mesh_impl

TetMesh ringTetMesh(double majorRadius, double sectionHalfWidth, int segments) {
  using ring_mesh_impl::reject;
  // Written so that NaN fails too.
  if (!(std::isfinite(majorRadius) && majorRadius > 0.0))
    reject("the major radius must be positive and finite", majorRadius, sectionHalfWidth, segments);
  if (!(std::isfinite(sectionHalfWidth) && sectionHalfWidth > 0.0))
    reject("the section half width must be positive and finite", majorRadius, sectionHalfWidth, segments);
  if (!(sectionHalfWidth < majorRadius))
    reject("the section half width must be below the major radius (the ring would reach its axis)", majorRadius,
           sectionHalfWidth, segments);
  if (segments < 3) reject("a ring needs at least 3 segments", majorRadius, sectionHalfWidth, segments);

  TetMesh mesh;
  mesh.vertices.reserve(4 * static_cast<std::size_t>(segments));
  const double inner = majorRadius - sectionHalfWidth, outer = majorRadius + sectionHalfWidth;
  for (int k = 0; k < segments; ++k) {
    const double angle = 2.0 * std::numbers::pi * k / segments;
    const Vec3 radial(std::cos(angle), std::sin(angle), 0.0), up = Vec3::UnitZ();
    mesh.vertices.push_back(inner * radial - sectionHalfWidth * up);
    mesh.vertices.push_back(outer * radial - sectionHalfWidth * up);
    mesh.vertices.push_back(outer * radial + sectionHalfWidth * up);
    mesh.vertices.push_back(inner * radial + sectionHalfWidth * up);
  }

  // Each segment is the image of the unit cube in local coordinates p = (radial side, section step,
  // vertical side), a right-handed frame (radial x tangential = z), cut by Kuhn's split as in
  // boxTetMesh: one tetrahedron per path from (0,0,0) to (1,1,1) along the axes in the order of a
  // permutation, the middle corners swapped for the odd ones. Each tetrahedron has one vertical edge
  // (the path's step in z) of length 2 w, and its volume is 2 w / 6 times the area of the triangle
  // (inner k, one of outer k / inner k+1, outer k+1) of the segment's trapezoid in the xy plane:
  // never zero while the trapezoid is convex (inner radius > 0, 2 pi / segments < pi), so the signs
  // are those of the cube's split. On a section (p[1] fixed) the split's diagonal runs from (0,0) to
  // (1,1), corner 0 to corner 2, whichever segment it is seen from.
  constexpr std::array<std::array<int, 3>, 6> kOrders{
      {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}};
  const auto index = [&](int segment, const std::array<int, 3>& p) {
    return 4 * ((segment + p[1]) % segments) + ring_mesh_impl::kCorner[p[0]][p[2]];
  };
  mesh.tetrahedra.reserve(6 * static_cast<std::size_t>(segments));
  for (int k = 0; k < segments; ++k)
    for (int o = 0; o < 6; ++o) {
      std::array<int, 3> p{0, 0, 0};
      std::array<int, 4> tet;
      tet[0] = index(k, p);
      for (int step = 0; step < 3; ++step) {
        ++p[kOrders[o][step]];
        tet[step + 1] = index(k, p);
      }
      if (o >= 3) std::swap(tet[1], tet[2]);  // the odd permutations
      mesh.tetrahedra.push_back(tet);
    }
  return mesh;
}

}  // namespace contactlab
