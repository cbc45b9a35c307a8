#include "dynamics/island_solve.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/thread_pool.h"

namespace contactlab {
namespace {

// Islands with at least this many contacts are solved one at a time with the pool for their own
// sweeps (PROX Gauss-Seidel splits a problem in two from this size, ProxGaussSeidel::kSplitFromContacts;
// PROX Jacobi sweeps in parallel at any size); smaller ones gain more from running side by side.
constexpr int kLargeIsland = 16384;

Convergence worse(Convergence a, Convergence b) {
  const auto rank = [](Convergence c) { return c == Convergence::None ? 0 : c == Convergence::Absolute ? 2 : 1; };
  return rank(a) <= rank(b) ? a : b;
}

// The whole problem's merit from its islands' (joinReports).
class MeritSum {
 public:
  explicit MeritSum(ContactSolver::MeritOfParts kind) : kind_(kind) {}
  void add(double merit) {
    if (std::isnan(merit)) total_ = merit;  // std::max would drop it
    else if (kind_ == ContactSolver::MeritOfParts::Largest) total_ = std::max(total_, merit);
    else if (kind_ == ContactSolver::MeritOfParts::Sum) total_ += merit;
    else total_ += merit * merit;
  }
  double total() const { return kind_ == ContactSolver::MeritOfParts::RootSumOfSquares ? std::sqrt(total_) : total_; }

 private:
  ContactSolver::MeritOfParts kind_;
  double total_ = 0.0;
};

}  // namespace

SolveReport joinReports(const std::vector<const SolveReport*>& reports, const std::vector<int>& contactCounts,
                        ContactSolver::MeritOfParts merit) {
  if (reports.empty()) return emptyProblemReport();
  if (reports.size() == 1) {
    SolveReport only = *reports.front();
    only.contactSweeps = static_cast<double>(contactCounts.front()) * only.iterations;
    return only;
  }
  std::size_t largest = 0;
  for (std::size_t i = 1; i < reports.size(); ++i)
    if (contactCounts[i] > contactCounts[largest]) largest = i;
  SolveReport joined = *reports[largest];
  joined.contactSweeps = 0.0;
  for (std::size_t i = 0; i < reports.size(); ++i)
    joined.contactSweeps += static_cast<double>(contactCounts[i]) * reports[i]->iterations;
  joined.iterations = 0;
  joined.rollbacks = 0;
  joined.convergence = Convergence::Absolute;
  joined.seconds = 0.0;
  joined.iterationSeconds = 0.0;
  MeritSum residual(merit);
  std::size_t longest = 0;
  for (const SolveReport* report : reports) {
    joined.iterations = std::max(joined.iterations, report->iterations);
    joined.rollbacks += report->rollbacks;
    joined.convergence = worse(joined.convergence, report->convergence);
    residual.add(report->residual);
    joined.seconds += report->seconds;
    joined.iterationSeconds += report->iterationSeconds;
    longest = std::max(longest, report->residualHistory.size());
  }
  joined.residual = residual.total();
  joined.residualHistory.assign(longest, 0.0);
  for (std::size_t k = 0; k < longest; ++k) {
    MeritSum afterSweep(merit);
    for (const SolveReport* report : reports) {
      const std::vector<double>& history = report->residualHistory;
      afterSweep.add(k < history.size() ? history[k] : report->residual);
    }
    joined.residualHistory[k] = afterSweep.total();
  }
  if (!joined.rFactorHistory.empty()) joined.rFactorHistory.resize(longest, joined.rFactorHistory.back());
  return joined;
}

std::unique_ptr<ContactSolver> IslandSolve::makeNamedSolver() const {
  std::unique_ptr<ContactSolver> solver = makeSolver(solverName_);
  if (!solver) throw std::invalid_argument("unknown solver \"" + solverName_ + "\"");
  solver->setThreadPool(pool_);
  return solver;
}

void IslandSolve::setSolver(const std::string& name) {
  if (name == solverName_ && !solved_.empty()) return;
  const std::string previous = solverName_;
  solverName_ = name;
  try {
    std::unique_ptr<ContactSolver> first = makeNamedSolver();
    solved_.clear();
    solved_.emplace_back().solver = std::move(first);
  } catch (...) {
    solverName_ = previous;
    throw;
  }
}

void IslandSolve::setThreadPool(ThreadPool* pool) {
  pool_ = pool;
  for (SolvedIsland& solved : solved_)
    if (solved.solver) solved.solver->setThreadPool(pool);
}

void IslandSolve::solveOne(SolvedIsland& solved, const ContactProblem& whole, const SolverSettings& settings) {
  islands_.extractProblem(whole, solved.island, solved.problem);
  solved.report = solved.solver->solve(solved.problem, settings, solved.lambda);
}

SolveReport IslandSolve::solve(const ContactProblem& problem, const SolverSettings& settings, Eigen::VectorXd& lambda) {
  islands_.find(problem);
  solvedCount_ = 0;
  whole_ = false;
  for (int island = 0; island < islands_.count(); ++island) {
    if (islands_.contacts(island).empty()) continue;
    if (solvedCount_ == static_cast<int>(solved_.size())) solved_.emplace_back();
    SolvedIsland& solved = solved_[solvedCount_++];
    solved.island = island;
    if (!solved.solver) solved.solver = makeNamedSolver();
  }
  if (solvedCount_ == 0) return emptyProblemReport();

  // An island that is the whole problem (a heap at rest) is solved in place: no copy, and the very
  // problem a copy would have been.
  whole_ = solvedCount_ == 1 && islands_.isWhole(problem, solved_[0].island);
  if (whole_) {
    solved_[0].report = solved_[0].solver->solve(problem, settings, lambda);
    solved_[0].report.contactSweeps = static_cast<double>(problem.numContacts()) * solved_[0].report.iterations;
    return solved_[0].report;
  }

  // Warm starts in, per island in its contacts' order.
  for (int i = 0; i < solvedCount_; ++i) {
    SolvedIsland& solved = solved_[i];
    const auto contacts = islands_.contacts(solved.island);
    solved.lambda.resize(4 * static_cast<Eigen::Index>(contacts.size()));
    for (std::size_t k = 0; k < contacts.size(); ++k) solved.lambda.segment<4>(4 * k) = lambda.segment<4>(4 * contacts[k]);
  }
  smallIslands_.clear();
  for (int i = 0; i < solvedCount_; ++i) {
    if (islands_.contacts(solved_[i].island).size() >= static_cast<std::size_t>(kLargeIsland)) solveOne(solved_[i], problem, settings);
    else smallIslands_.push_back(i);
  }
  parallelFor(pool_, static_cast<int>(smallIslands_.size()), 1, [&](int begin, int end, int) {
    for (int s = begin; s < end; ++s) solveOne(solved_[smallIslands_[s]], problem, settings);
  });

  reports_.clear();
  contactCounts_.clear();
  for (int i = 0; i < solvedCount_; ++i) {
    const SolvedIsland& solved = solved_[i];
    const auto contacts = islands_.contacts(solved.island);
    for (std::size_t k = 0; k < contacts.size(); ++k) lambda.segment<4>(4 * contacts[k]) = solved.lambda.segment<4>(4 * k);
    reports_.push_back(&solved.report);
    contactCounts_.push_back(static_cast<int>(contacts.size()));
  }
  return joinReports(reports_, contactCounts_, solved_[0].solver->meritOfParts());
}

const Eigen::VectorXd& IslandSolve::contactResponse(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  if (whole_) {
    if (const Eigen::VectorXd* kept = solved_[0].solver->bodySpaceResponse()) return *kept;
    slotContacts_.build(problem);
    applyInvMassJt(problem, slotContacts_, lambda, response_, pool_);
    return response_;
  }
  response_.setZero(6 * problem.numSlots);
  parallelFor(pool_, solvedCount_, 1, [&](int begin, int end, int) {
    Eigen::VectorXd own;
    for (int i = begin; i < end; ++i) {
      SolvedIsland& solved = solved_[i];
      const Eigen::VectorXd* islandResponse = solved.solver->bodySpaceResponse();
      if (!islandResponse) {
        applyInvMassJt(solved.problem, solved.lambda, own);
        islandResponse = &own;
      }
      const auto slots = islands_.slots(solved.island);
      for (std::size_t s = 0; s < slots.size(); ++s) response_.segment<6>(6 * slots[s]) = islandResponse->segment<6>(6 * s);
    }
  });
  return response_;
}

}  // namespace contactlab
