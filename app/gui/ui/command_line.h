#pragma once
// The `contactlab` command line: what to load, how to run, and the headless outputs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contactlab/scene.h"
#include "contactlab/solver_settings.h"

namespace contactlab::app {

struct CommandLine {
  std::optional<std::string> scene;  // a built-in name or a path ending in .json
  SceneParams params;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> solver;
  std::optional<RFactorStrategy> rFactor;
  std::optional<int> frames;  // video-frame periods to run (frames / fps seconds of simulation)
  double fps = 60.0;
  int width = 1280, height = 720;  // recording and headless resolution
  bool sizeGiven = false;
  std::string recordPath;
  std::string screenshotPath;
  std::string uiScreenshotPath;  // the whole window, panels included
  std::string profilePath;       // CSV of each headless frame's render milliseconds
  bool stressColors = false;     // deformable bodies coloured by stress (the Visualization panel's)
  bool exitWhenDone = false;
  std::optional<std::string> shaderDirectory;
  bool useSettings = true;
  bool showHelp = false;
  bool showVersion = false;
};

// Parses argv; on a bad flag or value returns a one-line message in `error`.
CommandLine parseCommandLine(const std::vector<std::string>& args, std::string& error);
std::string commandLineUsage();

// True for a --scene argument that names a file rather than a built-in scene.
bool looksLikeSceneFile(const std::string& scene);

}  // namespace contactlab::app
