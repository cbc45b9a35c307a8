// Writing scene files: every field is written explicitly, so a saved file documents the full state
// and parseSceneJson(sceneToJson(s)) gives s back (doubles are dumped with round-trip precision).
#include <fstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "contactlab/scene.h"

namespace contactlab {
namespace {

using nlohmann::json;

json toJson(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

void writeShape(const Shape& shape, json& body) {
  body["shape"] = shapeKindName(kindOf(shape));
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    body["size"] = toJson(2.0 * box->halfExtents);
  } else if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    body["radius"] = sphere->radius;
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    body["radius"] = capsule->radius;
    body["length"] = 2.0 * capsule->halfLength;
  } else if (const auto* plane = std::get_if<PlaneShape>(&shape)) {
    body["normal"] = toJson(plane->normal);
    body["offset"] = plane->offset;
  } else if (const auto* mesh = std::get_if<MeshShape>(&shape)) {
    body[mesh->geometry->sourceIsObjFile ? "obj" : "mesh"] = mesh->geometry->source;
    body["scale"] = mesh->geometry->scale;
  }
}

// Material overrides are written only when the body has them: writing the scene default instead
// would turn "follows the scene's friction" into a fixed value.
void writeMaterial(const MaterialOverride& material, json& body) {
  if (material.mu) body["mu"] = *material.mu;
  if (material.muTorsion) body["mu_torsion"] = *material.muTorsion;
  if (material.restitution) body["restitution"] = *material.restitution;
}

// Kept in a namespace named after this file so that unity batches see no clash of helper names.
namespace scene_json_write {

// A deformable body's material is written in full, like the rest of the body; max_tet_volume and
// pinned only when set, because unset means "derived from the solid's volume" and "nothing pinned";
// self_collision only when on.
json deformableToJson(const DeformableDesc& deformable) {
  json out = {{"model", deformableModelName(deformable.model)},
              {"youngs_modulus", deformable.youngsModulus},
              {"poisson_ratio", deformable.poissonRatio},
              {"damping", json::array({deformable.dampingMass, deformable.dampingStiffness})}};
  if (deformable.maxTetVolume) out["max_tet_volume"] = *deformable.maxTetVolume;
  if (deformable.pinned)
    out["pinned"] = {{"min", toJson(deformable.pinned->min)}, {"max", toJson(deformable.pinned->max)}};
  if (deformable.selfCollision) out["self_collision"] = true;
  if (!deformable.nodePositions.empty()) {
    json positions = json::array(), velocities = json::array();
    for (const Vec3& x : deformable.nodePositions) positions.push_back(toJson(x));
    for (const Vec3& v : deformable.nodeVelocities) velocities.push_back(toJson(v));
    out["nodes"] = {{"positions", std::move(positions)}, {"velocities", std::move(velocities)}};
  }
  return out;
}

}  // namespace scene_json_write

json bodyToJson(const BodyDesc& desc) {
  json body = json::object();
  body["name"] = desc.name;
  writeShape(desc.shape, body);
  writeMaterial(desc.material, body);
  // A plane is placed by normal and offset only (the reader rejects pose keys on it).
  if (std::holds_alternative<PlaneShape>(desc.shape)) {
    body["static"] = true;
    return body;
  }
  body["position"] = toJson(desc.position);
  const Quat& q = desc.orientation;
  body["orientation"] = json::array({q.w(), q.x(), q.y(), q.z()});
  body["velocity"] = toJson(desc.velocity);
  body["angular_velocity"] = toJson(desc.angularVelocity);
  if (desc.mass) body["mass"] = *desc.mass;
  else body["density"] = desc.density.value_or(kDefaultDensity);
  body["static"] = desc.motion == MotionType::Static;
  body["kinematic"] = desc.motion == MotionType::Kinematic;
  if (desc.motion == MotionType::Kinematic) {
    json schedule = json::array();
    for (const VelocityKey& key : desc.velocitySchedule) schedule.push_back({key.time, toJson(key.velocity)});
    body["velocity_schedule"] = schedule;
  }
  if (desc.deformable) body["deformable"] = scene_json_write::deformableToJson(*desc.deformable);
  return body;
}

}  // namespace

std::string sceneToJson(const Scene& scene) {
  const json friction = {{"mu", scene.friction.mu},
                         {"mu_torsion", scene.friction.muTorsion},
                         {"restitution", scene.friction.restitution}};
  // One body per line keeps files of thousands of bodies readable and diffable; a fully indented
  // dump would put every number on its own line.
  std::string out = "{\n  \"gravity\": " + toJson(scene.gravity).dump() + ",\n  \"dt\": " + json(scene.dt).dump() +
                    ",\n  \"friction\": " + friction.dump() + ",\n  \"bodies\": [";
  for (std::size_t i = 0; i < scene.bodies.size(); ++i)
    out += (i == 0 ? "\n    " : ",\n    ") + bodyToJson(scene.bodies[i]).dump();
  out += scene.bodies.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

void saveSceneFile(const Scene& scene, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw SceneError(path + ": cannot be opened for writing");
  out << sceneToJson(scene);
  out.close();
  if (!out) throw SceneError(path + ": write failed");
}

}  // namespace contactlab
