#pragma once
// The surface {x : f(x) = 0} of a solid {f < 0} given by a signed distance (or any function
// negative inside), extracted on a grid by marching tetrahedra.
#include <functional>

#include "contactlab/mesh.h"

namespace contactlab {

// Samples f on a grid of cubes of edge `cellSize` over [lower, upper] (the solid must lie strictly
// inside it), splits every cube into the six tetrahedra round its main diagonal (the same split in
// every cube, so neighbouring faces agree) and puts one vertex on every grid edge f changes sign
// along (found by bisection, on the surface to rounding unless that is within 5 % of the edge's
// length from one of its ends: then it is held 5 % in, off the surface by at most that much, so no
// two vertices coincide where the surface passes through a grid point). Vertices are shared through
// their grid edge, so the result is a closed surface, oriented outwards (towards f > 0).
TriangleMesh marchingTetrahedra(const std::function<double(const Vec3&)>& f, const Vec3& lower, const Vec3& upper,
                                double cellSize);

}  // namespace contactlab
