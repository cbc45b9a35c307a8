#include "dynamics/post_stabilization.h"

#include "dynamics/free_rotation.h"
#include "solvers/prox/prox_operators.h"

namespace contactlab {

void stabilizePositions(const ContactProblem& problem, const std::vector<double>& gapAtEnd,
                        const std::vector<int>& bodyOfSlot, const StabilizationSettings& settings,
                        std::vector<Body>& bodies) {
  const int contacts = problem.numContacts();
  bool anyPenetration = false;
  for (double gap : gapAtEnd) anyPenetration |= gap < -settings.allowedPenetration;
  if (!anyPenetration) return;

  // Only the normal rows take part: lambda has 4 rows per contact with t, s, tau kept at zero.
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(4 * contacts);
  Eigen::VectorXd displacement = Eigen::VectorXd::Zero(6 * problem.numSlots);  // M^-1 J^T lambda
  for (int sweep = 0; sweep < settings.sweeps; ++sweep) {
    for (int k = 0; k < contacts; ++k) {
      const ContactBlock& block = problem.blocks[k];
      double gap = gapAtEnd[k] + settings.allowedPenetration;  // eq. 47 with the allowed slop
      if (block.slotA >= 0) gap += block.jacobianA.row(kNormal).dot(displacement.segment<6>(6 * block.slotA));
      if (block.slotB >= 0) gap += block.jacobianB.row(kNormal).dot(displacement.segment<6>(6 * block.slotB));
      // eq. 50 with the Local r-factor r = 1 / A_nn.
      const double next = proxNormalCone(lambda[4 * k] - gap / block.diagonalA[kNormal]);
      Vec4 delta = Vec4::Zero();
      delta[kNormal] = next - lambda[4 * k];
      addInvMassJt(block, delta, displacement);
      lambda[4 * k] = next;
    }
  }
  // eq. 51.
  for (std::size_t slot = 0; slot < bodyOfSlot.size(); ++slot) {
    Body& body = bodies[bodyOfSlot[slot]];
    body.position += displacement.segment<3>(6 * slot);
    body.orientation = rotateByAngularVelocity(body.orientation, displacement.segment<3>(6 * slot + 3), 1.0);
  }
}

}  // namespace contactlab
