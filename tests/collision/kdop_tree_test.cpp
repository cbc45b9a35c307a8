// The trees' queries against brute force over every primitive, on random poses, for each k:
// every primitive (pair) that truly overlaps must be reported; the surplus is what the bounding
// volumes cost, printed as the false-positive rate.
#include "collision/kdop_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "collision/mesh_model.h"
#include "collision/mesh_test_helpers.h"
#include "collision/triangle_geometry.h"
#include "support/test_meshes.h"

namespace contactlab {
namespace {

using Points = std::vector<Vec3>;

// Exact test for convex polytopes given by their vertices (triangles, tetrahedra): they are
// disjoint exactly when some face normal or cross product of two edges separates them, and each
// of those is a cross product of two edges of the union of their edges.
bool convexHullsOverlap(const Points& a, const Points& b) {
  // Disjoint bounding boxes: disjoint hulls (and most pairs end here).
  auto box = [](const Points& points) {
    Aabb bounds{points[0], points[0]};
    for (const Vec3& p : points) bounds.lower = bounds.lower.cwiseMin(p), bounds.upper = bounds.upper.cwiseMax(p);
    return bounds;
  };
  if (!box(a).overlaps(box(b))) return false;
  std::vector<Vec3> edges;
  for (const Points* shape : {&a, &b})
    for (size_t i = 0; i < shape->size(); ++i)
      for (size_t j = i + 1; j < shape->size(); ++j) edges.push_back((*shape)[j] - (*shape)[i]);
  auto separates = [&](const Vec3& axis) {
    double minA = 1e300, maxA = -1e300, minB = 1e300, maxB = -1e300;
    for (const Vec3& p : a) minA = std::min(minA, axis.dot(p)), maxA = std::max(maxA, axis.dot(p));
    for (const Vec3& p : b) minB = std::min(minB, axis.dot(p)), maxB = std::max(maxB, axis.dot(p));
    return minA > maxB + 1e-12 || minB > maxA + 1e-12;
  };
  for (size_t i = 0; i < edges.size(); ++i)
    for (size_t j = i + 1; j < edges.size(); ++j) {
      const Vec3 axis = edges[i].cross(edges[j]);
      if (axis.norm() > 1e-12 && separates(axis.normalized())) return false;
    }
  return true;
}

Points triangleCorners(const MeshGeometry& mesh, int t, const Pose& pose) {
  Points corners;
  for (int v : mesh.surface.triangles[t]) corners.push_back(pose.position + pose.rotation * mesh.surface.vertices[v]);
  return corners;
}
Points tetrahedronCorners(const MeshGeometry& mesh, int t, const Pose& pose) {
  Points corners;
  for (int v : mesh.tetrahedra[t]) corners.push_back(pose.position + pose.rotation * mesh.tetVertices[v]);
  return corners;
}

Pose randomPose(std::mt19937& random, double spread) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> offset(-spread, spread);
  const Quat q(normal(random), normal(random), normal(random), normal(random));
  return {Vec3(offset(random), offset(random), offset(random)), q.normalized().toRotationMatrix()};
}

class KdopTreeQueries : public ::testing::TestWithParam<int> {
 protected:
  std::shared_ptr<const MeshGeometry> cross = test::crossMesh(6, 2, 0.1);
  std::shared_ptr<const MeshGeometry> sphere = test::sphereMesh(0.2, 2);
};

// Triangles against triangles and tetrahedra against tetrahedra of a cross and a sphere, 20 random
// relative poses with the two overlapping in part.
TEST_P(KdopTreeQueries, TandemTraversalFindsEveryOverlappingPair) {
  const int k = GetParam();
  const MeshCollisionModel a(cross, k), b(sphere, k);
  std::mt19937 random(5);
  long reported = 0, overlapping = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Pose bInA = randomPose(random, 0.35);
    const Pose identity;
    for (bool tetrahedra : {false, true}) {
      std::set<std::pair<int, int>> found;
      forEachOverlappingPair(tetrahedra ? a.tetrahedronTree() : a.triangleTree(),
                             tetrahedra ? b.tetrahedronTree() : b.triangleTree(), bInA, 0.0,
                             [&](int p, int q) { EXPECT_TRUE(found.insert({p, q}).second) << "reported twice"; });
      const int countA = static_cast<int>(tetrahedra ? cross->tetrahedra.size() : cross->surface.triangles.size());
      const int countB = static_cast<int>(tetrahedra ? sphere->tetrahedra.size() : sphere->surface.triangles.size());
      for (int p = 0; p < countA; ++p)
        for (int q = 0; q < countB; ++q) {
          const bool overlap =
              tetrahedra ? convexHullsOverlap(tetrahedronCorners(*cross, p, identity), tetrahedronCorners(*sphere, q, bInA))
                         : convexHullsOverlap(triangleCorners(*cross, p, identity), triangleCorners(*sphere, q, bInA));
          if (!overlap) continue;
          ++overlapping;
          EXPECT_TRUE(found.count({p, q})) << "k " << k << " trial " << trial << ": missed pair " << p << " " << q;
        }
      reported += static_cast<long>(found.size());
    }
  }
  ASSERT_GT(overlapping, 100) << "the poses should make the meshes overlap";
  std::printf("k = %d: %ld pairs reported, %ld overlap: %.0f %% false positives\n", k, reported, overlapping,
              100.0 * static_cast<double>(reported - overlapping) / static_cast<double>(reported));
}

// Vertices against tetrahedra within a margin, as mesh-mesh contact generation asks.
TEST_P(KdopTreeQueries, TandemTraversalWithMarginFindsEveryNearVertex) {
  const int k = GetParam();
  const MeshCollisionModel a(cross, k), b(sphere, k);
  const double margin = 0.03;
  std::mt19937 random(9);
  long nearPairs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Pose bInA = randomPose(random, 0.35);
    std::set<std::pair<int, int>> found;
    forEachOverlappingPair(a.vertexTree(), b.tetrahedronTree(), bInA, margin,
                           [&](int p, int q) { found.insert({p, q}); });
    const Mat3 aInBRotation = bInA.rotation.transpose();
    for (size_t p = 0; p < cross->surface.vertices.size(); ++p) {
      const Vec3 inB = aInBRotation * (cross->surface.vertices[p] - bInA.position);
      for (size_t q = 0; q < sphere->tetrahedra.size(); ++q)
        if (testing::distanceToTetrahedron(*sphere, static_cast<int>(q), inB) <= margin) {
          ++nearPairs;
          EXPECT_TRUE(found.count({static_cast<int>(p), static_cast<int>(q)})) << "vertex " << p << " tet " << q;
        }
    }
  }
  ASSERT_GT(nearPairs, 100) << "the poses should bring vertices within the margin";
}

// A visitor that takes a whole leaf of b at a time sees the same pairs, with a kDOP of that leaf
// (in b's frame) that holds each of its tetrahedra, and the bound it returns for the leaf is
// recorded in the front as the smallest of the pair-by-pair visitor's bounds is.
TEST_P(KdopTreeQueries, TandemTraversalByLeafOfBSeesTheSamePairs) {
  const int k = GetParam();
  const MeshCollisionModel a(cross, k), b(sphere, k);
  const auto axes = kdopAxes(k);
  const double margin = 0.03;
  std::mt19937 random(11);
  long pairs = 0;
  auto entries = [](const std::vector<KdopTree::FrontEntry>& front) {
    std::vector<std::tuple<int, int, double>> list;
    for (const auto& entry : front) list.emplace_back(entry.nodeA, entry.nodeB, entry.separation);
    return list;
  };
  for (int trial = 0; trial < 40; ++trial) {
    const Pose bInA = randomPose(random, 0.35);
    std::set<std::pair<int, int>> byPair, byLeaf;
    std::vector<KdopTree::FrontEntry> frontByPair, frontByLeaf;
    double separationByPair = 0.0, separationByLeaf = 0.0;
    forEachOverlappingPair(
        a.vertexTree(), b.tetrahedronTree(), bInA, margin,
        [&](int p, int q) {
          byPair.insert({p, q});
          return 1.0 + q;
        },
        separationByPair, &frontByPair, 1e300);
    forEachOverlappingPair(
        a.vertexTree(), b.tetrahedronTree(), bInA, margin,
        [&](int p, const Kdop& leaf, std::span<const int> tetrahedra) {
          for (int q : tetrahedra) {
            byLeaf.insert({p, q});
            for (int corner : sphere->tetrahedra[q])
              for (size_t i = 0; i < axes.size(); ++i) {
                const double along = axes[i].dot(sphere->tetVertices[corner]);
                EXPECT_LE(leaf.lower[i], along + 1e-12);
                EXPECT_GE(leaf.upper[i], along - 1e-12);
              }
          }
          return 1.0 + *std::min_element(tetrahedra.begin(), tetrahedra.end());
        },
        separationByLeaf, &frontByLeaf, 1e300);
    EXPECT_EQ(byPair, byLeaf) << "trial " << trial;
    EXPECT_EQ(separationByPair, separationByLeaf) << "trial " << trial;
    EXPECT_EQ(entries(frontByPair), entries(frontByLeaf)) << "trial " << trial;
    pairs += static_cast<long>(byPair.size());
  }
  ASSERT_GT(pairs, 100) << "the poses should bring the meshes together";
}

TEST_P(KdopTreeQueries, PointPlaneAndNearestQueriesMatchBruteForce) {
  const int k = GetParam();
  const MeshCollisionModel model(cross, k);
  const auto& vertices = cross->surface.vertices;
  const auto& triangles = cross->surface.triangles;
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-0.4, 0.4);
  // How many brute-force hits each query was checked against: none would leave it untested.
  long nearVertices = 0, containingTetrahedra = 0, verticesBelow = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Vec3 point(coordinate(random), coordinate(random), coordinate(random));
    const double radius = 0.1;
    std::set<int> near;
    model.vertexTree().forEachNear(point, radius, [&](int v) { near.insert(v); });
    for (size_t v = 0; v < vertices.size(); ++v)
      if ((vertices[v] - point).norm() <= radius) {
        ++nearVertices;
        EXPECT_TRUE(near.count(static_cast<int>(v)));
      }

    std::set<int> containing;
    model.tetrahedronTree().forEachNear(point, 0.0, [&](int t) { containing.insert(t); });
    for (size_t t = 0; t < cross->tetrahedra.size(); ++t)
      if (testing::distanceToTetrahedron(*cross, static_cast<int>(t), point) == 0.0) {
        ++containingTetrahedra;
        EXPECT_TRUE(containing.count(static_cast<int>(t)));
      }

    const Vec3 normal = Vec3(coordinate(random), coordinate(random), coordinate(random)).normalized();
    const double offset = coordinate(random);
    std::set<int> below;
    model.vertexTree().forEachBelowPlane(normal, offset, [&](int v) { below.insert(v); });
    for (size_t v = 0; v < vertices.size(); ++v)
      if (normal.dot(vertices[v]) <= offset) {
        ++verticesBelow;
        EXPECT_TRUE(below.count(static_cast<int>(v)));
      }

    auto distanceTo = [&](int t, double /* the exact distance whatever the bound */ = 0.0) {
      const auto& [x, y, z] = triangles[t];
      return (closestPointOnTriangle(point, vertices[x], vertices[y], vertices[z]).point - point).norm();
    };
    double nearest = 1e300;
    for (size_t t = 0; t < triangles.size(); ++t) nearest = std::min(nearest, distanceTo(static_cast<int>(t)));
    const KdopTree::Nearest found = model.triangleTree().nearest(point, 1e300, distanceTo);
    ASSERT_GE(found.primitive, 0);
    EXPECT_EQ(found.distance, nearest);
    EXPECT_EQ(model.triangleTree().nearest(point, 0.5 * nearest, distanceTo).primitive, -1);
  }
  EXPECT_GT(nearVertices, 0);
  EXPECT_GT(containingTetrahedra, 0);
  EXPECT_GT(verticesBelow, 0);
}

TEST_P(KdopTreeQueries, TreeHoldsEveryPrimitiveOnce) {
  const MeshCollisionModel model(sphere, GetParam());
  EXPECT_EQ(model.triangleTree().primitiveCount(), static_cast<int>(sphere->surface.triangles.size()));
  EXPECT_EQ(model.tetrahedronTree().primitiveCount(), static_cast<int>(sphere->tetrahedra.size()));
  std::set<int> seen;
  model.triangleTree().forEachNear(Vec3::Zero(), 1.0, [&](int t) { EXPECT_TRUE(seen.insert(t).second); });
  EXPECT_EQ(seen.size(), sphere->surface.triangles.size());
}

// Equal distances: the lowest triangle index wins, whatever the tree's shape. From the centre of
// a cube every face is equally near, so twelve triangles tie.
TEST_P(KdopTreeQueries, NearestBreaksTiesByLowestIndex) {
  const auto cube = test::boxMesh(Vec3(0.5, 0.5, 0.5), 2);
  const MeshCollisionModel model(cube, GetParam());
  const auto& vertices = cube->surface.vertices;
  const auto& triangles = cube->surface.triangles;
  const Vec3 centre = Vec3::Zero();
  auto distanceTo = [&](int t, double /* the exact distance whatever the bound */ = 0.0) {
    const auto& [x, y, z] = triangles[t];
    return (closestPointOnTriangle(centre, vertices[x], vertices[y], vertices[z]).point - centre).norm();
  };
  double nearest = 1e300;
  for (size_t t = 0; t < triangles.size(); ++t) nearest = std::min(nearest, distanceTo(static_cast<int>(t)));
  std::vector<int> tied;
  for (size_t t = 0; t < triangles.size(); ++t)
    if (distanceTo(static_cast<int>(t)) == nearest) tied.push_back(static_cast<int>(t));
  ASSERT_GT(tied.size(), 1u);
  const KdopTree::Nearest found = model.triangleTree().nearest(centre, 1e300, distanceTo);
  EXPECT_EQ(found.primitive, tied.front());
  EXPECT_EQ(found.distance, nearest);
}

// A tree built on one arrangement of triangles and refitted to another (each corner moved randomly
// by up to half the cross's arm width, as a deformable surface moves) finds every triangle a
// brute-force test finds, for box overlaps and nearest points; refitting to the first arrangement
// again gives the built tree's root back exactly.
TEST_P(KdopTreeQueries, RefittedTreeMatchesBruteForceOnMovedPrimitives) {
  const int k = GetParam();
  const auto axes = kdopAxes(k);
  const auto& triangles = cross->surface.triangles;
  auto boundsOf = [&](const Points& vertices) {
    std::vector<Kdop> bounds;
    for (const auto& [a, b, c] : triangles) {
      const Points corners{vertices[a], vertices[b], vertices[c]};
      bounds.push_back(kdopOfPoints(axes, corners));
    }
    return bounds;
  };
  const Points rest = cross->surface.vertices;
  KdopTree tree(k, boundsOf(rest));
  const Kdop builtRoot = tree.bounds();
  std::mt19937 random(5);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05), coordinate(-0.4, 0.4);
  Points moved = rest;
  for (Vec3& x : moved) x += Vec3(jitter(random), jitter(random), jitter(random)) + Vec3(0.1, 0.0, 0.0);
  const std::vector<Kdop> movedBounds = boundsOf(moved);
  tree.refit(movedBounds);
  long hits = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Vec3 point(coordinate(random), coordinate(random), coordinate(random));
    const Points corners{point, point + Vec3(0.1, 0.05, 0.02)};
    const Kdop query = kdopOfPoints(axes, corners);
    std::set<int> found;
    tree.forEachOverlapping(query, [&](int t) { found.insert(t); });
    for (size_t t = 0; t < triangles.size(); ++t)
      if (movedBounds[t].overlaps(query, static_cast<int>(axes.size()))) {
        ++hits;
        EXPECT_TRUE(found.count(static_cast<int>(t)));
      }
    auto distanceTo = [&](int t, double = 0.0) {
      const auto& [x, y, z] = triangles[t];
      return (closestPointOnTriangle(point, moved[x], moved[y], moved[z]).point - point).norm();
    };
    double nearest = 1e300;
    for (size_t t = 0; t < triangles.size(); ++t) nearest = std::min(nearest, distanceTo(static_cast<int>(t)));
    EXPECT_EQ(tree.nearest(point, 1e300, distanceTo).distance, nearest);
  }
  EXPECT_GT(hits, 0);
  tree.refit(boundsOf(rest));
  for (int i = 0; i < static_cast<int>(axes.size()); ++i) {
    EXPECT_EQ(tree.bounds().lower[i], builtRoot.lower[i]);
    EXPECT_EQ(tree.bounds().upper[i], builtRoot.upper[i]);
  }
  EXPECT_THROW(tree.refit(std::span(movedBounds).first(3)), std::invalid_argument);
}

// The surface area heuristic would peel the farthest point off a geometric series one level at a
// time; the depth cap holds it to kMaxDepth, and coincident points split evenly.
TEST(KdopTree, DepthStaysBoundedOnDegenerateInput) {
  const auto axes = kdopAxes(14);
  std::vector<Kdop> series, coincident;
  for (int i = 0; i < 400; ++i) {
    const Vec3 point = Vec3::Constant(std::pow(1.5, i));
    series.push_back(kdopOfPoints(axes, std::span(&point, 1)));
    const Vec3 origin = Vec3::Zero();
    coincident.push_back(kdopOfPoints(axes, std::span(&origin, 1)));
  }
  const KdopTree seriesTree(14, series);
  EXPECT_LE(seriesTree.depth(), KdopTree::kMaxDepth);
  EXPECT_GT(seriesTree.depth(), 9);  // not the median tree: the heuristic did peel points off
  std::set<int> seen;
  seriesTree.forEachNear(Vec3::Zero(), 1e300, [&](int p) { EXPECT_TRUE(seen.insert(p).second); });
  EXPECT_EQ(seen.size(), series.size());
  EXPECT_EQ(KdopTree(14, coincident).depth(), 7);  // ceil(log2(400 / 4))
  EXPECT_EQ(KdopTree(14, coincident, 8).depth(), 6);  // ceil(log2(400 / 8))
  EXPECT_EQ(KdopTree(14, coincident, 1).depth(), 9);  // ceil(log2(400))
  EXPECT_THROW(KdopTree(14, coincident, 0), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EachK, KdopTreeQueries, ::testing::Values(14, 18, 26));

}  // namespace
}  // namespace contactlab
