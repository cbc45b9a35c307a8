#include "contactlab/render/instances.h"

#include <gtest/gtest.h>

#include <cmath>

#include "contactlab/render/bounds.h"
#include "contactlab/render/debug_geometry.h"

#include "render/render_test_bodies.h"

namespace contactlab::render {
namespace {

using test::makeBody;

Vec3 transformPoint(const Instance& instance, const Vec3& point) {
  const Eigen::Map<const Eigen::Matrix4f> model(instance.model.data());
  const Eigen::Vector4f p = model * Eigen::Vector4f(point.x(), point.y(), point.z(), 1.0f);
  return p.head<3>().cast<double>();
}

TEST(Instances, BoxInstanceMapsTheUnitCubeOntoTheBody) {
  const Quat turn(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  const std::vector<Body> bodies = {makeBody(BoxShape{Vec3(1, 2, 3)}, Vec3(4, 5, 6), MotionType::Dynamic, turn)};
  InstanceBatches batches;
  buildInstances(bodies, -1, batches);
  ASSERT_EQ(batches[MeshKind::Box].size(), 1u);
  const Vec3 corner = transformPoint(batches[MeshKind::Box][0], Vec3(1, 1, 1));
  EXPECT_TRUE(corner.isApprox(Vec3(4, 5, 6) + turn * Vec3(1, 2, 3), 1e-5));
  EXPECT_EQ(batches[MeshKind::Box][0].style, static_cast<float>(SurfaceStyle::Dynamic));
}

TEST(Instances, CapsuleIsACylinderAndTwoEndSpheres) {
  const std::vector<Body> bodies = {makeBody(CapsuleShape{0.2, 0.7}, Vec3(0, 0, 1))};
  InstanceBatches batches;
  buildInstances(bodies, -1, batches);
  ASSERT_EQ(batches[MeshKind::Cylinder].size(), 1u);
  ASSERT_EQ(batches[MeshKind::Sphere].size(), 2u);
  EXPECT_TRUE(transformPoint(batches[MeshKind::Cylinder][0], Vec3(1, 0, 1)).isApprox(Vec3(0.2, 0, 1.7), 1e-6));
  EXPECT_TRUE(transformPoint(batches[MeshKind::Sphere][0], Vec3(0, 0, -1)).isApprox(Vec3(0, 0, 0.1), 1e-6));
  EXPECT_TRUE(transformPoint(batches[MeshKind::Sphere][1], Vec3(0, 0, 1)).isApprox(Vec3(0, 0, 1.9), 1e-6));
}

TEST(Instances, MeshBodiesSharingAGeometryAreOneBatchPlacedByTheirPose) {
  const MeshShape tetrahedron = test::unitTetrahedronShape();
  const Quat turn(Eigen::AngleAxisd(0.5, Vec3::UnitZ()));
  const std::vector<Body> bodies = {makeBody(tetrahedron, Vec3(1, 2, 3), MotionType::Dynamic, turn),
                                    makeBody(BoxShape{}, Vec3::Zero()), makeBody(tetrahedron, Vec3(-1, 0, 0))};
  InstanceBatches batches;
  buildInstances(bodies, -1, batches);
  ASSERT_EQ(batches.byGeometry.size(), 1u);
  EXPECT_EQ(batches.byGeometry[0].geometry, tetrahedron.geometry);
  ASSERT_EQ(batches.byGeometry[0].instances.size(), 2u);
  EXPECT_TRUE(transformPoint(batches.byGeometry[0].instances[0], Vec3(1, 0, 0)).isApprox(Vec3(1, 2, 3) + turn * Vec3(1, 0, 0), 1e-6));
  EXPECT_TRUE(transformPoint(batches.byGeometry[0].instances[1], Vec3(0, 0, 1)).isApprox(Vec3(-1, 0, 1), 1e-6));
  batches.clear();
  EXPECT_TRUE(batches.byGeometry.empty());
}

TEST(Instances, PlaneIsALargeQuadOnItsSurfaceFacingItsNormal) {
  const Vec3 normal = Vec3(0, 1, 1).normalized();
  const std::vector<Body> bodies = {makeBody(PlaneShape{normal, 2.0}, Vec3::Zero(), MotionType::Static)};
  InstanceBatches batches;
  buildInstances(bodies, -1, batches);
  ASSERT_EQ(batches[MeshKind::Quad].size(), 1u);
  const Instance& quad = batches[MeshKind::Quad][0];
  EXPECT_TRUE(transformPoint(quad, Vec3::Zero()).isApprox(2.0 * normal, 1e-6));
  const Vec3 corner = transformPoint(quad, Vec3(1, 1, 0));
  EXPECT_NEAR(corner.dot(normal), 2.0, 1e-4);
  EXPECT_NEAR((corner - 2.0 * normal).norm(), kPlaneHalfSize * std::sqrt(2.0), 1e-3);
  EXPECT_EQ(quad.style, static_cast<float>(SurfaceStyle::Static));
  EXPECT_FALSE(floorInstance(bodies));  // the plane is the ground already
}

TEST(Instances, SelectedDynamicBodyIsHighlightedAndNonFiniteBodiesAreSkipped) {
  std::vector<Body> bodies = {makeBody(SphereShape{0.5}, Vec3::Zero()), makeBody(SphereShape{0.5}, Vec3(2, 0, 0)),
                              makeBody(SphereShape{0.5}, Vec3(4, 0, 0))};
  bodies[2].position.z() = std::nan("");
  InstanceBatches batches;
  buildInstances(bodies, 1, batches);
  ASSERT_EQ(batches[MeshKind::Sphere].size(), 2u);
  EXPECT_EQ(batches[MeshKind::Sphere][0].style, static_cast<float>(SurfaceStyle::Dynamic));
  EXPECT_EQ(batches[MeshKind::Sphere][1].style, static_cast<float>(SurfaceStyle::Selected));
}

TEST(Instances, ConsecutiveDynamicBodiesGetDistinctColoursAndStaticBodiesGrey) {
  for (int i = 0; i < 50; ++i) {
    const Color a = bodyColor(i, MotionType::Dynamic);
    const Color b = bodyColor(i + 1, MotionType::Dynamic);
    const double difference = std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
    EXPECT_GT(difference, 0.15) << "bodies " << i << " and " << i + 1;
    for (const float channel : {a.r, a.g, a.b}) {
      EXPECT_GE(channel, 0.0f);
      EXPECT_LE(channel, 1.0f);
    }
  }
  const Color grey = bodyColor(7, MotionType::Static);
  EXPECT_EQ(grey.r, grey.g);
  EXPECT_EQ(bodyColor(3, MotionType::Static).r, grey.r);
}

TEST(Instances, FloorSitsJustBelowTheTopOfAWideGroundBoxOnly) {
  std::vector<Body> bodies = {makeBody(BoxShape{Vec3(20, 20, 0.5)}, Vec3(1, 2, -0.5), MotionType::Static),
                              makeBody(BoxShape{Vec3(0.5, 0.5, 0.5)}, Vec3(0, 0, 3), MotionType::Static),
                              makeBody(SphereShape{0.5}, Vec3(0, 0, 0.5))};
  const std::optional<Instance> floor = floorInstance(bodies);
  ASSERT_TRUE(floor);
  const Vec3 centre = transformPoint(*floor, Vec3::Zero());
  EXPECT_NEAR(centre.z(), 0.0, 2e-3);
  EXPECT_LT(centre.z(), 0.0);
  EXPECT_NEAR(transformPoint(*floor, Vec3(1, 0, 0)).x() - centre.x(), kPlaneHalfSize, 1e-3);
  bodies.erase(bodies.begin());  // only a 1 m pedestal left: not a ground
  EXPECT_FALSE(floorInstance(bodies));
}

// A deformable body as the World holds it: Static to the rigid pipeline, its shape the undeformed
// solid's (Body::deformable).
Body deformableBox(const Vec3& halfExtents, const Vec3& position) {
  Body body = makeBody(BoxShape{halfExtents}, position, MotionType::Static);
  body.deformable = 0;
  return body;
}

TEST(Instances, DeformableBodiesAreDrawnByTheirSurfaceNotTheirShape) {
  const std::vector<Body> bodies = {makeBody(BoxShape{Vec3(1, 1, 0.1)}, Vec3(0, 0, -0.1), MotionType::Static),
                                    deformableBox(Vec3(0.1, 0.1, 0.1), Vec3(0, 0, 0.3))};
  InstanceBatches batches;
  buildInstances(bodies, 1, batches);
  ASSERT_EQ(batches[MeshKind::Box].size(), 1u) << "only the ground";
  EXPECT_FLOAT_EQ(batches[MeshKind::Box][0].model[14], -0.1f);

  // The surface's instance: placed as it is, coloured like a dynamic body, and selectable.
  const Instance selected = deformableInstance(bodies[1], 1, 1);
  const Color dynamic = bodyColor(1, MotionType::Dynamic);
  EXPECT_EQ(selected.color, (std::array<float, 4>{dynamic.r, dynamic.g, dynamic.b, dynamic.a}));
  EXPECT_EQ(selected.style, static_cast<float>(SurfaceStyle::Selected));
  EXPECT_EQ(deformableInstance(bodies[1], 1, -1).style, static_cast<float>(SurfaceStyle::Dynamic));
  EXPECT_TRUE(transformPoint(selected, Vec3(0.3, -2, 5)).isApprox(Vec3(0.3, -2, 5), 1e-6));
  EXPECT_TRUE(movesInScene(bodies[1]));
  EXPECT_FALSE(movesInScene(bodies[0]));
}

TEST(Instances, AWideDeformableSlabIsNeitherTheFloorNorASupport) {
  const std::vector<Body> bodies = {deformableBox(Vec3(5, 5, 0.1), Vec3(0, 0, 0.1)),
                                    makeBody(BoxShape{Vec3(0.5, 0.5, 0.5)}, Vec3(0, 0, -0.5), MotionType::Static)};
  EXPECT_FALSE(floorInstance(bodies));
  // Framed as the moving body it is, down to the pedestal under it, not as static scenery.
  const auto framing = framingBounds(bodies);
  ASSERT_TRUE(framing);
  EXPECT_DOUBLE_EQ(framing->upper.z(), 0.2);
  EXPECT_DOUBLE_EQ(framing->lower.z(), 0.0);
  EXPECT_DOUBLE_EQ(framing->upper.x(), 5.0);
}

TEST(Instances, SpheresSmallOnScreenUseTheSmallSphereMeshInOrder) {
  // Seen from the origin with 1000 px per radian: 0.1 m at 5 m is 20 px, at 20 m 5 px; 1 m at 20 m 50 px.
  const std::vector<Body> bodies = {makeBody(SphereShape{0.1}, Vec3(5, 0, 0)), makeBody(SphereShape{0.1}, Vec3(20, 0, 0)),
                                    makeBody(SphereShape{1.0}, Vec3(0, 20, 0)), makeBody(SphereShape{0.1}, Vec3(0, 0, 30)),
                                    makeBody(BoxShape{Vec3(0.1, 0.1, 0.1)}, Vec3(0, 0, 90))};
  InstanceBatches batches;
  buildInstances(bodies, -1, batches);
  useSmallSpheresWhereTheyLookTheSame(batches, Vec3::Zero(), 1000.0);
  ASSERT_EQ(batches[MeshKind::Sphere].size(), 2u);
  ASSERT_EQ(batches[MeshKind::SmallSphere].size(), 2u);
  EXPECT_FLOAT_EQ(batches[MeshKind::Sphere][0].model[12], 5.0f);
  EXPECT_FLOAT_EQ(batches[MeshKind::Sphere][1].model[13], 20.0f);
  EXPECT_FLOAT_EQ(batches[MeshKind::SmallSphere][0].model[12], 20.0f);
  EXPECT_FLOAT_EQ(batches[MeshKind::SmallSphere][1].model[14], 30.0f);
  EXPECT_EQ(batches[MeshKind::Box].size(), 1u);  // only spheres change mesh
  // The eye inside a sphere: it stays the fine one.
  buildInstances({bodies[2]}, -1, batches);
  useSmallSpheresWhereTheyLookTheSame(batches, Vec3(0, 20.5, 0), 1000.0);
  EXPECT_EQ(batches[MeshKind::Sphere].size(), 1u);
}

TEST(Bounds, ShapesOfEveryKindAndFramingPrefersDynamicBodies) {
  const Quat tilt(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));  // capsule axis z -> -y
  const auto capsule = shapeBounds(CapsuleShape{0.1, 1.0}, Vec3(0, 0, 1), tilt);
  ASSERT_TRUE(capsule);
  EXPECT_TRUE(capsule->lower.isApprox(Vec3(-0.1, -1.1, 0.9), 1e-12));
  EXPECT_TRUE(capsule->upper.isApprox(Vec3(0.1, 1.1, 1.1), 1e-12));
  const Quat spin(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()));
  const auto box = shapeBounds(BoxShape{Vec3(1, 1, 1)}, Vec3::Zero(), spin);
  ASSERT_TRUE(box);
  EXPECT_NEAR(box->upper.x(), std::sqrt(2.0), 1e-12);
  EXPECT_FALSE(shapeBounds(PlaneShape{}, Vec3::Zero(), Quat::Identity()));

  const std::vector<Body> bodies = {makeBody(BoxShape{Vec3(30, 30, 0.5)}, Vec3(0, 0, -0.5), MotionType::Static),
                                    makeBody(SphereShape{0.5}, Vec3(1, 1, 1))};
  const auto framing = framingBounds(bodies);
  ASSERT_TRUE(framing);
  // The sphere, and below it down to the ground's top (z = 0) where it will land.
  EXPECT_TRUE(framing->lower.isApprox(Vec3(0.5, 0.5, 0.0)));
  EXPECT_TRUE(framing->upper.isApprox(Vec3(1.5, 1.5, 1.5)));
  const auto casters = shadowCasterBounds(bodies);
  ASSERT_TRUE(casters);
  EXPECT_TRUE(casters->upper.isApprox(Vec3(1.5, 1.5, 1.5)));  // the 60 m ground is left out
  const auto staticOnly = framingBounds({bodies[0]});
  ASSERT_TRUE(staticOnly);
  EXPECT_EQ(staticOnly->size().x(), 60.0);
  EXPECT_FALSE(framingBounds({}));
}

// The tetrahedron's body-frame box [0, 1]^3 is not centred on the body's origin; turned a quarter
// about z it spans x in [-1, 0].
TEST(Bounds, MeshBoundsFollowTheBodyFrameBoxTurned) {
  const Quat quarter(Eigen::AngleAxisd(0.5 * 3.14159265358979323846, Vec3::UnitZ()));
  const std::optional<Bounds> bounds = shapeBounds(test::unitTetrahedronShape(), Vec3(10, 0, 0), quarter);
  ASSERT_TRUE(bounds);
  EXPECT_TRUE(bounds->lower.isApprox(Vec3(9, 0, 0), 1e-12)) << bounds->lower.transpose();
  EXPECT_TRUE(bounds->upper.isApprox(Vec3(10, 1, 1), 1e-12)) << bounds->upper.transpose();
}

TEST(Bounds, FramingReachesDownToTheSupportUnderTheBodiesOnly) {
  // A sphere dropped from 5 m over a plane at z = -1, next to a 3 m pillar that is not under it.
  const std::vector<Body> bodies = {makeBody(PlaneShape{Vec3(0, 0, 2), -2.0}, Vec3::Zero(), MotionType::Static),
                                    makeBody(BoxShape{Vec3(0.5, 0.5, 1.5)}, Vec3(5, 0, 0.5), MotionType::Static),
                                    makeBody(SphereShape{0.25}, Vec3(0, 0, 5))};
  const auto framing = framingBounds(bodies);
  ASSERT_TRUE(framing);
  EXPECT_DOUBLE_EQ(framing->lower.z(), -1.0);
  EXPECT_DOUBLE_EQ(framing->upper.z(), 5.25);
  EXPECT_DOUBLE_EQ(framing->upper.x(), 0.25);  // the pillar is not framed
  // A floor box under the sphere, above the plane, is what it lands on.
  std::vector<Body> withFloor = bodies;
  withFloor.push_back(makeBody(BoxShape{Vec3(1, 1, 0.1)}, Vec3(0.5, 0, 1.9), MotionType::Static));
  EXPECT_DOUBLE_EQ(framingBounds(withFloor)->lower.z(), 2.0);
  // A wall beside the sphere reaching above its bottom does not count as a support.
  withFloor.push_back(makeBody(BoxShape{Vec3(0.1, 1, 5)}, Vec3(0.2, 0, 3), MotionType::Static));
  EXPECT_DOUBLE_EQ(framingBounds(withFloor)->lower.z(), 2.0);
}

TEST(DebugGeometry, AabbIsTwelveAxisAlignedEdgesAndNonFiniteInputIsDropped) {
  DebugGeometry geometry;
  geometry.drawAabb(Vec3(0, 0, 0), Vec3(1, 2, 3), Color{1, 0, 0, 1});
  const auto& lines = geometry.lineVertices();
  ASSERT_EQ(lines.size(), 24u);
  double totalLength = 0.0;
  for (std::size_t i = 0; i < lines.size(); i += 2) {
    const Vec3 a(lines[i].position[0], lines[i].position[1], lines[i].position[2]);
    const Vec3 b(lines[i + 1].position[0], lines[i + 1].position[1], lines[i + 1].position[2]);
    EXPECT_EQ(((a - b).array() != 0.0).count(), 1) << "edge " << i / 2 << " is not along one axis";
    totalLength += (a - b).norm();
  }
  EXPECT_DOUBLE_EQ(totalLength, 4.0 * (1 + 2 + 3));

  geometry.drawPoint(Vec3(1, 2, 3), 6.0f, Color{0, 1, 0, 1});
  geometry.drawPoint(Vec3(std::nan(""), 0, 0), 6.0f, Color{});
  geometry.drawSegment(Vec3::Zero(), Vec3(INFINITY, 0, 0), Color{});
  ASSERT_EQ(geometry.pointVertices().size(), 1u);
  EXPECT_EQ(geometry.pointVertices()[0].sizePixels, 6.0f);
  EXPECT_EQ(geometry.lineVertices().size(), 24u);
  geometry.clear();
  EXPECT_TRUE(geometry.lineVertices().empty());
  EXPECT_TRUE(geometry.pointVertices().empty());
}

TEST(DebugGeometry, OrientedBoxEdgesFollowTheRotation) {
  DebugGeometry geometry;
  const Quat turn(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
  geometry.drawOrientedBox(Vec3(1, 1, 1), turn, Vec3(2, 0.5, 0.25), Color{});
  const auto& lines = geometry.lineVertices();
  ASSERT_EQ(lines.size(), 24u);
  // Turned a quarter about z: the 4 m long edges now run along y, and no vertex leaves |x - 1| <= 0.5.
  int longEdgesAlongY = 0;
  for (std::size_t i = 0; i < lines.size(); i += 2) {
    const Vec3 a(lines[i].position[0], lines[i].position[1], lines[i].position[2]);
    const Vec3 b(lines[i + 1].position[0], lines[i + 1].position[1], lines[i + 1].position[2]);
    if (std::abs(std::abs(b.y() - a.y()) - 4.0) < 1e-5) ++longEdgesAlongY;
    EXPECT_NEAR(std::abs(a.x() - 1.0), 0.5, 1e-5);
  }
  EXPECT_EQ(longEdgesAlongY, 4);
}

}  // namespace
}  // namespace contactlab::render
