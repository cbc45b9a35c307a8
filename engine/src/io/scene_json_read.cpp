// Reading scene files: JSON text -> Scene, with every problem reported as
// "<file>: <json path>: <what is wrong>" so a user can find the offending key without a debugger.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <iterator>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "contactlab/scene.h"
#include "geometry/mesh_library.h"

namespace contactlab {
namespace {

using nlohmann::json;

// Follows nlohmann's parser events to know which key or array element is being read, so that errors
// the parser itself raises (number overflow such as 1e999, truncation) can name a JSON path, and so
// that duplicate keys, which nlohmann would silently collapse to the last one, are rejected.
class JsonPathTracker {
 public:
  explicit JsonPathTracker(std::string source) : source_(std::move(source)) {}

  bool onEvent(json::parse_event_t event, const json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({false, {}, 0, {}}); break;
      case json::parse_event_t::array_start: frames_.push_back({true, {}, 0, {}}); break;
      case json::parse_event_t::key: {
        Frame& object = frames_.back();
        object.key = parsed.get<std::string>();
        if (!object.keysSeen.insert(object.key).second)
          throw SceneError(source_ + ": " + path() + ": duplicate key");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        valueFinished();
        break;
      case json::parse_event_t::value: valueFinished(); break;
    }
    return true;  // keep everything
  }

  // The path of the value being read, e.g. bodies[3].size[1]; empty at the top level.
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      if (f.isArray) out += "[" + std::to_string(f.index) + "]";
      else if (!f.key.empty()) out += (out.empty() ? "" : ".") + f.key;
    }
    return out;
  }

 private:
  struct Frame {
    bool isArray;
    std::string key;  // objects: the key whose value is being read
    int index;        // arrays: the element being read
    std::set<std::string> keysSeen;
  };
  void valueFinished() {
    if (frames_.empty()) return;
    Frame& parent = frames_.back();
    if (parent.isArray) ++parent.index;
    else parent.key.clear();  // between a value and the next key, errors belong to the object
  }

  std::string source_;
  std::vector<Frame> frames_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; users need only the rest.
std::string withoutExceptionTag(const char* what) {
  std::string_view text(what);
  if (text.starts_with("[")) {
    const auto close = text.find("] ");
    if (close != std::string_view::npos) text.remove_prefix(close + 2);
  }
  return std::string(text);
}

json parseJsonDocument(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw SceneError(source + ": empty file (expected a JSON object with a \"bodies\" array)");
  JsonPathTracker tracker(source);
  try {
    return json::parse(text, [&tracker](int, json::parse_event_t event, json& parsed) {
      return tracker.onEvent(event, parsed);
    });
  } catch (const json::exception& e) {
    // Syntax errors carry a line and column; out-of-range numbers (1e999) only the path knows.
    const std::string where = tracker.path();
    const char* kind = dynamic_cast<const json::parse_error*>(&e) ? "invalid JSON: " : "";
    throw SceneError(source + ": " + (where.empty() ? "" : where + ": ") + kind + withoutExceptionTag(e.what()));
  }
}

[[noreturn]] void failAt(const std::string& source, const std::string& path, const std::string& message) {
  throw SceneError(source + ": " + (path.empty() ? "top level" : path) + ": " + message);
}

std::string describe(const json& value) {
  if (value.is_null()) return "null";  // its type and its text are the same word
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return std::string(value.type_name()) + " " + text;
}

// Reads one object of the file with the path it sits at; every accessor checks type and range and
// reports a failure with the file and the key's path.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path, const std::string& source,
               const std::vector<std::string_view>& allowedKeys)
      : object_(object), path_(std::move(path)), source_(source) {
    if (!object.is_object()) fail(path_, "expected an object, got " + describe(object));
    for (const auto& [key, value] : object.items()) {
      bool allowed = false;
      for (std::string_view k : allowedKeys) allowed = allowed || k == key;
      if (!allowed) {
        std::string list;
        for (std::string_view k : allowedKeys) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(keyPath(key), "unknown key (allowed here: " + list + ")");
      }
    }
  }

  bool has(const std::string& key) const { return object_.contains(key); }
  std::string keyPath(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const json& raw(const std::string& key) const { return object_.at(key); }

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    failAt(source_, path, message);
  }
  void require(const std::string& key, const std::string& why) const {
    if (!has(key)) fail(keyPath(key), "missing (required " + why + ")");
  }

  double number(const std::string& key) const { return numberAt(raw(key), keyPath(key)); }
  double positive(const std::string& key) const { return positiveAt(raw(key), keyPath(key)); }
  double nonNegative(const std::string& key) const {
    const double v = number(key);
    if (v < 0.0) fail(keyPath(key), "must not be negative, got " + raw(key).dump());
    return v;
  }
  bool flag(const std::string& key) const {
    if (!has(key)) return false;
    if (!raw(key).is_boolean()) fail(keyPath(key), "expected true or false, got " + describe(raw(key)));
    return raw(key).get<bool>();
  }
  std::string text(const std::string& key) const {
    if (!raw(key).is_string()) fail(keyPath(key), "expected a string, got " + describe(raw(key)));
    return raw(key).get<std::string>();
  }
  Vec3 vec3(const std::string& key) const { return vec3At(raw(key), keyPath(key)); }
  Vec3 vec3(const std::string& key, const Vec3& fallback) const { return has(key) ? vec3(key) : fallback; }
  Vec3 positiveVec3(const std::string& key) const {
    const Vec3 v = vec3(key);
    for (int i = 0; i < 3; ++i)
      if (!(v[i] > 0.0))
        fail(keyPath(key), "every component must be positive, got " + raw(key).dump());
    return v;
  }
  const json& array(const std::string& key) const { return arrayAt(raw(key), keyPath(key)); }

  double numberAt(const json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number, got " + describe(value));
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(path, "number is not finite: " + value.dump());
    return v;
  }
  double positiveAt(const json& value, const std::string& path) const {
    const double v = numberAt(value, path);
    if (!(v > 0.0)) fail(path, "must be positive, got " + value.dump());
    return v;
  }
  const json& arrayAt(const json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, "expected an array, got " + describe(value));
    return value;
  }
  Vec3 vec3At(const json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 3) fail(path, "expected an array of 3 numbers, got " + describe(value));
    Vec3 v;
    for (int i = 0; i < 3; ++i) v[i] = numberAt(value[i], path + "[" + std::to_string(i) + "]");
    return v;
  }

 private:
  const json& object_;
  std::string path_;
  const std::string& source_;
};

Quat readOrientation(const ObjectReader& body) {
  const std::string path = body.keyPath("orientation");
  const json& value = body.raw("orientation");
  if (!value.is_array() || value.size() != 4)
    body.fail(path, "expected a quaternion [w, x, y, z], got " + describe(value));
  Vec4 wxyz;
  for (int i = 0; i < 4; ++i) wxyz[i] = body.numberAt(value[i], path + "[" + std::to_string(i) + "]");
  // A non-unit quaternion is a harmless slip (rounded digits) and is normalized; a zero one names no
  // rotation at all. One already unit to rounding is kept bit for bit, so saved states round-trip.
  const double norm = wxyz.norm();
  if (!(norm > 1e-12)) body.fail(path, "quaternion has zero norm: " + value.dump());
  if (std::abs(norm - 1.0) > 1e-12) wxyz /= norm;
  return Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
}

std::vector<VelocityKey> readVelocitySchedule(const ObjectReader& body) {
  const std::string path = body.keyPath("velocity_schedule");
  std::vector<VelocityKey> schedule;
  const json& entries = body.array("velocity_schedule");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string entryPath = path + "[" + std::to_string(i) + "]";
    const json& entry = entries[i];
    if (!entry.is_array() || entry.size() != 2)
      body.fail(entryPath, "expected [time, [vx, vy, vz]], got " + describe(entry));
    VelocityKey key{body.numberAt(entry[0], entryPath + "[0]"), body.vec3At(entry[1], entryPath + "[1]")};
    if (!schedule.empty() && !(key.time > schedule.back().time))
      body.fail(entryPath + "[0]", "times must increase, got " + entry[0].dump() + " after " + entries[i - 1][0].dump());
    schedule.push_back(key);
  }
  return schedule;
}

// The material keys of a body, or of the scene's "friction" object.
MaterialOverride readMaterial(const ObjectReader& object) {
  MaterialOverride m;
  if (object.has("mu")) m.mu = object.nonNegative("mu");
  if (object.has("mu_torsion")) m.muTorsion = object.nonNegative("mu_torsion");
  if (object.has("mu_rolling")) m.muRolling = object.nonNegative("mu_rolling");
  if (object.has("restitution")) {
    m.restitution = object.nonNegative("restitution");
    if (*m.restitution > 1.0)
      object.fail(object.keyPath("restitution"), "must not exceed 1 (it would add energy), got " + object.raw("restitution").dump());
  }
  return m;
}

FrictionDefaults readFriction(const ObjectReader& friction) {
  const MaterialOverride given = readMaterial(friction);
  const FrictionDefaults defaults;
  return {given.mu.value_or(defaults.mu), given.muTorsion.value_or(defaults.muTorsion),
          given.restitution.value_or(defaults.restitution), given.muRolling.value_or(defaults.muRolling)};
}

// The "deformable" object of a body (DeformableDesc, body.h). Kept in a namespace named after this
// file so that unity batches, which join this file with others, see no clash of helper names.
namespace scene_json_read {

DeformableModel deformableModelAt(const ObjectReader& object, const std::string& key) {
  const std::string name = object.text(key);
  for (DeformableModel model : {DeformableModel::Corotational, DeformableModel::NeoHookean})
    if (name == deformableModelName(model)) return model;
  object.fail(object.keyPath(key), "unknown model \"" + name + "\" (expected " +
                                       deformableModelName(DeformableModel::Corotational) + " or " +
                                       deformableModelName(DeformableModel::NeoHookean) + ")");
}

// "damping": [alpha, beta], the Rayleigh coefficients of C = alpha M + beta K.
void readDamping(const ObjectReader& object, DeformableDesc& desc) {
  const std::string path = object.keyPath("damping");
  const json& value = object.raw("damping");
  if (!value.is_array() || value.size() != 2)
    object.fail(path, "expected [alpha, beta], two non-negative numbers, got " + describe(value));
  double coefficients[2];
  for (int i = 0; i < 2; ++i) {
    const std::string elementPath = path + "[" + std::to_string(i) + "]";
    coefficients[i] = object.numberAt(value[i], elementPath);
    if (coefficients[i] < 0.0) object.fail(elementPath, "must not be negative, got " + value[i].dump());
  }
  desc.dampingMass = coefficients[0];
  desc.dampingStiffness = coefficients[1];
}

// "pinned": {"min": [x, y, z], "max": [x, y, z]}, a world box; both corners are required.
DeformableDesc::Box readPinnedBox(const ObjectReader& deformable, const std::string& source) {
  const ObjectReader pinned(deformable.raw("pinned"), deformable.keyPath("pinned"), source, {"min", "max"});
  pinned.require("min", "for a pinned box");
  pinned.require("max", "for a pinned box");
  const DeformableDesc::Box box{pinned.vec3("min"), pinned.vec3("max")};
  for (int axis = 0; axis < 3; ++axis)
    if (box.min[axis] > box.max[axis])
      pinned.fail(pinned.keyPath("min") + "[" + std::to_string(axis) + "]",
                  "must not exceed max[" + std::to_string(axis) + "], got " + pinned.raw("min")[axis].dump() +
                      " > " + pinned.raw("max")[axis].dump());
  return box;
}

// "nodes": {"positions": [[x, y, z], ...], "velocities": [[x, y, z], ...]}, a saved state; both
// lists, of the same length.
void readNodes(const ObjectReader& deformable, const std::string& source, DeformableDesc& desc) {
  const ObjectReader nodes(deformable.raw("nodes"), deformable.keyPath("nodes"), source, {"positions", "velocities"});
  nodes.require("positions", "for a saved state");
  nodes.require("velocities", "for a saved state");
  for (const char* key : {"positions", "velocities"}) {
    const json& list = nodes.raw(key);
    if (!list.is_array() || list.empty()) nodes.fail(nodes.keyPath(key), "expected a list of [x, y, z], got " + describe(list));
    std::vector<Vec3>& out = std::string(key) == "positions" ? desc.nodePositions : desc.nodeVelocities;
    for (std::size_t i = 0; i < list.size(); ++i)
      out.push_back(nodes.vec3At(list[i], nodes.keyPath(key) + "[" + std::to_string(i) + "]"));
  }
  if (desc.nodePositions.size() != desc.nodeVelocities.size())
    nodes.fail(nodes.keyPath("velocities"), "has " + std::to_string(desc.nodeVelocities.size()) + " entries for " +
                                                std::to_string(desc.nodePositions.size()) + " positions");
}

DeformableDesc readDeformable(const ObjectReader& body, const std::string& source) {
  const ObjectReader object(body.raw("deformable"), body.keyPath("deformable"), source,
                            {"model", "youngs_modulus", "poisson_ratio", "damping", "max_tet_volume", "pinned",
                             "self_collision", "nodes"});
  DeformableDesc desc;
  if (object.has("model")) desc.model = deformableModelAt(object, "model");
  if (object.has("youngs_modulus")) desc.youngsModulus = object.positive("youngs_modulus");
  if (object.has("poisson_ratio")) {
    // The Lame parameters lambda = E nu / ((1 + nu)(1 - 2 nu)) and mu = E / (2 (1 + nu)) need
    // -1 < nu < 0.5; at 0.5 the material is incompressible and lambda is infinite.
    desc.poissonRatio = object.number("poisson_ratio");
    if (!(desc.poissonRatio > -1.0 && desc.poissonRatio < 0.5))
      object.fail(object.keyPath("poisson_ratio"),
                  "must lie strictly between -1 and 0.5, got " + object.raw("poisson_ratio").dump());
  }
  if (object.has("damping")) readDamping(object, desc);
  if (object.has("max_tet_volume")) desc.maxTetVolume = object.positive("max_tet_volume");
  if (object.has("pinned")) desc.pinned = readPinnedBox(object, source);
  if (object.has("self_collision")) desc.selfCollision = object.flag("self_collision");
  if (object.has("nodes")) readNodes(object, source, desc);
  return desc;
}

}  // namespace scene_json_read

// A plane is a static half-space placed by its normal and offset alone, so it takes no pose,
// velocity or mass keys.
BodyDesc readPlaneBody(const json& value, const std::string& path, const std::string& source) {
  if (value.contains("deformable"))
    failAt(source, path + ".deformable", "a plane is a static half-space and cannot be deformable");
  const ObjectReader body(value, path, source,
                          {"name", "shape", "normal", "offset", "static", "mu", "mu_torsion", "restitution", "mu_rolling"});
  body.require("normal", "for a plane");
  body.require("offset", "for a plane");
  if (body.has("static") && !body.flag("static"))
    body.fail(body.keyPath("static"), "a plane is always static");
  const Vec3 normal = body.vec3("normal");
  const double norm = normal.norm();
  if (!(norm > 1e-12)) body.fail(body.keyPath("normal"), "must be a non-zero vector, got " + body.raw("normal").dump());
  BodyDesc desc;
  if (body.has("name")) desc.name = body.text("name");
  // Scaling n.x <= d by 1/|n| keeps the same half-space with a unit normal.
  desc.shape = PlaneShape{normal / norm, body.number("offset") / norm};
  desc.motion = MotionType::Static;
  desc.material = readMaterial(body);
  return desc;
}

// A mesh body names a procedural mesh ("mesh") or an OBJ file ("obj", relative to the scene file's
// folder), with an optional uniform "scale"; the geometry is built (and tetrahedralized) here, once
// per distinct mesh, so every body of the same mesh shares it.
MeshShape readMeshShape(const ObjectReader& body, const std::string& source) {
  const bool named = body.has("mesh"), fromObj = body.has("obj");
  if (named == fromObj)
    body.fail(body.keyPath(named ? "obj" : "mesh"), named ? "give either mesh or obj, not both"
                                                         : "missing (a mesh body needs \"mesh\": <name> or \"obj\": <file>)");
  const std::string key = named ? "mesh" : "obj";
  const double scale = body.has("scale") ? body.positive("scale") : 1.0;
  try {
    if (named) return MeshShape{namedMeshGeometry(body.text(key), scale)};
    std::filesystem::path file = body.text(key);
    // Relative to the scene file; kept absolute so a saved state finds the file from anywhere.
    if (file.is_relative()) file = std::filesystem::path(source).parent_path() / file;
    return MeshShape{objMeshGeometry(std::filesystem::absolute(file).lexically_normal().string(), scale)};
  } catch (const MeshError& e) {
    body.fail(body.keyPath(key), e.what());
  }
}

Shape readSolidShape(const ObjectReader& body, const std::string& shapeName, const std::string& source) {
  if (shapeName == "mesh") return readMeshShape(body, source);
  const std::string why = "for a " + shapeName;
  if (shapeName == "box") {
    body.require("size", why);
    return BoxShape{0.5 * body.positiveVec3("size")};
  }
  if (shapeName == "sphere") {
    body.require("radius", why);
    return SphereShape{body.positive("radius")};
  }
  // Capsule; the caller has checked the name.
  body.require("radius", why);
  body.require("length", why);
  return CapsuleShape{body.positive("radius"), 0.5 * body.nonNegative("length")};
}

BodyDesc readSolidBody(const json& value, const std::string& path, const std::string& source,
                       const std::string& shapeName) {
  std::vector<std::string_view> keys = {"name", "shape"};
  if (shapeName == "box") keys.push_back("size");
  else if (shapeName == "mesh") keys.insert(keys.end(), {"mesh", "obj", "scale", "source_frame"});
  else keys.push_back("radius");
  if (shapeName == "capsule") keys.push_back("length");
  keys.insert(keys.end(), {"position", "orientation", "velocity", "angular_velocity", "density", "mass", "mu",
                           "mu_torsion", "restitution", "mu_rolling", "static", "kinematic", "velocity_schedule",
                           "deformable"});
  const ObjectReader body(value, path, source, keys);
  BodyDesc desc;
  if (body.has("name")) desc.name = body.text("name");
  desc.shape = readSolidShape(body, shapeName, source);
  body.require("position", "for every body but a plane");
  desc.position = body.vec3("position");
  if (body.has("orientation")) desc.orientation = readOrientation(body);
  if (shapeName == "mesh" && body.has("source_frame") && body.flag("source_frame")) {
    // position and orientation place the mesh's own frame (its file's coordinates): the body frame
    // sits at the centre of mass, turned by the principal axes, within it.
    const MeshGeometry& mesh = *std::get<MeshShape>(desc.shape).geometry;
    desc.position += desc.orientation * mesh.centreOfMassInSource;
    desc.orientation = desc.orientation * mesh.bodyToSourceRotation;
  }
  desc.velocity = body.vec3("velocity", Vec3::Zero());
  desc.angularVelocity = body.vec3("angular_velocity", Vec3::Zero());

  if (body.has("density") && body.has("mass"))
    body.fail(body.keyPath("mass"), "give either density or mass, not both");
  if (body.has("mass")) desc.mass = body.positive("mass");
  else desc.density = body.has("density") ? body.positive("density") : kDefaultDensity;
  desc.material = readMaterial(body);

  const bool isStatic = body.flag("static"), isKinematic = body.flag("kinematic");
  if (isStatic && isKinematic) body.fail(body.keyPath("kinematic"), "a body cannot be both static and kinematic");
  desc.motion = isStatic ? MotionType::Static : isKinematic ? MotionType::Kinematic : MotionType::Dynamic;
  if (body.has("velocity_schedule")) {
    if (!isKinematic) body.fail(body.keyPath("velocity_schedule"), "only kinematic bodies follow a schedule");
    desc.velocitySchedule = readVelocitySchedule(body);
  }
  if (body.has("deformable")) {
    if (desc.motion != MotionType::Dynamic)
      body.fail(body.keyPath("deformable"), std::string("only a dynamic body can be deformable, this one is ") +
                                                (isStatic ? "static" : "kinematic"));
    desc.deformable = scene_json_read::readDeformable(body, source);
  }
  return desc;
}

BodyDesc readBody(const json& value, const std::string& path, const std::string& source) {
  // The shape decides which keys are allowed, so it is read before the body's keys are checked.
  if (!value.is_object()) failAt(source, path, "expected an object, got " + describe(value));
  if (!value.contains("shape")) failAt(source, path + ".shape", "missing (required for every body)");
  const json& shape = value.at("shape");
  if (!shape.is_string()) failAt(source, path + ".shape", "expected a string, got " + describe(shape));
  const std::string shapeName = shape.get<std::string>();
  if (shapeName == "plane") return readPlaneBody(value, path, source);
  if (shapeName == "box" || shapeName == "sphere" || shapeName == "capsule" || shapeName == "mesh")
    return readSolidBody(value, path, source, shapeName);
  failAt(source, path + ".shape", "unknown shape \"" + shapeName + "\" (expected box, sphere, capsule, mesh or plane)");
}

// An integer in [lowest, highest].
long long integerAt(const json& value, const std::string& path, const std::string& source, long long lowest,
                    long long highest) {
  if (!value.is_number_integer())
    failAt(source, path, "expected an integer, got " + describe(value));
  const long long v = value.is_number_unsigned()
                          ? static_cast<long long>(std::min<unsigned long long>(value.get<unsigned long long>(), 1ULL << 62))
                          : value.get<long long>();
  if (v < lowest || v > highest)
    failAt(source, path, "must lie in [" + std::to_string(lowest) + ", " + std::to_string(highest) + "], got " +
                             value.dump());
  return v;
}

// "continuation" (World::snapshot writes it; docs/pipeline.md): one row of numbers each,
//   contacts:    [body a, body b, feature, normal, tangential x y z, torsion, point x y z]; a row of
//                14 (files written while contacts kept a drift anchor) has the anchor's slip x y z
//                before the point, which is read past.
//   constraints: [10 pair indices, pair feature, kinetic 0|1, direction x y, lambda estimate,
//                 lambda history 0 1, history count, kinetic force x y, multipliers n t1 t2]
//   rest:        [time, asleep with, rest position x y z, rest orientation w x y z] per body (asleep
//                with: the first body of its sleeping island, -1 awake; the pose where its rest began).
//                A row of the first two only (files written before the rest pose was kept) begins
//                the rest where the file puts the body.
Continuation readContinuation(const ObjectReader& top, const std::vector<BodyDesc>& bodies, const std::string& source) {
  const ObjectReader object(top.raw("continuation"), "continuation", source, {"contacts", "constraints", "rest"});
  const long long lastBody = static_cast<long long>(bodies.size()) - 1;
  constexpr long long kLargestFeature = 0xffffffffLL;
  // Rows of `length` numbers each, or of `alternative` where an older layout is read too (0: none).
  const auto rows = [&](const char* key, std::size_t length, std::size_t alternative, auto&& readRow) {
    if (!object.has(key)) return;
    const json& list = object.array(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = object.keyPath(key) + "[" + std::to_string(i) + "]";
      if (!list[i].is_array() || (list[i].size() != length && (alternative == 0 || list[i].size() != alternative)))
        failAt(source, path,
               "expected a row of " + std::to_string(length) + (alternative ? " or " + std::to_string(alternative) : "") +
                   " numbers, got " + describe(list[i]));
      const auto number = [&](std::size_t j) { return object.numberAt(list[i][j], path + "[" + std::to_string(j) + "]"); };
      const auto integer = [&](std::size_t j, long long lowest, long long highest) {
        return integerAt(list[i][j], path + "[" + std::to_string(j) + "]", source, lowest, highest);
      };
      readRow(number, integer, list[i].size());
    }
  };
  Continuation out;
  rows("contacts", 11, 14, [&](auto&& number, auto&& integer, std::size_t length) {
    Continuation::Contact& c = out.contacts.emplace_back();
    c.bodyA = static_cast<int>(integer(0, 0, lastBody));
    c.bodyB = static_cast<int>(integer(1, 0, lastBody));
    c.feature = static_cast<std::uint32_t>(integer(2, 0, kLargestFeature));
    c.normal = number(3);
    c.tangential = Vec3(number(4), number(5), number(6));
    c.torsion = number(7);
    const std::size_t point = length == 14 ? 11 : 8;
    c.point = Vec3(number(point), number(point + 1), number(point + 2));
  });
  rows("constraints", 23, 0, [&](auto&& number, auto&& integer, std::size_t) {
    Continuation::Constraint& c = out.constraints.emplace_back();
    for (std::size_t j = 0; j < c.pair.size(); ++j)
      c.pair[j] = static_cast<int>(integer(j, -1, std::numeric_limits<int>::max()));
    c.pairFeature = static_cast<std::uint32_t>(integer(10, 0, kLargestFeature));
    c.kinetic = integer(11, 0, 1) == 1;
    c.direction = {number(12), number(13)};
    c.lambdaEstimate = number(14);
    c.lambdaHistory = {number(15), number(16)};
    c.historyCount = static_cast<int>(integer(17, 0, 1LL << 30));
    c.kineticForce = {number(18), number(19)};
    c.multipliers = Vec3(number(20), number(21), number(22));
  });
  rows("rest", 9, 2, [&](auto&& number, auto&& integer, std::size_t length) {
    Continuation::Rest& r = out.rest.emplace_back();
    r.time = number(0);
    r.asleepWith = static_cast<int>(integer(1, -1, lastBody));
    const std::size_t body = out.rest.size() - 1;
    if (length == 2) {
      if (body < bodies.size()) r.position = bodies[body].position, r.orientation = bodies[body].orientation;
      return;
    }
    r.position = Vec3(number(2), number(3), number(4));
    const Quat orientation(number(5), number(6), number(7), number(8));
    if (orientation.norm() < 1e-6)
      failAt(source, object.keyPath("rest") + "[" + std::to_string(body) + "]", "has a zero rest orientation");
    r.orientation = orientation.normalized();
  });
  if (!out.rest.empty() && out.rest.size() != bodies.size())
    object.fail(object.keyPath("rest"), "has " + std::to_string(out.rest.size()) + " rows for " +
                                            std::to_string(bodies.size()) + " bodies");
  for (std::size_t i = 0; i < out.rest.size(); ++i) {
    const int with = out.rest[i].asleepWith;
    if (with < 0) continue;
    const std::string path = object.keyPath("rest") + "[" + std::to_string(i) + "]";
    if (bodies[i].motion != MotionType::Dynamic || bodies[i].deformable)
      failAt(source, path, "body " + std::to_string(i) + " is asleep but is not a dynamic rigid body");
    if (out.rest[with].asleepWith != with)
      failAt(source, path, "asleep with body " + std::to_string(with) + ", which is not the first of its own island");
  }
  return out;
}

}  // namespace

Scene parseSceneJson(const std::string& text, const std::string& source) {
  const json document = parseJsonDocument(text, source);
  const ObjectReader top(document, "", source, {"gravity", "dt", "time", "step", "friction", "bodies", "continuation"});
  Scene scene;
  scene.gravity = top.vec3("gravity", scene.gravity);
  if (top.has("dt")) scene.dt = top.positive("dt");
  if (top.has("time")) scene.time = top.nonNegative("time");
  if (top.has("step"))
    scene.step = static_cast<int>(integerAt(top.raw("step"), "step", source, 0, std::numeric_limits<int>::max()));
  if (top.has("friction"))
    scene.friction =
        readFriction(ObjectReader(top.raw("friction"), "friction", source, {"mu", "mu_torsion", "restitution", "mu_rolling"}));
  top.require("bodies", "at the top level");
  const json& bodies = top.array("bodies");
  if (bodies.empty()) top.fail("bodies", "is empty; a scene needs at least one body");
  for (std::size_t i = 0; i < bodies.size(); ++i)
    scene.bodies.push_back(readBody(bodies[i], "bodies[" + std::to_string(i) + "]", source));
  if (top.has("continuation")) scene.continuation = readContinuation(top, scene.bodies, source);
  return scene;
}

Scene loadSceneFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw SceneError(path + ": no such file");
  if (std::filesystem::is_directory(status)) throw SceneError(path + ": is a directory, not a scene file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": cannot be opened for reading");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw SceneError(path + ": read error");
  return parseSceneJson(text, path);
}

}  // namespace contactlab
