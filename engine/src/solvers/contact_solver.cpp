#include "solvers/contact_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/ffd_impulse_decomposition.h"
#include "solvers/modulus_gauss_seidel.h"
#include "solvers/pgs.h"
#include "solvers/pgs_subspace_min.h"
#include "solvers/prox/prox_gauss_seidel.h"
#include "solvers/prox/prox_jacobi.h"

#include <stdexcept>

namespace contactlab {

SolveReport ContactSolver::solve(const DelassusProblem&, const SolverSettings&, Eigen::VectorXd&) {
  throw std::invalid_argument((name_.empty() ? std::string("this solver") : name_) +
                              " needs bodies: it works on the body-space problem (J, M^-1), not on a "
                              "Delassus matrix W alone");
}

// One line per solver.
const std::vector<SolverEntry>& solverRegistry() {
  static const std::vector<SolverEntry> registry{
      {"prox-gs", "PROX Gauss-Seidel, Coulomb-Contensou ellipsoid (PROX paper Alg. 2)",
       [] { return std::make_unique<ProxGaussSeidel>(); }, true},
      {"prox-jacobi", "PROX Jacobi, Coulomb-Contensou ellipsoid (PROX paper Alg. 1)",
       [] { return std::make_unique<ProxJacobi>(); }, true},
      {"pgs", "Projected Gauss-Seidel, box friction (PROX with fixed Local r = 1/A_ii, PROX paper sec. 4.2)",
       [] { return std::make_unique<ProjectedGaussSeidel>(false); }},
      {"psor", "Projected SOR, box friction (r = omega/A_ii, PROX paper sec. 4.2)",
       [] { return std::make_unique<ProjectedGaussSeidel>(true); }},
      {"pgs-sm", "PGS with subspace minimization, box friction (Silcowitz, Niebe, Erleben 2010)",
       [] { return std::make_unique<PgsSubspaceMinimization>(); }},
      {"modulus-gs", "Accelerated modulus-based Gauss-Seidel, box friction (Miyamoto-Yamashita Methods 3.1-3.2)",
       [] { return std::make_unique<ModulusGaussSeidel>(); }},
      {"ffd", "Fast frictional dynamics: per-body projection, split by projection (FFD-ID paper eq. 7, 9); gains energy on brick stacks (docs/solvers.md)",
       [] { return std::make_unique<FastFrictionalDynamics>(FfdVariant::Projection); }},
      {"ffd-id", "FFD with impulse decomposition: least-squares split, per-contact friction (eq. 11-22)",
       [] { return std::make_unique<FastFrictionalDynamics>(FfdVariant::ImpulseDecomposition); }},
  };
  return registry;
}

bool stalled(int window, std::span<const double> merits) {
  if (window <= 0 || merits.size() <= static_cast<std::size_t>(window)) return false;
  // The least merit of a range, a NaN (a rolled-back sweep) counting as none.
  const auto least = [](auto begin, auto end) {
    double value = std::numeric_limits<double>::infinity();
    for (auto it = begin; it != end; ++it) value = std::min(value, std::isnan(*it) ? value : *it);
    return value;
  };
  const auto split = merits.end() - window;
  return !(least(split, merits.end()) < 0.5 * least(merits.begin(), split));
}

Convergence stoppingTest(const SolverSettings& settings, std::span<const double> merits) {
  if (merits.empty()) return Convergence::None;
  const std::size_t count = merits.size();
  const double merit = merits.back();
  if (settings.tolAbs > 0.0 && merit < settings.tolAbs) return Convergence::Absolute;
  if (settings.tolRel > 0.0 && count >= 2 && std::isfinite(merits[count - 2]) &&
      std::abs(merits[count - 2] - merit) < settings.tolRel * merits[count - 2])
    return Convergence::Relative;
  if (stalled(settings.stallWindow, merits)) return Convergence::Stalled;
  return Convergence::None;
}

std::unique_ptr<ContactSolver> makeSolver(const std::string& name) {
  for (const SolverEntry& entry : solverRegistry())
    if (entry.name == name) {
      std::unique_ptr<ContactSolver> solver = entry.make();
      solver->setName(entry.name);
      return solver;
    }
  return nullptr;
}

std::vector<SolverDescription> solverNames() {
  std::vector<SolverDescription> names;
  for (const SolverEntry& entry : solverRegistry()) names.push_back({entry.name, entry.summary, entry.usesRFactor});
  return names;
}

}  // namespace contactlab
