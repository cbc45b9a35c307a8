// The surface trees of a deformable body against brute force, after the surface has moved.
#include "deformable/surface_trees.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "collision/triangle_geometry.h"
#include "geometry/deformable_shape.h"

namespace contactlab {
namespace {

// A refined box surface (as a deformable box's boundary is) whose nodes then move randomly, by up to
// a few of its edges: the refitted trees find every edge and vertex a brute-force test finds, and
// the nearest face to points at the ends of the nodes' paths.
TEST(SurfaceTrees, RefittedTreesFindWhatBruteForceFinds) {
  const TriangleMesh surface = refinedSurface(BoxShape{Vec3(0.2, 0.1, 0.05)}, 0.04, "test box");
  const int n = static_cast<int>(surface.vertices.size());
  std::vector<int> vertexNodes(n);
  for (int i = 0; i < n; ++i) vertexNodes[i] = i;
  std::set<std::array<int, 2>> edgeSet;
  for (const auto& t : surface.triangles)
    for (int k = 0; k < 3; ++k) edgeSet.insert({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
  const std::vector<std::array<int, 2>> edges(edgeSet.begin(), edgeSet.end());
  Eigen::VectorXd positions(3 * n);
  for (int i = 0; i < n; ++i) positions.segment<3>(3 * i) = surface.vertices[i];
  SurfaceTrees trees(18, vertexNodes, edges, surface.triangles, positions);

  std::mt19937 random(3);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03), coordinate(-0.3, 0.3);
  Eigen::VectorXd moved = positions, move(3 * n);
  for (int i = 0; i < 3 * n; ++i) moved[i] += jitter(random), move[i] = 2.0 * jitter(random);
  const std::vector<double> inflation(n, 0.01);
  trees.refitVertices(moved, inflation);
  trees.refitEdgesAndFaces(moved, move);
  const auto axes = kdopAxes(18);
  const auto at = [&](int node, double w) { return Vec3(moved.segment<3>(3 * node) + w * move.segment<3>(3 * node)); };

  long edgeHits = 0, vertexHits = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 p(coordinate(random), coordinate(random), coordinate(random));
    const std::array<Vec3, 2> segment{p, p + Vec3(0.05, -0.02, 0.03)};
    const Kdop query = kdopOfPoints(axes, segment);
    std::set<int> foundEdges, foundVertices;
    trees.edges().forEachOverlapping(query, [&](int e) { foundEdges.insert(e); });
    trees.vertices().forEachOverlapping(query, [&](int v) { foundVertices.insert(v); });
    for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
      // Any point of the edge at any time of the step inside the query's box: the tree has it.
      for (const double w : {0.0, 0.5, 1.0})
        for (const double t : {0.0, 0.3, 1.0}) {
          const Vec3 x = (1.0 - t) * at(edges[e][0], w) + t * at(edges[e][1], w);
          const std::array<Vec3, 1> point{x};
          if (kdopOfPoints(axes, point).overlaps(query, static_cast<int>(axes.size()))) {
            ++edgeHits;
            EXPECT_TRUE(foundEdges.count(e));
          }
        }
    }
    for (int v = 0; v < n; ++v) {
      const std::array<Vec3, 1> point{at(v, 0.0)};
      if (kdopOfPoints(axes, point).inflated(inflation[v], static_cast<int>(axes.size())).overlaps(query, static_cast<int>(axes.size()))) {
        ++vertexHits;
        EXPECT_TRUE(foundVertices.count(v));
      }
    }
    for (const double w : {0.0, 0.4, 1.0}) {
      const auto distanceTo = [&](int f, double = 0.0) {
        const auto& [a, b, c] = surface.triangles[f];
        return (closestPointOnTriangle(p, at(a, w), at(b, w), at(c, w)).point - p).norm();
      };
      double nearest = 1e300;
      for (int f = 0; f < static_cast<int>(surface.triangles.size()); ++f) nearest = std::min(nearest, distanceTo(f));
      EXPECT_EQ(trees.faces().nearest(p, 1e300, distanceTo).distance, nearest);
    }
  }
  EXPECT_GT(edgeHits, 0);
  EXPECT_GT(vertexHits, 0);
}

}  // namespace
}  // namespace contactlab
