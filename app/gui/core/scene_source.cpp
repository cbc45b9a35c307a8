#include "core/scene_source.h"

#include <filesystem>
#include <sstream>
#include <utility>

namespace contactlab::app {

std::string SceneSource::label() const {
  if (isFile()) return std::filesystem::path(filePath).filename().string();
  if (params.empty()) return builtinName;
  std::ostringstream out;
  out << builtinName << " (";
  bool first = true;
  for (const auto& [key, value] : params) {
    out << (first ? "" : ", ") << key << '=' << value;
    first = false;
  }
  out << ')';
  return out.str();
}

Scene SceneSource::build() const {
  if (isFile()) return loadSceneFile(filePath);
  if (builtinName.empty()) throw SceneError("no scene selected: neither a built-in scene nor a file");
  return buildBuiltinScene(builtinName, params, seed);
}

SceneSource SceneSource::builtin(std::string name, SceneParams params) {
  SceneSource source;
  source.builtinName = std::move(name);
  source.params = std::move(params);
  return source;
}

SceneSource SceneSource::file(std::string path) {
  SceneSource source;
  source.filePath = std::move(path);
  return source;
}

}  // namespace contactlab::app
