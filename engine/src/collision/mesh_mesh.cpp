#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "collision/mesh_contacts.h"
#include "collision/mesh_pair_fronts.h"
#include "collision/pair_functions.h"

namespace contactlab {

namespace {

// Every contact point (MeshCollisionModel::contactPoints; "vertex" below) of `mesh` that may touch
// `other` before the next midpoint, each touching `other` at its nearest surface point: a vertex whose first-order path relative to other (the
// pair's translation and turns, ContactBuffer::relativeTravel) comes within the point margin of
// other's solid, as every vertex inside it does. The margin alone (a ball as wide as the whole
// travel) also holds the vertices moving away or sideways, each costing a nearest-surface-point
// search that finds no contact, and in landing piles those searches dominate (docs/meshes.md).
// The candidates are the vertices of the leaves whose points' paths come within the point margin
// of a leaf of other's tetrahedra in the tandem traversal (the node tests follow each node's own
// first-order motion, translation and turn, as the vertex tests do: nodes moved by the translation
// in a ball as wide as the turns let many times as many vertices be tested, nearly all in vain;
// docs/benchmarks.md), kept only if the vertex's own path comes within the point
// margin of one of those tetrahedra (their leaf's kDOP, then each one's kDOP and face planes): a
// pair of leaves holds up to 4 x 16 vertex / tetrahedron pairs of which few touch, and a vertex
// whose path is near none of other's tetrahedra cannot reach other's surface (its triangles
// are faces of the tetrahedra), so the nearest-point search that dominates the pair's cost would be
// wasted on it. Every candidate is then tested exactly, so the contacts do not depend on how many
// more candidates a traversal proposes. The tests' bounds bound the distance from the whole path,
// so from the vertex itself: the separation the pair memory keeps is still a distance bound.
// The traversal runs from the roots, or from `front` (MeshPairFronts). From the roots it returns 0
// when some vertex became a candidate, else a lower bound of the distance from mesh's surface
// vertices to other's solid: the smallest bound of the node pairs and the vertex / tetrahedron
// pairs it left out, which together cover every vertex / tetrahedron pair. From a front it returns 0.
double addVerticesInMesh(const MeshCollisionModel& mesh, const Pose& meshPose, const MeshCollisionModel& other,
                         const Pose& otherPose, bool meshIsFirst, const MeshPairFronts* mode,
                         std::vector<KdopTree::FrontEntry>* front, ContactBuffer& buffer) {
  thread_local std::vector<int> candidates;
  thread_local std::vector<std::uint8_t> isCandidate;
  const auto& vertices = mesh.contactPoints();
  candidates.clear();
  // All zero between calls (the flags set below are cleared after use), so a pair costs what it
  // touches, not the mesh's vertex count.
  if (isCandidate.size() < vertices.size()) isCandidate.resize(vertices.size(), 0);
  const Pose meshInOther = relativePose(otherPose, meshPose);
  // The vertices' motion relative to other, in other's frame: each vertex y by motion.of(y) =
  // shift + turn x y to first order (the point margin covers the rest), which the node tests and
  // the vertex tests follow. With turn_m, turn_o the two bodies' dt w and c their centres (world
  // frame), a point x of mesh moves by translation + turn_m x (x - c_m) - turn_o x (x - c_o), and
  // x - c_o is R_o y.
  const RelativeTravel& travel = buffer.relativeTravel();
  const Vec3 translation = meshIsFirst ? Vec3(-travel.translationOfSecond) : travel.translationOfSecond;
  const Vec3& turnOfMesh = meshIsFirst ? travel.turnOfFirst : travel.turnOfSecond;
  const Vec3& turnOfOther = meshIsFirst ? travel.turnOfSecond : travel.turnOfFirst;
  const Mat3 toOther = otherPose.rotation.transpose();
  const LinearMotion motion{toOther * (translation + turnOfMesh.cross(otherPose.position - meshPose.position)),
                            toOther * (turnOfMesh - turnOfOther)};
  const bool replay = mode && mode->mode == MeshPairFronts::Mode::Replay;
  const bool recording = front && !replay;
  double separation = std::numeric_limits<double>::infinity();
  // A vertex against a leaf of other's tetrahedra: first the leaf's kDOP, which rejects the vertex
  // for all of them at once, then each tetrahedron. Returns a lower bound of the distance from the
  // vertex's path to the leaf's tetrahedra, or 0 if it comes within the point margin of one: a
  // recorded front keeps a pair of leaves only if one of its pairs is near enough to matter at the
  // next steps, so while recording every tetrahedron is tested; otherwise the bound is not used and
  // known candidates are skipped.
  auto visit = [&](int vertex, const Kdop& leafBounds, std::span<const int> tetrahedra) -> double {
    if (!recording && isCandidate[vertex]) return 0.0;
    const Vec3 inOther = meshInOther.position + meshInOther.rotation * vertices[vertex];
    const MeshCollisionModel::PointPath path = other.pathOf(inOther, motion.of(inOther));
    double nearest;
    if (!other.mayBeNearTetrahedra(leafBounds, path, travel.pointMargin, nearest)) {
      separation = std::min(separation, nearest);
      return nearest;
    }
    nearest = std::numeric_limits<double>::infinity();
    for (int tetrahedron : tetrahedra) {
      double bound;
      if (!other.mayBeNearTetrahedron(tetrahedron, path, travel.pointMargin, bound)) {
        separation = std::min(separation, bound);
        nearest = std::min(nearest, bound);
        continue;
      }
      if (!isCandidate[vertex]) {
        isCandidate[vertex] = 1;
        candidates.push_back(vertex);
      }
      if (!recording) return 0.0;
      nearest = 0.0;
    }
    return nearest;
  };
  const Pose otherInMesh = relativePose(meshPose, otherPose);
  double nodeSeparation = 0.0;
  if (replay) {
    forEachOverlappingPairFromFront(mesh.vertexTree(), other.tetrahedronTree(), otherInMesh, travel.pointMargin,
                                    *front, mode->reach, visit, motion);
  } else {
    if (front) front->clear();
    forEachOverlappingPair(mesh.vertexTree(), other.tetrahedronTree(), otherInMesh, travel.pointMargin, visit,
                           nodeSeparation, front, mode ? mode->recordBelow : 0.0, motion);
  }
  std::sort(candidates.begin(), candidates.end());
  for (int vertex : candidates) isCandidate[vertex] = 0;
  const std::uint32_t side = meshIsFirst ? 0u : kSecondShapeFeature;
  for (int vertex : candidates)
    addMeshBallContact(other, otherPose, !meshIsFirst, toWorld(meshPose, vertices[vertex]), 0.0,
                       side | static_cast<std::uint32_t>(vertex), buffer);
  return candidates.empty() && !replay ? std::min(separation, nodeSeparation) : 0.0;
}

}  // namespace

// Vertices of a in b and vertices of b in a. Edge-edge crossings without a vertex inside are not
// seen; meshes fine enough to simulate (a jack's rounded arms) touch through vertices first. When
// neither search finds a candidate, the buffer learns how far apart the two vertex sets are from
// the other solid (ContactBuffer::separationBound), which lets the next steps skip the pair.
void collideMeshMesh(const MeshCollisionModel& a, const Pose& poseA, const MeshCollisionModel& b, const Pose& poseB,
                     ContactBuffer& buffer) {
  MeshPairFronts* fronts = buffer.meshPairFronts();
  const double aFromB = addVerticesInMesh(a, poseA, b, poseB, true, fronts, fronts ? &fronts->verticesOfA : nullptr, buffer);
  const double bFromA = addVerticesInMesh(b, poseB, a, poseA, false, fronts, fronts ? &fronts->verticesOfB : nullptr, buffer);
  buffer.setSeparationBound(std::min(aFromB, bFromA));
}

}  // namespace contactlab
