// contactlab-bench-bullet: the benchmark scenes in contactlab (PROX-GS at exactly 10 sweeps, and at the
// defaults a user gets with no flags) and in Bullet 3.24 (sequential impulse, 10 iterations) side by
// side in one process (DESIGN.md "Benchmarks", issues 5 and 31). Each scene is built once from the
// built-in registry; the engines step it from the same start, alternately, round after round, so
// that the machine's load falls on all alike.
#include <LinearMath/btScalar.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_scenes.h"
#include "bullet_scene.h"
#include "contactlab/world.h"

namespace contactlab::bench {
namespace {

using cli::BenchOptions;
using cli::BenchScene;
using cli::UsageError;

constexpr int kDefaultRounds = 3;
constexpr double kStandsWithin = 0.05;  // m

constexpr const char* kHelp =
    "usage: contactlab-bench-bullet [flags]\n"
    "\n"
    "Runs each benchmark scene (wall, tower, pyramid rows=20, pyramid-touching: the same with gap=0, pile\n"
    "count=2000, jacks) in contactlab with PROX-GS at exactly 10 sweeps (tolerances 0) and at its defaults\n"
    "(what `contactlab-cli run` does with no flags, sleeping off), and in Bullet 3.24\n"
    "(btDiscreteDynamicsWorld, sequential impulse, 10 iterations, one thread, deactivation off), alternately:\n"
    "each contactlab setting's warm-up and timed steps, then Bullet's, for each round. Prints per scene and\n"
    "contactlab setting (each against the same Bullet runs): bodies; mean contacts per timed step (Bullet:\n"
    "manifold points); the median over the rounds of each engine's median ms/step and their ratio; the\n"
    "largest penetration over the timed steps; the mean residual (contactlab: its merit in m/s; Bullet: the\n"
    "root of its last iteration's squared impulse changes, N s); the drift, the largest distance a dynamic\n"
    "body's centre moved over the timed steps (on the stacks, their creep); and, against the scene's start,\n"
    "the largest distance one moved. Flags take their value as the next argument or after '='.\n"
    "\n"
    "  --scenes a,b     scenes to run (default: wall,tower,pyramid,pyramid-touching,pile,jacks)\n"
    "  --warmup N       untimed steps before timing (default: 100, the pile and jacks 150)\n"
    "  --steps N        timed steps (default: 200, the pile and jacks 20)\n"
    "  --rounds N       rounds of contactlab then Bullet (default: 3)\n"
    "  --csv FILE       also write the table as CSV\n"
    "  --help           show this help\n";

// One engine's run of one scene in one round.
struct EngineRun {
  std::vector<double> stepMs;   // every timed step
  double meanContacts = 0.0;    // over the timed steps
  double maxPenetration = 0.0;  // m, over the timed steps
  double meanResidual = 0.0;    // over the timed steps, in the engine's own measure
  double drift = 0.0;           // m: cli::DriftMeter over the timed steps
  double maxMove = 0.0;         // m: the largest distance a dynamic body's centre moved from its start
};

// What an engine reports after a step.
struct StepReport {
  double contacts = 0.0, penetration = 0.0, residual = 0.0;
};

// The parts of an engine that a run needs.
struct Engine {
  std::function<void()> step;
  std::function<StepReport()> report;
  std::function<Vec3(int body)> position;
};

EngineRun run(const Scene& scene, const Engine& engine, int warmup, int steps) {
  for (int i = 0; i < warmup; ++i) engine.step();
  EngineRun result;
  const std::vector<int> dynamic = cli::dynamicBodies(scene);
  cli::DriftMeter drift(dynamic);
  drift.begin(engine.position);
  for (int i = 0; i < steps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    engine.step();
    result.stepMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    const StepReport report = engine.report();
    result.meanContacts += report.contacts / steps;
    result.meanResidual += report.residual / steps;
    result.maxPenetration = std::max(result.maxPenetration, report.penetration);
    drift.observe(engine.position);
  }
  result.drift = drift.largest();
  for (const int i : dynamic)
    result.maxMove = std::max(result.maxMove, (engine.position(i) - scene.bodies[i].position).norm());
  return result;
}

// contactlab's settings in the comparison: the 10-sweep budget, and the defaults.
struct OurSetting {
  const char* name;
  WorldSettings settings;
};
std::vector<OurSetting> ourSettings() { return {{"10 sweeps", cli::tenSweepSettings()}, {"defaults", WorldSettings{}}}; }

EngineRun runContactlab(const Scene& scene, const WorldSettings& settings, int warmup, int steps) {
  World world(scene, settings);
  const Engine engine{
      [&] { world.step(); },
      [&] {
        const StepMetrics& m = world.lastMetrics();
        return StepReport{static_cast<double>(m.contacts), m.maxPenetration, m.solve.residual};
      },
      [&](int body) { return world.bodies()[body].position; }};
  return run(scene, engine, warmup, steps);
}

EngineRun runBullet(const Scene& scene, int warmup, int steps) {
  BulletScene bullet(scene, 10);
  const Engine engine{
      [&] { bullet.step(); },
      [&] {
        const BulletContacts c = bullet.contacts();
        return StepReport{static_cast<double>(c.points), c.maxPenetration, bullet.lastResidual()};
      },
      [&](int body) { return bulletPosition(bullet.body(body)); }};
  return run(scene, engine, warmup, steps);
}

struct SceneRow {
  std::string scene;
  std::string setting;  // contactlab's, OurSetting::name
  int bodies = 0;
  std::vector<double> roundMsOurs, roundMsBullet;  // each round's median ms/step
  EngineRun ours, bullet;                          // the last round (both engines are deterministic)
  double msOurs() const { return cli::lowerMedian(roundMsOurs); }
  double msBullet() const { return cli::lowerMedian(roundMsBullet); }
};

// One row per contactlab setting, each against the same Bullet runs.
std::vector<SceneRow> measure(const BenchScene& benchScene, int warmup, int steps, int rounds) {
  const Scene scene = buildBuiltinScene(benchScene.scene, benchScene.params, cli::kDefaultSeed);
  const std::vector<OurSetting> settings = ourSettings();
  std::vector<SceneRow> rows(settings.size());
  for (std::size_t s = 0; s < settings.size(); ++s) {
    rows[s].scene = benchScene.name;
    rows[s].setting = settings[s].name;
    rows[s].bodies = static_cast<int>(scene.bodies.size());
  }
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t s = 0; s < settings.size(); ++s) {
      rows[s].ours = runContactlab(scene, settings[s].settings, warmup, steps);
      rows[s].roundMsOurs.push_back(cli::lowerMedian(rows[s].ours.stepMs));
    }
    const EngineRun bullet = runBullet(scene, warmup, steps);
    for (SceneRow& row : rows) {
      row.bullet = bullet;
      row.roundMsBullet.push_back(cli::lowerMedian(bullet.stepMs));
    }
  }
  return rows;
}

void printHeader() {
  std::printf("%-16s %-9s %6s %8s %8s %8s %8s %6s %8s %8s %9s %9s %8s %8s %8s %8s\n", "", "", "", "contacts", "",
              "ms/step", "", "ratio", "pen mm", "", "residual", "", "drift mm", "", "move mm", "");
  std::printf("%-16s %-9s %6s %8s %8s %8s %8s %6s %8s %8s %9s %9s %8s %8s %8s %8s\n", "scene", "ours at", "bodies",
              "ours", "bullet", "ours", "bullet", "o/b", "ours", "bullet", "ours m/s", "bullet Ns", "ours", "bullet",
              "ours", "bullet");
}

std::string roundList(const std::vector<double>& ms) {
  std::string text;
  char buffer[32];
  for (double value : ms) {
    std::snprintf(buffer, sizeof buffer, "%s%.3f", text.empty() ? "" : " ", value);
    text += buffer;
  }
  return text;
}

void printRow(const SceneRow& row) {
  const EngineRun &o = row.ours, &b = row.bullet;
  std::printf("%-16s %-9s %6d %8.1f %8.1f %8.3f %8.3f %6.2f %8.2f %8.2f %9.2e %9.2e %8.2f %8.2f %8.1f %8.1f\n",
              row.scene.c_str(), row.setting.c_str(), row.bodies, o.meanContacts, b.meanContacts, row.msOurs(),
              row.msBullet(), row.msOurs() / row.msBullet(), 1e3 * o.maxPenetration, 1e3 * b.maxPenetration,
              o.meanResidual, b.meanResidual, 1e3 * o.drift, 1e3 * b.drift, 1e3 * o.maxMove, 1e3 * b.maxMove);
  std::printf("                 rounds' ms/step: ours %s; bullet %s\n", roundList(row.roundMsOurs).c_str(),
              roundList(row.roundMsBullet).c_str());
  // The stacks start at rest in equilibrium: a body that moved more than 5 cm means it fell.
  for (const auto& [engine, run] : {std::pair{"contactlab", &o}, std::pair{"Bullet", &b}})
    if (row.scene != "pile" && row.scene != "jacks" && run->maxMove > kStandsWithin)
      std::printf("                 note: in %s a body of the %s moved %.2f m: the structure did not stand\n", engine,
                  row.scene.c_str(), run->maxMove);
  std::fflush(stdout);  // rows arrive slowly; show each as soon as it is measured
}

void writeCsv(const std::string& path, const std::vector<SceneRow>& rows, int rounds) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "scene,setting_ours,bodies,rounds,timed_steps,mean_contacts_ours,mean_contacts_bullet,median_step_ms_ours,"
         "median_step_ms_bullet,ratio_ours_over_bullet,max_penetration_ours,max_penetration_bullet,"
         "mean_residual_ours,mean_residual_bullet,drift_ours,drift_bullet,max_move_ours,max_move_bullet,"
         "round_step_ms_ours,round_step_ms_bullet\n";
  out.precision(17);
  for (const SceneRow& r : rows) {
    out << r.scene << ',' << r.setting << ',' << r.bodies << ',' << rounds << ',' << r.ours.stepMs.size() << ',' << r.ours.meanContacts
        << ',' << r.bullet.meanContacts << ',' << r.msOurs() << ',' << r.msBullet() << ','
        << r.msOurs() / r.msBullet() << ',' << r.ours.maxPenetration << ',' << r.bullet.maxPenetration << ','
        << r.ours.meanResidual << ',' << r.bullet.meanResidual << ',' << r.ours.drift << ',' << r.bullet.drift
        << ',' << r.ours.maxMove << ',' << r.bullet.maxMove << ',' << roundList(r.roundMsOurs) << ','
        << roundList(r.roundMsBullet) << '\n';
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

int benchBullet(cli::Args args) {
  int rounds = kDefaultRounds;
  constexpr std::string_view kOwnFlags[] = {"--rounds"};
  const std::optional<BenchOptions> options =
      cli::parseBenchFlags(args, "", kHelp, kOwnFlags,
                           [&](std::string_view flag, std::string_view value) { rounds = cli::countFlag(flag, value, 1); });
  if (!options) return 0;  // --help
  std::printf("Bullet %d.%02d (%s precision) at 10 iterations against contactlab PROX-GS at 10 sweeps and at its "
              "defaults; %d round(s)\n",
              btGetVersion() / 100, btGetVersion() % 100, sizeof(btScalar) == 8 ? "double" : "single", rounds);
  printHeader();
  std::vector<SceneRow> rows;
  for (const BenchScene& scene : cli::benchScenes()) {
    if (!cli::sceneChosen(options->scenes, scene.name)) continue;
    for (const SceneRow& row : measure(scene, options->warmupFor(scene), options->stepsFor(scene), rounds)) {
      rows.push_back(row);
      printRow(row);
    }
  }
  if (!options->csv.empty()) writeCsv(options->csv, rows, rounds);
  return 0;
}

}  // namespace
}  // namespace contactlab::bench

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return contactlab::bench::benchBullet(args);
  } catch (const contactlab::cli::UsageError& e) {
    std::cerr << "contactlab-bench-bullet: " << e.what() << " (see contactlab-bench-bullet --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "contactlab-bench-bullet: error: " << e.what() << "\n";
    return 1;
  }
}
