#include "dynamics/post_stabilization.h"

#include <algorithm>
#include <cmath>

#include "dynamics/free_rotation.h"
#include "solvers/prox/prox_operators.h"

namespace contactlab {
namespace {

// Gauss-Seidel on the normal rows for displacement impulses mu with
//   gapChange_k(dq) = J_n,k dq >= demand_k  (pushOnly: mu >= 0, complementarity, eq. 48-50), or
//   gapChange_k(dq) == demand_k              (contacts with involved[k] only, mu free).
// Returns dq = M^-1 J_n^T mu per slot.
Eigen::VectorXd solveNormalDisplacements(const ContactProblem& problem, const std::vector<double>& demand,
                                         const std::vector<std::uint8_t>& involved, bool pushOnly, int sweeps) {
  const int contacts = problem.numContacts();
  Eigen::VectorXd mu = Eigen::VectorXd::Zero(contacts);
  Eigen::VectorXd displacement = Eigen::VectorXd::Zero(6 * problem.numSlots);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (int k = 0; k < contacts; ++k) {
      if (!involved[k]) continue;
      const ContactBlock& block = problem.blocks[k];
      const double change = jacobianTimes(block, displacement)[kNormal];
      // Local r-factor r = 1 / A_nn.
      double next = mu[k] - (change - demand[k]) / block.diagonalA[kNormal];
      if (pushOnly) next = proxNormalCone(next);
      Vec4 delta = Vec4::Zero();
      delta[kNormal] = next - mu[k];
      addInvMassJt(problem, k, delta, displacement);
      mu[k] = next;
    }
  }
  return displacement;
}

// eq. 51: q <- q + M^-1 J^T mu.
void applyDisplacement(const Eigen::VectorXd& displacement, const std::vector<int>& bodyOfSlot,
                       std::vector<Body>& bodies) {
  for (std::size_t slot = 0; slot < bodyOfSlot.size(); ++slot) {
    Body& body = bodies[bodyOfSlot[slot]];
    body.position += displacement.segment<3>(6 * slot);
    body.orientation = rotateByAngularVelocity(body.orientation, displacement.segment<3>(6 * slot + 3), 1.0);
  }
}

}  // namespace

void stabilizePositions(const ContactProblem& problem, const std::vector<double>& gapAtEnd,
                        const std::vector<int>& bodyOfSlot, const StabilizationSettings& settings,
                        std::vector<Body>& bodies) {
  if (std::none_of(gapAtEnd.begin(), gapAtEnd.end(), [&](double gap) { return gap < -settings.allowedPenetration; }))
    return;
  // eq. 47 with the allowed slop: gap + change >= -allowed.
  std::vector<double> demand(gapAtEnd.size());
  for (std::size_t k = 0; k < gapAtEnd.size(); ++k) demand[k] = -(gapAtEnd[k] + settings.allowedPenetration);
  const std::vector<std::uint8_t> everyContact(gapAtEnd.size(), 1);
  applyDisplacement(solveNormalDisplacements(problem, demand, everyContact, true, settings.sweeps), bodyOfSlot, bodies);
}

void placeImpacts(const ContactProblem& problem, const std::vector<double>& closing,
                  const std::vector<int>& bodyOfSlot, std::vector<Body>& bodies) {
  std::vector<std::uint8_t> involved(closing.size());
  std::vector<double> demand(closing.size());
  bool any = false;
  for (std::size_t k = 0; k < closing.size(); ++k) {
    involved[k] = closing[k] > 0.0;
    demand[k] = -closing[k];
    any |= involved[k] != 0;
  }
  if (!any) return;
  constexpr int kSweeps = 20;  // the involved contacts are few and nearly independent
  applyDisplacement(solveNormalDisplacements(problem, demand, involved, false, kSweeps), bodyOfSlot, bodies);
}

}  // namespace contactlab
