#include "solvers/contact_solver.h"

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
       [] { return std::make_unique<ProxGaussSeidel>(); }},
      {"prox-jacobi", "PROX Jacobi, Coulomb-Contensou ellipsoid (PROX paper Alg. 1)",
       [] { return std::make_unique<ProxJacobi>(); }},
  };
  return registry;
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
  for (const SolverEntry& entry : solverRegistry()) names.push_back({entry.name, entry.summary});
  return names;
}

}  // namespace contactlab
