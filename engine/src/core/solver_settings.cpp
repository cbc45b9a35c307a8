#include "contactlab/solver_settings.h"

namespace contactlab {

SolverSettings problemFileSolveDefaults() {
  SolverSettings settings;
  settings.solver = "prox-gs";
  settings.prox.rFactor = RFactorStrategy::Local;
  settings.tolAbs = 1e-8;
  settings.tolRel = 0.0;  // a problem file is solved to its tolerance, not to a stall
  settings.stallWindow = 0;
  settings.naturalMapTolerance = 1e-8;
  settings.maxIterations = 10000;
  return settings;
}

}  // namespace contactlab
