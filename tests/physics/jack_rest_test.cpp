// The acceptance for mesh contacts: a jack dropped on the ground comes to rest on a handful
// of contact points (<= 12), and stays: no sinking, no creeping, no jitter.
#include <gtest/gtest.h>

#include <algorithm>

#include "geometry/mesh_library.h"
#include "support/tetgen_cache.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

struct Ground {
  const char* name;
  Shape shape;
  Vec3 position;
};

class JackComesToRest : public ::testing::TestWithParam<int> {};

TEST_P(JackComesToRest, OnAFewContactsWithoutSinking) {
  const test::TemporaryDirectory cache;
  const auto jack = namedMeshGeometry("jack", 0.4, test::tetgenSettingsIn(cache));
  double lowestVertex = 0.0;  // in the body frame, along the world's z once dropped below
  const Quat orientation(0.9238795, 0.2209424, 0.2209424, 0.2209424);
  for (const Vec3& v : jack->surface.vertices) lowestVertex = std::min(lowestVertex, (orientation * v).z());

  for (const Ground& ground : {Ground{"box", BoxShape{Vec3(3, 3, 0.5)}, Vec3(0, 0, -0.5)},
                               Ground{"plane", PlaneShape{Vec3(0, 0, 1), 0.0}, Vec3::Zero()}}) {
    SCOPED_TRACE(ground.name);
    Scene scene;
    BodyDesc floor;
    floor.name = "ground";
    floor.shape = ground.shape;
    floor.position = ground.position;
    floor.motion = MotionType::Static;
    BodyDesc body;
    body.name = "jack";
    body.shape = MeshShape{jack};
    body.position = Vec3(0, 0, 0.05 - lowestVertex);  // 5 cm above the ground
    body.orientation = orientation;
    scene.bodies = {floor, body};
    WorldSettings settings;
    settings.kdop = GetParam();
    World world(scene, settings);

    test::runFor(world, 2.0);
    const Vec3 settled = world.bodies()[1].position;
    size_t mostContacts = 0;
    double deepest = 0.0;
    test::runFor(world, 1.0, [&](const World& w) {
      mostContacts = std::max(mostContacts, w.contacts().size());
      for (const ContactReport& c : w.contacts()) deepest = std::min(deepest, c.gap);
    });
    EXPECT_GE(mostContacts, 3u) << "a jack rests on at least three points";
    EXPECT_LE(mostContacts, 12u);
    EXPECT_GT(deepest, -2e-3) << "sinks into the ground";
    EXPECT_LT((world.bodies()[1].position - settled).norm(), 1e-3) << "still moving after 2 s";
    EXPECT_LT(world.bodies()[1].velocity.norm(), 1e-2);
  }
}

INSTANTIATE_TEST_SUITE_P(EachK, JackComesToRest, ::testing::Values(14, 26));

}  // namespace
}  // namespace contactlab
