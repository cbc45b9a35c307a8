#include "geometry/mesh_body_frame.h"

#include <gtest/gtest.h>

#include "geometry/procedural_meshes.h"

namespace contactlab {
namespace {

// A 1 x 2 x 3 box, turned and moved away from the origin: the body frame must find its centre, its
// analytic principal moments V (b^2 + c^2) / 12, ... and axes along the box's edges.
TEST(MeshInBodyFrame, OffsetRotatedBoxRecoversCentreAndPrincipalMoments) {
  const Vec3 half(0.5, 1.0, 1.5);
  const Mat3 rotation = Quat(Eigen::AngleAxisd(1.1, Vec3(0.3, -1.0, 0.4).normalized())).toRotationMatrix();
  const Vec3 offset(3.0, -2.0, 5.0);
  TriangleMesh placed = boxMesh(half);
  for (Vec3& v : placed.vertices) v = rotation * v + offset;

  const MeshInBodyFrame body = meshInBodyFrame(placed, "box");
  EXPECT_NEAR(body.geometry.volume, 6.0, 1e-9);
  EXPECT_LT((body.bodyToInput.position - offset).norm(), 1e-9);
  const Vec3 expected = Vec3(4.0 + 9.0, 1.0 + 9.0, 1.0 + 4.0) * (6.0 / 12.0);
  for (int axis = 0; axis < 3; ++axis) {
    // The box axis this principal axis lies along (|cos| = 1) tells which analytic moment it has.
    const Vec3 inBoxFrame = rotation.transpose() * body.bodyToInput.rotation.col(axis);
    int boxAxis = 0;
    EXPECT_NEAR(inBoxFrame.cwiseAbs().maxCoeff(&boxAxis), 1.0, 1e-9);
    EXPECT_NEAR(body.geometry.principalInertiaPerUnitDensity[axis], expected[boxAxis], 1e-9);
  }
  EXPECT_NEAR(body.bodyToInput.rotation.determinant(), 1.0, 1e-12);
  // In the body frame the box is axis aligned and centred: its bounds are +-half, permuted.
  const Vec3 extent = 0.5 * (body.geometry.boundsUpper - body.geometry.boundsLower);
  Vec3 sorted = extent;
  std::sort(sorted.data(), sorted.data() + 3);
  EXPECT_TRUE(sorted.isApprox(half, 1e-9));
  EXPECT_LT((body.geometry.boundsUpper + body.geometry.boundsLower).norm(), 1e-9);
  EXPECT_NEAR(body.geometry.boundingRadius, half.norm(), 1e-9);
  // bodyToInput maps the body-frame vertices back onto the input's.
  for (std::size_t v = 0; v < placed.vertices.size(); ++v)
    EXPECT_LT((body.bodyToInput.rotation * body.geometry.surface.vertices[v] + body.bodyToInput.position -
               placed.vertices[v]).norm(),
              1e-9);
}

TEST(MeshInBodyFrame, InsideOutSurfaceIsRefused) {
  TriangleMesh inverted = boxMesh(Vec3::Ones());
  for (auto& tri : inverted.triangles) std::swap(tri[1], tri[2]);
  try {
    meshInBodyFrame(inverted, "inverted.obj");
    FAIL() << "an inside-out box was accepted";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("inverted.obj: the surface encloses a volume of -8"), std::string::npos)
        << e.what();
  }
}

TEST(MeshInBodyFrame, CoordinatesTooLargeForFiniteMassPropertiesAreRefused) {
  // Half-extent 1e200: the volume (1e600) overflows, and the message must say so, not report a
  // "volume of -nan" as if the surface were inside out.
  try {
    meshInBodyFrame(boxMesh(Vec3::Constant(1e200)), "huge.obj");
    FAIL() << "a box of half-extent 1e200 was accepted";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("huge.obj: the coordinates are too large"), std::string::npos) << e.what();
  }
}

TEST(MeshInBodyFrame, FlatSurfaceIsRefusedAsFlat) {
  // A closed tetrahedron whose fourth vertex lies in the plane of the other three: its volume is
  // 0, and the message must say so rather than blame the coordinates' size (0/0 centre of mass).
  TriangleMesh flat;
  flat.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.3, 0.3, 0)};
  flat.triangles = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
  try {
    meshInBodyFrame(flat, "flat.obj");
    FAIL() << "a flat surface was accepted";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("flat.obj: the surface encloses no volume"), std::string::npos) << e.what();
  }
}

TEST(MeshInBodyFrame, OpenSurfaceIsRefused) {
  TriangleMesh open = boxMesh(Vec3::Ones());
  open.triangles.erase(open.triangles.begin());
  EXPECT_THROW(meshInBodyFrame(open, "open.obj"), MeshError);
}

}  // namespace
}  // namespace contactlab
