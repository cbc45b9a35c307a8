#pragma once
// The two forms of a contact problem as the row-wise box-friction solvers (PGS/PSOR, PGS-SM,
// modulus-gs) see them: per contact its friction coefficients, its diagonal block A_kk, its
// velocity v_k = (A lambda + b)_k at the current iterate, and how a change of its impulse reaches
// the other contacts. The body-space form never forms A = J M^-1 J^T: it keeps w = M^-1 J^T lambda
// in step with the iterate (PROX paper eqs. 25-26, the modulus paper's sparse Method 3.1). The
// Delassus form (a Siconos file, delassus_problem.h) has A = W and reads W's block row against
// the iterate itself. A sweep written once against this interface runs on both forms.
#include <vector>

#include "problem/contact_problem.h"
#include "problem/delassus_problem.h"

namespace contactlab {

class BodySpaceRows {
 public:
  // Once per solve: the problem (kept by reference) and its diagonal blocks A_kk.
  void bind(const ContactProblem& problem);
  int numContacts() const { return problem_->numContacts(); }
  const Vec3& friction(int k) const { return problem_->blocks[k].friction; }
  const Vec4& diagonal(int k) const { return problem_->blocks[k].diagonalA; }
  const Mat4& diagonalBlock(int k) const { return blockA_[k]; }
  // `lambda` is the new iterate: w := M^-1 J^T lambda.
  void setIterate(const Eigen::VectorXd& lambda) { applyInvMassJt(*problem_, lambda, w_); }
  // v_k at the iterate, which is setIterate's lambda changed by every addChange since (the
  // argument, that same iterate, is what the Delassus form reads).
  Vec4 velocity(int k, const Eigen::VectorXd&) const { return contactVelocity(problem_->blocks[k], w_); }
  // Contact k's impulse changed by delta: w += M^-1 J_k^T delta (eq. 26).
  void addChange(int k, const Vec4& delta) { addInvMassJt(*problem_, k, delta, w_); }
  // out := A x, through M^-1 J^T x.
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out);

 private:
  const ContactProblem* problem_ = nullptr;
  std::vector<Mat4, Eigen::aligned_allocator<Mat4>> blockA_;
  Eigen::VectorXd w_;         // M^-1 J^T lambda, 6 per dynamic body
  Eigen::VectorXd scratchW_;  // M^-1 J^T x for multiply
};

class DelassusRows {
 public:
  void bind(const DelassusProblem& problem) { problem_ = &problem; }
  int numContacts() const { return problem_->numContacts(); }
  const Vec3& friction(int k) const { return problem_->friction[k]; }
  Vec4 diagonal(int k) const { return problem_->diagonalBlock(k).diagonal(); }
  const Mat4& diagonalBlock(int k) const { return problem_->diagonalBlock(k); }
  // The velocities are read from lambda itself: nothing to keep in step.
  void setIterate(const Eigen::VectorXd&) {}
  Vec4 velocity(int k, const Eigen::VectorXd& lambda) const { return problem_->velocity(k, lambda); }
  void addChange(int, const Vec4&) {}
  // out := W x.
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;

 private:
  const DelassusProblem* problem_ = nullptr;
};

}  // namespace contactlab
