#pragma once
// Projected Gauss-Seidel and projected SOR with the box friction model. PROX paper sec. 4.2 (after
// eq. 39): PGS is PROX Gauss-Seidel with the Local r-factors r_i = 1 / A_ii held fixed and the
// friction ellipsoid replaced by a box; PSOR the same with r_i = omega / A_ii. Both are ProxSolver's
// outer loop (merit eq. 27 weighted by A_ii, the same stopping tests) around one sweep,
// boxGaussSeidelSweep, which PGS-SM also runs; written once for both forms of a problem
// (contact_rows.h), so PGS and PSOR solve Siconos files too.
#include <algorithm>
#include <limits>

#include "problem/contact_rows.h"
#include "solvers/prox/prox_solver.h"

namespace contactlab {

// Box friction: per contact the rows t, s and tau are bounded by
// |lambda_i| <= mu_i lambda_n with (mu_s, mu_t, mu_tau) = `friction` (ContactBlock::friction,
// DelassusProblem::friction), each direction on its own (the "two decoupled one-dimensional Coulomb
// friction models" of the PGS-SM paper, eq. 4). The torsion row is boxed the same way by
// mu_tau lambda_n (issue 4's shared decision: the box model has no coupled torsion law). Upper
// bounds of rows t, s, tau; the lower bounds are their negatives. Zero when lambda_n <= 0.
inline Vec3 boxFrictionBounds(const Vec3& friction, double lambdaN) { return friction * std::max(0.0, lambdaN); }

// One Gauss-Seidel sweep over the rows of all contacts, in problem order, each row projected onto
// its bound: rows n, t, s, tau of a contact in that order, friction bounded by the contact's NEW
// normal impulse (as PROX Gauss-Seidel does, eq. 24). Row by row, not contact by contact: the
// velocity of the next row of the same contact includes this row's change (through the contact's
// 4x4 diagonal block A_kk), so that the sweep is the projected SOR splitting of A, which converges
// for omega in (0, 2) whenever A is symmetric positive definite and the bounds are fixed. (Updating
// the four rows of a contact from one velocity, PROX's block form, is a Jacobi step inside the
// block, which can diverge with r_i = 1 / A_ii when rows of a contact are strongly coupled.)
// r_i = r.scale() * r.unscaledDiagonal(k)[i] (r holds the Local r-factors; the scale is omega).
// `rows` is either form of the problem (contact_rows.h), kept in step with `lambda`, which the
// sweep updates in place; returns the merit ProxSolver::mergeMerit over the contacts.
template <class Rows>
double boxGaussSeidelSweep(Rows& rows, const RFactors& r, Eigen::VectorXd& lambda) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double merit = 0.0;
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec3& friction = rows.friction(k);
    const Mat4& a = rows.diagonalBlock(k);
    const Vec4 step = r.scale() * r.unscaledDiagonal(k);  // r_i = omega / A_ii
    const Vec4 previous = lambda.segment<4>(4 * k);
    // v = (A lambda + b)_k with the latest impulses of every other contact (eq. 25).
    Vec4 v = rows.velocity(k, lambda);
    Vec4 next = previous;
    // PGS-SM paper eq. 16-17 for row i: lambda_i = min(u_i, max(l_i, lambda_i - r_i v_i)), then
    // v += A_{k,i} (change) so the next row of this contact sees it.
    for (int i = 0; i < 4; ++i) {
      const double upper = i == kNormal ? kInfinity : friction[i - 1] * next[kNormal];
      const double lower = i == kNormal ? 0.0 : -upper;
      const double value = std::clamp(next[i] - step[i] * v[i], lower, upper);
      const double change = value - next[i];
      if (change != 0.0) {
        v += a.col(i) * change;
        next[i] = value;
      }
    }
    const Vec4 delta = next - previous;
    rows.addChange(k, delta);  // eq. 26
    lambda.segment<4>(4 * k) = next;
    merit = ProxSolver::mergeMerit(merit, rows.diagonal(k), delta);
  }
  return merit;
}

// The sweep above with its iterate and its view of the problem, for a solver that runs it by itself
// (PGS-SM; PGS and PSOR run it through ProxSolver).
template <class Rows>
class BoxGaussSeidelSweep {
 public:
  // Once per solve.
  template <class Problem>
  void prepare(const Problem& problem) { rows_.bind(problem); }
  // lambda^0 := lambda.
  void setIterate(const Eigen::VectorXd& lambda) {
    lambda_ = lambda;
    rows_.setIterate(lambda_);
  }
  double sweep(const RFactors& r) { return boxGaussSeidelSweep(rows_, r, lambda_); }
  const Eigen::VectorXd& lambda() const { return lambda_; }
  Rows& rows() { return rows_; }

 private:
  Rows rows_;
  Eigen::VectorXd lambda_;  // 4 per contact
};

// "pgs" (omega = 1) and "psor" (omega = PsorSettings::omega).
class ProjectedGaussSeidel final : public ProxSolver {
 public:
  // Delassus problems: the same sweep over W's block rows (ProxDelassusSweep, ProxAlgorithm::BoxGaussSeidel).
  explicit ProjectedGaussSeidel(bool overRelaxed)
      : ProxSolver(ProxAlgorithm::BoxGaussSeidel), overRelaxed_(overRelaxed) {}

 protected:
  double fixedLocalRScale(const SolverSettings& settings) const override {
    return overRelaxed_ ? settings.psor.omega : 1.0;
  }
  void prepare(const ContactProblem& problem, const RFactors&) override { sweep_.prepare(problem); }
  void setIterate(const ContactProblem&, const Eigen::VectorXd& lambda) override { sweep_.setIterate(lambda); }
  double sweep(const ContactProblem&, const RFactors& r) override { return sweep_.sweep(r); }
  void keepBestIterate() override { best_ = sweep_.lambda(); }
  void restoreBestIterate(const ContactProblem&) override { sweep_.setIterate(best_); }
  void getIterate(Eigen::VectorXd& lambda) const override { lambda = sweep_.lambda(); }

 private:
  bool overRelaxed_;
  BoxGaussSeidelSweep<BodySpaceRows> sweep_;
  Eigen::VectorXd best_;
};

}  // namespace contactlab
