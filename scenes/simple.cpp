// Single-body scenes with analytic answers: sliding or sticking on a slope, a bounce, a spin-down.
#include <cmath>
#include <numbers>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// The slope is long along its local x, which points downhill once it is tilted.
const Vec3 kSlopeSize(10.0, 3.0, 0.5);
constexpr double kInclineBoxSize = 0.5;
// How far up the slope from its centre the box starts, leaving it most of the slope to slide down.
constexpr double kInclineStartUphill = 3.0;

Scene buildIncline(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("incline", params);
  const double angle = read.inRange("angle_deg", 0.0, 90.0) * std::numbers::pi / 180.0;
  Scene scene;
  // The slope and the box share the scene's mu, so their pair's sqrt(mu * mu) is mu itself.
  scene.friction.mu = read.nonNegative("mu");
  scene.bodies.push_back(groundBox());
  // A turn about +y tips local x down towards -z: the surface descends along +x.
  const Quat tilt(Eigen::AngleAxisd(angle, Vec3::UnitY()));
  const Vec3 downhill = tilt * Vec3::UnitX(), normal = tilt * Vec3::UnitZ();
  // Centre high enough that the slope's lowest edge just meets the ground.
  const Vec3 slopeCentre(0, 0, 0.5 * kSlopeSize.x() * std::sin(angle) + 0.5 * kSlopeSize.z() * std::cos(angle));
  scene.bodies.push_back(staticBox("slope", kSlopeSize, slopeCentre, tilt));
  const Vec3 boxCentre = slopeCentre + normal * 0.5 * (kSlopeSize.z() + kInclineBoxSize) -
                         downhill * kInclineStartUphill;
  scene.bodies.push_back(dynamicBox("box", Vec3::Constant(kInclineBoxSize), boxCentre, tilt));
  return scene;
}

constexpr double kBounceRadius = 0.25;

Scene buildBounce(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("bounce", params);
  Scene scene;
  scene.bodies.push_back(groundBox());
  BodyDesc ball = dynamicSphere("ball", kBounceRadius, Vec3(0, 0, read.nonNegative("height") + kBounceRadius));
  // The pair takes the larger restitution, so setting it on the ball alone decides the bounce.
  ball.material.restitution = read.inRange("restitution", 0.0, 1.0);
  scene.bodies.push_back(ball);
  return scene;
}

constexpr double kSpinRadius = 0.5;

Scene buildSpin(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("spin", params);
  Scene scene;
  scene.friction.muTorsion = read.nonNegative("mu_torsion");
  scene.bodies.push_back(groundBox());
  BodyDesc ball = dynamicSphere("ball", kSpinRadius, Vec3(0, 0, kSpinRadius));
  ball.angularVelocity = Vec3(0, 0, read.finite("spin"));
  scene.bodies.push_back(ball);
  return scene;
}

}  // namespace

SceneEntry inclineScene() {
  return {"incline",
          "0.5 m box resting on a tilted static slope, faces aligned with it",
          {{"angle_deg", 30, "slope angle in degrees"}, {"mu", 0.7, "friction coefficient of box and slope"}},
          buildIncline};
}

SceneEntry bounceScene() {
  return {"bounce",
          "sphere of radius 0.25 m dropped on the ground",
          {{"height", 1, "drop height of the sphere's lowest point above the ground, m"},
           {"restitution", 0.5, "the sphere's restitution"}},
          buildBounce};
}

SceneEntry spinScene() {
  return {"spin",
          "sphere of radius 0.5 m resting on the ground, spinning about the vertical",
          {{"spin", 5, "initial spin about +z, rad/s"}, {"mu_torsion", 0.01, "torsional friction length, m"}},
          buildSpin};
}

}  // namespace contactlab::scenes
