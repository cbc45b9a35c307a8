// `contactlab-cli bench`: times the step and the contact solve on the benchmark scenes (issue 2,
// "Benchmark"; DESIGN.md "Benchmarks": warm up, then time, one CSV row per scene and solver).
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_deformable.h"
#include "bench_scenes.h"
#include "commands.h"
#include "contactlab/solver_settings.h"
#include "contactlab/world.h"

namespace contactlab::cli {
namespace {

// The benchmark scenes and the 10-sweep setting are in bench_scenes.h, shared with bench/; this
// command also runs PROX-GS at the defaults, both on `threads` threads.
std::vector<WorldSettings> benchSettings(int threads, bool sleep) {
  std::vector<WorldSettings> settings{tenSweepSettings(), WorldSettings{}};
  for (WorldSettings& s : settings) {
    s.threads = threads;
    s.sleep = sleep;
  }
  return settings;
}

constexpr const char* kBenchHelp =
    "usage: contactlab-cli bench [flags]\n"
    "\n"
    "Steps each benchmark scene (wall, tower, pyramid rows=20, pyramid-touching: the same with gap=0, pile\n"
    "count=2000, jacks) with PROX-GS at exactly 10 sweeps (tolerances 0) and at the defaults (a merit of 1e-5\n"
    "or a stall, at most 1000 sweeps), warm-up steps first, and prints per scene and setting: bodies, mean contacts, median ms per\n"
    "step and per stage, mean sweeps, and the solver's ns per contact per sweep, median, twice: ns/c/swp from\n"
    "the whole solve (solver time / (contacts * sweeps), its set-up included: the r-factors, the sweep order)\n"
    "and sweep_ns from the sweeps alone (the iterating part of that time, SolveReport::iterationSeconds); and\n"
    "what the time buys: the deepest penetration over the timed steps (deep_mm, the largest max_penetration\n"
    "of the metrics) and the drift (drift_mm: the largest distance a dynamic body's centre moved from where\n"
    "it was at the first timed step; on the stacks, their creep).\n"
    "\n"
    "A built-in scene with deformable bodies (rings, bunnies, soft-cubes, soft-block, ...) named in\n"
    "--scenes is run once per deformable solver, at the scene's own dt, and gets a table of its own,\n"
    "medians over the timed steps: deformable bodies and their tetrahedra; seconds per step in all\n"
    "(step_s), in the Collision stage (coll_s: the deformable collide stage, candidates and constraints,\n"
    "plus the rigid collision stage), in the Assembly stage (asm_s: A and b of the FEM bodies, plus the\n"
    "rigid problem) and in the CR solve (solve_s: DeformableSolveReport::seconds, its re-linearizations\n"
    "and collision checks at convergence included); CR iterations (iters), deformable constraints, all\n"
    "(constr) and active (active), re-linearizations (relin) and active-set changes (changes).\n"
    "Flags take their value as the next argument or after '='.\n"
    "\n"
    "  --scenes a,b     scenes to run (default: wall,tower,pyramid,pyramid-touching,pile,jacks); also\n"
    "                   any built-in scene with deformable bodies (contactlab-cli list)\n"
    "  --warmup N       untimed steps before timing (default: 100, the pile and jacks 150; rings and\n"
    "                   bunnies 500, soft-cubes 20, other deformable scenes 100)\n"
    "  --steps N        timed steps (default: 200, the pile and jacks 20; rings and bunnies 500,\n"
    "                   soft-cubes 40, other deformable scenes 200)\n"
    "  --deformable-solvers a,b\n"
    "                   deformable solvers to run each deformable scene with (default: cr-full,cr-diag)\n"
    "  --deformable-tol-rel X, --deformable-tol-abs M, --deformable-max-iter K, --deformable-stall K,\n"
    "  --deformable-friction cone|pyramid\n"
    "                   the CR solve's epsilon_1, epsilon_2 (metres), iteration cap, stall window and\n"
    "                   friction set, as for run\n"
    "  --param KEY=VALUE  set a parameter of every chosen scene, e.g. count=10; repeatable\n"
    "  --csv FILE       also write the table as CSV (with rigid and deformable scenes both chosen, the\n"
    "                   deformable table goes to FILE with -deformable before its extension)\n"
    "  --threads N      threads each step runs on, N >= 1 (default: 1)\n"
    "  --sleep on|off   let islands at rest sleep (default: off, so that the figures are the solver's)\n"
    "  --help           show this help\n";

struct BenchRow {
  std::string scene;
  WorldSettings settings;
  int bodies = 0;
  double meanContacts = 0.0;
  double meanIterations = 0.0;
  double stepMs = 0.0;                                   // medians over the timed steps
  std::array<double, static_cast<int>(Stage::Count)> stageMs{};
  double solverMs = 0.0;                                 // the solve alone, without the warm-start cache
  double nsPerContactSweep = 0.0;           // the whole solve per contact and sweep
  double nsPerContactSweepIterating = 0.0;  // its iterating part alone
  double deepest = 0.0;                     // m, the largest max_penetration over the timed steps
  double drift = 0.0;                       // m, DriftMeter over the timed steps
};

BenchRow measure(const BenchScene& benchScene, const WorldSettings& settings, int warmup, int steps) {
  const Scene scene = buildBuiltinScene(benchScene.scene, benchScene.params, kDefaultSeed);
  World world(scene, settings);
  for (int step = 0; step < warmup; ++step) world.step();
  DriftMeter drift(dynamicBodies(scene));
  const auto position = [&](int body) { return world.bodies()[body].position; };
  drift.begin(position);

  std::vector<double> stepMs, solverMs, nsPerContactSweep, nsPerContactSweepIterating;
  std::array<std::vector<double>, static_cast<int>(Stage::Count)> stageMs;
  BenchRow row{benchScene.name, settings, static_cast<int>(world.bodies().size())};
  for (int step = 0; step < steps; ++step) {
    world.step();
    const StepMetrics& metrics = world.lastMetrics();
    stepMs.push_back(metrics.stepMs);
    for (int stage = 0; stage < static_cast<int>(Stage::Count); ++stage)
      stageMs[stage].push_back(metrics.stageMs[stage]);
    solverMs.push_back(1e3 * metrics.solve.seconds);
    const double contactSweeps = metrics.solve.contactSweeps;  // summed over the step's islands
    if (contactSweeps > 0) {
      nsPerContactSweep.push_back(1e9 * metrics.solve.seconds / contactSweeps);
      nsPerContactSweepIterating.push_back(1e9 * metrics.solve.iterationSeconds / contactSweeps);
    }
    row.meanContacts += metrics.contacts;  // sums until divided below
    row.meanIterations += metrics.solve.iterations;
    row.deepest = std::max(row.deepest, metrics.maxPenetration);
    drift.observe(position);
  }
  row.drift = drift.largest();
  row.meanContacts /= steps;
  row.meanIterations /= steps;
  row.stepMs = lowerMedian(stepMs);
  for (int stage = 0; stage < static_cast<int>(Stage::Count); ++stage) row.stageMs[stage] = lowerMedian(stageMs[stage]);
  row.solverMs = lowerMedian(solverMs);
  auto medianOrZero = [](const std::vector<double>& values) { return values.empty() ? 0.0 : lowerMedian(values); };
  row.nsPerContactSweep = medianOrZero(nsPerContactSweep);
  row.nsPerContactSweepIterating = medianOrZero(nsPerContactSweepIterating);
  return row;
}

double stage(const BenchRow& row, Stage s) { return row.stageMs[static_cast<int>(s)]; }

void printHeader() {
  std::printf("%-16s %-8s %-7s %5s %6s %8s %8s %8s %8s %8s %8s %8s %9s %9s %8s %8s\n", "scene", "solver", "rfactor",
              "tol", "iter<=", "bodies", "contacts", "step_ms", "coll_ms", "asm_ms", "solve_ms", "sweeps", "ns/c/swp",
              "sweep_ns", "deep_mm", "drift_mm");
}

void printRow(const BenchRow& row) {
  std::printf("%-16s %-8s %-7s %5g %6d %8d %8.1f %8.3f %8.3f %8.3f %8.3f %8.1f %9.2f %9.2f %8.2f %8.2f\n", row.scene.c_str(),
              row.settings.solver.solver.c_str(), rFactorName(row.settings.solver.prox.rFactor), row.settings.solver.tolAbs,
              row.settings.solver.maxIterations, row.bodies, row.meanContacts, row.stepMs, stage(row, Stage::Collision),
              stage(row, Stage::Assembly), row.solverMs, row.meanIterations, row.nsPerContactSweep,
              row.nsPerContactSweepIterating, 1e3 * row.deepest, 1e3 * row.drift);
  std::fflush(stdout);  // rows arrive slowly; show each as soon as it is measured
}

void writeCsv(const std::string& path, const std::vector<BenchRow>& rows) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "scene,solver,rfactor,tol_abs,tol_rel,max_iter,threads,bodies,mean_contacts,median_step_ms";
  for (int s = 0; s < static_cast<int>(Stage::Count); ++s)
    out << ",median_" << stageName(static_cast<Stage>(s)) << "_ms";
  out << ",median_solver_ms,mean_iterations,ns_per_contact_sweep,ns_per_contact_sweep_iterating,deepest_m,drift_m\n";
  out.precision(17);
  for (const BenchRow& row : rows) {
    out << row.scene << ',' << row.settings.solver.solver << ',' << rFactorName(row.settings.solver.prox.rFactor) << ','
        << row.settings.solver.tolAbs << ',' << row.settings.solver.tolRel << ',' << row.settings.solver.maxIterations << ','
        << row.settings.threads << ',' << row.bodies << ',' << row.meanContacts << ',' << row.stepMs;
    for (double ms : row.stageMs) out << ',' << ms;
    out << ',' << row.solverMs << ',' << row.meanIterations << ',' << row.nsPerContactSweep << ','
        << row.nsPerContactSweepIterating << ',' << row.deepest << ',' << row.drift << '\n';
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// "--param KEY=VALUE".
void addSceneParam(SceneParams& params, std::string_view text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) reject("--param", "expected KEY=VALUE, got " + inQuotes(text));
  const std::string key(text.substr(0, equals));
  params[key] = numberFlag("--param " + key, text.substr(equals + 1));
}

// FILE with "-deformable" before its extension.
std::string deformableCsvPath(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  return hasExtension ? path.substr(0, dot) + "-deformable" + path.substr(dot) : path + "-deformable";
}

}  // namespace

int benchCommand(Args args) {
  int threads = 1;
  bool sleep = false;
  std::optional<std::string> scenesFlag;
  std::vector<std::string> deformableSolvers;
  for (const SolverDescription& s : deformableSolverNames()) deformableSolvers.push_back(s.name);
  SceneParams params;
  DeformableSolverSettings deformableSettings;
  std::vector<std::string_view> benchFlags = {"--threads", "--sleep", "--scenes", "--deformable-solvers", "--param"};
  for (const FlagHelp& flag : kDeformableSolveFlags) benchFlags.push_back(flag.name);
  const std::optional<BenchOptions> options = parseBenchFlags(
      args, "bench", kBenchHelp, benchFlags,
      [&](std::string_view flag, std::string_view value) {
        if (applyDeformableSolveFlag(deformableSettings, flag, value)) return;
        if (flag == "--sleep") sleep = onOff(flag, value);
        else if (flag == "--scenes") scenesFlag = std::string(value);
        else if (flag == "--deformable-solvers") deformableSolvers = deformableSolverList(value);
        else if (flag == "--param") addSceneParam(params, value);
        else threads = countFlag(flag, value, 1);
      });
  if (!options) return 0;  // --help

  // The chosen scenes: the benchmark scenes by name (all of them without --scenes), and built-in
  // scenes with deformable bodies, each built once here so that every mistake is reported before
  // anything is timed.
  std::vector<BenchScene> rigid;
  std::vector<DeformableBenchScene> deformable;
  std::vector<std::string> names;
  if (scenesFlag) {
    for (std::size_t start = 0; start <= scenesFlag->size();) {
      const std::size_t comma = std::min(scenesFlag->find(',', start), scenesFlag->size());
      const std::string name = scenesFlag->substr(start, comma - start);
      if (std::ranges::find(names, name) == names.end()) names.push_back(name);
      start = comma + 1;
    }
  }
  for (const BenchScene& scene : benchScenes()) {
    if (!sceneChosen(names, scene.name)) continue;
    checkSceneParams(scene.scene, params);
    rigid.push_back(scene);
    for (const auto& [key, value] : params) rigid.back().params[key] = value;
  }
  for (const std::string& name : names) {
    if (std::ranges::any_of(benchScenes(), [&](const BenchScene& s) { return s.name == name; })) continue;
    const std::string known = benchSceneNames();
    if (!findBuiltinScene(name))
      throw UsageError("--scenes: unknown scene \"" + name + "\" (benchmark scenes: " + known +
                       "; or a built-in scene with deformable bodies, see contactlab-cli list)");
    checkSceneParams(name, params);
    Scene scene = buildBuiltinScene(name, params, kDefaultSeed);
    if (!hasDeformableBodies(scene))
      throw UsageError("--scenes: scene \"" + name + "\" has no deformable bodies (the rigid benchmark scenes are " +
                       known + ")");
    deformable.push_back({name, params, std::move(scene), options->warmup.value_or(deformableBenchWarmup(name)),
                          options->steps.value_or(deformableBenchSteps(name))});
  }

  std::printf("threads: %d", threads);
  if (!params.empty()) {
    std::printf(", params:");
    for (const auto& [key, value] : params) std::printf(" %s=%g", key.c_str(), value);
  }
  if (!deformable.empty() && !(deformableSettings == DeformableSolverSettings{}))
    std::printf(", deformable solve: epsilon_1 %g, epsilon_2 %g m, at most %d iterations", deformableSettings.relativeTolerance,
                deformableSettings.absoluteTolerance, deformableSettings.maxIterations);
  std::printf("\n");
  std::vector<BenchRow> rows;
  if (!rigid.empty()) printHeader();
  for (const BenchScene& scene : rigid) {
    for (const WorldSettings& settings : benchSettings(threads, sleep)) {
      rows.push_back(measure(scene, settings, options->warmupFor(scene), options->stepsFor(scene)));
      printRow(rows.back());
    }
  }
  std::vector<DeformableBenchRow> deformableRows;
  if (!deformable.empty()) {
    if (!rigid.empty()) std::printf("\n");
    printDeformableHeader();
  }
  for (const DeformableBenchScene& scene : deformable) {
    for (const std::string& solver : deformableSolvers) {
      WorldSettings settings;
      settings.threads = threads;
      settings.sleep = sleep;
      settings.deformable = deformableSettings;
      settings.deformable.solver = solver;
      deformableRows.push_back(measureDeformable(scene, settings));
      printDeformableRow(deformableRows.back());
    }
  }
  if (!options->csv.empty()) {
    if (!rigid.empty()) writeCsv(options->csv, rows);
    if (!deformable.empty())
      writeDeformableCsv(rigid.empty() ? options->csv : deformableCsvPath(options->csv), deformableRows);
  }
  return 0;
}

}  // namespace contactlab::cli
