#include "ui/command_line.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace contactlab::app {
namespace {

bool parseDouble(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

template <typename Int>
bool parseInteger(const std::string& text, Int& out) {
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), last, out);
  return ec == std::errc() && ptr == last;
}

}  // namespace

bool looksLikeSceneFile(const std::string& scene) {
  return scene.find('/') != std::string::npos ||
         (scene.size() > 5 && scene.compare(scene.size() - 5, 5, ".json") == 0);
}

std::string commandLineUsage() {
  return "usage: contactlab [--scene NAME|FILE.json] [--param K=V]... [--seed N] [--solver S]\n"
         "                  [--rfactor global|local|blocked] [--frames N] [--fps F] [--size WxH]\n"
         "                  [--record out.mp4] [--screenshot out.png] [--screenshot-ui out.png]\n"
         "                  [--profile-out times.csv] [--stress-colors] [--exit] [--shaders DIR]\n"
         "                  [--no-settings] [--help] [--version]\n"
         "\n"
         "  --scene        built-in scene name (default tower) or a .json scene file\n"
         "  --param K=V    override a built-in scene parameter (repeatable)\n"
         "  --seed N       random seed of the built-in scene\n"
         "  --solver S     contact solver (see contactlab-cli list)\n"
         "  --rfactor R    r-factor strategy: global, local or blocked\n"
         "  --frames N     with --exit: run N video-frame periods (N/fps seconds of simulation; default 1)\n"
         "  --fps F        video frame rate (default 60)\n"
         "  --size WxH     recording and headless resolution (default 1280x720, even numbers)\n"
         "  --record F     record the 3D view to an MP4 (H.264, needs ffmpeg)\n"
         "  --screenshot F write the 3D view of the last frame to a PNG\n"
         "  --screenshot-ui F  write the whole window, panels included, to a PNG\n"
         "  --profile-out F  write each frame's render time (3D view, drawing finished; wall and CPU ms) to a CSV\n"
         "  --stress-colors  colour deformable bodies by von Mises stress, with its scale in a legend\n"
         "  --exit         headless: run --frames frames as fast as possible, write the files, exit\n"
         "  --shaders DIR  load the GLSL shaders from DIR\n"
         "  --no-settings  neither read nor write the remembered settings and layout\n";
}

CommandLine parseCommandLine(const std::vector<std::string>& args, std::string& error) {
  CommandLine cl;
  error.clear();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        error = flag + " needs a value";
        return false;
      }
      out = args[++i];
      return true;
    };
    std::string v;
    if (flag == "--help" || flag == "-h") {
      cl.showHelp = true;
    } else if (flag == "--version") {
      cl.showVersion = true;
    } else if (flag == "--exit") {
      cl.exitWhenDone = true;
    } else if (flag == "--no-settings") {
      cl.useSettings = false;
    } else if (flag == "--stress-colors") {
      cl.stressColors = true;
    } else if (flag == "--scene") {
      if (!value(v)) return cl;
      cl.scene = v;
    } else if (flag == "--param") {
      if (!value(v)) return cl;
      const auto eq = v.find('=');
      double number = 0;
      if (eq == std::string::npos || eq == 0 || !parseDouble(v.substr(eq + 1), number)) {
        error = "--param expects KEY=NUMBER, got '" + v + "'";
        return cl;
      }
      cl.params[v.substr(0, eq)] = number;
    } else if (flag == "--seed") {
      if (!value(v)) return cl;
      std::uint64_t seed = 0;
      if (!parseInteger(v, seed)) {
        error = "--seed expects a non-negative integer, got '" + v + "'";
        return cl;
      }
      cl.seed = seed;
    } else if (flag == "--solver") {
      if (!value(v)) return cl;
      bool known = false;
      std::string names;
      for (const auto& s : solverNames()) {
        known = known || s.name == v;
        names += (names.empty() ? "" : ", ") + s.name;
      }
      if (!known) {
        error = "--solver: unknown solver '" + v + "' (known: " + names + ")";
        return cl;
      }
      cl.solver = v;
    } else if (flag == "--rfactor") {
      if (!value(v)) return cl;
      RFactorStrategy strategy;
      if (!parseRFactor(v, strategy)) {
        error = "--rfactor expects global, local or blocked, got '" + v + "'";
        return cl;
      }
      cl.rFactor = strategy;
    } else if (flag == "--frames") {
      if (!value(v)) return cl;
      int frames = 0;
      if (!parseInteger(v, frames) || frames < 1) {
        error = "--frames expects a positive integer, got '" + v + "'";
        return cl;
      }
      cl.frames = frames;
    } else if (flag == "--fps") {
      if (!value(v)) return cl;
      if (!parseDouble(v, cl.fps) || cl.fps <= 0 || cl.fps > 1000) {
        error = "--fps expects a number in (0, 1000], got '" + v + "'";
        return cl;
      }
    } else if (flag == "--size") {
      if (!value(v)) return cl;
      const auto x = v.find('x');
      int w = 0, h = 0;
      if (x == std::string::npos || !parseInteger(v.substr(0, x), w) || !parseInteger(v.substr(x + 1), h) ||
          w < 16 || h < 16 || w > 7680 || h > 4320 || w % 2 != 0 || h % 2 != 0) {
        error = "--size expects WIDTHxHEIGHT with even numbers from 16x16 to 7680x4320, got '" + v + "'";
        return cl;
      }
      cl.width = w;
      cl.height = h;
      cl.sizeGiven = true;
    } else if (flag == "--record") {
      if (!value(cl.recordPath)) return cl;
    } else if (flag == "--screenshot") {
      if (!value(cl.screenshotPath)) return cl;
    } else if (flag == "--screenshot-ui") {
      if (!value(cl.uiScreenshotPath)) return cl;
    } else if (flag == "--profile-out") {
      if (!value(cl.profilePath)) return cl;
    } else if (flag == "--shaders") {
      if (!value(v)) return cl;
      cl.shaderDirectory = v;
    } else {
      error = "unknown flag '" + flag + "' (contactlab --help lists the flags)";
      return cl;
    }
  }
  if (!cl.exitWhenDone && (cl.frames || !cl.recordPath.empty() || !cl.screenshotPath.empty() ||
                           !cl.uiScreenshotPath.empty() || !cl.profilePath.empty())) {
    error = "--frames, --record, --screenshot, --screenshot-ui and --profile-out need --exit (headless); "
            "in the app use the Recording panel";
    return cl;
  }
  // A key the named built-in scene does not have is a typo, as in the headless tool: exit 2. (Without
  // --scene the scene comes from the saved settings, and a bad key is reported when it loads.)
  if (const SceneEntry* entry = cl.scene ? findBuiltinScene(*cl.scene) : nullptr) {
    if (const std::string unknown = unknownSceneParameter(*entry, cl.params); !unknown.empty()) {
      error = "--param: " + unknown;
      return cl;
    }
  }
  if (cl.exitWhenDone && !cl.frames) cl.frames = 1;
  return cl;
}

}  // namespace contactlab::app
