#pragma once
// Accelerated modulus-based Gauss-Seidel (AMGS), Miyamoto & Yamashita, "Sparsity exploitation of
// accelerated modulus-based Gauss-Seidel method for interactive rigid body simulations" (2019),
// ../shared/papers/accelerated-modulus-gauss-seidel.txt: Method 3.1 (LCP) and its boxed-LCP variant
// Method 3.2, both sparse: A = J M^-1 J^T is never formed, each row reads J_i w + b_i and writes
// w += (M^-1 J^T)_{*i} dlambda_i (w is the paper's v^{k+1,i} - v, the velocity change of the bodies).
// On a Delassus problem (a Siconos file) the same sweep reads the rows of A = W (contact_rows.h).
//
// Rows are visited one scalar row at a time, contact after contact in problem order, each contact's
// rows in the order n, t, s, tau (the paper's Gauss-Seidel is row-wise).
//
// Boxed LCP for friction. The friction model is the box one (as PGS/PSOR): |lambda_t| <= mu_t lambda_n,
// |lambda_s| <= mu_s lambda_n and, since the method has no torsion model, the torsion row as a box too,
// |lambda_tau| <= mu_tau lambda_n. The paper's BLCP(q, l, u, A) has bounds that are constants of the
// problem; it does not discuss bounds that depend on lambda_n. We freeze them per outer iteration:
// sweep k is one sweep of Method 3.2 on BLCP(q, l(lambda_n^k), u(lambda_n^k), A), with lambda_n^k the
// normal impulses at the start of the sweep. With all mu zero the friction rows are fixed at zero and
// the iteration on the normal rows is exactly Method 3.1.
#include "problem/contact_rows.h"
#include "solvers/contact_solver.h"

namespace contactlab {

class ModulusGaussSeidel final : public ContactSolver {
 public:
  SolveReport solve(const ContactProblem& problem, const SolverSettings& settings,
                    Eigen::VectorXd& lambda) override;
  // The same rows with A = W (a Siconos file).
  SolveReport solve(const DelassusProblem& problem, const SolverSettings& settings,
                    Eigen::VectorXd& lambda) override;
  bool acceptsDelassus() const override { return true; }
  MeritOfParts meritOfParts() const override { return MeritOfParts::RootSumOfSquares; }  // a Euclidean norm

  // Method 3.2 on a BLCP in the paper's sense, with bounds l <= u (4 per contact) fixed for the
  // solve instead of the friction box: lets the tests check the method against a dense reference
  // on a problem with a unique solution. Bounds may be infinite. Cleared by clearFixedBounds().
  void setFixedBounds(Eigen::VectorXd lower, Eigen::VectorXd upper);
  void clearFixedBounds();

  // The paper's merit, eq. 24, RES = ||min{lambda, A lambda + q}||_2, for the boxed problem in its
  // natural generalization ||lambda - p_BLCP(lambda - (A lambda + q))||_2 (the same for l = 0,
  // u = inf). `velocity` is A lambda + q, 4 per contact.
  static double merit(const Eigen::VectorXd& lambda, const Eigen::VectorXd& velocity,
                      const Eigen::VectorXd& lower, const Eigen::VectorXd& upper);

 private:
  // The method on either form of the problem (contact_rows.h).
  template <class Rows>
  SolveReport run(Rows& rows, const SolverSettings& settings, Eigen::VectorXd& lambda);
  // Bounds of every row for the current outer iteration: fixed ones, or the friction box of lambda_n.
  template <class Rows>
  void updateBounds(const Rows& rows);
  // One Gauss-Seidel sweep of Method 3.2 over all rows.
  template <class Rows>
  void sweep(Rows& rows);
  // velocity_ := A lambda + b, 4 per contact.
  template <class Rows>
  void computeVelocity(const Rows& rows);

  bool fixedBounds_ = false;
  Eigen::VectorXd fixedLower_, fixedUpper_;
  // Per solve; buffers reused from solve to solve.
  double alpha_ = 0.5, gamma_ = 2.0;
  Eigen::VectorXd lambda_;    // lambda^{k+1,i}: the iterate, 4 per contact
  Eigen::VectorXd z_;         // the modulus variable (see the .cpp), 4 per contact
  Eigen::VectorXd lower_, upper_;
  Eigen::VectorXd velocity_;  // A lambda + b
  Eigen::VectorXd previous_;  // lambda before the last sweep
  BodySpaceRows bodySpaceRows_;
  DelassusRows delassusRows_;
};

}  // namespace contactlab
