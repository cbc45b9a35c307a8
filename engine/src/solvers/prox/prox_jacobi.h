#pragma once
#include <vector>

#include "solvers/prox/prox_solver.h"

namespace contactlab {

// PROX Jacobi (paper Alg. 1): every contact updated from the previous iterate; the sweep is
// independent per contact and so runs in parallel on the solver's thread pool, with the same
// result for any thread count (docs/threads.md).
//
// Departure from the paper: contact k's step is z = lambda_k - R_k v / n_k, with n_k the largest
// number of contacts on either of its dynamic bodies (mass splitting, as in Tonge, Benevolenski and
// Voroshilov, "Mass splitting for jitter-free parallel rigid body simulation", SIGGRAPH 2012). All
// contacts of a body correct it at once from the same old w, so with R_k sized for one contact
// alone (the Local r_i = 1/A_ii, the Blocked eq. 40) a body with n contacts is corrected about n
// times over. The projections keep the resulting swing bounded, its merit stays under the
// divergence threshold, R is never reduced, and a swing whose merit repeats even passes the
// relative stopping test with lambda far from a solution: on a 300-body pile with the Local
// r-factor the energy this injected grew to a non-finite state by step 80 (tests: prox_solvers_test,
// JacobiKeepsAFallingPileBounded). Scaling R_k by a positive number changes neither the fixed
// points (the solution) nor the friction projection's argmin in the metric R_f^-1, only the step.
class ProxJacobi final : public ProxSolver {
 public:
  ProxJacobi() : ProxSolver(ProxAlgorithm::Jacobi) {}

 protected:
  void prepare(const ContactProblem& problem, const RFactors& r) override;
  void setIterate(const ContactProblem&, const Eigen::VectorXd& lambda) override { lambda_ = lambda; }
  double sweep(const ContactProblem& problem, const RFactors& r) override;
  void keepBestIterate() override { best_ = lambda_; }
  void restoreBestIterate(const ContactProblem&) override { lambda_ = best_; }
  void getIterate(Eigen::VectorXd& lambda) const override { lambda = lambda_; }

 private:
  // 4 * numContacts each (n, t, s, tau per contact):
  Eigen::VectorXd lambda_;  // lambda^k
  Eigen::VectorXd next_;    // lambda^{k+1} while lambda^k is still read
  Eigen::VectorXd best_;    // the iterate with the lowest merit, restored on divergence
  std::vector<double> share_;       // per contact: 1 / n_k, the mass-splitting factor of its step
  SlotContacts slotContacts_;       // per dynamic body: its contacts, for gathering w per body
  std::vector<double> chunkMerit_;  // per chunk of the parallel sweep: the merit of its contacts
};

}  // namespace contactlab
