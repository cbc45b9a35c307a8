#include "solvers/contact_solver.h"

#include "solvers/ffd_impulse_decomposition.h"
#include "solvers/prox/prox_gauss_seidel.h"
#include "solvers/prox/prox_jacobi.h"

namespace contactlab {

// One line per solver.
const std::vector<SolverEntry>& solverRegistry() {
  static const std::vector<SolverEntry> registry{
      {"prox-gs", "PROX Gauss-Seidel, Coulomb-Contensou ellipsoid (PROX paper Alg. 2)",
       [] { return std::make_unique<ProxGaussSeidel>(); }},
      {"prox-jacobi", "PROX Jacobi, Coulomb-Contensou ellipsoid (PROX paper Alg. 1)",
       [] { return std::make_unique<ProxJacobi>(); }},
      {"ffd", "Fast frictional dynamics: per-body projection, split by projection (FFD-ID paper eq. 7, 9)",
       [] { return std::make_unique<FastFrictionalDynamics>(FfdVariant::Projection); }},
      {"ffd-id", "FFD with impulse decomposition: least-squares split, per-contact friction (eq. 11-22)",
       [] { return std::make_unique<FastFrictionalDynamics>(FfdVariant::ImpulseDecomposition); }},
  };
  return registry;
}

std::unique_ptr<ContactSolver> makeSolver(const std::string& name) {
  for (const SolverEntry& entry : solverRegistry())
    if (entry.name == name) return entry.make();
  return nullptr;
}

std::vector<SolverDescription> solverNames() {
  std::vector<SolverDescription> names;
  for (const SolverEntry& entry : solverRegistry()) names.push_back({entry.name, entry.summary});
  return names;
}

}  // namespace contactlab
