#pragma once
// The r-factor strategies of PROX paper sec. 4.2 (Global, Local, Blocked) and their adaptive
// back-tracking R <- nu R. Every strategy gives a per-contact 4x4 R_k used in z = lambda - R_k v.
#include <functional>
#include <vector>

#include "contactlab/solver_settings.h"
#include "problem/contact_problem.h"
#include "problem/delassus_problem.h"

namespace contactlab {

class RFactors {
 public:
  // From contact k's diagonal block A_kk = W_kk: `diagonal(k)` gives its diagonal (all that Global
  // and Local read), `block(k)` the whole 4x4 block (asked for by Blocked only, since forming it
  // from the bodies costs more than reading the diagonal the assembly stored).
  void initialize(RFactorStrategy strategy, int contacts, const std::function<Vec4(int)>& diagonal,
                  const std::function<Mat4(int)>& block);
  // The two forms of a contact problem.
  void initialize(RFactorStrategy strategy, const ContactProblem& problem);
  void initialize(RFactorStrategy strategy, const DelassusProblem& problem);

  // R_k v for contact k, with the current back-tracking scale applied.
  Vec4 apply(int k, const Vec4& v) const {
    const Vec4& diagonal = perContact_[k * stride_].diagonal;
    if (strategy_ == RFactorStrategy::Blocked) {
      Vec4 out;
      out[0] = diagonal[0] * v[0];
      out.tail<3>().noalias() = frictionBlockInverse_[k] * v.tail<3>();
      return scale_ * out;
    }
    return scale_ * diagonal.cwiseProduct(v);
  }

  // Whether every R_k is diagonal (Global, Local), and then R_k's diagonal without the back-tracking
  // scale: apply(k, v) = scale() * (unscaledDiagonal(k) .* v).
  bool isDiagonal() const { return strategy_ != RFactorStrategy::Blocked; }
  // Whether every contact has the same R_k (Global).
  bool sameForEveryContact() const { return stride_ == 0; }
  const Vec4& unscaledDiagonal(int k) const { return perContact_[k * stride_].diagonal; }
  // Global and Local: sqrt of the friction rows' metric R_f^-1, as projectFriction uses it.
  const Vec3& frictionMetricSqrt(int k) const { return perContact_[k * stride_].frictionMetricSqrt; }

  // prox_F(z) for contact k's friction set with semi-axes `axes`, taken in the metric R_f^-1 so
  // that fixed points are the Coulomb-Contensou solution whatever the strategy (see
  // proxEllipsoidInMetric). The back-tracking scale does not change the metric's argmin.
  Vec3 projectFriction(int k, const Vec3& z, const Vec3& axes) const;

  // Divergence detected: R <- nu R (nu = 0.5 for Global and Blocked, 0.9 for Local, as in the paper).
  void backtrack() { scale_ *= nu_; }
  // Replaces the back-tracking scale (initialize sets 1): PSOR's omega (ProxSolver::fixedLocalRScale).
  void setScale(double scale) { scale_ = scale; }
  double scale() const { return scale_; }
  double nu() const { return nu_; }
  // The Global strategy's initial r for the force rows (n, t, s); 0 for the other strategies.
  double initialGlobalR() const { return initialGlobalR_; }

 private:
  RFactorStrategy strategy_ = RFactorStrategy::Global;
  double scale_ = 1.0;
  double nu_ = 0.5;
  double initialGlobalR_ = 0.0;
  // What a contact update reads, side by side. Global's values are the same for every contact, so
  // it keeps one entry and reads it with stride 0 (no per-contact array to stream through).
  struct PerContact {
    Vec4 diagonal = Vec4::Zero();            // Global, Local: r of each row; Blocked: 1/A_nn in [0]
    Vec3 frictionMetricSqrt = Vec3::Zero();  // Global, Local: sqrt(1 / r) of the t, s, tau rows
  };
  std::vector<PerContact> perContact_;
  int stride_ = 1;                          // 0 for Global, else 1
  std::vector<Mat3> frictionBlock_;         // Blocked: A_{t:tau, t:tau}, the metric R_f^-1
  std::vector<Mat3> frictionBlockInverse_;  // Blocked: A_{t:tau, t:tau}^-1, eq. 40
};

}  // namespace contactlab
