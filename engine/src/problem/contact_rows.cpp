#include "problem/contact_rows.h"

namespace contactlab {

void BodySpaceRows::bind(const ContactProblem& problem) {
  problem_ = &problem;
  blockA_.resize(problem.numContacts());
  // contactlab::diagonalBlock, the free function (the member of that name would hide it).
  for (int k = 0; k < problem.numContacts(); ++k) blockA_[k] = contactlab::diagonalBlock(problem, k);
}

void BodySpaceRows::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) {
  applyInvMassJt(*problem_, x, scratchW_);
  out.resize(x.size());
  for (int k = 0; k < numContacts(); ++k) out.segment<4>(4 * k) = jacobianTimes(problem_->blocks[k], scratchW_);
}

void DelassusRows::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  const DelassusProblem& p = *problem_;
  out.resize(x.size());
  for (int k = 0; k < numContacts(); ++k) {
    Vec4 sum = Vec4::Zero();
    for (int b = p.rowStart[k]; b < p.rowStart[k + 1]; ++b)
      sum.noalias() += p.blocks[b] * x.segment<4>(4 * p.blockColumn[b]);
    out.segment<4>(4 * k) = sum;
  }
}

}  // namespace contactlab
