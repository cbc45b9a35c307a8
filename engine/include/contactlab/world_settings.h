#pragma once
// Settings of a World: the contact solve and what the step does around it. The same struct drives
// the CLI flags, the app's panel and the tests; docs/solvers.md ("Settings") says why each default.
#include "contactlab/solver_settings.h"

namespace contactlab {

struct WorldSettings {
  SolverSettings solver;
  DeformableSolverSettings deformable;  // the deformable bodies' solve (cr-full or cr-diag)
  int threads = 1;                 // threads a step runs on (>= 1); results are bit-identical for any count
  int kdop = 14;                   // k of the kDOPs in the mesh bodies' trees: 14, 18 or 26
  bool warmStart = true;           // start each solve from the previous step's impulses of the same contacts
  bool stabilize = true;           // post-stabilization after the step, PROX paper sec. 4.4
  bool computeNaturalMap = false;  // report SolveReport::naturalMapResidual after each solve (costs a W product)
  bool sleep = false;              // islands at rest sleep until touched (dynamics/sleeping.h)

  bool operator==(const WorldSettings&) const = default;
};

// What `contactlab-cli run` and the app start from: the defaults with sleeping on, as other engines
// have it; `bench`, `study` and the engine itself keep it off so that their figures are the solver's.
inline WorldSettings interactiveSettings() {
  WorldSettings settings;
  settings.sleep = true;
  return settings;
}

}  // namespace contactlab
