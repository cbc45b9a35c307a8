#pragma once
// A deformable body's boundary in kDOP trees, one over its surface vertices, one over its edges and
// one over its faces (Verschoor & Jalba sec. 5.1: a BVH of the surface, refitted every step). The
// trees are built once, on the arrangement the body starts in, and refitted after that: the
// surface's connectivity never changes, so the tree's shape stays valid and a refit costs a pass
// over the nodes where a rebuild would sort.
//
// Each primitive's kDOP covers it along a straight path of its nodes over the step, from x to
// x + move (move = dt v for the velocities being tried), so a query finds every primitive that
// is near at any time of the step (the convex hull of the primitive at both ends holds it at
// every time between). Vertices are further inflated by a distance of their own: the reach over
// which their candidates are sought (deformable_contacts.h).
#include <array>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "collision/kdop_tree.h"

namespace contactlab {

class SurfaceTrees {
 public:
  // Over the surface given by global node indices (3 coordinates per node in `positions`):
  // `vertexNodes` the surface vertices' nodes, `edges` and `faces` by node. All must be non-empty.
  SurfaceTrees(int k, std::span<const int> vertexNodes, std::span<const std::array<int, 2>> edges,
               std::span<const std::array<int, 3>> faces, const Eigen::VectorXd& positions);

  // Vertex i's kDOP: its node's point inflated by inflation[i].
  void refitVertices(const Eigen::VectorXd& positions, std::span<const double> inflation);
  // Each edge and face over its nodes at `positions` and at positions + move (`move` empty: at rest).
  void refitEdgesAndFaces(const Eigen::VectorXd& positions, const Eigen::VectorXd& move);

  const KdopTree& vertices() const { return vertices_; }
  const KdopTree& edges() const { return edges_; }
  const KdopTree& faces() const { return faces_; }

 private:
  std::span<const Vec3> axes_;
  std::vector<int> vertexNodes_;
  std::vector<std::array<int, 2>> edgeNodes_;
  std::vector<std::array<int, 3>> faceNodes_;
  KdopTree vertices_, edges_, faces_;
  std::vector<Kdop> bounds_;  // scratch: the primitives' kDOPs for a refit
};

}  // namespace contactlab
