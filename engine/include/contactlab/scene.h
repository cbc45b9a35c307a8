#pragma once
// Scenes: the data a World is built from, their JSON form, and the registry of built-in scenes.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "contactlab/body.h"

namespace contactlab {

// Scene defaults are the PROX paper's values (sec. 5, Table 1).
struct FrictionDefaults {
  double mu = 0.75;
  double muTorsion = 0.01;  // metres
  double restitution = 0.0;
  // metres, engine/src/dynamics/rolling_resistance.h: a ball of radius r rolling on a level floor
  // slows by (5/7) g mu_rolling / r (0.07 m/s^2 for r = 0.1 m), as a hard ball on a hard floor.
  double muRolling = 0.001;
};

// kg/m^3; a body given neither density nor mass has this density.
inline constexpr double kDefaultDensity = 1000.0;

// What a running World carries from one step to the next besides its bodies' states: the solvers'
// warm starts and the sleeping bookkeeping. World::snapshot fills it, so that a saved scene runs on
// as the world would have run; a scene written by hand has none and starts cold. Body indices are
// the scene's.
struct Continuation {
  // A rigid contact's last impulses (the next solve's warm start), keyed by its bodies and feature;
  // world frame.
  struct Contact {
    int bodyA = -1, bodyB = -1;
    std::uint32_t feature = 0;
    double normal = 0.0;
    Vec3 tangential = Vec3::Zero();
    double torsion = 0.0;
    Vec3 point = Vec3::Zero();
  };
  // An active deformable constraint's state in the CR solve (friction mode, the kinetic force's
  // direction and moving average of lambda, Alg. 3) and its multipliers (normal, t1, t2), keyed by
  // the features it joins: the ten indices and the feature of DeformableContacts::Pair, in order.
  struct Constraint {
    std::array<int, 10> pair{};
    std::uint32_t pairFeature = 0;
    bool kinetic = true;
    std::array<double, 2> direction{};
    double lambdaEstimate = 0.0;
    std::array<double, 2> lambdaHistory{};
    int historyCount = 0;
    std::array<double, 2> kineticForce{};
    Vec3 multipliers = Vec3::Zero();
  };
  // A body's time at rest, its pose when that rest began, and the first body of the island it
  // sleeps in (-1: awake). Empty, or one per body.
  struct Rest {
    double time = 0.0;
    int asleepWith = -1;
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();
  };
  std::vector<Contact> contacts;
  std::vector<Constraint> constraints;
  std::vector<Rest> rest;

  bool empty() const { return contacts.empty() && constraints.empty() && rest.empty(); }
};

struct Scene {
  Vec3 gravity{0.0, 0.0, -9.81};
  double dt = 0.01;
  // The moment the scene starts at: 0 for a new scene, a saved state's time and step count for
  // its continuation (World::snapshot), so that a run continued from it counts on where the saved
  // run stopped and its kinematic schedules keep their times.
  double time = 0.0;
  int step = 0;
  FrictionDefaults friction;
  std::vector<BodyDesc> bodies;
  Continuation continuation;
};

// Any problem with a scene: the message names the file and the key, value or body at fault.
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// JSON scene files (schema in README.md). `source` names the file in error messages.
Scene parseSceneJson(const std::string& text, const std::string& source);
Scene loadSceneFile(const std::string& path);
std::string sceneToJson(const Scene& scene);
void saveSceneFile(const Scene& scene, const std::string& path);

// Built-in scenes: a builder and its numeric parameters with the papers' defaults.
struct SceneParam {
  std::string name;
  double defaultValue = 0.0;
  std::string description;
};
using SceneParams = std::map<std::string, double>;
struct SceneEntry {
  std::string name;
  std::string description;
  std::vector<SceneParam> params;
  std::function<Scene(const SceneParams& params, std::uint64_t seed)> build;
};
const std::vector<SceneEntry>& builtinScenes();
const SceneEntry* findBuiltinScene(const std::string& name);
// "scene NAME has no parameter "KEY" (its parameters: ...)" for the first key of `params` the scene
// does not have; empty when it has them all.
std::string unknownSceneParameter(const SceneEntry& scene, const SceneParams& params);
// Builds a built-in scene; unknown parameter names throw SceneError naming the parameter.
Scene buildBuiltinScene(const std::string& name, const SceneParams& overrides, std::uint64_t seed);

}  // namespace contactlab
