#pragma once
// The CR solver's preconditioners C^-1 ~ B^-1 (conjugate-residual-deformable-contact.txt sec. 3.4) for
//   B = [ A   -L^T ]      L: the rows of the active constraints (normal rows, and the friction
//       [ -L   0   ]         rows of statically sticking contacts), eq. 7 and 20.
// Our B is the paper's with the multipliers' sign flipped (A v - L^T y = b + ..., L v = c for the
// active rows), so that y >= 0 pushes; the blockwise inverse (eq. 22) is then
//   B^-1 = [ A^-1 - A^-1 L^T S^-1 L A^-1   -A^-1 L^T S^-1 ]     S = L A^-1 L^T.
//          [ -S^-1 L A^-1                  -S^-1          ]
// Full replaces A and S by A_d = diag(A) and S_d = diag(Z L A_d^-1 L^T); Diag keeps only the diagonal
// blocks A_d^-1 and S_d^-1 (with the sign that makes C^-1 positive definite, so that the
// preconditioned residual decreases monotonically, sec. 3.4).
#include <vector>

#include "problem/deformable_problem.h"

namespace contactlab {

enum class CrPreconditioner { Full, Diag };

// diag(L A_d^-1 L^T) over all rows of all constraints (3 per constraint: normal, t1, t2), without Z:
// how far one unit of a row's multiplier moves that row (Alg. 2, line 19, measures changes with it).
Eigen::VectorXd rowCompliance(const DeformableProblem& problem, const Eigen::VectorXd& inverseDiagonalA);

class CrPreconditionerOperator {
 public:
  // The y-vector layout the CR solver uses: 3 per node (v), then 3 per constraint (normal, t1, t2).
  // rowActive holds 3 flags per constraint; compliance is rowCompliance's.
  void setup(const DeformableProblem& problem, const Eigen::VectorXd& inverseDiagonalA,
             const Eigen::VectorXd& compliance, const std::vector<std::uint8_t>& rowActive, CrPreconditioner kind);
  // z = C^-1 r; entries of inactive rows are zero.
  void apply(const DeformableProblem& problem, const Eigen::VectorXd& r, Eigen::VectorXd& z) const;

 private:
  CrPreconditioner kind_ = CrPreconditioner::Full;
  Eigen::VectorXd inverseDiagonalA_;  // 3 per node
  Eigen::VectorXd inverseS_;          // 3 per constraint: 1 / (S_d)_rr, 0 for inactive rows
  mutable Eigen::VectorXd scratch_;
};

}  // namespace contactlab
