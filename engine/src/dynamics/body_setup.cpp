#include "dynamics/body_setup.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "geometry/shape_geometry.h"

namespace contactlab {
namespace {

[[noreturn]] void fail(int index, const BodyDesc& desc, const std::string& what) {
  std::ostringstream message;
  message << "body " << index;
  if (!desc.name.empty()) message << " (\"" << desc.name << "\")";
  message << ": " << what;
  throw SceneError(message.str());
}

void requireNonNegative(int index, const BodyDesc& desc, const char* field, const std::optional<double>& value) {
  if (value && !(std::isfinite(*value) && *value >= 0.0))
    fail(index, desc, std::string(field) + " must be finite and non-negative, got " + std::to_string(*value));
}

}  // namespace

void validateSceneSettings(const Scene& scene) {
  if (!(std::isfinite(scene.dt) && scene.dt > 0.0))
    throw SceneError("dt must be positive and finite, got " + std::to_string(scene.dt));
  if (!scene.gravity.allFinite()) throw SceneError("gravity must be finite");
  if (!(std::isfinite(scene.time) && scene.time >= 0.0))
    throw SceneError("time must be finite and non-negative, got " + std::to_string(scene.time));
  if (scene.step < 0) throw SceneError("step must not be negative, got " + std::to_string(scene.step));
  const FrictionDefaults& f = scene.friction;
  for (double value : {f.mu, f.muTorsion, f.restitution, f.muRolling})
    if (!(std::isfinite(value) && value >= 0.0))
      throw SceneError("friction defaults must be finite and non-negative");
}

Body makeBody(const BodyDesc& desc, const FrictionDefaults& defaults, int index) {
  if (const std::string problem = shapeProblem(desc.shape); !problem.empty()) fail(index, desc, problem);
  if (!desc.position.allFinite()) fail(index, desc, "position must be finite");
  if (!desc.velocity.allFinite() || !desc.angularVelocity.allFinite()) fail(index, desc, "velocity must be finite");
  const Eigen::Vector4d q = desc.orientation.coeffs();
  if (!q.allFinite() || q.norm() < 1e-12) fail(index, desc, "orientation must be a finite non-zero quaternion");
  const bool isPlane = kindOf(desc.shape) == ShapeKind::Plane;
  if (isPlane && desc.motion != MotionType::Static) fail(index, desc, "a plane must be static");
  if (desc.density && desc.mass) fail(index, desc, "give density or mass, not both");
  for (const auto& [field, value] : {std::pair{"density", desc.density}, std::pair{"mass", desc.mass}})
    if (value && !(std::isfinite(*value) && *value > 0.0))
      fail(index, desc, std::string(field) + " must be positive and finite, got " + std::to_string(*value));
  requireNonNegative(index, desc, "mu", desc.material.mu);
  requireNonNegative(index, desc, "mu_torsion", desc.material.muTorsion);
  requireNonNegative(index, desc, "restitution", desc.material.restitution);
  requireNonNegative(index, desc, "mu_rolling", desc.material.muRolling);
  for (std::size_t i = 0; i < desc.velocitySchedule.size(); ++i) {
    const VelocityKey& key = desc.velocitySchedule[i];
    if (!std::isfinite(key.time) || !key.velocity.allFinite()) fail(index, desc, "velocity_schedule must be finite");
    if (i > 0 && key.time <= desc.velocitySchedule[i - 1].time)
      fail(index, desc, "velocity_schedule times must increase");
  }

  Body body;
  body.name = desc.name;
  body.shape = desc.shape;
  body.motion = desc.motion;
  body.position = desc.position;
  // A quaternion already unit to rounding (a saved state's) is kept bit for bit, so that a saved
  // world runs on exactly as it would have; normalizing it again can change its last bits.
  body.orientation = std::abs(desc.orientation.norm() - 1.0) > 1e-12 ? desc.orientation.normalized() : desc.orientation;
  body.velocity = desc.motion == MotionType::Static ? Vec3::Zero() : desc.velocity;
  body.angularVelocity = desc.motion == MotionType::Static ? Vec3::Zero() : desc.angularVelocity;
  body.velocitySchedule = desc.velocitySchedule;
  body.sceneDensity = desc.density;
  body.sceneMass = desc.mass;
  body.sceneMaterial = desc.material;
  body.mu = desc.material.mu.value_or(defaults.mu);
  body.muTorsion = desc.material.muTorsion.value_or(defaults.muTorsion);
  body.restitution = desc.material.restitution.value_or(defaults.restitution);
  body.muRolling = desc.material.muRolling.value_or(defaults.muRolling);

  if (!isPlane) {
    const MassProperties unit = unitDensityMassProperties(desc.shape);
    const double density = desc.mass ? *desc.mass / unit.volume : desc.density.value_or(kDefaultDensity);
    body.mass = density * unit.volume;
    body.inertiaBody = density * unit.principalInertiaPerUnitDensity;
  }
  if (body.isDynamic()) {
    body.invMass = 1.0 / body.mass;
    body.invInertiaBody = body.inertiaBody.cwiseInverse();
    // A size far from any simulated object's (1e-300 m, 1e200 m) gives a mass or inertia that
    // underflows to 0 or overflows: refused here, naming the body, not as a non-finite state at
    // the first step.
    const auto usable = [](double v) { return std::isfinite(v) && v > 0.0 && std::isfinite(1.0 / v); };
    if (!usable(body.mass) || !usable(body.inertiaBody.x()) || !usable(body.inertiaBody.y()) || !usable(body.inertiaBody.z())) {
      std::ostringstream why;
      why << "its size and density give a mass of " << body.mass << " kg and moments of inertia "
          << body.inertiaBody.transpose() << " kg m^2, which floating point cannot simulate (give sizes in metres)";
      fail(index, desc, why.str());
    }
  }
  return body;
}

BodyDesc describeBody(const Body& body) {
  BodyDesc desc;
  desc.name = body.name;
  desc.shape = body.shape;
  desc.motion = body.motion;
  desc.position = body.position;
  desc.orientation = body.orientation;
  desc.velocity = body.velocity;
  desc.angularVelocity = body.angularVelocity;
  desc.density = body.sceneDensity;
  desc.mass = body.sceneMass;
  desc.material = body.sceneMaterial;
  desc.velocitySchedule = body.velocitySchedule;  // in the world's time, which a snapshot carries on
  return desc;
}

}  // namespace contactlab
