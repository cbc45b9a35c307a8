// The registry of built-in scenes: one line per scene. Builders live beside their parameter lists
// in their own files (stacks.cpp, simple.cpp, pile.cpp, truck.cpp; mesh scenes: box_drops.cpp for
// jacks and bunnies-rigid, funnel.cpp, spheres.cpp, chess.cpp; deformable bodies: soft_bodies.cpp).
#include <algorithm>

#include "scene_building.h"

namespace contactlab {

const std::vector<SceneEntry>& builtinScenes() {
  static const std::vector<SceneEntry> scenes = {
      scenes::wallScene(),
      scenes::towerScene(),
      scenes::pyramidScene(),
      scenes::inclineScene(),
      scenes::bounceScene(),
      scenes::spinScene(),
      scenes::pileScene(),
      scenes::truckScene(),
      scenes::jacksScene(),
      scenes::funnelScene(),
      scenes::spheresScene(),
      scenes::chessScene(),
      scenes::bunniesRigidScene(),
      scenes::softBlockScene(),
      scenes::cantileverScene(),
      scenes::hangingBarScene(),
      scenes::softInclineScene(),
      scenes::softCubesScene(),
      scenes::softSlabBoxesScene(),
      scenes::ballOnMatScene(),
      scenes::ringsScene(),
      scenes::bunniesScene(),
  };
  return scenes;
}

const SceneEntry* findBuiltinScene(const std::string& name) {
  for (const SceneEntry& entry : builtinScenes())
    if (entry.name == name) return &entry;
  return nullptr;
}

Scene buildBuiltinScene(const std::string& name, const SceneParams& overrides, std::uint64_t seed) {
  const SceneEntry* entry = findBuiltinScene(name);
  if (!entry) {
    std::string known;
    for (const SceneEntry& e : builtinScenes()) known += (known.empty() ? "" : ", ") + e.name;
    throw SceneError("unknown built-in scene \"" + name + "\" (built-in scenes: " + known + ")");
  }
  if (const std::string unknown = unknownSceneParameter(*entry, overrides); !unknown.empty()) throw SceneError(unknown);
  SceneParams params;
  for (const SceneParam& p : entry->params) params[p.name] = p.defaultValue;
  for (const auto& [key, value] : overrides) params[key] = value;
  return entry->build(params, seed);
}

std::string unknownSceneParameter(const SceneEntry& scene, const SceneParams& params) {
  for (const auto& [key, value] : params) {
    if (std::any_of(scene.params.begin(), scene.params.end(), [&](const SceneParam& p) { return p.name == key; }))
      continue;
    std::string valid;
    for (const SceneParam& p : scene.params) valid += (valid.empty() ? "" : ", ") + p.name;
    return "scene " + scene.name + " has no parameter \"" + key + "\" (its parameters: " + (valid.empty() ? "none" : valid) +
           ")";
  }
  return {};
}

}  // namespace contactlab
