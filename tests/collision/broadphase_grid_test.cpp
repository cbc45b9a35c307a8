#include "collision/broadphase_grid.h"

#include <gtest/gtest.h>

#include <ostream>
#include <random>

namespace contactlab {

// Readable failure messages: gtest finds this by argument-dependent lookup.
void PrintTo(const BodyPair& pair, std::ostream* os) { *os << "(" << pair.a << ", " << pair.b << ")"; }

namespace {

std::vector<BodyPair> bruteForcePairs(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& movable) {
  std::vector<BodyPair> pairs;
  for (int a = 0; a < static_cast<int>(boxes.size()); ++a)
    for (int b = a + 1; b < static_cast<int>(boxes.size()); ++b)
      if ((movable[a] || movable[b]) && boxes[a].overlaps(boxes[b])) pairs.push_back({a, b});
  return pairs;
}

struct Scene {
  std::vector<Aabb> boxes;
  std::vector<std::uint8_t> movable;
  void add(const Vec3& centre, const Vec3& half, bool moves) {
    boxes.push_back({centre - half, centre + half});
    movable.push_back(moves ? 1 : 0);
  }
};

// Hundreds of boxes of mixed sizes (mostly small, some a few times larger, a few long beams) in a
// 10 m cube, some of them static, on a huge static ground box, with a half-space's clamped box.
Scene randomScene(std::uint32_t seed, int count) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(-5.0, 5.0), unit(0.0, 1.0);
  Scene scene;
  scene.add(Vec3(0, 0, -6), Vec3(50, 50, 1), false);
  for (int i = 0; i < count; ++i) {
    const double kind = unit(random);
    Vec3 half = Vec3(unit(random), unit(random), unit(random)) * 0.3 + Vec3::Constant(0.05);
    if (kind > 0.9) half *= 4.0;
    else if (kind > 0.85) half[i % 3] = 3.0;
    scene.add(Vec3(coordinate(random), coordinate(random), coordinate(random)), half, unit(random) > 0.2);
  }
  scene.boxes.push_back({Vec3(-kUnboundedExtent, -kUnboundedExtent, -kUnboundedExtent),
                         Vec3(kUnboundedExtent, kUnboundedExtent, -5.5)});
  scene.movable.push_back(0);
  return scene;
}

TEST(BroadphaseGrid, MatchesBruteForceOnRandomBoxes) {
  BroadphaseGrid grid;
  std::vector<BodyPair> pairs;
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    const Scene scene = randomScene(seed, 100 + 25 * static_cast<int>(seed));
    grid.findPairs(scene.boxes, scene.movable, pairs);
    const std::vector<BodyPair> expected = bruteForcePairs(scene.boxes, scene.movable);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(pairs, expected) << "seed " << seed;
  }
}

TEST(BroadphaseGrid, BoxesTouchingAtAFaceOrACornerArePaired) {
  Scene scene;
  scene.add(Vec3(0, 0, 0), Vec3(0.5, 0.5, 0.5), true);
  scene.add(Vec3(1, 0, 0), Vec3(0.5, 0.5, 0.5), true);  // shares the face x = 0.5
  scene.add(Vec3(1, 1, 1), Vec3(0.5, 0.5, 0.5), true);  // shares the corner (0.5, 0.5, 0.5) with the first
  scene.add(Vec3(3, 0, 0), Vec3(0.5, 0.5, 0.5), true);  // alone
  BroadphaseGrid grid;
  std::vector<BodyPair> pairs;
  grid.findPairs(scene.boxes, scene.movable, pairs);
  EXPECT_EQ(pairs, (std::vector<BodyPair>{{0, 1}, {0, 2}, {1, 2}}));
}

TEST(BroadphaseGrid, StaticBoxesAreNotPairedWithEachOther) {
  Scene scene;
  scene.add(Vec3(0, 0, 0), Vec3(10, 10, 1), false);
  scene.add(Vec3(0, 0, 0), Vec3(0.5, 0.5, 0.5), false);
  scene.add(Vec3(0, 0, 0.9), Vec3(0.5, 0.5, 0.5), true);
  BroadphaseGrid grid;
  std::vector<BodyPair> pairs;
  grid.findPairs(scene.boxes, scene.movable, pairs);
  EXPECT_EQ(pairs, (std::vector<BodyPair>{{0, 2}, {1, 2}}));

  scene.movable.assign(3, 0);
  grid.findPairs(scene.boxes, scene.movable, pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(BroadphaseGrid, ReusedGridGivesTheSameAnswerAsAFreshOne) {
  BroadphaseGrid reused;
  std::vector<BodyPair> reusedPairs, freshPairs;
  for (const int count : {400, 50, 300}) {
    const Scene scene = randomScene(static_cast<std::uint32_t>(count), count);
    reused.findPairs(scene.boxes, scene.movable, reusedPairs);
    BroadphaseGrid().findPairs(scene.boxes, scene.movable, freshPairs);
    EXPECT_EQ(reusedPairs, freshPairs);
  }
}

}  // namespace
}  // namespace contactlab
