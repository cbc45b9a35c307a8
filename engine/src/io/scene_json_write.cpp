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
  if (material.muRolling) body["mu_rolling"] = *material.muRolling;
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

// A list with one element per line, indented under a key at `indent` spaces.
std::string linePerElement(const std::vector<json>& elements, const std::string& indent) {
  if (elements.empty()) return "[]";
  std::string out = "[";
  for (std::size_t i = 0; i < elements.size(); ++i) out += (i == 0 ? "\n" : ",\n") + indent + "  " + elements[i].dump();
  return out + "\n" + indent + "]";
}

// One row of numbers per contact, constraint and body, in the order parseSceneJson documents.
std::string continuationToJson(const Continuation& continuation) {
  std::vector<json> contacts;
  for (const Continuation::Contact& c : continuation.contacts)
    contacts.push_back({c.bodyA, c.bodyB, c.feature, c.normal, c.tangential.x(), c.tangential.y(), c.tangential.z(),
                        c.torsion, c.point.x(), c.point.y(), c.point.z()});
  std::vector<json> constraints;
  for (const Continuation::Constraint& c : continuation.constraints) {
    json row = json::array();
    for (const int id : c.pair) row.push_back(id);
    for (const json& value : {json(c.pairFeature), json(c.kinetic ? 1 : 0), json(c.direction[0]), json(c.direction[1]),
                              json(c.lambdaEstimate), json(c.lambdaHistory[0]), json(c.lambdaHistory[1]),
                              json(c.historyCount), json(c.kineticForce[0]), json(c.kineticForce[1]),
                              json(c.multipliers.x()), json(c.multipliers.y()), json(c.multipliers.z())})
      row.push_back(value);
    constraints.push_back(std::move(row));
  }
  std::vector<json> rest;
  for (const Continuation::Rest& r : continuation.rest)
    rest.push_back({r.time, r.asleepWith, r.position.x(), r.position.y(), r.position.z(), r.orientation.w(),
                    r.orientation.x(), r.orientation.y(), r.orientation.z()});
  return "{\n    \"contacts\": " + linePerElement(contacts, "    ") + ",\n    \"constraints\": " +
         linePerElement(constraints, "    ") + ",\n    \"rest\": " + linePerElement(rest, "    ") + "\n  }";
}

}  // namespace

std::string sceneToJson(const Scene& scene) {
  const json friction = {{"mu", scene.friction.mu},
                         {"mu_torsion", scene.friction.muTorsion},
                         {"restitution", scene.friction.restitution},
                         {"mu_rolling", scene.friction.muRolling}};
  // One body per line keeps files of thousands of bodies readable and diffable; a fully indented
  // dump would put every number on its own line.
  std::string out = "{\n  \"gravity\": " + toJson(scene.gravity).dump() + ",\n  \"dt\": " + json(scene.dt).dump();
  // A new scene starts at 0 and says nothing of it; a saved state says where it was saved.
  if (scene.time != 0.0 || scene.step != 0)
    out += ",\n  \"time\": " + json(scene.time).dump() + ",\n  \"step\": " + json(scene.step).dump();
  out += ",\n  \"friction\": " + friction.dump() + ",\n  \"bodies\": [";
  for (std::size_t i = 0; i < scene.bodies.size(); ++i)
    out += (i == 0 ? "\n    " : ",\n    ") + bodyToJson(scene.bodies[i]).dump();
  out += scene.bodies.empty() ? "]" : "\n  ]";
  if (!scene.continuation.empty()) out += ",\n  \"continuation\": " + continuationToJson(scene.continuation);
  out += "\n}\n";
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
