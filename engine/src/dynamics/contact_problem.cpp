#include "dynamics/contact_problem.h"

namespace contactlab {

Mat4 diagonalBlock(const ContactProblem& problem, int k) {
  const ContactBlock& block = problem.blocks[k];
  Mat4 a = Mat4::Zero();
  // Per dynamic side, J M^-1 J^T with J = [C^T, (r x C)^T; 0, n^T] (the side's sign squares away).
  auto addSide = [&](int slot, const Vec3& arm) {
    if (slot < 0) return;
    const SlotInverseMass& m = problem.inverseMass[slot];
    Eigen::Matrix<double, 4, 3> angular;
    for (int row = 0; row < 3; ++row) angular.row(row) = arm.cross(block.frame.col(row)).transpose();
    angular.row(kTorsion) = block.frame.col(0).transpose();
    a.topLeftCorner<3, 3>() += m.invMass * (block.frame.transpose() * block.frame);
    a += angular * m.invInertiaWorld * angular.transpose();
  };
  addSide(block.slotA, block.armA);
  addSide(block.slotB, block.armB);
  return a;
}

void applyInvMassJt(const ContactProblem& problem, const Eigen::VectorXd& lambda, Eigen::VectorXd& w) {
  w.setZero(6 * problem.numSlots);
  for (int k = 0; k < problem.numContacts(); ++k) addInvMassJt(problem, k, lambda.segment<4>(4 * k), w);
}

}  // namespace contactlab
