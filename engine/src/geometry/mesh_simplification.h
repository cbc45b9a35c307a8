#pragma once
// Reducing a closed surface to fewer triangles by quadric error metric edge collapse (Garland and
// Heckbert 1997, "Surface simplification using quadric error metrics").
#include <limits>

#include "contactlab/mesh.h"

namespace contactlab {

// Collapses the edge of least quadric error, one at a time, until at most `targetTriangles` remain
// or no edge can go. A collapse is refused when it would make the surface non-manifold (the link
// condition: the edge's ends share exactly the two neighbours across it) or turn a triangle over,
// so a closed, consistently oriented input stays closed and oriented; and when it would leave an
// edge longer than `maxEdgeLength`. Quadric error alone spends few triangles where the surface is
// flat along one direction (a cylinder's side): long slivers whose edges run its whole length, with
// no vertex between their ends for a crossing body to touch. The length bound spreads the triangles
// more evenly instead.
TriangleMesh simplifyMesh(const TriangleMesh& mesh, int targetTriangles,
                          double maxEdgeLength = std::numeric_limits<double>::infinity());

}  // namespace contactlab
