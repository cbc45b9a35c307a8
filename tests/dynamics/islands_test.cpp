// Contact islands (engine/src/dynamics/islands.h, island_solve.h): bodies joined by contacts, static
// and kinematic bodies joining none, each island solved as a problem of its own.
#include "dynamics/islands.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

ContactBlock contactBetween(int slotA, int slotB) {
  ContactBlock block;
  block.slotA = slotA;
  block.slotB = slotB;
  block.frame = Mat3::Identity();
  block.b = Vec4(slotA, slotB, 0, 0);  // marks the block, to find it again after extraction
  return block;
}

// Slots 0..5: 0-3 and 2-4 touch (one island), 1 rests on static ground only, 5 touches nothing.
ContactProblem sixBodies() {
  ContactProblem problem;
  problem.numSlots = 6;
  problem.inverseMass.resize(6);
  for (int slot = 0; slot < 6; ++slot) problem.inverseMass[slot].invMass = 1.0 + slot;
  problem.blocks = {contactBetween(-1, 1), contactBetween(0, 3), contactBetween(2, 4), contactBetween(3, 2),
                    contactBetween(-1, 0)};
  return problem;
}

TEST(ContactIslands, BodiesJoinedByContactsShareAnIslandAndStaticBodiesJoinNone) {
  ContactIslands islands;
  islands.find(sixBodies());
  ASSERT_EQ(islands.count(), 3);  // {0, 2, 3, 4}, {1}, {5}: numbered by their first slot
  EXPECT_EQ(std::vector<int>(islands.slots(0).begin(), islands.slots(0).end()), (std::vector<int>{0, 2, 3, 4}));
  EXPECT_EQ(std::vector<int>(islands.contacts(0).begin(), islands.contacts(0).end()), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(std::vector<int>(islands.slots(1).begin(), islands.slots(1).end()), (std::vector<int>{1}));
  EXPECT_EQ(std::vector<int>(islands.contacts(1).begin(), islands.contacts(1).end()), (std::vector<int>{0}));
  EXPECT_TRUE(islands.contacts(2).empty());
  EXPECT_EQ(islands.islandOfSlot(4), 0);
  EXPECT_EQ(islands.localSlot(4), 3);
  EXPECT_FALSE(islands.isWhole(sixBodies(), 0));
}

TEST(ContactIslands, AnIslandsProblemRenumbersItsSlots) {
  const ContactProblem whole = sixBodies();
  ContactIslands islands;
  islands.find(whole);
  ContactProblem island;
  islands.extractProblem(whole, 0, island);
  ASSERT_EQ(island.numSlots, 4);
  ASSERT_EQ(island.numContacts(), 4);
  EXPECT_EQ(island.inverseMass[1].invMass, 3.0);  // slot 2 is the island's second
  // Contact 1 (0-3) becomes (0, 2); contact 4 (ground-0) keeps its static side.
  EXPECT_EQ(island.blocks[0].slotA, 0);
  EXPECT_EQ(island.blocks[0].slotB, 2);
  EXPECT_EQ(island.blocks[0].b, whole.blocks[1].b);
  EXPECT_EQ(island.blocks[3].slotA, -1);
  EXPECT_EQ(island.blocks[3].slotB, 0);
}

// The raw bytes of `count` bodies' states from body `first` on, to compare runs bit for bit.
std::vector<double> states(const World& world, int first, int count) {
  std::vector<double> out;
  for (int i = first; i < first + count; ++i) {
    const Body& b = world.bodies()[i];
    out.insert(out.end(), b.position.data(), b.position.data() + 3);
    out.insert(out.end(), b.orientation.coeffs().data(), b.orientation.coeffs().data() + 4);
    out.insert(out.end(), b.velocity.data(), b.velocity.data() + 3);
    out.insert(out.end(), b.angularVelocity.data(), b.angularVelocity.data() + 3);
  }
  return out;
}

bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Boxes dropped in a few columns onto the ground: several islands while they fall and land.
std::vector<BodyDesc> columns(int count, double x0) {
  std::vector<BodyDesc> boxes;
  for (int i = 0; i < count; ++i)
    boxes.push_back(test::box(Vec3(0.4, 0.3, 0.2), Vec3(x0 + 0.7 * (i % 3), 0.05 * (i % 2), 0.3 + 0.35 * (i / 3))));
  return boxes;
}

Scene groundWith(const std::vector<std::vector<BodyDesc>>& groups) {
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  for (const auto& group : groups) scene.bodies.insert(scene.bodies.end(), group.begin(), group.end());
  return scene;
}

// The same columns alone, with another island after them on two threads, and with another island
// before them (so every index of theirs shifts): their states stay bit-identical.
TEST(IslandSolve, AnUnrelatedIslandLeavesEveryOtherIslandBitIdentical) {
  const std::vector<BodyDesc> mine = columns(9, 0.0), other = columns(6, 10.0);
  const int count = static_cast<int>(mine.size()), shift = static_cast<int>(other.size());
  for (const char* solver : {"prox-gs", "prox-jacobi", "pgs"}) {
    WorldSettings one, two;
    one.solver.solver = two.solver.solver = solver;
    two.threads = 2;
    World alone(groundWith({mine}), one), after(groundWith({mine, other}), two), before(groundWith({other, mine}), one);
    for (int step = 0; step < 120; ++step) {
      alone.step();
      after.step();
      before.step();
      const std::vector<double> reference = states(alone, 1, count);
      ASSERT_TRUE(bitIdentical(reference, states(after, 1, count))) << solver << ", step " << step;
      ASSERT_TRUE(bitIdentical(reference, states(before, 1 + shift, count))) << solver << ", step " << step;
    }
    EXPECT_GT(after.lastMetrics().contacts, alone.lastMetrics().contacts);  // the other island was solved too
  }
}

// A stack that is the world's only island is solved as the whole problem in place; beside a body
// falling far away it is an island extracted from a larger problem. Both give the same bits.
TEST(IslandSolve, AnIslandSolvedInPlaceOrExtractedGivesTheSameBits) {
  std::vector<BodyDesc> stack;
  for (int i = 0; i < 4; ++i) stack.push_back(test::box(Vec3(0.5, 0.4, 0.3), Vec3(0.02 * i, 0, 0.15 + 0.3 * i)));
  const std::vector<BodyDesc> far{test::sphere(0.2, Vec3(8, 0, 100))};
  World alone(groundWith({stack})), beside(groundWith({stack, far}));
  for (int step = 0; step < 150; ++step) {
    alone.step();
    beside.step();
    ASSERT_TRUE(bitIdentical(states(alone, 1, 4), states(beside, 1, 4))) << "step " << step;
  }
}

TEST(IslandSolve, ResultsAreBitIdenticalForOneAndTwoThreads) {
  const Scene scene = buildBuiltinScene("pile", {{"count", 120}}, 3);
  WorldSettings one, two;
  two.threads = 2;
  World a(scene, one), b(scene, two);
  const int bodies = static_cast<int>(scene.bodies.size());
  for (int step = 0; step < 150; ++step) {
    a.step();
    b.step();
    ASSERT_TRUE(bitIdentical(states(a, 0, bodies), states(b, 0, bodies))) << "step " << step;
  }
}

}  // namespace
}  // namespace contactlab
