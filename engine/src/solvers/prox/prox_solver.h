#pragma once
// What PROX Jacobi (Alg. 1) and PROX Gauss-Seidel (Alg. 2) share: the outer loop with the merit of
// eq. 27, absolute and relative stopping, and divergence detection with roll-back and R <- nu R.
// The two differ only in the sweep. The loop runs the body-space sweeps of the subclasses and, for
// Delassus problems, the scalar sweeps of prox_delassus.h.
#include "solvers/contact_solver.h"
#include "solvers/prox/prox_delassus.h"
#include "solvers/prox/prox_operators.h"
#include "solvers/prox/r_factor.h"

namespace contactlab {

class ProxSolver : public ContactSolver {
 public:
  SolveReport solve(const ContactProblem& problem, const SolverSettings& settings,
                    Eigen::VectorXd& lambda) final;
  // Delassus problems are solved by the scalar sweeps of prox_delassus.h.
  SolveReport solve(const DelassusProblem& problem, const SolverSettings& settings,
                    Eigen::VectorXd& lambda) final;
  bool acceptsDelassus() const final { return true; }

  // The eq. 27 merit is ||lambda^{k+1} - lambda^k||_inf. We weigh each row by A_ii, which turns an
  // impulse change into the contact velocity change it causes (m/s, rad/s for torsion): the
  // absolute tolerance then means the same whatever the unit of mass, as does the iteration count.
  static double mergeMerit(double merit, const Vec4& diagonalA, const Vec4& delta) {
    return std::max(merit, delta.cwiseAbs().cwiseProduct(diagonalA).maxCoeff());
  }
  static double mergeMerit(double merit, const ContactBlock& block, const Vec4& delta) {
    return mergeMerit(merit, block.diagonalA, delta);
  }

 protected:
  // `algorithm` picks the Delassus sweep; the body-space sweep is the subclass's.
  explicit ProxSolver(ProxAlgorithm algorithm) : delassusSweep_(algorithm) {}
  // PGS and PSOR are this loop with fixed r-factors (PROX paper sec. 4.2, after eq. 39: "keeping
  // Local r-values as fixed constants the PROX scheme will deteriorate into PGS/PSOR variants"). A
  // positive value runs the solve with the Local r_i = 1 / A_ii scaled by it (omega of PSOR, 1 for
  // PGS; it is RFactors::scale() and so the rFactorHistory) whatever settings.prox.rFactor says, and
  // without back-tracking: a sweep's merit may rise, it is never rolled back (only a non-finite
  // merit returns to the best iterate and ends the solve, since the same sweep would follow).
  // 0, the default, is PROX: settings.prox.rFactor with back-tracking.
  virtual double fixedLocalRScale(const SolverSettings&) const { return 0.0; }

  // The iterate lambda^k lives with the sweep (Gauss-Seidel keeps it in its lanes, so a sweep does
  // not copy 4 doubles per contact out and back); the outer loop handles it through these.
  // Called once per solve, before setIterate, with what every sweep of the solve reads.
  virtual void prepare(const ContactProblem&, const RFactors&) {}
  // lambda^0 := lambda (the warm start), and what a sweep keeps in step with lambda (Gauss-Seidel's
  // w = M^-1 J^T lambda).
  virtual void setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda) = 0;
  // One sweep over all contacts, lambda^k -> lambda^{k+1}; returns the merit
  // r^{k+1} = ||lambda^{k+1} - lambda^k|| (see mergeMerit).
  virtual double sweep(const ContactProblem& problem, const RFactors& r) = 0;
  // Remembers the current iterate as the best so far; goes back to it after a divergence.
  virtual void keepBestIterate() = 0;
  virtual void restoreBestIterate(const ContactProblem& problem) = 0;
  // lambda := the current iterate (4 per contact: n, t, s, tau).
  virtual void getIterate(Eigen::VectorXd& lambda) const = 0;

  // Buffers reused from solve to solve.
  Eigen::VectorXd w_;  // M^-1 J^T lambda, (linear, angular) per dynamic body (Gauss-Seidel appends zero slots)

 private:
  struct BodySpaceIteration;
  struct DelassusIteration;
  // Alg. 1-2 outer loop, lines 1-2 and 10-16, over an Iteration (one of the two above).
  template <class Iteration>
  SolveReport run(int contacts, const SolverSettings& settings, Eigen::VectorXd& lambda, Iteration&& iteration);

  static constexpr double kDivergenceGrowth = 2.0;
 public:
  static constexpr int kNaturalMapCheckInterval = 10;

 private:
  RFactors rFactors_;
  Eigen::VectorXd scratch_;  // the iterate, for natural-map checks
  ProxDelassusSweep delassusSweep_;
};

}  // namespace contactlab
