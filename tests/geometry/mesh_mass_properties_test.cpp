#include "geometry/mesh_mass_properties.h"

#include <gtest/gtest.h>

#include <numbers>

#include "geometry/procedural_meshes.h"

namespace contactlab {
namespace {

// Solid box of full edges (a, b, c) at unit density: V = abc, I_x = V (b^2 + c^2) / 12, ...
TEST(MeshMassProperties, BoxMatchesTheAnalyticVolumeAndInertia) {
  const Vec3 half(0.5, 1.0, 1.5);
  const MeshMassProperties mass = integrateMassProperties(boxMesh(half));
  const double a = 1.0, b = 2.0, c = 3.0, volume = 6.0;
  EXPECT_NEAR(mass.volume, volume, 1e-12);
  EXPECT_LT(mass.centreOfMass.norm(), 1e-12);
  const Mat3 expected = Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal() * (volume / 12.0);
  EXPECT_LT((mass.inertiaAboutCentreOfMass - expected).norm(), 1e-12);
}

// A 256 x 128 UV sphere is inscribed in the true one; its volume and moments fall short by
// O((pi / 128)^2), under 0.1 %.
TEST(MeshMassProperties, FineSphereApproachesTheAnalyticVolumeAndInertia) {
  const double radius = 0.7;
  const MeshMassProperties mass = integrateMassProperties(uvSphereMesh(radius, 256, 128));
  const double volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  const double moment = 0.4 * volume * radius * radius;
  EXPECT_NEAR(mass.volume / volume, 1.0, 1e-3);
  EXPECT_LT(mass.volume, volume);
  EXPECT_LT(mass.centreOfMass.norm(), 1e-12);
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(mass.inertiaAboutCentreOfMass(axis, axis) / moment, 1.0, 1e-3);
  const Mat3 offDiagonal = mass.inertiaAboutCentreOfMass - Mat3(mass.inertiaAboutCentreOfMass.diagonal().asDiagonal());
  EXPECT_LT(offDiagonal.cwiseAbs().maxCoeff(), 1e-12);
}

TEST(MeshMassProperties, TranslatingTheMeshMovesOnlyTheCentreOfMass) {
  TriangleMesh box = boxMesh(Vec3(0.5, 1.0, 1.5));
  const Vec3 offset(100.0, -40.0, 7.0);
  for (Vec3& v : box.vertices) v += offset;
  const MeshMassProperties mass = integrateMassProperties(box);
  EXPECT_NEAR(mass.volume, 6.0, 1e-9);
  EXPECT_LT((mass.centreOfMass - offset).norm(), 1e-9);
  EXPECT_NEAR(mass.inertiaAboutCentreOfMass(0, 0), 6.0 * 13.0 / 12.0, 1e-9);
}

TEST(PrincipalAxes, DiagonalTensorKeepsTheInputAxes) {
  const PrincipalAxes principal = principalAxes(Vec3(2.0, 2.0, 2.0).asDiagonal());
  EXPECT_TRUE(principal.axes.isIdentity());
  EXPECT_TRUE(principal.moments.isApprox(Vec3(2.0, 2.0, 2.0)));
}

TEST(PrincipalAxes, RotatedTensorGivesARightHandedFrameDiagonalizingIt) {
  const Mat3 rotation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())).toRotationMatrix();
  const Mat3 inertia = rotation * Vec3(1.0, 2.0, 3.0).asDiagonal() * rotation.transpose();
  const PrincipalAxes principal = principalAxes(inertia);
  EXPECT_NEAR(principal.axes.determinant(), 1.0, 1e-12);
  const Mat3 diagonal = principal.axes.transpose() * inertia * principal.axes;
  EXPECT_LT((diagonal - Mat3(principal.moments.asDiagonal())).norm(), 1e-12);
  Vec3 sorted = principal.moments;
  std::sort(sorted.data(), sorted.data() + 3);
  EXPECT_TRUE(sorted.isApprox(Vec3(1.0, 2.0, 3.0), 1e-12));
}

TEST(RequireClosedOrientedSurface, AcceptsClosedMeshes) {
  EXPECT_NO_THROW(requireClosedOrientedSurface(boxMesh(Vec3::Ones()), "box"));
  EXPECT_NO_THROW(requireClosedOrientedSurface(uvSphereMesh(1.0, 12, 6), "sphere"));
}

void expectMeshError(const TriangleMesh& mesh, const std::string& fragment) {
  try {
    requireClosedOrientedSurface(mesh, "test.obj");
    FAIL() << "no error; expected one mentioning " << fragment;
  } catch (const MeshError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("test.obj: ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(RequireClosedOrientedSurface, RejectsOpenInconsistentAndBrokenMeshes) {
  TriangleMesh open = boxMesh(Vec3::Ones());
  open.triangles.pop_back();
  expectMeshError(open, "open");
  // Triangles counted from 1 as an OBJ's faces, vertices named by position (welding renumbers them).
  expectMeshError(open, "of triangle ");
  expectMeshError(open, "the edge from (");

  TriangleMesh flipped = boxMesh(Vec3::Ones());
  std::swap(flipped.triangles[3][1], flipped.triangles[3][2]);
  expectMeshError(flipped, "inconsistent orientation");

  TriangleMesh outOfRange = boxMesh(Vec3::Ones());
  outOfRange.triangles[0][2] = 8;
  expectMeshError(outOfRange, "out of range");

  TriangleMesh notFinite = boxMesh(Vec3::Ones());
  notFinite.vertices[5].y() = std::numeric_limits<double>::quiet_NaN();
  expectMeshError(notFinite, "vertex 6 (counted from 1) is not finite");

  expectMeshError(TriangleMesh{}, "no triangles");
}

}  // namespace
}  // namespace contactlab
