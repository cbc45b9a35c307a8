#pragma once
// `contactlab-cli bench` on scenes with deformable bodies (issue "Speed on Rings"): each scene is run
// once per deformable solver (cr-full, cr-diag), warm-up steps untimed, then the timed steps, and one
// row per scene and solver holds the medians over the timed steps of what StepMetrics reports.
#include <string>
#include <string_view>
#include <vector>

#include "contactlab/scene.h"
#include "contactlab/world_settings.h"

namespace contactlab::cli {

// A built-in scene with deformable bodies and the step counts it is timed with.
struct DeformableBenchScene {
  std::string name;
  SceneParams params;  // what --param set (the scene's defaults for the rest)
  Scene scene;         // built once; each solver's run starts from it
  int warmup = 0;
  int steps = 0;
};

// Default step counts for a deformable scene: the piles (rings, bunnies) 500 warm-up steps, by
// which they have landed, and 500 timed; soft-cubes 20 and 40 (their corners touch from step 4,
// the faces press hardest around steps 20-60); any other 100 and 200.
int deformableBenchWarmup(const std::string& scene);
int deformableBenchSteps(const std::string& scene);

bool hasDeformableBodies(const Scene& scene);

// "--deformable-solvers a,b": names from deformableSolverNames(); throws UsageError on any other.
std::vector<std::string> deformableSolverList(std::string_view text);

struct DeformableBenchRow {
  std::string scene, params, solver;  // params: "key=value;..." as --param gave them
  int threads = 1, warmup = 0, steps = 0;
  int bodies = 0;        // deformable bodies
  int tetrahedra = 0;    // of all of them
  // Medians over the timed steps (lower medians: values that were measured).
  double stepS = 0.0;        // StepMetrics::stepMs: the whole World::step
  double collisionS = 0.0;   // the Collision stage: the deformable collide stage (sec. 5.1) and the rigid one
  double assemblyS = 0.0;    // the Assembly stage: A = M + dt C + dt^2 K and b (eq. 4), and the rigid problem
  double solveS = 0.0;       // DeformableSolveReport::seconds: the CR solve (Alg. 1) with its re-linearizations
  double iterations = 0.0;   // CR iterations
  double constraints = 0.0;  // World::deformableConstraintCount(): all, active or not
  double active = 0.0;       // StepMetrics::deformableConstraints
  double relinearizations = 0.0;
  double activeSetChanges = 0.0;
  // The largest StepMetrics::maxPenetration over every step, warm-up included: the independent check
  // of surface vertices inside other bodies (metres).
  double deepest = 0.0;
};

DeformableBenchRow measureDeformable(const DeformableBenchScene& scene, const WorldSettings& settings);
void printDeformableHeader();
void printDeformableRow(const DeformableBenchRow& row);
void writeDeformableCsv(const std::string& path, const std::vector<DeformableBenchRow>& rows);

}  // namespace contactlab::cli
