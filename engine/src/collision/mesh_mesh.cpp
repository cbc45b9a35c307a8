#include <algorithm>
#include <vector>

#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"

namespace contactlab {

namespace {

// Every surface vertex of `mesh` inside `other` or within the margin of it, each touching `other`
// at its nearest surface point. The candidates are the vertices whose leaves meet one of other's
// tetrahedra (grown by the margin) in the tandem traversal.
void addVerticesInMesh(const MeshCollisionModel& mesh, const Pose& meshPose, const MeshCollisionModel& other,
                       const Pose& otherPose, bool meshIsFirst, ContactBuffer& buffer) {
  thread_local std::vector<int> candidates;
  candidates.clear();
  forEachOverlappingPair(mesh.vertexTree(), other.tetrahedronTree(), relativePose(meshPose, otherPose),
                         buffer.margin(), [&](int vertex, int) { candidates.push_back(vertex); });
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  const std::uint32_t side = meshIsFirst ? 0u : kSecondShapeFeature;
  for (int vertex : candidates)
    addMeshBallContact(other, otherPose, !meshIsFirst, toWorld(meshPose, mesh.geometry().surface.vertices[vertex]),
                       0.0, side | static_cast<std::uint32_t>(vertex), buffer);
}

}  // namespace

// Vertices of a in b and vertices of b in a. Edge-edge crossings without a vertex inside are not
// seen; meshes fine enough to simulate (a jack's rounded arms) touch through vertices first.
void collideMeshMesh(const MeshCollisionModel& a, const Pose& poseA, const MeshCollisionModel& b, const Pose& poseB,
                     ContactBuffer& buffer) {
  addVerticesInMesh(a, poseA, b, poseB, true, buffer);
  addVerticesInMesh(b, poseB, a, poseA, false, buffer);
}

}  // namespace contactlab
