// The per-body gather of M^-1 J^T lambda (the parallel applyInvMassJt) against the serial loop over
// contacts: bit-identical for every thread count, since each body sums the same terms in the same order.
#include <gtest/gtest.h>

#include <random>

#include "core/thread_pool.h"
#include "problem/contact_problem.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

TEST(ContactProblem, GatheredInvMassJtIsBitIdenticalToTheSerialLoop) {
  // 400 boxes with random contacts among them: bodies with many contacts, on both sides (A and B).
  const test::AssembledProblem p = test::makeRandomContactGraphProblem(400, 900, 11);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> impulse(-2.0, 2.0);
  Eigen::VectorXd lambda(p.problem.numRows());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda[i] = impulse(rng);

  Eigen::VectorXd serial;
  applyInvMassJt(p.problem, lambda, serial);
  SlotContacts slotContacts;
  slotContacts.build(p.problem);
  for (const int threads : {1, 2, 3, 4}) {
    ThreadPool pool(threads);
    Eigen::VectorXd gathered = Eigen::VectorXd::Constant(3, 7.0);  // wrong size and content on entry
    applyInvMassJt(p.problem, slotContacts, lambda, gathered, &pool);
    ASSERT_EQ(gathered.size(), serial.size());
    for (Eigen::Index i = 0; i < serial.size(); ++i)
      ASSERT_EQ(gathered[i], serial[i]) << "entry " << i << " with " << threads << " threads";
  }
}

TEST(ContactProblem, SlotContactsListsEachBodysContactsInOrder) {
  const test::AssembledProblem p = test::makeRandomContactGraphProblem(30, 40, 3);
  SlotContacts slotContacts;
  slotContacts.build(p.problem);
  for (int slot = 0; slot < p.problem.numSlots; ++slot) {
    std::vector<int> expected;
    for (int k = 0; k < p.problem.numContacts(); ++k)
      if (p.problem.blocks[k].slotA == slot || p.problem.blocks[k].slotB == slot) expected.push_back(k);
    EXPECT_EQ(std::vector<int>(slotContacts.begin(slot), slotContacts.end(slot)), expected) << "slot " << slot;
  }
}

}  // namespace
}  // namespace contactlab
