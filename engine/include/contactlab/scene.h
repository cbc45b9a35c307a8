#pragma once
// Scenes: the data a World is built from, their JSON form, and the registry of built-in scenes.
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
};

// kg/m^3; a body given neither density nor mass has this density.
inline constexpr double kDefaultDensity = 1000.0;

struct Scene {
  Vec3 gravity{0.0, 0.0, -9.81};
  double dt = 0.01;
  FrictionDefaults friction;
  std::vector<BodyDesc> bodies;
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
// Builds a built-in scene; unknown parameter names throw SceneError naming the parameter.
Scene buildBuiltinScene(const std::string& name, const SceneParams& overrides, std::uint64_t seed);

}  // namespace contactlab
