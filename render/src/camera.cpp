#include "contactlab/render/camera.h"

#include <algorithm>
#include <cmath>

namespace contactlab::render {
namespace {

CameraState defaultState() { return CameraState{Vec3(0.0, 0.0, 0.0), 10.0, 0.0, 0.55}; }

}  // namespace

OrbitCamera::OrbitCamera() : state_(defaultState()) {}

void OrbitCamera::orbit(double dxPixels, double dyPixels) {
  if (!std::isfinite(dxPixels) || !std::isfinite(dyPixels)) return;
  // Dragging right swings the eye to the left around the target, so the scene turns with the mouse.
  state_.yawRadians = std::remainder(state_.yawRadians - dxPixels * kOrbitRadiansPerPixel, 2.0 * M_PI);
  state_.pitchRadians = std::clamp(state_.pitchRadians + dyPixels * kOrbitRadiansPerPixel, -kMaxPitchRadians,
                                   kMaxPitchRadians);
}

void OrbitCamera::pan(double dxPixels, double dyPixels, int viewportHeight) {
  if (!std::isfinite(dxPixels) || !std::isfinite(dyPixels) || viewportHeight <= 0) return;
  // World size of one pixel at the target's depth, so the point under the mouse follows it.
  const double metresPerPixel = 2.0 * state_.distance * std::tan(0.5 * kVerticalFovRadians) / viewportHeight;
  state_.target += metresPerPixel * (-dxPixels * right() + dyPixels * up());
}

void OrbitCamera::zoom(double wheelSteps) {
  if (!std::isfinite(wheelSteps)) return;
  state_.distance = std::clamp(state_.distance * std::pow(kZoomFactorPerStep, wheelSteps), kMinDistance, kMaxDistance);
}

void OrbitCamera::reset() { state_ = defaultState(); }

void OrbitCamera::fit(const Vec3& lower, const Vec3& upper) {
  if (!lower.allFinite() || !upper.allFinite() || (upper - lower).minCoeff() < 0.0) return;
  const double radius = std::max(0.5 * (upper - lower).norm(), 0.1);
  state_.target = 0.5 * (lower + upper);
  // The bounding sphere touches the top and bottom of the view (the narrower side of a wide view).
  state_.distance = std::clamp(radius / std::sin(0.5 * kVerticalFovRadians), kMinDistance, kMaxDistance);
}

Vec3 OrbitCamera::forward() const {
  const double cosPitch = std::cos(state_.pitchRadians);
  // Eye offset from the target is (sin yaw cos pitch, -cos yaw cos pitch, sin pitch).
  return Vec3(-std::sin(state_.yawRadians) * cosPitch, std::cos(state_.yawRadians) * cosPitch,
              -std::sin(state_.pitchRadians));
}

Vec3 OrbitCamera::right() const { return Vec3(std::cos(state_.yawRadians), std::sin(state_.yawRadians), 0.0); }

Vec3 OrbitCamera::up() const { return right().cross(forward()); }

Vec3 OrbitCamera::eye() const { return state_.target - state_.distance * forward(); }

double OrbitCamera::nearPlane() const { return std::max(0.01, 0.02 * state_.distance); }

// Far enough to see a 200 m ground plane to its edge from anywhere near the scene.
double OrbitCamera::farPlane() const { return 50.0 * state_.distance + 500.0; }

Eigen::Matrix4f OrbitCamera::viewMatrix() const { return lookAt(eye(), state_.target, Vec3::UnitZ()); }

Eigen::Matrix4f OrbitCamera::projectionMatrix(double aspect) const {
  return perspective(kVerticalFovRadians, aspect > 0.0 && std::isfinite(aspect) ? aspect : 1.0, nearPlane(),
                     farPlane());
}

Ray OrbitCamera::rayThroughPixel(double x, double y, int width, int height) const {
  const double w = std::max(width, 1);
  const double h = std::max(height, 1);
  const double ndcX = 2.0 * x / w - 1.0;
  const double ndcY = 1.0 - 2.0 * y / h;
  const double tanHalf = std::tan(0.5 * kVerticalFovRadians);
  const Vec3 direction = forward() + ndcX * tanHalf * (w / h) * right() + ndcY * tanHalf * up();
  return Ray{eye(), direction.normalized()};
}

CameraState OrbitCamera::state() const { return state_; }

void OrbitCamera::setState(const CameraState& state) {
  if (!state.target.allFinite() || !std::isfinite(state.distance) || !std::isfinite(state.yawRadians) ||
      !std::isfinite(state.pitchRadians))
    return;
  state_.target = state.target;
  state_.distance = std::clamp(state.distance, kMinDistance, kMaxDistance);
  state_.yawRadians = std::remainder(state.yawRadians, 2.0 * M_PI);
  state_.pitchRadians = std::clamp(state.pitchRadians, -kMaxPitchRadians, kMaxPitchRadians);
}

Eigen::Matrix4f lookAt(const Vec3& eye, const Vec3& target, const Vec3& up) {
  const Vec3 f = (target - eye).normalized();
  const Vec3 s = f.cross(up).normalized();
  const Vec3 u = s.cross(f);
  Eigen::Matrix4d view = Eigen::Matrix4d::Identity();
  view.block<1, 3>(0, 0) = s.transpose();
  view.block<1, 3>(1, 0) = u.transpose();
  view.block<1, 3>(2, 0) = -f.transpose();
  view(0, 3) = -s.dot(eye);
  view(1, 3) = -u.dot(eye);
  view(2, 3) = f.dot(eye);
  return view.cast<float>();
}

Eigen::Matrix4f perspective(double verticalFovRadians, double aspect, double nearPlane, double farPlane) {
  const double focal = 1.0 / std::tan(0.5 * verticalFovRadians);
  Eigen::Matrix4d projection = Eigen::Matrix4d::Zero();
  projection(0, 0) = focal / aspect;
  projection(1, 1) = focal;
  projection(2, 2) = (farPlane + nearPlane) / (nearPlane - farPlane);
  projection(2, 3) = 2.0 * farPlane * nearPlane / (nearPlane - farPlane);
  projection(3, 2) = -1.0;
  return projection.cast<float>();
}

Eigen::Matrix4f orthographic(double left, double right, double bottom, double top, double nearPlane, double farPlane) {
  Eigen::Matrix4d projection = Eigen::Matrix4d::Identity();
  projection(0, 0) = 2.0 / (right - left);
  projection(1, 1) = 2.0 / (top - bottom);
  projection(2, 2) = -2.0 / (farPlane - nearPlane);
  projection(0, 3) = -(right + left) / (right - left);
  projection(1, 3) = -(top + bottom) / (top - bottom);
  projection(2, 3) = -(farPlane + nearPlane) / (farPlane - nearPlane);
  return projection.cast<float>();
}

}  // namespace contactlab::render
