#pragma once
// Dense references for the modulus-gs tests: A = J M^-1 J^T formed explicitly, and the accelerated
// modulus-based Gauss-Seidel method of accelerated-modulus-gauss-seidel.txt run on it row by row as
// the paper prints Method 2.2 (the dense method the paper's sparse Method 3.1 is derived from).
#include <algorithm>
#include <functional>

#include "problem/contact_problem.h"

namespace contactlab::test {

struct DenseLcp {
  Eigen::MatrixXd A;  // J M^-1 J^T, 4 rows per contact
  Eigen::VectorXd q;  // J v + b of the paper: the contact velocity at lambda = 0
};

// A column by column: A e_j = J (M^-1 J^T e_j).
inline DenseLcp formDenseLcp(const ContactProblem& problem) {
  const int m = problem.numRows();
  DenseLcp d;
  d.A.resize(m, m);
  d.q.resize(m);
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(m), w;
  for (int j = 0; j < m; ++j) {
    unit[j] = 1.0;
    applyInvMassJt(problem, unit, w);
    for (int k = 0; k < problem.numContacts(); ++k) d.A.col(j).segment<4>(4 * k) = jacobianTimes(problem.blocks[k], w);
    unit[j] = 0.0;
  }
  for (int k = 0; k < problem.numContacts(); ++k) d.q.segment<4>(4 * k) = problem.blocks[k].b;
  return d;
}

// The LCP of the normal rows alone (rows 4k): the frictionless problem, the friction rows held at zero.
inline DenseLcp normalRowsLcp(const DenseLcp& d) {
  const Eigen::Index n = d.q.size() / 4;
  DenseLcp r;
  r.A.resize(n, n);
  r.q.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    r.q[i] = d.q[4 * i];
    for (Eigen::Index j = 0; j < n; ++j) r.A(i, j) = d.A(4 * i, 4 * j);
  }
  return r;
}

// x_i^{k+1} of Method 2.2's row update, eq. 14 with Omega = alpha D: lambda holds lambda_j^{k+1} for
// j < i and lambda_j^k for j >= i.
inline double modulusRowStep(const DenseLcp& d, double alpha, double gamma, const Eigen::VectorXd& lambda,
                             const Eigen::VectorXd& x, Eigen::Index i) {
  const double aii = d.A(i, i), omega = alpha * aii;
  const double xMinus = std::max(0.0, -x[i]);
  return x[i] - gamma / (aii + gamma * omega) * (d.A.row(i).dot(lambda) + d.q[i] - 2.0 * omega * xMinus);
}

// Method 2.2 for LCP(q, A) with Omega = alpha D, for `sweeps` outer iterations from lambda0 >= 0:
//   x^0 = (gamma/2) lambda^0;
//   x_i^{k+1} = x_i^k - gamma / (A_ii + gamma Omega_ii) (sum_{j<i} A_ij lambda_j^{k+1}
//               + sum_{j>=i} A_ij lambda_j^k + q_i - 2 Omega_ii (x_-^k)_i);  lambda_i = (2/gamma) (x_i)_+.
inline Eigen::VectorXd denseMethod22(const DenseLcp& d, double alpha, double gamma, int sweeps,
                                     const Eigen::VectorXd& lambda0) {
  Eigen::VectorXd lambda = lambda0;
  Eigen::VectorXd x = 0.5 * gamma * lambda0;
  for (int k = 0; k < sweeps; ++k)
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      if (!(d.A(i, i) > 0.0)) continue;
      x[i] = modulusRowStep(d, alpha, gamma, lambda, x, i);
      lambda[i] = 2.0 / gamma * std::max(0.0, x[i]);
    }
  return lambda;
}

// Bounds [l, u] of every row given the current iterate.
using BoundsOf = std::function<void(const Eigen::VectorXd& lambda, Eigen::VectorXd& lower, Eigen::VectorXd& upper)>;

// Method 2.2 with Method 3.2's projection, for BLCP(q, l, u, A) in the paper's shifted form: the
// variable is lambda - l >= 0, whose modulus variable x gives lambda_i = l_i + min((2/gamma)(x_i)_+,
// u_i - l_i). The bounds are evaluated once per sweep from the iterate (fixed bounds, or a friction box
// that follows lambda_n); when they move, x is shifted so that x + (gamma/2) l stays put.
// Bounds must be finite.
inline Eigen::VectorXd denseBoxedMethod22(const DenseLcp& d, const BoundsOf& boundsOf, double alpha,
                                          double gamma, int sweeps, const Eigen::VectorXd& lambda0) {
  Eigen::VectorXd lambda = lambda0, lower, upper;
  for (int pass = 0; pass < 2; ++pass) {  // twice: a friction box depends on the projected lambda_n
    boundsOf(lambda, lower, upper);
    lambda = lambda.cwiseMax(lower).cwiseMin(upper);
  }
  boundsOf(lambda, lower, upper);
  Eigen::VectorXd x = 0.5 * gamma * (lambda - lower);
  for (int k = 0; k < sweeps; ++k) {
    Eigen::VectorXd newLower, newUpper;
    boundsOf(lambda, newLower, newUpper);
    x += 0.5 * gamma * (lower - newLower);
    lower = newLower;
    upper = newUpper;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      if (!(d.A(i, i) > 0.0)) continue;
      x[i] = modulusRowStep(d, alpha, gamma, lambda, x, i);
      lambda[i] = lower[i] + std::min(2.0 / gamma * std::max(0.0, x[i]), upper[i] - lower[i]);
    }
  }
  return lambda;
}

}  // namespace contactlab::test
