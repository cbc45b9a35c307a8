#pragma once
// Fast frictional dynamics (Kaufman et al. 2005, "FFD") and its impulse-decomposition successor
// (Li et al., "Multi-contact Frictional Rigid Dynamics using Impulse Decomposition", ../shared/papers/
// ffd-impulse-decomposition.md; equation numbers below are that paper's). Both work body by body:
// the body's twist is projected onto its feasible set T (eq. 6), the total contact impulse is split
// among its contacts, friction is added per contact and the result projected onto T again.
//   ffd     the split by projection onto each normal (eq. 7), friction by the body's own twist (eq. 9)
//   ffd-id  the split by least squares (eq. 11-13), friction per contact from the relative velocity
//           and the equivalent mass (eq. 14-20), coupling projection (eq. 21-22)
//
// Adaptation to the engine's contact problem (the papers have none of it): one impulse per contact
// acts on both of its bodies (Newton's third law, which FFD does not keep: the paper's sec. VI). The
// bodies are visited in Gauss-Seidel passes; a body's step takes its contacts' impulses off both
// sides and solves them again with the neighbours responding through those contacts (their other
// contacts frozen): the projection onto T and the split use that joint metric, which against static
// or kinematic neighbours is the body's own (the papers' case). Passes stop by SolverSettings as PROX
// does; see solve() for the merit and the .cpp for every choice, with the equation it concerns.
//
// Plain FFD's eq. 7 split does not add up to the body's impulse on a body with several coplanar
// contacts; it only bounds the friction (as in the papers), the applied normal impulses are the
// projection's. Its known failure (tests document it) is therefore in the friction.
#include <vector>

#include "solvers/contact_solver.h"

namespace contactlab {

enum class FfdVariant {
  Projection,            // plain FFD: eq. 7 split, eq. 9 friction
  ImpulseDecomposition,  // FFD-ID: eq. 11-13 split, eq. 14-20 friction, eq. 21-22 coupling
};

class FastFrictionalDynamics : public ContactSolver {
 public:
  explicit FastFrictionalDynamics(FfdVariant variant) : variant_(variant) {}
  SolveReport solve(const ContactProblem& problem, const SolverSettings& settings,
                    Eigen::VectorXd& lambda) override;
  // The last solve's split alpha_k of each contact (eq. 7 or eq. 13: the normal impulse that bounds
  // its friction), from the last visit of one of its bodies. For ffd-id it is the applied normal
  // impulse; for ffd it is not (see solveBody): the paper's Fig. 2(b) is this split.
  const Eigen::VectorXd& frictionSplit() const { return frictionSplit_; }

 private:
  // One body's step (sec. III-A, IV); returns the sweep merit of its contacts' impulse changes.
  double solveBody(const ContactProblem& problem, int slot, Eigen::VectorXd& lambda);
  // The body's normal impulses alpha that split the total twist change r = sum_k M^-1 g_k dual_k, where
  // dual are the multipliers of the projection onto T: eq. 7 or eq. 13 by the variant, in the body's
  // own metric (ownDelassus_).
  void splitNormalImpulse(const Eigen::VectorXd& dual, Eigen::VectorXd& alpha) const;

  FfdVariant variant_;
  // Contacts of each dynamic body (CSR): contactList_[contactStart_[s] .. contactStart_[s+1]).
  std::vector<int> contactStart_, contactList_;
  Eigen::VectorXd w_;  // M^-1 J^T lambda, 6 per slot (linear, angular)
  Eigen::VectorXd frictionSplit_;  // per contact, see frictionSplit()
  double innerTolerance_ = 0.0;    // the per-body solves' stopping tolerance (see the .cpp)
  Eigen::VectorXd bestLambda_;     // the iterate after the pass of least merit (divergence fall-back)
  // Per body step, n_c = the body's contact count.
  struct LocalContact {
    int k = 0;
    double sign = 1.0;  // +1 when the body is the contact's body j (slotB), -1 when it is body i
    Vec4 freeVelocity;  // contact velocity with this body at u_free and its neighbours as they are
    Eigen::Matrix<double, 6, 4> wrench;    // g per row (n, t, s, tau): the body's wrench of a unit impulse
    Eigen::Matrix<double, 6, 4> response;  // M^-1 g: the body's twist change per unit impulse
    int neighbour = -1;                    // index into neighbourSlots_, -1 for a static or kinematic one
    Eigen::Matrix<double, 6, 4> neighbourWrench, neighbourResponse;  // the same for the neighbour
    Mat4 inverseMass;  // the contact's block of J M^-1 J^T (both bodies)
  };
  std::vector<LocalContact> local_;
  std::vector<int> neighbourSlots_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> twists_;  // the step's twist change: body, then each neighbour
  Eigen::MatrixXd ownDelassus_;    // A_kl = g_k^T M^-1 g_l over the normal rows, the body's own mass
  Eigen::MatrixXd jointDelassus_;  // the same with the neighbours' response: the block of J M^-1 J^T
};

}  // namespace contactlab
