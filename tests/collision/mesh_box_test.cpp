#include <gtest/gtest.h>

#include "collision/mesh_test_helpers.h"

namespace contactlab::testing {
namespace {

// A 1 x 1 x 0.4 box mesh on a large primitive box, sunk 1 mm: its four bottom corners, normal up
// (from the mesh into the box it rests on is down, so the mesh, first, gets -z).
TEST(MeshBox, MeshRestingOnABoxFace) {
  const MeshCollisionModel mesh = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.2)));
  const BoxShape ground{Vec3(5, 5, 0.5)};
  const ContactManifold contacts = meshContacts(
      [&](ContactBuffer& b) { collideMeshBox(mesh, poseOf(Vec3(0, 0, 0.2 - 1e-3)), ground, poseOf(Vec3(0, 0, -0.5)), b); },
      0.01);
  expectFootprintCorners(contacts, 0.0, 0.0, 0.5, 0.5);
  expectNormalAndGap(contacts, -Vec3::UnitZ(), -1e-3);
}

// A small primitive box on a big mesh box's top face: the mesh's vertices are far away, the box's
// four bottom corners touch the mesh.
TEST(MeshBox, BoxCornersInTheMesh) {
  const MeshCollisionModel mesh = modelOf(test::boxMesh(Vec3(2, 2, 0.5)));
  const BoxShape small{Vec3(0.1, 0.2, 0.3)};
  const Pose smallPose = poseOf(Vec3(0.3, -0.4, 0.5 + 0.3 - 2e-3));
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collideMeshBox(mesh, Pose{}, small, smallPose, b); }, 0.01);
  expectFootprintCorners(contacts, 0.3, -0.4, 0.1, 0.2);
  expectNormalAndGap(contacts, Vec3::UnitZ(), -2e-3);
  EXPECT_TRUE(meshContacts([&](ContactBuffer& b) { collideMeshBox(mesh, Pose{}, small, poseOf(Vec3(0, 0, 0.82)), b); },
                           0.01)
                  .empty());
}

}  // namespace
}  // namespace contactlab::testing
