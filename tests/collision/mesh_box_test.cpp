#include <gtest/gtest.h>

#include <random>

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

// A cross turned every which way and sunk 5 cm into a 20 m floor slab: every vertex within the
// margin of the slab (brute force over all of them) becomes a contact point; the search for them
// in the slab's frame must miss none.
TEST(MeshBox, EveryVertexNearATurnedSlabIsFound) {
  const auto cross = test::crossMesh(6, 2, 0.1);
  const MeshCollisionModel mesh = modelOf(cross);
  const BoxShape floor{Vec3(10, 10, 0.5)};
  const Pose floorPose = poseOf(Vec3(0.3, -0.2, -0.5), Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ())));
  const double margin = 0.01;
  std::mt19937 random(5);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    const Quat turn = Quat(normal(random), normal(random), normal(random), normal(random)).normalized();
    Pose meshPose = poseOf(Vec3::Zero(), turn);
    double lowest = 1e300;
    for (const Vec3& v : cross->surface.vertices) lowest = std::min(lowest, (meshPose.rotation * v).z());
    meshPose.position = Vec3(1.0, 2.0, -lowest - 0.05);
    int nearFloor = 0;
    for (const Vec3& v : cross->surface.vertices) {
      const Vec3 q = floorPose.rotation.transpose() * (meshPose.position + meshPose.rotation * v - floorPose.position);
      const Vec3 outside = (q.cwiseAbs() - floor.halfExtents).cwiseMax(0.0);
      const double signedDistance =
          outside.norm() > 0.0 ? outside.norm() : (q.cwiseAbs() - floor.halfExtents).maxCoeff();
      nearFloor += signedDistance < margin;
    }
    int candidates = 0;
    meshContacts([&](ContactBuffer& b) { collideMeshBox(mesh, meshPose, floor, floorPose, b); }, margin, &candidates);
    EXPECT_GT(nearFloor, 0);
    EXPECT_EQ(candidates, nearFloor) << "trial " << trial;
  }
}

}  // namespace
}  // namespace contactlab::testing
