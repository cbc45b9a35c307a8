// `contactlab-cli bench`: times the step and the contact solve on the benchmark scenes (issue 2,
// "Benchmark"; DESIGN.md "Benchmarks": warm up, then time, one CSV row per scene and solver).
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "contactlab/world.h"

namespace contactlab::cli {
namespace {

// A benchmark scene: a built-in scene with the sizes, and its default step counts. The pile
// starts as a lattice in the air; its warm-up lets it land so the timed steps see a settled pile
// (about 12,000 contacts), and it runs fewer steps because each costs a hundred times more.
struct BenchScene {
  std::string name;
  SceneParams params;
  int warmup;
  int steps;
};

const std::vector<BenchScene>& benchScenes() {
  static const std::vector<BenchScene> scenes = {
      {"wall", {}, 100, 200},
      {"tower", {}, 100, 200},
      {"pyramid", {{"rows", 20}}, 100, 200},
      {"pile", {{"count", 2000}}, 150, 20},
  };
  return scenes;
}

// The solver settings compared: a fixed budget of 10 sweeps (tolerances 0, so it never stops early:
// the same work as Bullet's 10 sequential-impulse iterations), and PROX-GS run to the paper's 1e-3.
std::vector<SolverSettings> benchSettings() {
  SolverSettings tenSweeps;
  tenSweeps.maxIterations = 10;
  tenSweeps.tolAbs = 0.0;
  tenSweeps.tolRel = 0.0;
  return {tenSweeps, SolverSettings{}};
}

struct BenchOptions {
  std::vector<std::string> scenes;  // empty: all of benchScenes()
  std::optional<int> warmup, steps;  // unset: the scene's own
  std::string csv;                   // empty: no CSV
};

constexpr const char* kBenchHelp =
    "usage: contactlab-cli bench [flags]\n"
    "\n"
    "Steps each benchmark scene (wall, tower, pyramid rows=20, pile count=2000) with PROX-GS at exactly\n"
    "10 sweeps (tolerances 0) and converging to 1e-3 (at most 1000 sweeps), warm-up steps first, and\n"
    "prints per scene and setting: bodies, mean contacts, median ms per step and per stage, mean\n"
    "sweeps, and the solver's ns per contact per sweep (solver time / (contacts * sweeps), median).\n"
    "Flags take their value as the next argument or after '='.\n"
    "\n"
    "  --scenes a,b     scenes to run (default: wall,tower,pyramid,pile)\n"
    "  --warmup N       untimed steps before timing (default: 100, the pile 150)\n"
    "  --steps N        timed steps (default: 200, the pile 20)\n"
    "  --csv FILE       also write the table as CSV\n"
    "  --help           show this help\n";

int stepCount(std::string_view flag, std::string_view text, int minimum) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < minimum)
    throw UsageError(std::string(flag) + ": expected a whole number >= " + std::to_string(minimum) + ", got \"" +
                     std::string(text) + "\"");
  return value;
}

std::vector<std::string> sceneList(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name(text.substr(start, comma - start));
    if (std::ranges::none_of(benchScenes(), [&](const BenchScene& s) { return s.name == name; }))
      throw UsageError("--scenes: unknown benchmark scene \"" + name + "\" (wall, tower, pyramid, pile)");
    names.push_back(name);
    start = comma + 1;
  }
  return names;
}

// nullopt when --help was asked for (the help has then been printed).
std::optional<BenchOptions> parseBenchArgs(Args args) {
  if (std::ranges::any_of(args, [](std::string_view a) { return a == "--help" || a == "-h"; })) {
    std::cout << kBenchHelp;
    return std::nullopt;
  }
  BenchOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const std::size_t equals = arg.find('=');
    const std::string_view flag = arg.substr(0, equals);
    if (flag != "--scenes" && flag != "--warmup" && flag != "--steps" && flag != "--csv")
      throw UsageError("bench: unknown argument \"" + std::string(arg) + "\"");
    std::string_view value;
    if (equals != std::string_view::npos) value = arg.substr(equals + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else throw UsageError(std::string(flag) + ": needs a value");
    if (flag == "--scenes") options.scenes = sceneList(value);
    else if (flag == "--warmup") options.warmup = stepCount(flag, value, 0);
    else if (flag == "--steps") options.steps = stepCount(flag, value, 1);
    else if (value.empty()) throw UsageError("--csv: needs a file name");
    else options.csv = std::string(value);
  }
  return options;
}

// The lower median for an even count: a value that was measured, not an average of two.
double lowerMedian(std::vector<double> values) {
  const auto middle = values.begin() + (values.size() - 1) / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

struct BenchRow {
  std::string scene;
  SolverSettings settings;
  int bodies = 0;
  double meanContacts = 0.0;
  double meanIterations = 0.0;
  double stepMs = 0.0;                                   // medians over the timed steps
  std::array<double, static_cast<int>(Stage::Count)> stageMs{};
  double solverMs = 0.0;                                 // the solve alone, without the warm-start cache
  double nsPerContactSweep = 0.0;
};

BenchRow measure(const BenchScene& benchScene, const SolverSettings& settings, int warmup, int steps) {
  World world(buildBuiltinScene(benchScene.name, benchScene.params, kDefaultSeed), settings);
  for (int step = 0; step < warmup; ++step) world.step();

  std::vector<double> stepMs, solverMs, nsPerContactSweep;
  std::array<std::vector<double>, static_cast<int>(Stage::Count)> stageMs;
  BenchRow row{benchScene.name, settings, static_cast<int>(world.bodies().size())};
  for (int step = 0; step < steps; ++step) {
    world.step();
    const StepMetrics& metrics = world.lastMetrics();
    stepMs.push_back(metrics.stepMs);
    for (int stage = 0; stage < static_cast<int>(Stage::Count); ++stage)
      stageMs[stage].push_back(metrics.stageMs[stage]);
    solverMs.push_back(1e3 * metrics.solve.seconds);
    const double contactSweeps = static_cast<double>(metrics.contacts) * metrics.solve.iterations;
    if (contactSweeps > 0) nsPerContactSweep.push_back(1e9 * metrics.solve.seconds / contactSweeps);
    row.meanContacts += metrics.contacts;  // sums until divided below
    row.meanIterations += metrics.solve.iterations;
  }
  row.meanContacts /= steps;
  row.meanIterations /= steps;
  row.stepMs = lowerMedian(stepMs);
  for (int stage = 0; stage < static_cast<int>(Stage::Count); ++stage) row.stageMs[stage] = lowerMedian(stageMs[stage]);
  row.solverMs = lowerMedian(solverMs);
  row.nsPerContactSweep = nsPerContactSweep.empty() ? 0.0 : lowerMedian(nsPerContactSweep);
  return row;
}

double stage(const BenchRow& row, Stage s) { return row.stageMs[static_cast<int>(s)]; }

void printHeader() {
  std::printf("%-8s %-8s %-7s %5s %6s %8s %8s %8s %8s %8s %8s %8s %9s\n", "scene", "solver", "rfactor", "tol",
              "iter<=", "bodies", "contacts", "step_ms", "coll_ms", "asm_ms", "solve_ms", "sweeps", "ns/c/swp");
}

void printRow(const BenchRow& row) {
  std::printf("%-8s %-8s %-7s %5g %6d %8d %8.1f %8.3f %8.3f %8.3f %8.3f %8.1f %9.2f\n", row.scene.c_str(),
              row.settings.solver.c_str(), rFactorName(row.settings.rFactor), row.settings.tolAbs,
              row.settings.maxIterations, row.bodies, row.meanContacts, row.stepMs, stage(row, Stage::Collision),
              stage(row, Stage::Assembly), row.solverMs, row.meanIterations, row.nsPerContactSweep);
  std::fflush(stdout);  // rows arrive slowly; show each as soon as it is measured
}

void writeCsv(const std::string& path, const std::vector<BenchRow>& rows) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "scene,solver,rfactor,tol_abs,tol_rel,max_iter,bodies,mean_contacts,median_step_ms";
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s)
    out << ",median_" << stageName(static_cast<Stage>(s)) << "_ms";
  out << ",median_solver_ms,mean_iterations,ns_per_contact_sweep\n";
  out.precision(17);
  for (const BenchRow& row : rows) {
    out << row.scene << ',' << row.settings.solver << ',' << rFactorName(row.settings.rFactor) << ','
        << row.settings.tolAbs << ',' << row.settings.tolRel << ',' << row.settings.maxIterations << ','
        << row.bodies << ',' << row.meanContacts << ',' << row.stepMs;
    for (double ms : row.stageMs) out << ',' << ms;
    out << ',' << row.solverMs << ',' << row.meanIterations << ',' << row.nsPerContactSweep << '\n';
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int benchCommand(Args args) {
  const std::optional<BenchOptions> options = parseBenchArgs(args);
  if (!options) return 0;  // --help
  std::vector<BenchRow> rows;
  printHeader();
  for (const BenchScene& scene : benchScenes()) {
    if (!options->scenes.empty() && std::ranges::find(options->scenes, scene.name) == options->scenes.end()) continue;
    for (const SolverSettings& settings : benchSettings()) {
      const int warmup = options->warmup.value_or(scene.warmup), steps = options->steps.value_or(scene.steps);
      rows.push_back(measure(scene, settings, warmup, steps));
      printRow(rows.back());
    }
  }
  if (!options->csv.empty()) writeCsv(options->csv, rows);
  return 0;
}

}  // namespace contactlab::cli
