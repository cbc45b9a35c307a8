#include "contactlab/render/stress_colors.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "support/test_scenes.h"

namespace contactlab::render {
namespace {

// Two tetrahedra sharing the face 1-2-3, and a sixth node in neither.
struct TwoTetrahedra {
  std::vector<Vec3> positions{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1), Vec3(5, 5, 5)};
  std::vector<Vec3> velocities = std::vector<Vec3>(6, Vec3::Zero());
  std::vector<std::array<int, 4>> tetrahedra{{0, 1, 2, 3}, {1, 2, 3, 4}};
  DeformableMeshView view() const { return {0, positions, velocities, tetrahedra, {}}; }
};

TEST(StressColors, ANodeTakesTheMeanOfTheTetrahedraAroundIt) {
  const TwoTetrahedra mesh;
  const std::vector<double> stress{100.0, 300.0};
  std::vector<double> nodes;
  ASSERT_TRUE(averageAroundNodes(mesh.view(), stress, nodes));
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_DOUBLE_EQ(nodes[0], 100.0);
  for (int shared : {1, 2, 3}) EXPECT_DOUBLE_EQ(nodes[shared], 200.0) << shared;
  EXPECT_DOUBLE_EQ(nodes[4], 300.0);
  EXPECT_DOUBLE_EQ(nodes[5], 0.0) << "a node in no tetrahedron";
  // One value per tetrahedron, or nothing.
  EXPECT_FALSE(averageAroundNodes(mesh.view(), std::vector<double>{1.0}, nodes));
  EXPECT_TRUE(nodes.empty());
}

TEST(StressColors, TheRangeMapsOntoTheUnitIntervalClamped) {
  const StressRange range{100.0, 300.0};
  EXPECT_DOUBLE_EQ(range.position(100.0), 0.0);
  EXPECT_DOUBLE_EQ(range.position(200.0), 0.5);
  EXPECT_DOUBLE_EQ(range.position(300.0), 1.0);
  EXPECT_DOUBLE_EQ(range.position(50.0), 0.0);
  EXPECT_DOUBLE_EQ(range.position(1e9), 1.0);
  EXPECT_DOUBLE_EQ(range.position(std::nan("")), 0.0);
  EXPECT_DOUBLE_EQ((StressRange{5.0, 5.0}.position(5.0)), 0.0) << "an empty range";
}

TEST(StressColors, TheScaleRunsFromBlueToRedThroughGreenAndIsContinuous) {
  const Color low = stressScaleColor(0.0), middle = stressScaleColor(0.5), high = stressScaleColor(1.0);
  EXPECT_GT(low.b, low.r);
  EXPECT_GT(middle.g, middle.r);
  EXPECT_GT(middle.g, middle.b);
  EXPECT_GT(high.r, high.b);
  EXPECT_GT(high.r, high.g);
  const auto same = [](const Color& a, const Color& b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
  EXPECT_TRUE(same(stressScaleColor(-3.0), low)) << "clamped";
  EXPECT_TRUE(same(stressScaleColor(7.0), high));
  for (int i = 0; i < 1000; ++i) {
    const Color a = stressScaleColor(i / 1000.0), b = stressScaleColor((i + 1) / 1000.0);
    const float step = std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
    ASSERT_LT(step, 0.01f) << "a jump at t = " << i / 1000.0;
    ASSERT_EQ(a.a, 1.0f);
  }
}

TEST(StressColors, ABlockRestingOnTheGroundIsMostStressedAtItsBottom) {
  const Scene scene = contactlab::test::softBoxOnSlab(Vec3(0.1, 0.1, 0.1), Vec3(0, 0, 0.1005));
  World world(scene);
  contactlab::test::runFor(world, 0.3);
  const DeformableMeshView mesh = world.deformableBody(0);
  std::vector<double> nodes;
  ASSERT_TRUE(averageAroundNodes(mesh, world.deformableStress(0), nodes));
  // Its own weight: the stress grows towards the ground, rho g h = 1962 Pa at the bottom.
  double top = 0.0, bottom = 0.0;
  int topCount = 0, bottomCount = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (mesh.positions[i].z() > 0.19) top += nodes[i], ++topCount;
    if (mesh.positions[i].z() < 0.01) bottom += nodes[i], ++bottomCount;
  }
  ASSERT_GT(topCount, 0);
  ASSERT_GT(bottomCount, 0);
  EXPECT_GT(bottom / bottomCount, 3.0 * top / topCount);
  EXPECT_LT(bottom / bottomCount, 3000.0);
}

}  // namespace
}  // namespace contactlab::render
