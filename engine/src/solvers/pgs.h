#pragma once
// Projected Gauss-Seidel and projected SOR with the box friction model, on the body-space
// ContactProblem. PROX paper sec. 4.2 (after eq. 39): PGS is PROX Gauss-Seidel with the Local
// r-factors r_i = 1 / A_ii held fixed and the friction ellipsoid replaced by a box; PSOR the same
// with r_i = omega / A_ii. Both are ProxSolver's outer loop (merit eq. 27 weighted by A_ii, the
// same stopping tests) around one sweep, BoxGaussSeidelSweep, which PGS-SM also runs.
#include "solvers/prox/prox_solver.h"

namespace contactlab {

// Box friction: per contact the rows t, s and tau are bounded by
// |lambda_i| <= mu_i lambda_n with (mu_s, mu_t, mu_tau) = ContactBlock::friction, each direction on
// its own (the "two decoupled one-dimensional Coulomb friction models" of the PGS-SM paper, eq. 4).
// The torsion row is boxed the same way by mu_tau lambda_n (issue 4's shared decision: the box
// model has no coupled torsion law). Upper bounds of rows t, s, tau; the lower bounds are their
// negatives. Zero when lambda_n <= 0.
inline Vec3 boxFrictionBounds(const ContactBlock& block, double lambdaN) {
  return block.friction * std::max(0.0, lambdaN);
}

// One Gauss-Seidel sweep over the rows of all contacts, in problem order, each row projected onto
// its bound: rows n, t, s, tau of a contact in that order, friction bounded by the contact's NEW
// normal impulse (as PROX Gauss-Seidel does, eq. 24). Row by row, not contact by contact: the
// velocity of the next row of the same contact includes this row's change (through the contact's
// 4x4 diagonal block A_kk), so that the sweep is the projected SOR splitting of A, which converges
// for omega in (0, 2) whenever A is symmetric positive definite and the bounds are fixed. (Updating
// the four rows of a contact from one velocity, PROX's block form, is a Jacobi step inside the
// block, which can diverge with r_i = 1 / A_ii when rows of a contact are strongly coupled.)
// Velocities through w = M^-1 J^T lambda (eqs. 25-26), never forming A.
class BoxGaussSeidelSweep {
 public:
  // Once per solve: the diagonal blocks A_kk.
  void prepare(const ContactProblem& problem);
  // lambda^0 := lambda, w := M^-1 J^T lambda.
  void setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda);
  // One sweep with r_i = scale * r.unscaledDiagonal(k)[i] (r holds the Local r-factors; scale is
  // omega); returns the merit ProxSolver::mergeMerit over the contacts.
  double sweep(const ContactProblem& problem, const RFactors& r);
  const Eigen::VectorXd& lambda() const { return lambda_; }
  const Eigen::VectorXd& w() const { return w_; }

 private:
  std::vector<Mat4, Eigen::aligned_allocator<Mat4>> blockA_;  // A_kk per contact
  Eigen::VectorXd lambda_;  // 4 per contact
  Eigen::VectorXd w_;       // M^-1 J^T lambda, 6 per dynamic body
};

// "pgs" (omega = 1) and "psor" (omega = SolverSettings::psorOmega).
class ProjectedGaussSeidel final : public ProxSolver {
 public:
  // No Delassus sweep: box friction on a W-only problem is not implemented (acceptsDelassus() is false).
  explicit ProjectedGaussSeidel(bool overRelaxed) : ProxSolver(std::nullopt), overRelaxed_(overRelaxed) {}

 protected:
  double fixedLocalRScale(const SolverSettings& settings) const override {
    return overRelaxed_ ? settings.psorOmega : 1.0;
  }
  void prepare(const ContactProblem& problem, const RFactors&) override { sweep_.prepare(problem); }
  void setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda) override {
    sweep_.setIterate(problem, lambda);
  }
  double sweep(const ContactProblem& problem, const RFactors& r) override { return sweep_.sweep(problem, r); }
  void keepBestIterate() override { best_ = sweep_.lambda(); }
  void restoreBestIterate(const ContactProblem& problem) override { sweep_.setIterate(problem, best_); }
  void getIterate(Eigen::VectorXd& lambda) const override { lambda = sweep_.lambda(); }

 private:
  bool overRelaxed_;
  BoxGaussSeidelSweep sweep_;
  Eigen::VectorXd best_;
};

}  // namespace contactlab
