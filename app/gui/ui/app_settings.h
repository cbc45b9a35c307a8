#pragma once
// What the app remembers between runs (besides ImGui's own imgui.ini): the last scene, the solver
// settings, the visualization toggles, the camera, pacing and recording choices. Stored as JSON in
// $XDG_CONFIG_HOME/contactlab/settings.json (fallback ~/.config/contactlab/).
#include <map>
#include <optional>
#include <string>

#include "contactlab/render/camera.h"
#include "contactlab/render/renderer.h"
#include "contactlab/world_settings.h"
#include "core/scene_source.h"
#include "core/simulation_session.h"

namespace contactlab::app {

struct RecordingChoices {
  int width = 1280, height = 720;
  double fps = 60.0;
};

// The window's size in screen coordinates, as it was when the app last closed.
struct WindowChoices {
  int width = 1600, height = 900;
  bool maximized = false;
};

struct AppSettings {
  SceneSource source = SceneSource::builtin("tower");
  WorldSettings world = interactiveSettings();
  render::RenderOptions view;
  // Anti-aliasing samples; unset: 4 on a GPU, off on a software rasterizer (llvmpipe), where MSAA
  // is costly (docs/app-performance.md).
  std::optional<int> msaaSamples;
  std::optional<render::CameraState> camera;  // unset: fit the scene when it loads
  Pacing pacing = Pacing::RealTime;
  double realTimeFactor = 1.0;
  int stepsPerFrame = 1;
  RecordingChoices recording;
  WindowChoices window;
  std::map<std::string, bool> openPanels;  // the panels' collapsing headers by key: open or closed
};

// The folder for settings.json and imgui.ini, or empty if neither XDG_CONFIG_HOME nor HOME is set.
std::string settingsDirectory();

// Reads `path` into `settings`. A missing file is not an error (returns nullopt, settings untouched);
// an unreadable or corrupt file returns a message naming the file and leaves `settings` untouched.
std::optional<std::string> loadSettings(const std::string& path, AppSettings& settings);
// Writes the settings, creating the folder; returns an error naming the file.
std::optional<std::string> saveSettings(const std::string& path, const AppSettings& settings);

}  // namespace contactlab::app
