#include "solvers/prox/prox_jacobi.h"

#include <algorithm>

#include "solvers/prox/prox_contact_update.h"

namespace contactlab {

void ProxJacobi::prepare(const ContactProblem& problem, const RFactors&) {
  contactsOnSlot_.assign(problem.numSlots, 0);
  for (const ContactBlock& block : problem.blocks)
    for (const int slot : {block.slotA, block.slotB})
      if (slot >= 0) ++contactsOnSlot_[slot];
  share_.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) {
    int sharing = 1;
    for (const int slot : {problem.blocks[k].slotA, problem.blocks[k].slotB})
      if (slot >= 0) sharing = std::max(sharing, contactsOnSlot_[slot]);
    share_[k] = 1.0 / sharing;
  }
}

double ProxJacobi::sweep(const ContactProblem& problem, const RFactors& r) {
  // Alg. 1, lines 3-4: w = M^-1 J^T lambda^k, then z = lambda^k - R (J w + b) per contact.
  applyInvMassJt(problem, lambda_, w_);
  next_.resize(lambda_.size());
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    const Vec4 previous = lambda_.segment<4>(4 * k);
    // Lines 7-8: the friction set is sized by the previous normal impulse lambda_n^k.
    const Vec4 next = proxContactUpdate(block.friction, r, k, share_[k], previous, contactVelocity(block, w_));
    next_.segment<4>(4 * k) = next;
    merit = mergeMerit(merit, block, next - previous);
  }
  lambda_.swap(next_);
  return merit;
}

}  // namespace contactlab
