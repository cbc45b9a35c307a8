#include "solvers/prox/prox_jacobi.h"

#include <algorithm>

#include "core/thread_pool.h"
#include "solvers/prox/prox_contact_update.h"

namespace contactlab {

void ProxJacobi::prepare(const ContactProblem& problem, const RFactors&) {
  slotContacts_.build(problem);
  share_.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) {
    int sharing = 1;
    for (const int slot : {problem.blocks[k].slotA, problem.blocks[k].slotB})
      if (slot >= 0) sharing = std::max(sharing, slotContacts_.count(slot));
    share_[k] = 1.0 / sharing;
  }
}

double ProxJacobi::sweep(const ContactProblem& problem, const RFactors& r) {
  // Alg. 1, lines 3-4: w = M^-1 J^T lambda^k, then z = lambda^k - R (J w + b) per contact. Both
  // loops are parallel: w is gathered per body, each contact reads lambda^k and w only and writes
  // its own entries of lambda^{k+1}, and the merit (a maximum, exact in any order) is kept per
  // chunk and combined in chunk order.
  applyInvMassJt(problem, slotContacts_, lambda_, w_, threadPool());
  next_.resize(lambda_.size());
  constexpr int kContactsPerChunk = 256;
  chunkMerit_.assign(ThreadPool::chunkCount(problem.numContacts(), kContactsPerChunk), 0.0);
  parallelFor(threadPool(), problem.numContacts(), kContactsPerChunk, [&](int begin, int end, int chunk) {
    double merit = 0.0;
    for (int k = begin; k < end; ++k) {
      const ContactBlock& block = problem.blocks[k];
      const Vec4 previous = lambda_.segment<4>(4 * k);
      // Lines 7-8: the friction set is sized by the previous normal impulse lambda_n^k.
      const Vec4 next = proxContactUpdate(block.friction, r, k, share_[k], previous, contactVelocity(block, w_));
      next_.segment<4>(4 * k) = next;
      merit = mergeMerit(merit, block, next - previous);
    }
    chunkMerit_[chunk] = merit;
  });
  lambda_.swap(next_);
  double merit = 0.0;
  for (const double chunk : chunkMerit_) merit = std::max(merit, chunk);
  return merit;
}

}  // namespace contactlab
