#include "dynamics/contact_problem.h"

namespace contactlab {

Mat4 diagonalBlock(const ContactBlock& block) {
  Mat4 a = Mat4::Zero();
  if (block.slotA >= 0) a += block.jacobianA * block.invMassJtA;
  if (block.slotB >= 0) a += block.jacobianB * block.invMassJtB;
  return a;
}

void applyInvMassJt(const ContactProblem& problem, const Eigen::VectorXd& lambda, Eigen::VectorXd& w) {
  w.setZero(6 * problem.numSlots);
  for (int k = 0; k < problem.numContacts(); ++k) addInvMassJt(problem.blocks[k], lambda.segment<4>(4 * k), w);
}

Vec4 contactVelocity(const ContactBlock& block, const Eigen::VectorXd& w) {
  Vec4 v = block.b;
  if (block.slotA >= 0) v.noalias() += block.jacobianA * w.segment<6>(6 * block.slotA);
  if (block.slotB >= 0) v.noalias() += block.jacobianB * w.segment<6>(6 * block.slotB);
  return v;
}

void addInvMassJt(const ContactBlock& block, const Vec4& deltaLambda, Eigen::VectorXd& w) {
  if (block.slotA >= 0) w.segment<6>(6 * block.slotA).noalias() += block.invMassJtA * deltaLambda;
  if (block.slotB >= 0) w.segment<6>(6 * block.slotB).noalias() += block.invMassJtB * deltaLambda;
}

}  // namespace contactlab
