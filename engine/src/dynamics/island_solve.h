#pragma once
// The contact solve of a step, island by island (islands.h): each island's problem goes to a solver
// of its own. Islands of many contacts are solved one after another, each with the thread pool for
// its own sweep; the others are spread over the pool, a whole island to a thread. Either way an
// island's result depends on its problem alone, so results are the same for any thread count.
#include <memory>
#include <string>
#include <vector>

#include "contactlab/metrics.h"
#include "contactlab/solver_settings.h"
#include "dynamics/islands.h"
#include "solvers/contact_solver.h"

namespace contactlab {

class ThreadPool;

class IslandSolve {
 public:
  // Solvers of this registry name from now on; throws std::invalid_argument for an unknown name.
  void setSolver(const std::string& name);
  void setThreadPool(ThreadPool* pool);

  // Finds the islands of `problem` and solves each; `lambda` (4 per contact) holds the warm start on
  // entry and the solution on exit. The report joins the islands' (see joinReports).
  SolveReport solve(const ContactProblem& problem, const SolverSettings& settings, Eigen::VectorXd& lambda);
  // M^-1 J^T lambda for the last solve, 6 per slot of its problem (zero for slots without contacts):
  // the islands' own, gathered from their solvers where they kept it while sweeping.
  const Eigen::VectorXd& contactResponse(const ContactProblem& problem, const Eigen::VectorXd& lambda);
  // The islands of the last solve.
  const ContactIslands& islands() const { return islands_; }

 private:
  struct SolvedIsland {
    int island = -1;              // index in islands_
    ContactProblem problem;       // its own problem (empty when it is the whole problem)
    Eigen::VectorXd lambda;       // 4 per contact of its problem
    std::unique_ptr<ContactSolver> solver;
    SolveReport report;
  };
  std::unique_ptr<ContactSolver> makeNamedSolver() const;
  void solveOne(SolvedIsland& solved, const ContactProblem& whole, const SolverSettings& settings);

  std::string solverName_;
  ThreadPool* pool_ = nullptr;
  ContactIslands islands_;
  std::vector<SolvedIsland> solved_;  // the islands with contacts, in island order (kept between steps)
  int solvedCount_ = 0;
  bool whole_ = false;  // the last solve had one island holding the whole problem
  std::vector<int> smallIslands_;                // solve's scratch: the islands solved side by side
  std::vector<const SolveReport*> reports_;      // solve's scratch: the islands' reports
  std::vector<int> contactCounts_;               // and their contact counts
  Eigen::VectorXd response_;
  SlotContacts slotContacts_;  // for gathering the whole problem's response per body
};

// One report for the step from its islands' reports: the most sweeps and the worst convergence of
// any island; roll-backs, seconds and contacts x sweeps summed; the merit, after every sweep and at
// the end, that of the whole problem (the islands' combined as `merit` says, an island that stopped
// counting with its final merit, a NaN in any island staying NaN); the r-factor history of the
// island with the most contacts, held at its last value after that island stopped.
SolveReport joinReports(const std::vector<const SolveReport*>& reports, const std::vector<int>& contactCounts,
                        ContactSolver::MeritOfParts merit = ContactSolver::MeritOfParts::Largest);

}  // namespace contactlab
