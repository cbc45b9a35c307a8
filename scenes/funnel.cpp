// The PROX paper's funnel (sec. 5): jacks, or a mix of jacks, rings, spheres and boxes, poured
// through a static funnel into an open box container whose walls rise above the funnel's rim. The
// spout is a few jacks wide, so the flow can jam: interlocking arms bridge across the spout and hold
// the bodies above.
#include <algorithm>
#include <cmath>

#include "scene_building.h"

namespace contactlab::scenes {
namespace {

// The named "funnel" mesh at scale 1 (docs/meshes.md): inner mouth radius 1, inner spout radius
// 0.25; the spout's lower end is the mesh's lowest point.
constexpr double kFunnelMouthRadius = 1.0;
constexpr double kFunnelSpoutRadius = 0.25;
constexpr double kMouthClearance = 0.1;  // gap between the funnel's rim and the lowest layer, m
// The container round the funnel's footprint, wider than the mouth by this factor.
constexpr double kContainerWidthPerMouthDiameter = 1.2;
// The container's walls reach this many body spans above the funnel's rim. Once the spout jams the
// funnel fills, and the landing column splashes bodies over the rim sideways: walls only as high
// as the spout let dozens of jacks escape, crossing the walls' line up to about two spans above
// the rim (bench/check_containment.py checks a run; docs/meshes.md).
constexpr double kWallSpansAboveRim = 3.0;

// The mixed pour cycles through these, each no wider than a jack of the same size.
enum class MixedKind { Jack, Ring, Sphere, Box, Count };

Scene buildFunnel(const SceneParams& params, std::uint64_t seed) {
  const ParamReader read("funnel", params);
  const int count = read.count("count");
  const double span = read.positive("scale");
  const double mass = read.positive("mass");
  const double spoutHeight = read.positive("spout_height");
  const bool mixed = read.inRange("mixed", 0, 1) != 0.0;
  const double funnelScale = read.positive("spout_spans") * span / (2.0 * kFunnelSpoutRadius);
  const auto jack = sceneMesh("funnel", "jack", span);
  const auto ring = mixed ? sceneMesh("funnel", "torus", span) : nullptr;
  const auto funnel = sceneMesh("funnel", "funnel", funnelScale);

  Scene scene;
  const double mouthRadius = kFunnelMouthRadius * funnelScale;
  // Body frame: the funnel's centre of mass is on its axis; lift it until the spout ends at spoutHeight.
  const Vec3 funnelPosition(0, 0, spoutHeight - funnel->boundsLower.z());
  const double rimHeight = funnelPosition.z() + funnel->boundsUpper.z();
  addBoxContainer(scene, kContainerWidthPerMouthDiameter * 2.0 * mouthRadius, rimHeight + kWallSpansAboveRim * span,
                  kContainerWallThickness);
  scene.bodies.push_back(meshBody("funnel", funnel, funnelPosition, Quat::Identity(), MotionType::Static));

  SceneRandom random(seed);
  const std::vector<Vec3> drops = dropPositions("funnel", count, Footprint::Disc, mouthRadius, jack->boundingRadius,
                                                kLatticeJitter, rimHeight + kMouthClearance, random);
  for (int i = 0; i < count; ++i) {
    const std::string index = std::to_string(i);
    const Quat orientation = random.orientation();
    BodyDesc body;
    switch (mixed ? static_cast<MixedKind>(i % static_cast<int>(MixedKind::Count)) : MixedKind::Jack) {
      case MixedKind::Jack: body = meshBody("jack_" + index, jack, drops[i], orientation); break;
      case MixedKind::Ring: body = meshBody("ring_" + index, ring, drops[i], orientation); break;
      case MixedKind::Sphere: body = dynamicSphere("sphere_" + index, 0.3 * span, drops[i]); break;
      case MixedKind::Box: body = dynamicBox("box_" + index, Vec3::Constant(0.4 * span), drops[i], orientation); break;
      case MixedKind::Count: break;
    }
    body.mass = mass;
    scene.bodies.push_back(std::move(body));
  }
  return scene;
}

}  // namespace

SceneEntry funnelScene() {
  return {"funnel",
          "jacks (or jacks, rings, spheres and boxes) poured through a static funnel into a box container",
          {{"count", 2002, "number of poured bodies"},
           {"scale", 0.4, "jack size tip to tip, m (the other bodies are as wide)"},
           {"mass", 35, "mass of each body, kg (PROX paper: a jack is about 35 kg)"},
           {"spout_spans", 3, "the spout's inner diameter in jack sizes: smaller jams sooner"},
           {"spout_height", 2.5, "height of the spout's end above the floor, m (walls: 3 spans above the rim)"},
           {"mixed", 0, "1: cycle jacks, rings, spheres and boxes; 0: jacks only"}},
          buildFunnel};
}

}  // namespace contactlab::scenes
