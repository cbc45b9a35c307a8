#include "solvers/prox/subspace_step.h"

#include <Eigen/QR>
#include <limits>
#include <vector>

#include "problem/delassus_problem.h"
#include "problem/natural_map.h"

namespace contactlab {
namespace {

// Which contacts separate, stick or slide at lambda, as free unknowns: unknown j moves contact
// contact[j]'s four rows by weights[j] per unit (P's column j, which touches one contact only), and
// its equation sets row[j] of v = W lambda + q to zero. row[j] is also the row of lambda holding
// the unknown (a sticking row's own, or a sliding contact's normal).
struct ActiveSet {
  std::vector<int> contact, row;
  std::vector<Vec4> weights;
  void add(int k, int r, const Vec4& w) {
    contact.push_back(k);
    row.push_back(4 * k + r);
    weights.push_back(w);
  }
};

// A contact whose lambda_n is below this fraction of the largest one is taken as separating, and
// one whose friction impulse is within this fraction of the cone's surface as sliding: the sweep
// leaves rounding-level remainders where it has converged to the boundary.
constexpr double kStateTolerance = 1e-9;

ActiveSet readStates(const DelassusProblem& problem, const Eigen::VectorXd& lambda) {
  ActiveSet set;
  const int contacts = problem.numContacts();
  const double largestNormal = std::max(lambda(Eigen::seqN(0, contacts, 4)).maxCoeff(), 0.0);
  for (int k = 0; k < contacts; ++k) {
    const Vec4 r = lambda.segment<4>(4 * k);
    const Vec3& mu = problem.friction[k];
    if (!(r[0] > kStateTolerance * largestNormal)) continue;  // separating: lambda_c = 0, no equation
    // ||diag(mu)^-1 lambda_f|| against lambda_n (rows with mu_i = 0 are pinned to zero).
    Vec3 direction = Vec3::Zero();
    for (int i = 0; i < 3; ++i)
      if (mu[i] > 0.0) direction[i] = r[1 + i] / mu[i];
    const double reach = direction.norm();
    if (reach < (1.0 - kStateTolerance) * r[0]) {  // sticking: lambda_n and free friction rows
      for (int row = 0; row < 4; ++row)
        if (row == 0 || mu[row - 1] > 0.0) set.add(k, row, Vec4::Unit(row));
      continue;
    }
    // sliding: lambda_f = lambda_n diag(mu) d, d the current direction, and v_n = 0.
    set.add(k, 0, Vec4(1.0, mu[0] * direction[0] / reach, mu[1] * direction[1] / reach, mu[2] * direction[2] / reach));
  }
  return set;
}

}  // namespace

double subspaceStep(const DelassusProblem& problem, const Eigen::MatrixXd& denseW, const Eigen::VectorXd& lambda,
                    double tolerance, Eigen::VectorXd& candidate) {
  double best = std::numeric_limits<double>::infinity();
  Eigen::VectorXd current = lambda;
  for (int pass = 0; pass < kSubspacePasses; ++pass) {
    const ActiveSet set = readStates(problem, current);
    const int unknowns = static_cast<int>(set.row.size());
    // The states fix lambda outside the free unknowns: lambda^0 = P x0, the current iterate with
    // the separating contacts zeroed and the sliding ones put on their cone direction.
    Eigen::VectorXd x0(unknowns);
    for (int j = 0; j < unknowns; ++j) x0[j] = current[set.row[j]];
    const auto expand = [&](const Eigen::VectorXd& x) {  // P x
      Eigen::VectorXd full = Eigen::VectorXd::Zero(current.size());
      for (int j = 0; j < unknowns; ++j) full.segment<4>(4 * set.contact[j]) += set.weights[j] * x[j];
      return full;
    };
    // A = E W P, column by column from the four columns of W its unknown touches.
    Eigen::MatrixXd a(unknowns, unknowns);
    for (int j = 0; j < unknowns; ++j) {
      const Eigen::VectorXd column = denseW.middleCols<4>(4 * set.contact[j]) * set.weights[j];
      for (int i = 0; i < unknowns; ++i) a(i, j) = column[set.row[i]];
    }
    const Eigen::VectorXd velocity = problem.velocities(expand(x0));
    Eigen::VectorXd residual(unknowns);
    for (int i = 0; i < unknowns; ++i) residual[i] = -velocity[set.row[i]];
    // No unknowns (every contact separating): lambda = 0.
    const Eigen::VectorXd x = unknowns == 0 ? x0 : Eigen::VectorXd(x0 + a.completeOrthogonalDecomposition().solve(residual));
    // Back to full coordinates, projected onto each contact's cone (feasible, whatever the pass).
    current = expand(x);
    for (int k = 0; k < problem.numContacts(); ++k)
      current.segment<4>(4 * k) = projectOntoFrictionCone(current.segment<4>(4 * k), problem.friction[k]);
    const double error = naturalMapResidual(problem, current);
    if (error < best) {
      best = error;
      candidate = current;
    }
    if (best < tolerance) break;
  }
  return best;
}

}  // namespace contactlab
