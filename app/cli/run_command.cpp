// `contactlab-cli run`: build or load a scene, step it, write the requested files, print a summary.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "commands.h"
#include "run_outputs.h"

namespace contactlab::cli {
namespace {

bool looksLikePath(const std::string& scene) {
  return scene.find('/') != std::string::npos || scene.ends_with(".json") || std::filesystem::exists(scene);
}

Scene loadScene(const RunOptions& options) {
  if (findBuiltinScene(options.scene)) {
    checkSceneParams(options.scene, options.params);
    return buildBuiltinScene(options.scene, options.params, options.seed.value_or(kDefaultSeed));
  }
  if (!looksLikePath(options.scene))
    throw UsageError("unknown scene \"" + options.scene +
                     "\": not a built-in scene (see contactlab-cli list) nor a .json file");
  // Parameters and seeds shape built-in scenes only; silently ignoring them would mislead.
  if (!options.params.empty()) throw UsageError("--param applies to built-in scenes only, not to " + options.scene);
  if (options.seed) throw UsageError("--seed applies to built-in scenes only, not to " + options.scene);
  return loadSceneFile(options.scene);
}

// The World's errors (a body it cannot build, a state gone non-finite) name the body; the user
// also needs the scene it came from, which a file's own errors name already.
std::runtime_error inScene(const RunOptions& options, const std::exception& e) {
  const std::string message = e.what();
  if (message.starts_with(options.scene + ":")) return std::runtime_error(message);
  return std::runtime_error((findBuiltinScene(options.scene) ? "scene " : "") + options.scene + ": " + message);
}

// The World tetrahedralizes the deformable bodies and builds the meshes' collision models.
World buildWorld(const Scene& scene, const RunOptions& options) {
  try {
    return World(scene, options.world);
  } catch (const std::exception& e) {
    throw inScene(options, e);
  }
}

// On a terminal, a line on stderr at most every few seconds while a long run steps (a 120-bunny
// pile takes seconds per step), rewritten in place and cleared at the end; into a file or a pipe,
// nothing, so logs and scripts see only the summary.
class Progress {
 public:
  explicit Progress(int steps) : steps_(steps), shown_(isatty(STDERR_FILENO) != 0) {}
  void update(int step, double totalMs) {
    if (!shown_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    const double msPerStep = totalMs / step;
    const double left = (steps_ - step) * msPerStep / 1e3;
    std::fprintf(stderr, "\rstep %d of %d, %.3g ms per step, about %.0f s left   ", step, steps_, msPerStep, left);
    printed_ = true;
  }
  ~Progress() {
    if (printed_) std::fprintf(stderr, "\r%*s\r", 72, "");
  }

 private:
  int steps_;
  bool shown_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// What the summary reports, gathered step by step.
struct RunTotals {
  std::vector<double> stepMs;
  double totalMs = 0.0;  // the sum of stepMs
  double contacts = 0.0;
  double iterations = 0.0;

  void add(const StepMetrics& metrics, double ms) {
    stepMs.push_back(ms);
    totalMs += ms;
    contacts += metrics.contacts;
    iterations += metrics.iterations();
  }
};

double median(std::vector<double> values) {
  const auto middle = values.begin() + values.size() / 2;
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return 0.5 * (*middle + *std::max_element(values.begin(), middle));
}

void printSummary(const RunOptions& options, const World& world, const RunTotals& totals) {
  const double steps = static_cast<double>(totals.stepMs.size());
  std::printf("scene %s: %zu bodies, dt %g s, solver %s, %d thread%s\n", options.scene.c_str(),
              world.bodies().size(), world.dt(), solverLabel(world.settings().solver).c_str(), world.settings().threads,
              world.settings().threads == 1 ? "" : "s");
  std::printf("steps %zu, ms/step mean %.4f median %.4f\n", totals.stepMs.size(), totals.totalMs / steps, median(totals.stepMs));
  std::printf("contacts mean %.1f, iterations mean %.1f\n", totals.contacts / steps, totals.iterations / steps);
  std::printf("final energy: kinetic %.6g J, potential %.6g J\n", world.kineticEnergy(), world.potentialEnergy());
}

}  // namespace

int runCommand(Args args) {
  const std::optional<RunOptions> options = parseRunArgs(args);
  if (!options) return 0;  // --help
  Scene scene = loadScene(*options);
  if (options->dt) scene.dt = *options->dt;
  World world = buildWorld(scene, *options);
  RunOutputs outputs(options->outputs);
  RunTotals totals;
  outputs.recordStart(world);
  {
    Progress progress(options->steps);
    for (int step = 0; step < options->steps; ++step) {
      const auto start = std::chrono::steady_clock::now();
      try {
        world.step();
      } catch (const std::runtime_error& e) {  // a non-finite state
        throw inScene(*options, e);
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      totals.add(world.lastMetrics(), ms);
      outputs.record(world, ms);
      progress.update(step + 1, totals.totalMs);
    }
  }
  outputs.close();
  if (!options->outputs.stateOut.empty()) saveSceneFile(world.snapshot(), options->outputs.stateOut);
  printSummary(*options, world, totals);
  return 0;
}

}  // namespace contactlab::cli
