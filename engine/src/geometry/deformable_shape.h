#pragma once
// The tetrahedral mesh of a deformable body made from a shape: its surface refined to the size of
// the tetrahedra asked for, then filled by tetgen. tetgen runs with -Y (tetgen_bridge.h), which
// keeps every surface triangle as given, so the surface's resolution bounds the mesh's from below:
// a box's 12 triangles give 6 tetrahedra whatever the volume limit. Refining the surface first to
// the edge of a regular tetrahedron of the limit makes the limit control the count everywhere.
#include <string>
#include <variant>

#include "contactlab/body.h"
#include "geometry/tet_mesh.h"
#include "io/tetgen_bridge.h"

namespace contactlab {

// What a deformable body is made of: a primitive's size (sphere radius, box half extents, capsule
// radius and half length along z), centred at the origin, or a closed oriented surface in its own
// coordinates.
using DeformableSolid = std::variant<SphereShape, BoxShape, CapsuleShape, TriangleMesh>;

// The edge of the regular tetrahedron of this volume, (6 sqrt(2) volume)^(1/3).
double regularTetrahedronEdge(double volume);

// The solid's volume: exact for the primitives (the smooth sphere and capsule, not a tessellation),
// by the divergence theorem for a surface. Throws MeshError naming `source` for a size that is not
// positive and finite (a capsule's half length may be 0) or a surface that is not closed and oriented.
double solidVolume(const DeformableSolid& solid, const std::string& source);

// The solid's surface with no edge longer than maxEdgeLength:
// - box: each face a grid of right triangles, spacing at most maxEdgeLength / sqrt(2) along each
//   axis so the diagonals fit too;
// - sphere and capsule: an octahedron's faces cut into n x n triangles and pushed onto the sphere
//   (n the smallest that fits), the capsule's hemispheres joined by a cylinder of grid rows; every
//   vertex lies on the smooth surface, so the volume is short by the tessellation's error;
// - surface: every triangle with an edge too long split at the midpoints of its long edges (into
//   2, 3 or 4 triangles, the neighbours agreeing on each split), repeated until all fit. The
//   surface's own vertices keep their indices; new ones follow.
// Throws MeshError naming `source` as solidVolume does, for a length that is not positive and
// finite, and when more than kMaxRefinedTriangles triangles would be needed.
inline constexpr std::size_t kMaxRefinedTriangles = 1'000'000;
TriangleMesh refinedSurface(const DeformableSolid& solid, double maxEdgeLength, const std::string& source);

// Tetrahedra for a deformable body: refinedSurface with edges of at most
// regularTetrahedronEdge(maxTetVolume), then tetgen with -a maxTetVolume (settings.maxVolume is
// replaced; the executable, quality and cache directory are taken from `settings`). The vertices
// start with the refined surface's, which extractBoundary gives back as the boundary's triangles.
// There are at least volume / maxTetVolume tetrahedra. tetgen keeps each under the limit except
// where that needs a point on the surface, which -Y forbids: a few (under 3 %) against the surface
// stay larger, up to a few times the limit.
// Throws MeshError naming `source` as refinedSurface does, for a volume that is not positive and
// finite, and as tetrahedralize does (tetgen missing or failing).
TetMesh tetrahedralizeShape(const DeformableSolid& solid, double maxTetVolume, const std::string& source,
                            const TetgenSettings& settings = {});

// A maximum tetrahedron volume giving a few hundred tetrahedra for a compact solid of this volume:
// solidVolume / kDefaultTetsPerSolid, which gives 200 to 400 for a box, a bar, a sphere or a capsule
// (the tests check it). A mesh surface finer than the edge this asks for keeps its triangles (-Y)
// and gives more: a tetrahedron or two per surface triangle.
inline constexpr double kDefaultTetsPerSolid = 150.0;
double defaultMaxTetVolume(double solidVolume);

}  // namespace contactlab
