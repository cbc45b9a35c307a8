#pragma once
// The viewer's orbit camera: a target point, a distance and two angles; z is up.
// Pure math (no GL) so the app and the tests can use it without a context.
#include <Eigen/Core>

#include "contactlab/math.h"

namespace contactlab::render {

struct Ray {
  Vec3 origin;
  Vec3 direction;  // unit length
};

struct CameraState {
  Vec3 target;
  double distance;
  double yawRadians;    // 0 looks along +y (the eye on the -y side); positive turns the eye towards +x
  double pitchRadians;  // elevation of the eye above the target's horizontal plane
};

class OrbitCamera {
 public:
  static constexpr double kVerticalFovRadians = 0.7853981633974483;  // 45 degrees
  static constexpr double kOrbitRadiansPerPixel = 0.006;
  static constexpr double kZoomFactorPerStep = 0.85;
  static constexpr double kMinDistance = 0.05;
  static constexpr double kMaxDistance = 1.0e4;
  // Just short of straight up or down, where the view's up vector would be undefined.
  static constexpr double kMaxPitchRadians = 1.55;

  OrbitCamera();  // looking at the origin from the -y side, slightly above

  void orbit(double dxPixels, double dyPixels);
  void pan(double dxPixels, double dyPixels, int viewportHeight);
  void zoom(double wheelSteps);  // positive zooms in
  void reset();
  // Keeps the viewing direction and places the target and distance so the box fills the view.
  void fit(const Vec3& lower, const Vec3& upper);

  Eigen::Matrix4f viewMatrix() const;
  Eigen::Matrix4f projectionMatrix(double aspect) const;
  Vec3 eye() const;
  // Unit vectors of the view: forward (eye to target), right and up on screen.
  Vec3 forward() const;
  Vec3 right() const;
  Vec3 up() const;
  double nearPlane() const;
  double farPlane() const;

  Ray rayThroughPixel(double x, double y, int width, int height) const;  // pixel origin top-left

  CameraState state() const;
  // Non-finite values are ignored; distance and pitch are clamped to their ranges.
  void setState(const CameraState& state);

 private:
  CameraState state_;
};

// View matrix looking from eye at target with the given up direction (right-handed, -z forward).
Eigen::Matrix4f lookAt(const Vec3& eye, const Vec3& target, const Vec3& up);
// OpenGL perspective projection (clip z in [-w, w]).
Eigen::Matrix4f perspective(double verticalFovRadians, double aspect, double nearPlane, double farPlane);
// OpenGL orthographic projection of the box [left,right] x [bottom,top] x [-near,-far] in view space.
Eigen::Matrix4f orthographic(double left, double right, double bottom, double top, double nearPlane, double farPlane);

}  // namespace contactlab::render
