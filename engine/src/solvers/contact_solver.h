#pragma once
// The one interface every contact solver implements, and the registry that lists them (the GUI combo
// box, the CLI's --solver and the tests all enumerate solverRegistry()).
#include <functional>
#include <memory>
#include <span>
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

// The stopping test the solvers share, after each sweep; `merits` holds the merits of the sweeps
// since the solve began (or since a solver's restart: a roll-back, a replaced iterate), the last
// one this sweep's. In this order:
// - Absolute when the last merit is below tolAbs;
// - Relative (the PROX paper's test) when it moved by less than tolRel times the merit before it;
// - Stalled when the least merit of the last stallWindow sweeps is not below half the least merit
//   of the sweeps before them;
// None otherwise; a tolerance or window of 0 never stops.
// Why the stall test: Gauss-Seidel on a resting stack converges by a few per cent in fifty sweeps,
// and the merit, the largest change of one sweep, ties between two sweeps by chance long before the
// stack is solved; the paper's relative test then stopped at 1e-3 m/s, and a 20-row pyramid crept
// 3 cm a minute. A tolAbs of 1e-5 m/s holds it, and a stalled solve (a landing heap, whose merit
// stops falling at 1e-3 to 1e-2 while contacts come and go) stops after the window instead of at the
// sweep cap. docs/benchmarks.md, "The defaults", has the figures.
Convergence stoppingTest(const SolverSettings& settings, std::span<const double> merits);
// stoppingTest's stall test alone, for a solver that tests its tolerances its own way (PGS-SM).
bool stalled(int window, std::span<const double> merits);

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
