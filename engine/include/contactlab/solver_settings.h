#pragma once
// Settings of the contact solve; the same struct drives the CLI flags, the GUI panel and the tests.
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

// PROX paper sec. 4.2.
enum class RFactorStrategy { Global, Local, Blocked };
const char* rFactorName(RFactorStrategy s);
// Parses "global" | "local" | "blocked"; returns false on anything else.
bool parseRFactor(std::string_view text, RFactorStrategy& out);

struct SolverSettings {
  std::string solver = "prox-gs";  // a name from solverNames()
  RFactorStrategy rFactor = RFactorStrategy::Global;
  int maxIterations = 1000;  // sweeps, rolled-back sweeps included
  double tolAbs = 1e-3;      // 0 means never stop early on this test
  double tolRel = 1e-3;      // 0 means never stop early on this test
  bool warmStart = true;
  bool stabilize = false;  // post-stabilization, paper sec. 4.4
  // World: compute SolveReport::naturalMapResidual after every solve (costs a W product, so off).
  bool computeNaturalMap = false;
  // When > 0 (PROX solvers), convergence means the natural-map residual (solvers/natural_map.h)
  // below this: checked every ProxSolver::kNaturalMapCheckInterval sweeps and whenever tolAbs or
  // tolRel would stop, which then stop only if it holds too. `contactlab-cli solve` uses it: the
  // eq. 27 merit (the step length) is not the natural map, and can fall below a tolerance before it.
  double naturalMapTolerance = 0.0;
};

struct SolverDescription {
  std::string name;
  std::string summary;
};
// Every registered solver, in registry order: the GUI combo box, the CLI and the tests use this list.
std::vector<SolverDescription> solverNames();

}  // namespace contactlab
