#include "dynamics/contact_anchors.h"

#include <cmath>

#include "solvers/prox/prox_operators.h"

namespace contactlab {
namespace {

// How far inside the friction ellipsoid a contact must be to count as sticking: a contact on its
// boundary slides, and an iterate stopped at a tolerance sits on it within about that much.
constexpr double kStickingMargin = 0.98;

// Inside the friction set of eq. 16 shrunk by kStickingMargin; a frictionless direction holds nothing.
bool sticks(const ContactBlock& block, const Vec4& lambda) {
  return lambda[kNormal] > 0.0 &&
         insideEllipsoid(Vec3(lambda.tail<3>() / kStickingMargin), frictionSemiAxes(block.friction, lambda[kNormal]));
}

}  // namespace

void biasTowardAnchors(const std::vector<ContactSlip>& slips, double dt, ContactProblem& problem, std::vector<Vec4>& bias) {
  bias.assign(problem.numContacts(), Vec4::Zero());
  for (int k = 0; k < problem.numContacts(); ++k) {
    ContactBlock& block = problem.blocks[k];
    const ContactSlip& slip = slips[k];
    Vec4& b = bias[k];
    b[kTangentT] = kAnchorRate * block.frame.col(1).dot(slip.slip) / dt;
    b[kTangentS] = kAnchorRate * block.frame.col(2).dot(slip.slip) / dt;
    block.b += b;
  }
}

void advanceSlips(const ContactProblem& problem, const Eigen::VectorXd& lambda, const Eigen::VectorXd& response,
                  const std::vector<Vec4>& bias, double dt, std::vector<ContactSlip>& slips) {
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    ContactSlip& slip = slips[k];
    if (!sticks(block, lambda.segment<4>(4 * k))) {
      slip = {};
      continue;
    }
    const Vec4 velocity = block.b - bias[k] + jacobianTimes(block, response);
    const Vec3 tangent = block.frame.col(1), bitangent = block.frame.col(2);
    slip.slip = tangent * (tangent.dot(slip.slip) + dt * velocity[kTangentT]) +
                bitangent * (bitangent.dot(slip.slip) + dt * velocity[kTangentS]);
    if (slip.slip.norm() > kLongestSlip) slip = {};
  }
}

}  // namespace contactlab
