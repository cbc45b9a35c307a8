#include "collision/mesh_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "collision/mesh_test_helpers.h"
#include "collision/triangle_geometry.h"
#include "contactlab/world_settings.h"
#include "support/test_meshes.h"

namespace contactlab {
namespace {

class MeshModelOfBox : public ::testing::Test {
 protected:
  // A 1 x 0.6 x 0.4 box of 3^3 grid cubes.
  MeshCollisionModel model{test::boxMesh(Vec3(0.5, 0.3, 0.2), 3), 18};
};

TEST_F(MeshModelOfBox, ContainsThePointsOfTheBox) {
  EXPECT_TRUE(model.contains(Vec3(0.49, 0.29, -0.19)));
  EXPECT_TRUE(model.contains(Vec3(0, 0, 0)));
  EXPECT_FALSE(model.contains(Vec3(0.51, 0, 0)));
  EXPECT_FALSE(model.contains(Vec3(0, 0, 0.21)));
}

// contains() against the orientation test over every tetrahedron (brute force), on random points
// in and around a box mesh to which a flat tetrahedron (four coplanar corners, a convex square: its
// face planes bound a half-space) and a negatively oriented one were added, as a hand-built mesh
// may have them: no shortcut may take a point beside them for inside.
// Contact points (MeshCollisionModel::contactPoints): the vertices first, in order, then points
// along the edges longer than six times the median edge, evenly spaced and on the edge.
TEST(MeshContactPoints, LongEdgesGetEvenlySpacedPointsAndAtMost64Each) {
  // A 2 x 0.02 x 0.02 bar of 12 triangles: eight edges (four sides, four side diagonals) about 2 m
  // long, the median edge the 0.028 m diagonal of an end: 2 / 0.17 pieces would be 12 each.
  const auto bar = test::boxMesh(Vec3(1.0, 0.01, 0.01));
  const MeshCollisionModel model = testing::modelOf(bar);
  const auto& points = model.contactPoints();
  const auto& vertices = bar->surface.vertices;
  ASSERT_EQ(points.size(), vertices.size() + 8 * 11);
  for (std::size_t v = 0; v < vertices.size(); ++v) EXPECT_EQ(points[v], vertices[v]);
  for (std::size_t p = vertices.size(); p < points.size(); ++p)
    EXPECT_NEAR(std::max(std::abs(points[p].y()), std::abs(points[p].z())), 0.01, 1e-12) << "on the bar's surface";
  // A 200 m bar: 1,176 pieces per long edge, capped at 65 (64 points).
  const auto longBar = test::boxMesh(Vec3(100.0, 0.01, 0.01));
  EXPECT_EQ(testing::modelOf(longBar).contactPoints().size(), longBar->surface.vertices.size() + 8 * 64);
}

TEST(MeshModel, ContainsAgreesWithTheOrientationTestOnEveryTetrahedron) {
  MeshGeometry mesh = *test::boxMesh(Vec3(0.5, 0.3, 0.2), 2);
  const int first = static_cast<int>(mesh.tetVertices.size());
  for (const Vec3& corner : {Vec3(0, 0, 0.5), Vec3(0.3, 0, 0.5), Vec3(0.3, 0.3, 0.5), Vec3(0, 0.3, 0.5),
                             Vec3(0.8, 0, 0), Vec3(1.1, 0, 0), Vec3(0.8, 0.3, 0), Vec3(0.8, 0, 0.3)})
    mesh.tetVertices.push_back(corner);
  mesh.tetrahedra.push_back({first, first + 1, first + 2, first + 3});      // flat
  mesh.tetrahedra.push_back({first + 4, first + 6, first + 5, first + 7});  // det < 0
  const MeshCollisionModel model(std::make_shared<const MeshGeometry>(mesh), 18);
  std::mt19937 random(12);
  std::uniform_real_distribution<double> x(-0.7, 1.3), y(-0.5, 0.5), z(-0.4, 1.0);
  int inside = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec3 point(x(random), y(random), z(random));
    bool expected = false;
    for (const auto& [a, b, c, d] : mesh.tetrahedra)
      expected = expected || tetrahedronContains(point, mesh.tetVertices[a], mesh.tetVertices[b],
                                                 mesh.tetVertices[c], mesh.tetVertices[d]);
    ASSERT_EQ(model.contains(point), expected) << "point " << point.transpose();
    inside += expected;
  }
  EXPECT_GT(inside, 200);  // both outcomes are exercised
}

TEST_F(MeshModelOfBox, InsidePointLeavesThroughTheNearestFace) {
  const auto surface = model.closestSurfacePoint(Vec3(0.1, 0.05, 0.15), 0.0);
  ASSERT_TRUE(surface);
  EXPECT_NEAR(surface->distance, -0.05, 1e-12);
  EXPECT_TRUE(surface->outwardNormal.isApprox(Vec3::UnitZ(), 1e-12));
  EXPECT_TRUE(surface->point.isApprox(Vec3(0.1, 0.05, 0.2), 1e-12));
}

TEST_F(MeshModelOfBox, OutsidePointsWithinReachOnly) {
  const auto aboveFace = model.closestSurfacePoint(Vec3(0.1, 0.05, 0.25), 0.1);
  ASSERT_TRUE(aboveFace);
  EXPECT_NEAR(aboveFace->distance, 0.05, 1e-12);
  EXPECT_TRUE(aboveFace->outwardNormal.isApprox(Vec3::UnitZ(), 1e-12));
  EXPECT_FALSE(model.closestSurfacePoint(Vec3(0.1, 0.05, 0.25), 0.04));

  // Beyond the edge x = 0.5, z = 0.2: the normal points from the edge to the point.
  const auto pastEdge = model.closestSurfacePoint(Vec3(0.53, 0.0, 0.24), 0.1);
  ASSERT_TRUE(pastEdge);
  EXPECT_NEAR(pastEdge->distance, 0.05, 1e-12);
  EXPECT_TRUE(pastEdge->outwardNormal.isApprox(Vec3(0.6, 0, 0.8), 1e-12));
  EXPECT_TRUE(pastEdge->point.isApprox(Vec3(0.5, 0, 0.2), 1e-12));
}

// closestSurfacePoint against brute force: inside by the orientation test over every tetrahedron,
// the nearest triangle by the distance to every one (the lowest index among equals), no contact for
// an outside point beyond reach. Random points within a few reaches of the surface of a sphere
// (convex, curved) and of a cross (concave edges and corners, where a nearest point on an edge or a
// vertex leaves the side to the tetrahedra), so that both ways of telling inside from outside (the
// nearest face's normal, and contains()) are taken many times. The answers must be the same bits.
TEST(MeshModel, ClosestSurfacePointAgreesWithBruteForce) {
  // And a single tetrahedron: its edges are sharp (faces 109 degrees apart), so off an edge the
  // nearer face's normal can point away from the point although it is outside.
  auto tetrahedron = std::make_shared<MeshGeometry>();
  tetrahedron->source = "tetrahedron";
  tetrahedron->surface.vertices = {Vec3(0.2, 0.2, 0.2), Vec3(0.2, -0.2, -0.2), Vec3(-0.2, 0.2, -0.2),
                                   Vec3(-0.2, -0.2, 0.2)};
  tetrahedron->surface.triangles = {{{0, 1, 2}}, {{0, 3, 1}}, {{0, 2, 3}}, {{1, 3, 2}}};
  tetrahedron->tetVertices = tetrahedron->surface.vertices;
  tetrahedron->tetrahedra = {{{0, 1, 3, 2}}};  // det[b - a, c - a, d - a] > 0
  tetrahedron->boundingRadius = tetrahedron->surface.vertices[0].norm();
  for (const auto& [a, b, c] : tetrahedron->surface.triangles) {  // outward, as the model assumes
    const auto& v = tetrahedron->surface.vertices;
    ASSERT_GT((v[b] - v[a]).cross(v[c] - v[a]).dot(v[a]), 0.0);
  }
  const std::shared_ptr<const MeshGeometry> meshes[] = {test::sphereMesh(0.3, 2), test::crossMesh(8, 2, 0.05),
                                                        tetrahedron};
  for (const auto& mesh : meshes) {
    const MeshCollisionModel model(mesh, 18);
    const auto& surface = mesh->surface;
    std::mt19937 random(21);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> triangle(0, static_cast<int>(mesh->surface.triangles.size()) - 1);
    const double reach = 0.02;
    int inside = 0, outside = 0, beyondReach = 0, atEdgeOrVertex = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      // A random point of a random triangle, moved by up to two reaches in any direction.
      const auto& [p, q, r] = surface.triangles[triangle(random)];
      double u = unit(random), v = unit(random);
      if (u + v > 1.0) u = 1.0 - u, v = 1.0 - v;
      Vec3 offset;
      do offset = Vec3(unit(random), unit(random), unit(random)) * 2.0 - Vec3::Ones();
      while (offset.squaredNorm() > 1.0);
      const Vec3 point = surface.vertices[p] + u * (surface.vertices[q] - surface.vertices[p]) +
                         v * (surface.vertices[r] - surface.vertices[p]) + 2.0 * reach * offset;
      bool expectedInside = false;
      for (const auto& [a, b, c, d] : mesh->tetrahedra)
        expectedInside = expectedInside || tetrahedronContains(point, mesh->tetVertices[a], mesh->tetVertices[b],
                                                               mesh->tetVertices[c], mesh->tetVertices[d]);
      int nearest = -1;
      double nearestDistance = std::numeric_limits<double>::infinity();
      for (int t = 0; t < static_cast<int>(surface.triangles.size()); ++t) {
        const auto& [a, b, c] = surface.triangles[t];
        const double d =
            (closestPointOnTriangle(point, surface.vertices[a], surface.vertices[b], surface.vertices[c]).point - point)
                .norm();
        if (d < nearestDistance) nearest = t, nearestDistance = d;
      }
      const auto found = model.closestSurfacePoint(point, reach);
      if (!expectedInside && nearestDistance > reach) {
        EXPECT_FALSE(found) << mesh->source << " point " << point.transpose();
        ++beyondReach;
        continue;
      }
      ASSERT_TRUE(found) << mesh->source << " point " << point.transpose();
      const auto& [a, b, c] = surface.triangles[nearest];
      const TrianglePoint expected =
          closestPointOnTriangle(point, surface.vertices[a], surface.vertices[b], surface.vertices[c]);
      EXPECT_EQ(found->distance, expectedInside ? -nearestDistance : nearestDistance)
          << mesh->source << " point " << point.transpose();
      EXPECT_EQ(found->point, expected.point) << mesh->source << " point " << point.transpose();
      (expectedInside ? inside : outside) += 1;
      atEdgeOrVertex += !expected.interior;
    }
    EXPECT_GT(inside, 100) << mesh->source;
    EXPECT_GT(outside, 100) << mesh->source;
    EXPECT_GT(beyondReach, 100) << mesh->source;
    EXPECT_GT(atEdgeOrVertex, 50) << mesh->source;
  }
}

// The per-tetrahedron test after a tree query: a rejected point is farther than the distance
// asked about, and the bound it gives is below its exact distance (brute force). The grid's
// tetrahedra are slanted, so their face planes reject points their kDOPs let through.
TEST_F(MeshModelOfBox, TetrahedronTestRejectsOnlyFarPointsWithATrueBound) {
  const MeshGeometry& mesh = model.geometry();
  const auto axes = kdopAxes(18);
  std::mt19937 random(3);
  std::uniform_real_distribution<double> coordinate(-0.6, 0.6);
  const double distance = 0.02;
  int rejected = 0, rejectedByFacesOnly = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 point(coordinate(random), coordinate(random), coordinate(random));
    for (int t = 0; t < static_cast<int>(mesh.tetrahedra.size()); ++t) {
      double bound;
      if (model.mayBeNearTetrahedron(t, model.pathOf(point), distance, bound)) continue;
      ++rejected;
      const double exact = testing::distanceToTetrahedron(mesh, t, point);
      EXPECT_GT(exact, distance);
      EXPECT_LE(bound, exact);
      std::vector<Vec3> corners;
      for (int v : mesh.tetrahedra[t]) corners.push_back(mesh.tetVertices[v]);
      double kdopBound;
      const PathProjections pointAlone = projectPathOnAxes(AxisComponents(axes), point);
      rejectedByFacesOnly += kdopOfPoints(axes, corners).mayBeWithin(pointAlone, distance, kdopBound);
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(rejectedByFacesOnly, 20);
}

TEST(MeshModel, BadMeshesAreNamedInTheError) {
  MeshGeometry noTetrahedra = *test::boxMesh(Vec3(1, 1, 1));
  noTetrahedra.source = "broken.obj";
  noTetrahedra.tetrahedra.clear();
  try {
    MeshCollisionModel(std::make_shared<const MeshGeometry>(noTetrahedra), 18);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "mesh 'broken.obj': there are no tetrahedra");
  }
  MeshGeometry badIndex = *test::boxMesh(Vec3(1, 1, 1));
  badIndex.surface.triangles[3][1] = 99;
  EXPECT_THROW(MeshCollisionModel(std::make_shared<const MeshGeometry>(badIndex), 18), std::invalid_argument);
  MeshGeometry notFinite = *test::boxMesh(Vec3(1, 1, 1));
  notFinite.source = "nan.obj";
  notFinite.tetVertices.back().y() = std::numeric_limits<double>::quiet_NaN();
  try {
    MeshCollisionModel(std::make_shared<const MeshGeometry>(notFinite), 14);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "mesh 'nan.obj': tetrahedron vertex " + std::to_string(notFinite.tetVertices.size() - 1) + " is not finite");
  }
}

TEST(MeshModelCache, OneModelPerGeometryRebuiltWhenKChanges) {
  const auto box = test::boxMesh(Vec3(1, 1, 1));
  MeshModelCache cache;
  EXPECT_EQ(cache.k(), WorldSettings{}.kdop);
  const MeshCollisionModel& first = cache.prepare(box);
  EXPECT_EQ(&cache.prepare(box), &first);
  EXPECT_EQ(&cache.model(*box), &first);
  EXPECT_THROW(cache.model(*test::boxMesh(Vec3(1, 1, 1))), std::logic_error);
  cache.setK(26);
  EXPECT_THROW(cache.model(*box), std::logic_error);
  EXPECT_EQ(cache.prepare(box).vertexTree().k(), 26);
  EXPECT_THROW(cache.setK(20), std::invalid_argument);
  EXPECT_EQ(cache.k(), 26);
}

}  // namespace
}  // namespace contactlab
