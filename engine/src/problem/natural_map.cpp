#include "problem/natural_map.h"

#include <cmath>

#include "problem/contact_problem.h"
#include "problem/delassus_problem.h"

namespace contactlab {
namespace {

// mu_s = mu_t and no torsion: the README's circular Coulomb cone.
bool isotropicCoulomb(const Vec3& mu) { return mu[0] == mu[1] && !(mu[2] > 0.0); }

}  // namespace

// Projection onto the ellipsoidal cone K = {||D^-1 x_f|| <= x_n}, D = diag(mu).
//
// K lies in the subspace where x_i = 0 for every mu_i = 0, so proj_K(z) = proj_K(P z) with P the
// projection onto that subspace: those components are dropped first. Then, on the active ones:
//  - z in K: z itself;
//  - z in the polar cone K° = -K*, K* = {||D y_f|| <= y_n} the dual cone (||D z_f|| <= -z_n): 0;
//  - otherwise the closest point lies on the boundary ||D^-1 x_f|| = x_n > 0. Stationarity of
//      1/2 ||x - z||^2 + t/2 (||D^-1 x_f||^2 - x_n^2)
//    gives x_n = z_n / (1 - t) and x_i = z_i mu_i^2 / (mu_i^2 + t). Put in the constraint, with
//      h(t) = ||D^-1 x_f(t)||^2 = sum_i z_i^2 mu_i^2 / (mu_i^2 + t)^2,
//    t solves G(t) = (1 - t) sqrt(h(t)) - z_n = 0 on t >= 0. G is strictly decreasing there
//    (for t <= 1 both factors fall; for t > 1, d/dt[(t - 1) sqrt h] = sum_i c_i (mu_i^2 + 1) /
//    (mu_i^2 + t)^3 / sqrt h > 0 with c_i = z_i^2 mu_i^2), G(0) = ||D^-1 z_f|| - z_n > 0 (z not in K)
//    and G(inf) = -||D z_f|| - z_n < 0 (z not in K°): one root, found by bisection (doubling for
//    the upper end first). We take x_n = sqrt(h(t)), which the constraint makes equal to
//    z_n / (1 - t) and which stays well conditioned near t = 1 (z_n near 0).
//  - isotropic Coulomb (mu_s = mu_t, mu_tau = 0) takes the closed form instead, the one the README's
//    reference (Siconos' projectionOnCone) uses: x_n = (z_n + mu ||z_t||) / (1 + mu^2),
//    x_t = mu x_n z_t / ||z_t||.
Vec4 projectOntoFrictionCone(const Vec4& z, const Vec3& mu) {
  const double zn = z[0];
  Vec3 zf = z.tail<3>();
  for (int i = 0; i < 3; ++i)
    if (!(mu[i] > 0.0)) zf[i] = 0.0;
  Vec4 x = Vec4::Zero();
  if (isotropicCoulomb(mu)) {
    const double m = mu[0], normT = std::sqrt(zf[0] * zf[0] + zf[1] * zf[1]);
    if (m * normT <= -zn) return x;
    if (normT <= m * zn) {
      x[0] = zn;
      x.segment<2>(1) = zf.head<2>();
      return x;
    }
    x[0] = (zn + m * normT) / (1.0 + m * m);
    x[1] = m * x[0] / normT * zf[0];
    x[2] = m * x[0] / normT * zf[1];
    return x;
  }
  double scaledOut = 0.0, scaledIn = 0.0;  // ||D^-1 z_f||, ||D z_f|| over active components
  for (int i = 0; i < 3; ++i)
    if (mu[i] > 0.0) {
      scaledOut += (zf[i] / mu[i]) * (zf[i] / mu[i]);
      scaledIn += (zf[i] * mu[i]) * (zf[i] * mu[i]);
    }
  scaledOut = std::sqrt(scaledOut);
  scaledIn = std::sqrt(scaledIn);
  if (scaledOut <= zn) {
    x[0] = zn;
    x.tail<3>() = zf;
    return x;
  }
  if (scaledIn <= -zn) return x;
  const Vec3 mu2 = mu.cwiseProduct(mu);
  const auto h = [&](double t) {
    double sum = 0.0;
    for (int i = 0; i < 3; ++i)
      if (mu[i] > 0.0) sum += zf[i] * zf[i] * mu2[i] / ((mu2[i] + t) * (mu2[i] + t));
    return sum;
  };
  const auto g = [&](double t) { return (1.0 - t) * std::sqrt(h(t)) - zn; };
  double low = 0.0, high = 1.0;
  while (g(high) > 0.0 && high < 1e300) {
    low = high;
    high *= 2.0;
  }
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double mid = 0.5 * (low + high);
    if (!(mid > low && mid < high)) break;
    (g(mid) > 0.0 ? low : high) = mid;
  }
  const double t = 0.5 * (low + high);
  x[0] = std::sqrt(h(t));
  for (int i = 0; i < 3; ++i) x[1 + i] = mu[i] > 0.0 ? zf[i] * mu2[i] / (mu2[i] + t) : 0.0;
  return x;
}

double naturalMapSquaredError(const Vec4& r, const Vec4& u, const Vec3& mu) {
  // De Saxce: u + phi(u_f) e_n; the isotropic case written as the README writes it, mu ||u_t||.
  const double phi = isotropicCoulomb(mu) ? mu[0] * std::sqrt(u[1] * u[1] + u[2] * u[2])
                                          : mu.cwiseProduct(u.tail<3>()).norm();
  const Vec4 z(r[0] - (u[0] + phi), r[1] - u[1], r[2] - u[2], r[3] - u[3]);
  const Vec4 d = r - projectOntoFrictionCone(z, mu);
  // Summed in this order so that a 3-row problem (d[3] = 0) gives the bits of the 3-row formula.
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3];
}

double naturalMapError(const Vec4& r, const Vec4& u, const Vec3& mu) { return std::sqrt(naturalMapSquaredError(r, u, mu)); }

namespace {

template <class VelocityOf>
double residual(int contacts, const Eigen::VectorXd& lambda, const Eigen::VectorXd& q, const VelocityOf& velocityOf,
                const auto& frictionOf) {
  double sum = 0.0;
  for (int k = 0; k < contacts; ++k) {
    sum += naturalMapSquaredError(lambda.segment<4>(4 * k), velocityOf(k), frictionOf(k));
  }
  return std::sqrt(sum) / (1.0 + q.norm());
}

}  // namespace

double naturalMapResidual(const DelassusProblem& problem, const Eigen::VectorXd& lambda) {
  return residual(
      problem.numContacts(), lambda, problem.q, [&](int k) { return problem.velocity(k, lambda); },
      [&](int k) { return problem.friction[k]; });
}

double naturalMapResidual(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  Eigen::VectorXd w, b(problem.numRows());
  applyInvMassJt(problem, lambda, w);
  for (int k = 0; k < problem.numContacts(); ++k) b.segment<4>(4 * k) = problem.blocks[k].b;
  return residual(
      problem.numContacts(), lambda, b, [&](int k) { return contactVelocity(problem.blocks[k], w); },
      [&](int k) { return problem.blocks[k].friction; });
}

}  // namespace contactlab
