#include "collision/triangle_geometry.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 2, 0);

TEST(ClosestPointOnTriangle, AboveTheFaceProjectsStraightDown) {
  const TrianglePoint q = closestPointOnTriangle(Vec3(0.5, 0.5, 3), a, b, c);
  EXPECT_TRUE(q.interior);
  EXPECT_TRUE(q.point.isApprox(Vec3(0.5, 0.5, 0)));
  EXPECT_EQ(q.edge, -1);
  EXPECT_EQ(q.corner, -1);
}

TEST(ClosestPointOnTriangle, BesideAnEdgeLandsOnTheEdge) {
  const TrianglePoint q = closestPointOnTriangle(Vec3(1.5, 1.5, -1), a, b, c);  // beyond the hypotenuse
  EXPECT_FALSE(q.interior);
  EXPECT_TRUE(q.point.isApprox(Vec3(1, 1, 0)));
  EXPECT_EQ(q.edge, 1);  // from b to c
  EXPECT_EQ(q.corner, -1);
  const TrianglePoint below = closestPointOnTriangle(Vec3(1, -2, 0), a, b, c);
  EXPECT_TRUE(below.point.isApprox(Vec3(1, 0, 0)));
  EXPECT_EQ(below.edge, 0);  // from a to b
}

TEST(ClosestPointOnTriangle, PastACornerLandsOnTheCorner) {
  const TrianglePoint q = closestPointOnTriangle(Vec3(-1, -1, 0.5), a, b, c);
  EXPECT_FALSE(q.interior);
  EXPECT_TRUE(q.point.isApprox(a));
  EXPECT_EQ(q.corner, 0);
  EXPECT_EQ(q.edge, -1);
  const TrianglePoint pastB = closestPointOnTriangle(Vec3(5, -1, 0), a, b, c);
  EXPECT_TRUE(pastB.point.isApprox(b));
  EXPECT_EQ(pastB.corner, 1);
  EXPECT_EQ(closestPointOnTriangle(Vec3(-1, 5, 0), a, b, c).corner, 2);
}

TEST(TetrahedronContains, InsideOnTheBoundaryAndOutside) {
  const Vec3 d(0, 0, 2);
  EXPECT_TRUE(tetrahedronContains(Vec3(0.2, 0.2, 0.2), a, b, c, d));
  EXPECT_TRUE(tetrahedronContains(Vec3(0.5, 0.5, 0.0), a, b, c, d));
  EXPECT_FALSE(tetrahedronContains(Vec3(1, 1, 1), a, b, c, d));
  EXPECT_FALSE(tetrahedronContains(Vec3(0.2, 0.2, -0.01), a, b, c, d));
}

}  // namespace
}  // namespace contactlab
