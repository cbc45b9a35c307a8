#include "solvers/prox/prox_jacobi.h"

#include <algorithm>

namespace contactlab {
namespace {

// Alg. 1, lines 6-8 for contact k: z = lambda_k - R_k v, lambda_n = prox_N(z_n) (eq. 21a) and
// lambda_f = prox_F(z_f) (eq. 21b), F sized by the previous normal impulse lambda_n^k (line 7).
// A separating contact's friction set is the origin (eq. 16 with lambda_n = 0), and a point
// inside F is its own projection in every metric; only points outside take the search of sec. 4.1.
// (Gauss-Seidel's update, in ProxGaussSeidel::updateGroup, works on four contacts at a time.)
Vec4 proxContactUpdate(const ContactBlock& block, const RFactors& r, int k, double share, const Vec4& previous,
                       const Vec4& velocity) {
  const Vec4 z = previous - share * r.apply(k, velocity);
  Vec4 next;
  next[kNormal] = proxNormalCone(z[kNormal]);
  if (previous[kNormal] <= 0.0) {
    next.tail<3>().setZero();
  } else {
    const Vec3 axes = frictionSemiAxes(block.friction, previous[kNormal]);
    const Vec3 frictionTrial = z.tail<3>();
    next.tail<3>() = insideEllipsoid(frictionTrial, axes) ? frictionTrial : r.projectFriction(k, frictionTrial, axes);
  }
  return next;
}

}  // namespace

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
    const Vec4 next = proxContactUpdate(block, r, k, share_[k], previous, contactVelocity(block, w_));
    next_.segment<4>(4 * k) = next;
    merit = mergeMerit(merit, block, next - previous);
  }
  lambda_.swap(next_);
  return merit;
}

}  // namespace contactlab
