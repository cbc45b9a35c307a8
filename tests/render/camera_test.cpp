#include "contactlab/render/camera.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab::render {
namespace {

// Where a world point lands in pixels (origin top-left), through the camera's matrices.
Eigen::Vector2d projectToPixel(const OrbitCamera& camera, const Vec3& point, int width, int height) {
  const Eigen::Vector4f clip = camera.projectionMatrix(static_cast<double>(width) / height) * camera.viewMatrix() *
                               Eigen::Vector4f(point.x(), point.y(), point.z(), 1.0f);
  const Eigen::Vector2d ndc(clip.x() / clip.w(), clip.y() / clip.w());
  return {(ndc.x() + 1.0) * 0.5 * width, (1.0 - ndc.y()) * 0.5 * height};
}

TEST(OrbitCamera, DefaultLooksAtTheOriginFromMinusYAndAbove) {
  const OrbitCamera camera;
  EXPECT_TRUE(camera.state().target.isZero());
  EXPECT_LT(camera.eye().y(), 0.0);
  EXPECT_GT(camera.eye().z(), 0.0);
  EXPECT_NEAR(camera.eye().x(), 0.0, 1e-12);
  EXPECT_NEAR(camera.forward().norm(), 1.0, 1e-12);
  EXPECT_NEAR((camera.eye() + camera.state().distance * camera.forward()).norm(), 0.0, 1e-12);
}

TEST(OrbitCamera, ViewFrameIsRightHandedWithUpTowardsPlusZ) {
  OrbitCamera camera;
  camera.orbit(123.0, -45.0);
  EXPECT_NEAR(camera.right().cross(camera.up()).dot(-camera.forward()), 1.0, 1e-12);
  EXPECT_GT(camera.up().z(), 0.0);
  EXPECT_NEAR(camera.right().z(), 0.0, 1e-12);
}

TEST(OrbitCamera, ViewMatrixPutsTheEyeAtTheOriginLookingDownMinusZ) {
  OrbitCamera camera;
  camera.setState({Vec3(1, 2, 3), 7.0, 0.4, 0.3});
  const Eigen::Matrix4f view = camera.viewMatrix();
  const Vec3 eye = camera.eye();
  const Eigen::Vector4f eyeInView = view * Eigen::Vector4f(eye.x(), eye.y(), eye.z(), 1.0f);
  EXPECT_NEAR(eyeInView.head<3>().norm(), 0.0, 1e-5);
  const Eigen::Vector4f targetInView = view * Eigen::Vector4f(1, 2, 3, 1);
  EXPECT_NEAR(targetInView.x(), 0.0, 1e-5);
  EXPECT_NEAR(targetInView.y(), 0.0, 1e-5);
  EXPECT_NEAR(targetInView.z(), -7.0, 1e-5);
}

TEST(OrbitCamera, OrbitTurnsAroundTheTargetAndClampsPitch) {
  OrbitCamera camera;
  const double distanceBefore = (camera.eye() - camera.state().target).norm();
  camera.orbit(100.0, 0.0);
  EXPECT_NEAR(camera.state().yawRadians, -100.0 * OrbitCamera::kOrbitRadiansPerPixel, 1e-12);
  EXPECT_NEAR((camera.eye() - camera.state().target).norm(), distanceBefore, 1e-9);
  camera.orbit(0.0, 1e6);
  EXPECT_DOUBLE_EQ(camera.state().pitchRadians, OrbitCamera::kMaxPitchRadians);
  camera.orbit(0.0, -1e7);
  EXPECT_DOUBLE_EQ(camera.state().pitchRadians, -OrbitCamera::kMaxPitchRadians);
}

TEST(OrbitCamera, ZoomShrinksDistanceGeometricallyAndIsClamped) {
  OrbitCamera camera;
  const double before = camera.state().distance;
  camera.zoom(2.0);
  EXPECT_NEAR(camera.state().distance, before * OrbitCamera::kZoomFactorPerStep * OrbitCamera::kZoomFactorPerStep, 1e-12);
  camera.zoom(-2.0);
  EXPECT_NEAR(camera.state().distance, before, 1e-12);
  camera.zoom(1000.0);
  EXPECT_DOUBLE_EQ(camera.state().distance, OrbitCamera::kMinDistance);
  camera.zoom(std::nan(""));
  EXPECT_DOUBLE_EQ(camera.state().distance, OrbitCamera::kMinDistance);
}

TEST(OrbitCamera, PanKeepsThePointUnderTheMouseUnderIt) {
  OrbitCamera camera;
  camera.setState({Vec3(0, 0, 1), 12.0, 0.7, 0.5});
  const int width = 800, height = 600;
  // A point on the plane through the target facing the camera, at pixel (500, 200).
  const Ray ray = camera.rayThroughPixel(500, 200, width, height);
  const Vec3 target = camera.state().target;
  const double t = (target - ray.origin).dot(camera.forward()) / ray.direction.dot(camera.forward());
  const Vec3 point = ray.origin + t * ray.direction;
  camera.pan(30.0, -20.0, height);
  const Eigen::Vector2d pixel = projectToPixel(camera, point, width, height);
  EXPECT_NEAR(pixel.x(), 530.0, 1e-2);
  EXPECT_NEAR(pixel.y(), 180.0, 1e-2);
}

TEST(OrbitCamera, FitFramesEveryCornerOfTheBoxAndKeepsTheDirection) {
  OrbitCamera camera;
  camera.orbit(250.0, -40.0);
  const Vec3 forwardBefore = camera.forward();
  const Vec3 lower(-3, 4, 0), upper(5, 9, 6);
  camera.fit(lower, upper);
  EXPECT_TRUE(camera.forward().isApprox(forwardBefore, 1e-12));
  EXPECT_TRUE(camera.state().target.isApprox(Vec3(1, 6.5, 3), 1e-12));
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p(corner & 1 ? upper.x() : lower.x(), corner & 2 ? upper.y() : lower.y(), corner & 4 ? upper.z() : lower.z());
    const Eigen::Vector2d pixel = projectToPixel(camera, p, 1280, 720);
    EXPECT_GE(pixel.x(), 0.0);
    EXPECT_LE(pixel.x(), 1280.0);
    EXPECT_GE(pixel.y(), 0.0);
    EXPECT_LE(pixel.y(), 720.0);
  }
}

TEST(OrbitCamera, RayThroughPixelProjectsBackToThatPixel) {
  OrbitCamera camera;
  camera.setState({Vec3(2, -1, 0.5), 9.0, -0.8, 0.6});
  const Ray centre = camera.rayThroughPixel(640, 360, 1280, 720);
  EXPECT_TRUE(centre.direction.isApprox(camera.forward(), 1e-12));
  EXPECT_TRUE(centre.origin.isApprox(camera.eye(), 1e-12));
  const Ray corner = camera.rayThroughPixel(100, 650, 1280, 720);
  EXPECT_NEAR(corner.direction.norm(), 1.0, 1e-12);
  const Eigen::Vector2d pixel = projectToPixel(camera, corner.origin + 5.0 * corner.direction, 1280, 720);
  EXPECT_NEAR(pixel.x(), 100.0, 1e-2);
  EXPECT_NEAR(pixel.y(), 650.0, 1e-2);
}

TEST(OrbitCamera, SetStateIgnoresNonFiniteValuesAndResetRestoresTheDefault) {
  OrbitCamera camera;
  const CameraState before = camera.state();
  camera.setState({Vec3(0, 0, std::nan("")), 3.0, 0.0, 0.0});
  EXPECT_EQ(camera.state().distance, before.distance);
  camera.setState({Vec3(1, 1, 1), 3.0, 0.2, 0.1});
  EXPECT_EQ(camera.state().distance, 3.0);
  camera.reset();
  EXPECT_EQ(camera.state().distance, before.distance);
  EXPECT_TRUE(camera.state().target.isApprox(before.target));
}

TEST(OrbitCamera, ProjectionMapsNearAndFarPlanesToTheClipRange) {
  const OrbitCamera camera;
  const Eigen::Matrix4f projection = camera.projectionMatrix(16.0 / 9.0);
  const auto depth = [&](double viewZ) {
    const Eigen::Vector4f clip = projection * Eigen::Vector4f(0, 0, static_cast<float>(viewZ), 1);
    return clip.z() / clip.w();
  };
  EXPECT_NEAR(depth(-camera.nearPlane()), -1.0, 1e-4);
  EXPECT_NEAR(depth(-camera.farPlane()), 1.0, 1e-4);
}

}  // namespace
}  // namespace contactlab::render
