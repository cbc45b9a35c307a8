#include "collision/contact_buffer.h"

#include <gtest/gtest.h>

#include <set>

namespace contactlab {
namespace {

// Points on three faces with normals 90 degrees apart, five each, plus a fourth direction with
// two: at most kMaxMeshClusters clusters of kMaxPointsPerCluster, each keeping its deepest point.
// The clusters start from the deepest points (the y face's, then x's, then z's); the two -z points
// come too late for a cluster of their own and join the first of the nearest, y's, which then spans
// far enough for its nearby points to merge into patches.
TEST(ContactBuffer, ReductionKeepsAFewPointsPerNormalCluster) {
  ContactBuffer buffer(0.1, 1e-9);
  const std::array<Vec3, 4> normals{Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitZ()};
  std::uint32_t feature = 0;
  for (int n = 0; n < 3; ++n)
    for (int i = 0; i < 5; ++i) {
      const Vec3 along = normals[(n + 1) % 3].cross(normals[n]);
      const Vec3 point = normals[n] + 0.1 * (i % 3) * along + 0.1 * (i / 3) * normals[(n + 1) % 3];
      // Depth grows with the cluster: cluster n's deepest point is its i = 2 at -0.01 (n + 1).
      const double gap = i == 2 ? -0.01 * (n + 1) : -0.001 * i;
      buffer.add(point, point + gap * normals[n], normals[n], feature++);
    }
  buffer.add(Vec3(0, 0, -1), Vec3(0, 0, -1.001), normals[3], feature++);
  buffer.add(Vec3(0.1, 0, -1), Vec3(0.1, 0, -1.001), normals[3], feature++);
  ASSERT_EQ(buffer.size(), 17);
  ContactManifold out;
  buffer.finalizeInto(out, false, ContactBuffer::kMaxMeshClusters);
  EXPECT_LE(out.size(), 12u);
  std::set<std::uint32_t> kept;
  for (const ContactPoint& c : out) kept.insert(c.feature);
  for (std::uint32_t deepest : {2u, 7u, 12u}) EXPECT_TRUE(kept.count(deepest)) << deepest;
  int perCluster[3] = {0, 0, 0};
  for (const ContactPoint& c : out)
    for (int n = 0; n < 3; ++n) perCluster[n] += c.normal.isApprox(normals[n]) ? 1 : 0;
  EXPECT_EQ(perCluster[0], 4);
  EXPECT_EQ(perCluster[1], 4);
}

TEST(ContactBuffer, OneClusterKeepsFourPoints) {
  ContactBuffer buffer(0.1, 1e-9);
  for (int i = 0; i < 9; ++i) {
    const Vec3 p(i % 3, i / 3, 0);
    buffer.add(p, p + Vec3(0, 0, -0.01), Vec3::UnitZ(), static_cast<std::uint32_t>(i));
  }
  ContactManifold out;
  buffer.finalizeInto(out, true);
  ASSERT_EQ(out.size(), 4u);
  for (const ContactPoint& c : out) {
    EXPECT_EQ(c.normal, -Vec3::UnitZ()) << "flipped";
    EXPECT_NE(c.feature, 4u) << "the centre adds no area";
  }
  EXPECT_EQ(buffer.size(), 0) << "emptied for the next pair";
}

}  // namespace
}  // namespace contactlab
