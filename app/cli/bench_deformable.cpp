// `contactlab-cli bench` on scenes with deformable bodies (bench_deformable.h).
#include "bench_deformable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "args.h"
#include "bench_scenes.h"
#include "contactlab/solver_settings.h"
#include "contactlab/world.h"

// Named after the file, not anonymous: the CLI is compiled in unity batches.
namespace contactlab::cli::bench_deformable {

// "key=value key=value" (a CSV cell: no commas).
std::string paramsText(const SceneParams& params) {
  std::string text;
  char value[32];
  for (const auto& [key, number] : params) {
    std::snprintf(value, sizeof value, "%g", number);
    text += (text.empty() ? "" : " ") + key + "=" + value;
  }
  return text;
}

}  // namespace contactlab::cli::bench_deformable

namespace contactlab::cli {

int deformableBenchWarmup(const std::string& scene) {
  if (scene == "rings" || scene == "bunnies") return 500;
  if (scene == "soft-cubes") return 20;
  return 100;
}

int deformableBenchSteps(const std::string& scene) {
  if (scene == "rings" || scene == "bunnies") return 500;
  if (scene == "soft-cubes") return 40;
  return 200;
}

bool hasDeformableBodies(const Scene& scene) {
  return std::ranges::any_of(scene.bodies, [](const BodyDesc& body) { return body.deformable.has_value(); });
}

std::vector<std::string> deformableSolverList(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name(text.substr(start, comma - start));
    std::string known;
    bool found = false;
    for (const SolverDescription& s : deformableSolverNames()) {
      found = found || s.name == name;
      known += (known.empty() ? "" : ", ") + s.name;
    }
    if (!found) throw UsageError("--deformable-solvers: unknown deformable solver \"" + name + "\" (available: " + known + ")");
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
    start = comma + 1;
  }
  return names;
}

DeformableBenchRow measureDeformable(const DeformableBenchScene& bench, const WorldSettings& settings) {
  World world(bench.scene, settings);
  double deepest = 0.0;
  // A pile's thousand steps can take hours: every kProgressSteps steps a line on stderr says how far
  // the run is and how long its steps take.
  constexpr int kProgressSteps = 100;
  const int total = bench.warmup + bench.steps;
  const auto start = std::chrono::steady_clock::now();
  const auto progress = [&](int done) {
    if (done % kProgressSteps != 0 || done == total) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s %s: step %d of %d, %.3f s per step so far\n", bench.name.c_str(),
                 settings.deformable.solver.c_str(), done, total, seconds / done);
  };
  for (int step = 0; step < bench.warmup; ++step) {
    world.step();
    deepest = std::max(deepest, world.lastMetrics().maxPenetration);
    progress(step + 1);
  }

  DeformableBenchRow row{bench.name, bench_deformable::paramsText(bench.params), settings.deformable.solver,
                         settings.threads, bench.warmup, bench.steps, world.deformableBodyCount()};
  for (int i = 0; i < world.deformableBodyCount(); ++i)
    row.tetrahedra += static_cast<int>(world.deformableBody(i).tetrahedra.size());
  std::vector<double> stepS, collisionS, assemblyS, solveS, iterations, constraints, active, relinearizations, changes;
  for (int step = 0; step < bench.steps; ++step) {
    world.step();
    const StepMetrics& metrics = world.lastMetrics();
    stepS.push_back(1e-3 * metrics.stepMs);
    collisionS.push_back(1e-3 * metrics.ms(Stage::Collision));
    assemblyS.push_back(1e-3 * metrics.ms(Stage::Assembly));
    solveS.push_back(metrics.deformable.seconds);
    iterations.push_back(metrics.deformable.iterations);
    constraints.push_back(world.deformableConstraintCount());
    active.push_back(metrics.deformableConstraints);
    relinearizations.push_back(metrics.deformable.relinearizations);
    changes.push_back(metrics.deformable.activeSetChanges);
    deepest = std::max(deepest, metrics.maxPenetration);
    progress(bench.warmup + step + 1);
  }
  row.deepest = deepest;
  row.stepS = lowerMedian(stepS);
  row.collisionS = lowerMedian(collisionS);
  row.assemblyS = lowerMedian(assemblyS);
  row.solveS = lowerMedian(solveS);
  row.iterations = lowerMedian(iterations);
  row.constraints = lowerMedian(constraints);
  row.active = lowerMedian(active);
  row.relinearizations = lowerMedian(relinearizations);
  row.activeSetChanges = lowerMedian(changes);
  return row;
}

void printDeformableHeader() {
  std::printf("%-12s %-8s %6s %7s %6s %6s %9s %9s %9s %9s %7s %7s %7s %6s %7s %9s\n", "scene", "dsolver", "bodies",
              "tets", "warmup", "steps", "step_s", "coll_s", "asm_s", "solve_s", "iters", "constr", "active", "relin",
              "changes", "deepest");
}

void printDeformableRow(const DeformableBenchRow& row) {
  std::printf("%-12s %-8s %6d %7d %6d %6d %9.5f %9.5f %9.5f %9.5f %7.0f %7.0f %7.0f %6.0f %7.0f %9.2e\n",
              row.scene.c_str(), row.solver.c_str(), row.bodies, row.tetrahedra, row.warmup, row.steps, row.stepS,
              row.collisionS, row.assemblyS, row.solveS, row.iterations, row.constraints, row.active,
              row.relinearizations, row.activeSetChanges, row.deepest);
  std::fflush(stdout);  // rows arrive slowly; show each as soon as it is measured
}

void writeDeformableCsv(const std::string& path, const std::vector<DeformableBenchRow>& rows) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "scene,params,deformable_solver,threads,warmup,steps,deformable_bodies,tetrahedra,median_step_s,"
         "median_collision_s,median_assembly_s,median_solve_s,median_cr_iterations,median_constraints,"
         "median_active_constraints,median_relinearizations,median_active_set_changes,deepest_penetration_m\n";
  out.precision(17);
  for (const DeformableBenchRow& row : rows)
    out << row.scene << ',' << row.params << ',' << row.solver << ',' << row.threads << ',' << row.warmup << ','
        << row.steps << ',' << row.bodies << ',' << row.tetrahedra << ',' << row.stepS << ',' << row.collisionS << ','
        << row.assemblyS << ',' << row.solveS << ',' << row.iterations << ',' << row.constraints << ',' << row.active
        << ',' << row.relinearizations << ',' << row.activeSetChanges << ',' << row.deepest << '\n';
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

}  // namespace contactlab::cli
