#pragma once
// Projected Gauss-Seidel with subspace minimization (PGS-SM): Silcowitz, Niebe and Erleben,
// "Projected Gauss-Seidel subspace minimization method for interactive rigid body dynamics" (2010),
// with the box friction model of solvers/pgs.h, on either form of the problem (contact_rows.h).
#include <vector>

#include "solvers/contact_solver.h"
#include "solvers/pgs.h"

namespace contactlab {

// Sec. 4.3's algorithm: repeat { k_pgs PGS sweeps; test termination; k_sm times { index sets from
// lambda (eq. 19), reduced system A_FF lambda_F = -(b_F + A_FB lambda_B) (eq. 22) by conjugate
// gradients, bounds updated from the new normal impulses and the projection of eq. 24, test
// termination } }, with the Fischer merit psi (eq. 25) and the fall-back to the best iterate.
//
// Report: iterations counts PGS sweeps and subspace steps alike (a step costs up to its CG
// iterations' worth of sweeps); residual and residualHistory are psi; rollbacks counts fall-backs
// to the best iterate (a subspace step whose result was not finite, and the final one when the last
// iterate is worse than the best seen); rFactorHistory is 1 (PGS's r = 1 / A_ii) for every entry.
class PgsSubspaceMinimization final : public ContactSolver {
 public:
  SolveReport solve(const ContactProblem& problem, const SolverSettings& settings, Eigen::VectorXd& lambda) override;
  // The same on A = W (a Siconos file): the PGS sweeps and the reduced products read W's rows.
  SolveReport solve(const DelassusProblem& problem, const SolverSettings& settings, Eigen::VectorXd& lambda) override;
  bool acceptsDelassus() const override { return true; }
  MeritOfParts meritOfParts() const override { return MeritOfParts::Sum; }  // psi, a half sum of squares

  // psi(lambda) = 1/2 sum_i phi_i^2, the natural merit of the Fischer reformulation (sec. 4.3;
  // Silcowitz, Niebe and Erleben 2009) of the boxed NCP (eq. 7): with phi(a, b) = sqrt(a^2 + b^2) - a - b,
  //   normal row:   phi_i = phi(A_ii lambda_n, y_n)
  //   boxed row:    phi_i = phi(A_ii (lambda_i - l_i), phi(A_ii (u_i - lambda_i), -y_i))  (Billups 1995)
  // where y = A lambda + b and l, u the box bounds of the current lambda_n. Departure: the impulse
  // distances are weighted by A_ii so that both arguments are velocities; the paper mixes impulses
  // and velocities, which would make psi, and the iteration count, depend on the unit of mass.
  // `rows` (contact_rows.h) must be in step with lambda.
  template <class Rows>
  static double fischerMerit(const Rows& rows, const Eigen::VectorXd& lambda);

 private:
  // Sec. 4.3's algorithm on either form of the problem.
  template <class Rows>
  SolveReport run(BoxGaussSeidelSweep<Rows>& sweep, const SolverSettings& settings, Eigen::VectorXd& lambda);
  // One subspace-minimization step on lambda (= sweep.lambda()); leaves the result in sweep.
  template <class Rows>
  void subspaceStep(BoxGaussSeidelSweep<Rows>& sweep, const SolverSettings& settings);
  // (A_FF + gamma diag(A_FF)) x restricted to the free rows: x is zero outside them.
  template <class Rows>
  void applyReduced(Rows& rows, double gamma, const Eigen::VectorXd& x, Eigen::VectorXd& out);

  BoxGaussSeidelSweep<BodySpaceRows> bodySpaceSweep_;
  BoxGaussSeidelSweep<DelassusRows> delassusSweep_;
  RFactors rFactors_;  // Local, fixed: PGS's r_i = 1 / A_ii
  // Buffers reused from solve to solve, 4 per contact.
  std::vector<char> free_;    // eq. 19: the row is strictly inside its bounds (set A of the paper)
  Eigen::VectorXd lambda_, best_, rhs_, x_, residual_, direction_, product_;
};

}  // namespace contactlab
