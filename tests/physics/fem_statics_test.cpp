// Deformable bodies at rest under their own weight against beam theory: a hanging bar's lengthening
// rho g L^2 / (2 E) and a cantilever's tip deflection q L^4 / (8 E I) (Euler-Bernoulli).
//
// The static state is reached by the contact-free step itself (eq. 4-5) with a time step far longer
// than the body's slowest period: then A = M + dt^2 K is dominated by dt^2 K and each step is a
// Newton step on the static equilibrium f_elastic(x) + M g = 0 (the inertia left over decays by
// about M / (dt^2 K) per step).
#include <gtest/gtest.h>

#include <cmath>

#include "deformable/fem_body.h"
#include "geometry/tet_mesh.h"

namespace contactlab::fem_statics_test {

constexpr double kGravity = 9.81;

// Pins every node whose coordinate `axis` equals `value` (a face of a boxTetMesh).
void pinFace(FemBody& body, int axis, double value) {
  for (int i = 0; i < body.numNodes(); ++i)
    if (std::abs(body.rest().mesh.vertices[i][axis] - value) < 1e-9) body.setPinned(i, true);
}

// The mean displacement along `direction` of the nodes whose coordinate `axis` equals `value`.
double faceDisplacement(const FemBody& body, int axis, double value, int direction) {
  double sum = 0.0;
  int count = 0;
  for (int i = 0; i < body.numNodes(); ++i)
    if (std::abs(body.rest().mesh.vertices[i][axis] - value) < 1e-9) {
      sum += body.state().positions[i][direction] - body.rest().mesh.vertices[i][direction];
      ++count;
    }
  return sum / count;
}

// Steps until the last step moved no node by more than `settled` (returns the steps taken).
int settle(FemBody& body, double dt, int maxSteps, double settled) {
  for (int step = 1; step <= maxSteps; ++step) {
    const ConjugateGradientReport report = stepWithoutContacts(body, dt, Vec3(0, 0, -kGravity), {1e-8, 0});
    EXPECT_TRUE(report.converged) << "step " << step;
    double fastest = 0.0;
    for (const Vec3& v : body.state().velocities) fastest = std::max(fastest, v.norm());
    if (fastest * dt < settled) return step;
  }
  return maxSteps + 1;
}

TEST(FemStatics, HangingBarLengthensByRhoGLSquaredOverTwoE) {
  // A 0.1 x 0.1 x 1 m bar hanging from its top face, 2 x 2 x 10 cells (240 tetrahedra). Poisson's
  // ratio 0: the analytic result is for uniaxial stress, and with nu = 0 the pinned top face does not
  // hold back a lateral contraction that the bar would otherwise have. E = 1 MPa: the strain stays
  // below 1 %, where both models are linear elasticity.
  const double L = 1.0, E = 1e6, rho = 1000.0;
  const double expected = rho * kGravity * L * L / (2.0 * E);  // 4.9 mm
  for (MaterialModel model : {MaterialModel::Corotational, MaterialModel::NeoHookean}) {
    FemBodySettings settings;
    settings.material.model = model;
    settings.material.youngsModulus = E;
    settings.material.poissonRatio = 0.0;
    settings.density = rho;
    FemBody body(boxTetMesh(Vec3(0.1, 0.1, L), 2, 2, 10), settings);
    pinFace(body, 2, 0.5 * L);
    // The bar's axial period is 4 L sqrt(rho / E) = 0.13 s; dt = 1 s.
    EXPECT_LE(settle(body, 1.0, 20, 1e-6 * expected), 20);
    const double lengthening = -faceDisplacement(body, 2, -0.5 * L, 2);
    EXPECT_NEAR(lengthening, expected, 0.03 * expected) << "model " << static_cast<int>(model);
  }
}

TEST(FemStatics, CantileverTipDeflectionMatchesEulerBernoulli) {
  // A 1 x 0.1 x 0.1 m beam clamped at x = -0.5 (the whole end face pinned), bending under its own
  // weight q = rho g A: w(L) = q L^4 / (8 E I), I = h^4 / 12. E = 100 MPa keeps the deflection at
  // 1.5 % of the length (small-deflection theory); nu = 0 as for the bar. 80 x 6 x 6 cells (17,280
  // tetrahedra): linear tetrahedra are too stiff in bending and converge from below, about 6.5 %
  // short here (17 % at 40 x 4 x 4; Timoshenko's shear term would add 0.8 % to the analytic value).
  const double L = 1.0, h = 0.1, E = 1e8, rho = 1000.0;
  FemBodySettings settings;
  settings.material.youngsModulus = E;
  settings.material.poissonRatio = 0.0;
  settings.density = rho;
  FemBody body(boxTetMesh(Vec3(L, h, h), 80, 6, 6), settings);
  pinFace(body, 0, -0.5 * L);
  const double q = rho * kGravity * h * h, I = h * h * h * h / 12.0;
  const double expected = q * L * L * L * L / (8.0 * E * I);  // 14.7 mm
  // The first bending period is about 0.2 s; dt = 10 s. Three steps settle to 1e-5 of the deflection.
  EXPECT_LE(settle(body, 10.0, 10, 1e-5 * expected), 10);
  const double deflection = -faceDisplacement(body, 0, 0.5 * L, 2);
  EXPECT_NEAR(deflection, expected, 0.10 * expected);
  EXPECT_LT(deflection, expected) << "linear tetrahedra are stiffer than the beam";
}

}  // namespace contactlab::fem_statics_test
