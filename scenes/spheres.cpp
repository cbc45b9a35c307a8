// The PROX paper's spheres (sec. 5): about 1700 spheres of about 68 kg dropped into a static glass,
// the glass scaled to the count so that the spheres fill a set fraction of its inside.
#include <cmath>
#include <numbers>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// The named "glass" mesh at scale 1 (docs/meshes.md): outer radius 0.5, height 1.2, wall 0.05,
// base 0.08, standing on its lowest point.
constexpr double kGlassInnerRadius = 0.45;
constexpr double kGlassInnerHeight = 1.12;
constexpr double kGlassBase = 0.08;
constexpr double kSphereJitter = 0.01;       // largest random offset from a lattice point along each axis, m
constexpr double kBaseClearance = 0.05;  // gap between the glass's base and the lowest layer, m
// The ground reaches this many glass diameters across, for spheres that spill over the rim.
constexpr double kGroundPerGlassDiameter = 4.0;

Scene buildSpheres(const SceneParams& params, std::uint64_t seed) {
  const ParamReader read("spheres", params);
  const int count = read.count("count");
  const double radius = read.positive("radius");
  const double mass = read.positive("mass");
  const double fill = read.inRange("fill", 0.01, 0.6);
  // The spheres' own volume is `fill` of the glass's inside: count 4/3 pi r^3 = fill pi a^2 h g^3,
  // a and h the inner radius and height at scale 1.
  const double spheresVolume = count * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  const double glassScale = std::cbrt(
      spheresVolume / (fill * std::numbers::pi * kGlassInnerRadius * kGlassInnerRadius * kGlassInnerHeight));
  const auto glass = sceneMesh("spheres", "glass", glassScale);

  Scene scene;
  scene.bodies.push_back(groundBox(kGroundPerGlassDiameter * 2.0 * glass->boundsUpper.x()));
  // Body frame: the glass's centre of mass is on its axis; lift it until it stands on the ground.
  scene.bodies.push_back(meshBody("glass", glass, Vec3(0, 0, -glass->boundsLower.z()), Quat::Identity(),
                                  MotionType::Static));
  SceneRandom random(seed);
  const std::vector<Vec3> drops = dropPositions("spheres", count, Footprint::Disc, kGlassInnerRadius * glassScale,
                                                radius, kSphereJitter, kGlassBase * glassScale + kBaseClearance,
                                                random);
  for (int i = 0; i < count; ++i) {
    BodyDesc sphere = dynamicSphere("sphere_" + std::to_string(i), radius, drops[i]);
    sphere.mass = mass;
    scene.bodies.push_back(std::move(sphere));
  }
  return scene;
}

}  // namespace

SceneEntry spheresScene() {
  return {"spheres",
          "spheres dropped into a static glass sized to hold them",
          {{"count", 1700, "number of spheres"},
           {"radius", 0.25, "sphere radius, m"},
           {"mass", 68, "mass of a sphere, kg (PROX paper: about 68 kg)"},
           {"fill", 0.3, "fraction of the glass's inside the spheres' volume fills (sets the glass's size)"}},
          buildSpheres};
}

}  // namespace contactlab::scenes
