#include "scene_building.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "geometry/mesh_library.h"

namespace contactlab::scenes {

BodyDesc staticBox(const std::string& name, const Vec3& size, const Vec3& position, const Quat& orientation) {
  BodyDesc body = dynamicBox(name, size, position, orientation);
  body.motion = MotionType::Static;
  return body;
}

BodyDesc dynamicBox(const std::string& name, const Vec3& size, const Vec3& position, const Quat& orientation) {
  BodyDesc body;
  body.name = name;
  body.shape = BoxShape{0.5 * size};
  body.position = position;
  body.orientation = orientation;
  return body;
}

BodyDesc dynamicSphere(const std::string& name, double radius, const Vec3& position) {
  BodyDesc body;
  body.name = name;
  body.shape = SphereShape{radius};
  body.position = position;
  return body;
}

BodyDesc meshBody(const std::string& name, std::shared_ptr<const MeshGeometry> geometry, const Vec3& position,
                  const Quat& orientation, MotionType motion) {
  BodyDesc body;
  body.name = name;
  body.shape = MeshShape{std::move(geometry)};
  body.position = position;
  body.orientation = orientation;
  body.motion = motion;
  return body;
}

std::shared_ptr<const MeshGeometry> sceneMesh(const std::string& scene, const std::string& mesh, double scale) {
  try {
    return namedMeshGeometry(mesh, scale);
  } catch (const MeshError& e) {
    throw SceneError("scene " + scene + ": " + e.what());
  }
}

void addBoxContainer(Scene& scene, double innerWidth, double wallHeight, double wallThickness) {
  scene.bodies.push_back(groundBox(innerWidth + 2.0 * wallThickness));
  const double wallOffset = 0.5 * (innerWidth + wallThickness);
  for (int side : {-1, 1}) {
    const std::string sign = side < 0 ? "-" : "+";
    scene.bodies.push_back(staticBox("wall_x" + sign, Vec3(wallThickness, innerWidth + 2.0 * wallThickness, wallHeight),
                                     Vec3(side * wallOffset, 0, 0.5 * wallHeight)));
    scene.bodies.push_back(staticBox("wall_y" + sign, Vec3(innerWidth, wallThickness, wallHeight),
                                     Vec3(0, side * wallOffset, 0.5 * wallHeight)));
  }
}

std::vector<Vec3> dropPositions(const std::string& scene, int count, Footprint footprint, double halfWidth,
                                double bodyRadius, double jitter, double bottom, SceneRandom& random) {
  // A jittered centre is at most sqrt(3) * jitter from its cell's centre, so a cell of this width
  // holds the body's bounding ball wherever the jitter puts it.
  const double cell = 2.0 * (bodyRadius + std::sqrt(3.0) * jitter);
  const int across = static_cast<int>(std::floor(2.0 * halfWidth / cell));
  std::vector<Vec3> layer;
  for (int i = 0; i < across; ++i)
    for (int j = 0; j < across; ++j) {
      const Vec3 centre((i + 0.5 - 0.5 * across) * cell, (j + 0.5 - 0.5 * across) * cell, 0);
      if (footprint == Footprint::Square || centre.norm() + 0.5 * cell <= halfWidth) layer.push_back(centre);
    }
  if (layer.empty()) {
    std::ostringstream message;
    message << "scene " << scene << ": bodies of bounding radius " << bodyRadius
            << " m do not fit in a footprint of half width " << halfWidth << " m";
    throw SceneError(message.str());
  }
  std::vector<Vec3> positions;
  positions.reserve(count);
  for (int i = 0; i < count; ++i) {
    const int level = i / static_cast<int>(layer.size());
    const Vec3 cellCentre = layer[i % layer.size()] + Vec3(0, 0, bottom + (level + 0.5) * cell);
    positions.push_back(cellCentre + Vec3(random.uniform(-jitter, jitter), random.uniform(-jitter, jitter),
                                          random.uniform(-jitter, jitter)));
  }
  return positions;
}

BodyDesc groundBox(double extent) { return staticBox("ground", Vec3(extent, extent, 1), Vec3(0, 0, -0.5)); }

void ParamReader::reject(const std::string& name, double value, const std::string& rule) const {
  std::ostringstream message;
  message << "scene " << scene_ << ": parameter " << name << " must be " << rule << ", got " << value;
  throw SceneError(message.str());
}

double ParamReader::finite(const std::string& name) const {
  const auto it = params_.find(name);
  if (it == params_.end()) throw SceneError("scene " + scene_ + ": parameter " + name + " was not given");
  if (!std::isfinite(it->second)) reject(name, it->second, "finite");
  return it->second;
}

double ParamReader::positive(const std::string& name) const {
  const double value = finite(name);
  if (!(value > 0.0)) reject(name, value, "positive");
  return value;
}

double ParamReader::nonNegative(const std::string& name) const {
  return inRange(name, 0.0, std::numeric_limits<double>::infinity());
}

double ParamReader::inRange(const std::string& name, double lo, double hi) const {
  const double value = finite(name);
  if (!(value >= lo && value <= hi)) {
    std::ostringstream rule;
    if (std::isinf(hi)) rule << "at least " << lo;
    else rule << "from " << lo << " to " << hi;
    reject(name, value, rule.str());
  }
  return value;
}

int ParamReader::count(const std::string& name, int minimum) const {
  const double value = finite(name);
  // A million bodies is far beyond what a step can handle; the cap keeps the int conversion safe.
  if (value != std::floor(value) || value < minimum || value > 1e6)
    reject(name, value, "a whole number from " + std::to_string(minimum) + " to 1000000");
  return static_cast<int>(value);
}

SceneRandom::SceneRandom(std::uint64_t seed) : engine_(seed) {}

double SceneRandom::uniform(double lo, double hi) {
  // The top 53 bits give every double in [0, 1) on a 2^-53 grid.
  const double unit = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * unit;
}

Quat SceneRandom::orientation() {
  // Shoemake, "Uniform random rotations" (Graphics Gems III): three uniforms give a uniform quaternion.
  const double u1 = uniform(0, 1), u2 = uniform(0, 2 * std::numbers::pi), u3 = uniform(0, 2 * std::numbers::pi);
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  return Quat(a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3));
}

Scene dropMeshesIntoBox(const std::string& sceneName, const std::string& mesh, const SceneParams& params,
                        std::uint64_t seed, const std::function<void(BodyDesc&)>& makeBody) {
  const ParamReader read(sceneName, params);
  const int count = read.count("count");
  const double width = read.positive("width");
  const auto geometry = sceneMesh(sceneName, mesh, read.positive("scale"));

  SceneRandom random(seed);
  const std::vector<Vec3> drops = dropPositions(sceneName, count, Footprint::Square, 0.5 * width,
                                                geometry->boundingRadius, kLatticeJitter, kFloorClearance, random);
  Scene scene;
  // Walls as high as the falling column, so nothing leaves the container on its way down.
  double columnTop = 0.0;
  for (const Vec3& drop : drops) columnTop = std::max(columnTop, drop.z() + geometry->boundingRadius);
  addBoxContainer(scene, width, columnTop, kContainerWallThickness);
  for (int i = 0; i < count; ++i) {
    BodyDesc body = meshBody(mesh + "_" + std::to_string(i), geometry, drops[i], random.orientation());
    if (makeBody) makeBody(body);
    scene.bodies.push_back(std::move(body));
  }
  return scene;
}

}  // namespace contactlab::scenes
