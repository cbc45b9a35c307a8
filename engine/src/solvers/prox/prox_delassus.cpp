#include "solvers/prox/prox_delassus.h"

#include <algorithm>

#include "problem/contact_rows.h"
#include "solvers/coulomb_local_solve.h"
#include "solvers/pgs.h"
#include "solvers/prox/prox_contact_update.h"
#include "solvers/prox/prox_solver.h"

namespace contactlab {

void ProxDelassusSweep::prepare(const DelassusProblem& problem, const SolverSettings& settings) {
  localIterations_ = std::max(settings.problemFile.localIterations, 1);
  localTolerance_ = settings.problemFile.localTolerance;
  exactLocalSolve_ = settings.problemFile.exactLocalSolve;
  // Jacobi's step split (prox_jacobi.h explains why it is needed): without bodies we split it among
  // the contacts that contact k's velocity depends on, the blocks of its block row (itself
  // included). That is at least the body-space count (the contacts on its busiest body), so never
  // a larger step than the body-space Jacobi takes.
  diagonalOfW_.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) diagonalOfW_[k] = problem.diagonalBlock(k).diagonal();
  share_.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) share_[k] = 1.0 / (problem.rowStart[k + 1] - problem.rowStart[k]);
}

double ProxDelassusSweep::sweep(const DelassusProblem& problem, const RFactors& r) {
  switch (algorithm_) {
    case ProxAlgorithm::Jacobi: return sweepJacobi(problem, r);
    case ProxAlgorithm::GaussSeidel: return previousMerit_ = sweepGaussSeidel(problem, r);
    case ProxAlgorithm::BoxGaussSeidel: {
      DelassusRows rows;
      rows.bind(problem);
      return boxGaussSeidelSweep(rows, r, lambda_);
    }
  }
  return 0.0;  // unreachable: every algorithm is handled above
}

double ProxDelassusSweep::sweepGaussSeidel(const DelassusProblem& problem, const RFactors& r) {
  if (localIterations_ == 1 && !exactLocalSolve_) return sweepGaussSeidelOneStep(problem, r);
  // Alg. 2, lines 4-9, with v_k from W's block row and the freshest lambda.
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const Vec4 previous = lambda_.segment<4>(4 * k);
    const Vec4 next = solveContact(problem, r, k, previous);
    lambda_.segment<4>(4 * k) = next;
    merit = ProxSolver::mergeMerit(merit, problem.diagonalBlock(k).diagonal(), next - previous);
  }
  return merit;
}

// Alg. 2 as the paper writes it (one proximal step per contact), the default: the same update as
// solveContact's first step with the block-row product and the update inlined into one loop, which
// is compiled for AVX2 and for baseline x86-64 like DelassusProblem::velocity (no FMA in either, so
// both round alike). The per-contact calls cost as much as the update itself on the Capsules sample.
[[gnu::target_clones("avx2", "default")]] double ProxDelassusSweep::sweepGaussSeidelOneStep(const DelassusProblem& problem,
                                                                                          const RFactors& r) {
  double merit = 0.0;
  double* lambda = lambda_.data();
  for (int k = 0; k < problem.numContacts(); ++k) {
    const Vec4 previous = Eigen::Map<const Vec4>(lambda + 4 * k);
    const Vec4 next = proxContactUpdate(problem.friction[k], r, k, 1.0, previous, blockRowVelocity(problem, k, lambda));
    Eigen::Map<Vec4>(lambda + 4 * k) = next;
    merit = ProxSolver::mergeMerit(merit, diagonalOfW_[k], next - previous);
  }
  return merit;
}

Vec4 ProxDelassusSweep::solveContact(const DelassusProblem& problem, const RFactors& r, int k,
                                     const Vec4& previous) const {
  Vec4 velocity = problem.velocity(k, lambda_);
  const Mat4& diagonal = problem.diagonalBlock(k);
  if (const Vec3& mu = problem.friction[k]; exactLocalSolve_ && mu[2] == 0.0) {
    // With mu_tau = 0 lambda_tau is 0 and the rows (n, t, s) are the whole local problem:
    // v = W_kk lambda_k + b, b = v_k - W_kk lambda_k (the other contacts' part).
    const Vec4 others = velocity - diagonal * previous;
    if (const auto exact = solveCoulombContact(diagonal.topLeftCorner<3, 3>(), others.head<3>(), mu[0], mu[1],
                                               previous.head<3>()))
      return Vec4((*exact)[0], (*exact)[1], (*exact)[2], 0.0);
  }
  Vec4 current = proxContactUpdate(problem.friction[k], r, k, 1.0, previous, velocity);
  if (localIterations_ == 1) return current;
  // The block Gauss-Seidel of the local problem v_k = W_kk lambda_k + (q_k + sum_{l != k} W_kl
  // lambda_l): the other contacts' part of v_k is fixed, so a step changes v_k by W_kk times it.
  // Each repeat is Alg. 2's update on this one contact, whose fixed points are its local solution
  // (eq. 21 with the friction set sized by the current lambda_n, as at the global fixed point).
  const Vec4 weights = diagonal.diagonal();
  Vec4 step = current - previous;
  const double firstStep = ProxSolver::mergeMerit(0.0, weights, step);
  const double threshold = localTolerance_ * std::min(firstStep, previousMerit_);
  for (int i = 1; i < localIterations_ && ProxSolver::mergeMerit(0.0, weights, step) > threshold; ++i) {
    velocity.noalias() += diagonal * step;
    const Vec4 next = proxContactUpdate(problem.friction[k], r, k, 1.0, current, velocity);
    step = next - current;
    current = next;
  }
  return current;
}

double ProxDelassusSweep::sweepJacobi(const DelassusProblem& problem, const RFactors& r) {
  // Alg. 1, lines 3-8: every contact from lambda^k.
  next_.resize(lambda_.size());
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const Vec4 previous = lambda_.segment<4>(4 * k);
    const Vec4 next = proxContactUpdate(problem.friction[k], r, k, share_[k], previous, problem.velocity(k, lambda_));
    next_.segment<4>(4 * k) = next;
    merit = ProxSolver::mergeMerit(merit, problem.diagonalBlock(k).diagonal(), next - previous);
  }
  lambda_.swap(next_);
  return merit;
}

}  // namespace contactlab
