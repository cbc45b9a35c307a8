#include "collision/contact_generation.h"

#include <gtest/gtest.h>

#include <vector>

#include "support/test_meshes.h"

namespace contactlab::testing {
namespace {

Body meshBody(const std::shared_ptr<const MeshGeometry>& mesh, const Vec3& position, const Quat& orientation) {
  Body body;
  body.shape = MeshShape{mesh};
  body.position = position;
  body.orientation = orientation;
  return body;
}

// The generator skips mesh pairs that an earlier step proved apart and searches pairs in contact
// only near where they touched (ContactGenerator's PairMemory): step by step, as one cross moves
// towards and into another and a third turns beside them, it gives exactly the contacts of a
// generator that searches every pair afresh. For ten steps the moving cross also has a velocity
// that widens its pairs' margin beyond the fronts' reach (they keep only their bounds then).
TEST(ContactGenerator, RememberedPairsChangeNoContact) {
  const auto cross = test::crossMesh(8, 2, 0.05);
  std::vector<Body> bodies = {meshBody(cross, Vec3(0, 0, 0), Quat::Identity()),
                              meshBody(cross, Vec3(0.44, 0.05, 0.02), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))),
                              meshBody(cross, Vec3(0.1, 0.38, 0.0), Quat(Eigen::AngleAxisd(0.7, Vec3::UnitX())))};
  ContactGenerator remembering;
  remembering.prepareMeshes(bodies, 18);
  const double dt = 0.01;
  int skipped = 0, replayed = 0, touching = 0;
  for (int step = 0; step < 60; ++step) {
    bodies[1].position.x() -= 0.0015;  // 9 cm in all: from about 4 cm apart to 5 cm deep
    bodies[2].orientation = Quat(Eigen::AngleAxisd(0.7 + 0.002 * step, Vec3::UnitX()));
    bodies[1].velocity = step >= 20 && step < 30 ? Vec3(-1.0, 0.0, 0.0) : Vec3::Zero();  // margin + 1 cm
    std::vector<BodyContact> remembered, fresh;
    remembering.generate(bodies, dt, Vec3::Zero(), remembered);
    ContactGenerator afresh;
    afresh.prepareMeshes(bodies, 18);
    afresh.generate(bodies, dt, Vec3::Zero(), fresh);
    EXPECT_EQ(afresh.skippedPairs(), 0);
    EXPECT_EQ(afresh.replayedPairs(), 0);
    skipped += remembering.skippedPairs();
    replayed += remembering.replayedPairs();
    if (!fresh.empty()) ++touching;
    ASSERT_EQ(remembered.size(), fresh.size()) << "step " << step;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      EXPECT_EQ(remembered[i].bodyA, fresh[i].bodyA);
      EXPECT_EQ(remembered[i].bodyB, fresh[i].bodyB);
      EXPECT_EQ(remembered[i].contact.point, fresh[i].contact.point);
      EXPECT_EQ(remembered[i].contact.normal, fresh[i].contact.normal);
      EXPECT_EQ(remembered[i].contact.gap, fresh[i].contact.gap);
    }
  }
  EXPECT_GT(skipped, 10);   // the bound was used, ...
  EXPECT_GT(replayed, 10);  // the fronts too ...
  EXPECT_GT(touching, 10);  // ... and the moving pair did come into contact
}

}  // namespace
}  // namespace contactlab::testing
