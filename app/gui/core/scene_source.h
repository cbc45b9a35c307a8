#pragma once
// Where the session's world comes from: a built-in scene with its parameters and seed, or a JSON file.
#include <cstdint>
#include <string>

#include "contactlab/scene.h"

namespace contactlab::app {

struct SceneSource {
  // Exactly one of builtinName / filePath is set.
  std::string builtinName;
  SceneParams params;  // overrides of the built-in scene's parameters
  std::uint64_t seed = 1;
  std::string filePath;

  bool isFile() const { return !filePath.empty(); }
  // What the UI shows: "tower", "pile (count=500)", or the file's name.
  std::string label() const;
  // Builds the scene; throws SceneError naming the scene or file and what is wrong.
  Scene build() const;

  static SceneSource builtin(std::string name, SceneParams params = {});
  static SceneSource file(std::string path);
};

}  // namespace contactlab::app
