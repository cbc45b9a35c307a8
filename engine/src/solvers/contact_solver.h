#pragma once
// The one interface every contact solver implements, and the registry that lists them (the GUI combo
// box, the CLI's --solver and the tests all enumerate solverRegistry()).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contactlab/metrics.h"
#include "contactlab/solver_settings.h"
#include "problem/contact_problem.h"
#include "problem/delassus_problem.h"
#include "problem/natural_map.h"

namespace contactlab {

class ContactSolver {
 public:
  virtual ~ContactSolver() = default;
  // Solves for the contact impulses. `lambda` (4 per contact: n, t, s, tau) holds the warm start on
  // entry and the solution on exit.
  virtual SolveReport solve(const ContactProblem& problem, const SolverSettings& settings,
                            Eigen::VectorXd& lambda) = 0;
  // The same for a problem given only by W, q and mu (a Siconos file, delassus_problem.h), for
  // solvers that need no bodies; also fills SolveReport::naturalMapResidual. The default throws
  // std::invalid_argument naming the solver.
  virtual SolveReport solve(const DelassusProblem& problem, const SolverSettings& settings, Eigen::VectorXd& lambda);
  virtual bool acceptsDelassus() const { return false; }
  // How the merits of independent parts of a problem (its islands) make the whole problem's merit:
  // that of most solvers is a largest value over contacts, PGS-SM's a half sum of squares,
  // modulus-GS's a Euclidean norm.
  enum class MeritOfParts { Largest, Sum, RootSumOfSquares };
  virtual MeritOfParts meritOfParts() const { return MeritOfParts::Largest; }
  // M^-1 J^T lambda (6 per dynamic-body slot, as applyInvMassJt; possibly followed by more entries)
  // for the lambda that the last solve of a problem with contacts returned, when the solver kept it
  // while solving; null when it did not. It equals applyInvMassJt's result up to rounding (the
  // solver summed it update by update), so the caller need not form it again.
  virtual const Eigen::VectorXd* bodySpaceResponse() const { return nullptr; }
  // The registry name, for messages (set by makeSolver and the registry's makers).
  const std::string& name() const { return name_; }
  void setName(std::string name) { name_ = std::move(name); }
  // Where solvers with a parallel sweep run it (docs/threads.md); null (the default) runs it on
  // the calling thread. The pool belongs to the caller (the World) and must outlive the solves.
  void setThreadPool(ThreadPool* pool) { threadPool_ = pool; }

 protected:
  ThreadPool* threadPool() const { return threadPool_; }
  // What every Delassus solve does around the solve proper: `lambda` made the problem's size (zero
  // when it is not: no warm start), then SolveReport::naturalMapResidual of the result.
  template <class Solve>
  static SolveReport solveWithNaturalMap(const DelassusProblem& problem, Eigen::VectorXd& lambda, Solve&& solve) {
    if (lambda.size() != problem.numRows()) lambda.setZero(problem.numRows());
    SolveReport report = solve();
    report.naturalMapResidual = naturalMapResidual(problem, lambda);
    return report;
  }

 private:
  std::string name_;
  ThreadPool* threadPool_ = nullptr;
};

// The stopping test the solvers share, after a sweep whose merit is `merit` (`previousMerit` after
// the sweep before; infinity before the first): Absolute when merit < tolAbs, Relative when the
// merit moved by less than tolRel times the previous one, None otherwise; a tolerance of 0 never stops.
Convergence stoppingTest(const SolverSettings& settings, double previousMerit, double merit);

// What every solver reports for a problem without contacts: nothing to solve, converged at once.
inline SolveReport emptyProblemReport() {
  SolveReport report;
  report.convergence = Convergence::Absolute;
  return report;
}

struct SolverEntry {
  std::string name;
  std::string summary;
  std::function<std::unique_ptr<ContactSolver>()> make;
  bool usesRFactor = false;  // whether SolverSettings::rFactor changes it (the PROX solvers)
};

const std::vector<SolverEntry>& solverRegistry();
// nullptr when no solver has that name.
std::unique_ptr<ContactSolver> makeSolver(const std::string& name);

}  // namespace contactlab
