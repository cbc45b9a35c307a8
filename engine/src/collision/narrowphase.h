#pragma once
// Narrowphase: contact points between two posed shapes, dispatched on the shape kinds.
#include "collision/contact_buffer.h"
#include "collision/contact_point.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

class MeshModelCache;

// Appends to `out` the contact points of a and b whose gap is below `margin` (margin >= 0 lets
// the solver see contacts about to close, see docs/pipeline.md "collide"). Normals point from a to b.
// Pairs are symmetric: collideShapes(b, a) gives the same points with flipped normals (not where
// the direction is undefined, e.g. concentric spheres, which take a fixed fallback normal; and two
// meshes find the same candidates but may keep others of them, see ContactBuffer::finalizeInto;
// the World always passes the lower body index first).
// Points come sorted by feature id (then coordinates), near-duplicates merged.
// At most kMaxPointsPerPair points per pair of primitives, kMaxMeshPointsPerPair when a mesh takes
// part; plane-plane gives none. Meshes need the World's collision models (`meshes`, prepared for
// every mesh); without them a mesh pair throws std::logic_error.
// Returns 0, or for a pair that proposed no point a lower bound of the distance between the
// features its contacts come from (ContactBuffer::separationBound; mesh-mesh pairs only): while the
// shapes move closer by less than the bound minus the margin, the pair has no contacts.
// `fronts`, for a mesh pair, keeps its traversals from step to step (MeshPairFronts). `travel`, how
// b may move relative to a before the next midpoint (ContactBuffer::relativeTravel), lets a pair of
// meshes leave out points within the margin that cannot touch by then.
double collideShapes(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                     const MeshModelCache* meshes, ContactManifold& out, MeshPairFronts* fronts = nullptr,
                     const RelativeTravel* travel = nullptr);
inline void collideShapes(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                          ContactManifold& out) {
  collideShapes(a, poseA, b, poseB, margin, nullptr, out);
}

inline constexpr int kMaxPointsPerPair = ContactBuffer::kMaxPointsPerCluster;
inline constexpr int kMaxMeshPointsPerPair = ContactBuffer::kMaxPointsPerCluster * ContactBuffer::kMaxMeshClusters;

}  // namespace contactlab
