// The deformable MLCP's islands (deformable_islands.h): which bodies share one, the island's own
// problem, the step's report from the islands', and in the World: an island's solve does not see
// another island, and islands a collision joins during the solve are solved again as one.
#include <gtest/gtest.h>

#include <cstring>

#include "deformable/deformable_islands.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

// Three deformable bodies of four nodes each (nodes 0-3, 4-7, 8-11) and one coupled rigid body
// (nodes 12, 13). Constraint 0 joins bodies 0 and 2, constraint 1 body 1 and the rigid body,
// constraint 2 is retired, constraint 3 holds body 2 against an obstacle.
DeformableProblem threeBodiesAndARigidOne() {
  DeformableProblem problem;
  problem.dt = 1e-3;
  problem.firstRigidNode = 12;
  std::vector<BlockSparseMatrix3::Entry> entries;
  for (int node = 0; node < 14; ++node) entries.push_back({node, node, (1.0 + node) * Mat3::Identity()});
  entries.push_back({0, 1, Mat3::Constant(0.5)});
  entries.push_back({1, 0, Mat3::Constant(0.5)});
  entries.push_back({9, 10, Mat3::Constant(0.25)});
  entries.push_back({10, 9, Mat3::Constant(0.25)});
  problem.A.assign(14, std::move(entries));
  problem.b = Eigen::VectorXd::LinSpaced(42, 1.0, 42.0);
  DeformableConstraint joinsZeroAndTwo;
  joinsZeroAndTwo.node = {9, 10, 11, 2};
  joinsZeroAndTwo.weight = {-0.2, -0.3, -0.5, 1.0};
  DeformableConstraint joinsOneAndRigid;
  joinsOneAndRigid.node = {5, -1, -1, -1};
  joinsOneAndRigid.weight = {1.0, 0.0, 0.0, 0.0};
  joinsOneAndRigid.rigid[0] = {0, -1.0, Vec3(0.1, 0.0, 0.0)};
  DeformableConstraint retired;
  DeformableConstraint onObstacle;
  onObstacle.node = {8, -1, -1, -1};
  onObstacle.weight = {1.0, 0.0, 0.0, 0.0};
  problem.constraints = {joinsZeroAndTwo, joinsOneAndRigid, retired, onObstacle};
  return problem;
}

const std::vector<int> kFirstNodesOfThree{0, 4, 8};

TEST(DeformableIslands, BodiesJoinedByConstraintsShareAnIslandInTheOrderOfTheirNodes) {
  const std::vector<DeformableIsland> islands = findDeformableIslands(threeBodiesAndARigidOne(), kFirstNodesOfThree);
  ASSERT_EQ(islands.size(), 2u);
  EXPECT_EQ(islands[0].deformableBodies, (std::vector<int>{0, 2}));
  EXPECT_TRUE(islands[0].rigidBodies.empty());
  EXPECT_EQ(islands[0].nodes, (std::vector<int>{0, 1, 2, 3, 8, 9, 10, 11}));
  EXPECT_EQ(islands[0].constraints, (std::vector<int>{0, 3}));
  EXPECT_EQ(islands[1].deformableBodies, (std::vector<int>{1}));
  EXPECT_EQ(islands[1].rigidBodies, (std::vector<int>{0}));
  EXPECT_EQ(islands[1].nodes, (std::vector<int>{4, 5, 6, 7, 12, 13}));
  EXPECT_EQ(islands[1].constraints, (std::vector<int>{1}));
}

TEST(DeformableIslands, ABodyWithoutConstraintsIsAnIslandOfItsOwn) {
  DeformableProblem problem = threeBodiesAndARigidOne();
  problem.constraints.clear();
  const std::vector<DeformableIsland> islands = findDeformableIslands(problem, kFirstNodesOfThree);
  ASSERT_EQ(islands.size(), 4u);
  EXPECT_EQ(islands[2].nodes, (std::vector<int>{8, 9, 10, 11}));
  EXPECT_EQ(islands[3].rigidBodies, (std::vector<int>{0}));
}

TEST(IslandProblem, CutsTheIslandsRowsOfAAndBAndRenumbersItsConstraints) {
  DeformableProblem whole = threeBodiesAndARigidOne();
  DeformableContacts contacts;
  Eigen::VectorXd scratch = Eigen::VectorXd::Zero(42);
  const std::vector<DeformableIsland> islands = findDeformableIslands(whole, kFirstNodesOfThree);
  for (const DeformableIsland& island : islands) {
    IslandProblem own(island, whole, contacts, scratch, 3);
    const DeformableProblem& p = own.problem();
    ASSERT_EQ(p.numNodes(), static_cast<int>(island.nodes.size()));
    const Eigen::MatrixXd dense = whole.A.dense(), ownDense = p.A.dense();
    for (int i = 0; i < p.numNodes(); ++i) {
      EXPECT_EQ(Vec3(p.b.segment<3>(3 * i)), Vec3(whole.b.segment<3>(3 * island.nodes[i])));
      for (int j = 0; j < p.numNodes(); ++j)
        EXPECT_EQ(Mat3(ownDense.block<3, 3>(3 * i, 3 * j)), Mat3(dense.block<3, 3>(3 * island.nodes[i], 3 * island.nodes[j])));
    }
    // The constraints' rows act on the same velocities: the whole's at the island's nodes.
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(42, -2.0, 3.0);
    const Eigen::VectorXd ownV = own.gatherNodes(v);
    ASSERT_EQ(p.numConstraints(), static_cast<int>(island.constraints.size()));
    for (int i = 0; i < p.numConstraints(); ++i)
      EXPECT_EQ(constraintRowsTimes(p, i, ownV), constraintRowsTimes(whole, island.constraints[i], v));
  }
  EXPECT_EQ(IslandProblem(islands[1], whole, contacts, scratch, 3).problem().firstRigidNode, 4);
}

TEST(IslandProblem, ScatterPutsBackWhatGatherTook) {
  DeformableProblem whole = threeBodiesAndARigidOne();
  DeformableContacts contacts;
  Eigen::VectorXd scratch = Eigen::VectorXd::Zero(42);
  const IslandProblem own(findDeformableIslands(whole, kFirstNodesOfThree)[1], whole, contacts, scratch, 3);
  const Eigen::VectorXd nodes = Eigen::VectorXd::LinSpaced(42, 1.0, 42.0);
  Eigen::VectorXd back = Eigen::VectorXd::Zero(42);
  own.scatterNodes(own.gatherNodes(nodes), back);
  for (const int node : {4, 5, 6, 7, 12, 13}) EXPECT_EQ(Vec3(back.segment<3>(3 * node)), Vec3(nodes.segment<3>(3 * node)));
  EXPECT_EQ(back.head(12).norm(), 0.0);
  const Eigen::VectorXd multipliers = Eigen::VectorXd::LinSpaced(12, 1.0, 12.0);
  Eigen::VectorXd multipliersBack = Eigen::VectorXd::Zero(12);
  own.scatterConstraints(own.gatherConstraints(multipliers), multipliersBack);
  EXPECT_EQ(multipliersBack, (Eigen::VectorXd(12) << 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0).finished());
}

TEST(DeformableIslands, TheStepsReportTakesTheMostIterationsAndSumsTheCounts) {
  DeformableSolveReport a, b;
  a.iterations = 3;
  a.activeSetChanges = 2;
  a.residualRestarts = 4;
  a.relinearizations = 1;
  a.convergence = Convergence::Absolute;
  a.residual = 3.0;
  a.residualHistory = {5.0, 4.0, 3.0};
  a.constraintHistory = {0.5, 0.2, 0.1};
  b.iterations = 1;
  b.activeSetChanges = 1;
  b.collisionRounds = 2;
  b.tookBestIterate = true;
  b.residual = 4.0;
  b.residualHistory = {4.0};
  b.constraintHistory = {0.3};
  const DeformableSolveReport total = combineIslandReports({a, b});
  EXPECT_EQ(total.islands, 2);
  EXPECT_EQ(total.iterations, 3);
  EXPECT_EQ(total.activeSetChanges, 3);
  EXPECT_EQ(total.residualRestarts, 4);
  EXPECT_EQ(total.relinearizations, 1);
  EXPECT_EQ(total.collisionRounds, 2);
  EXPECT_TRUE(total.tookBestIterate);
  EXPECT_FALSE(total.converged());  // b did not converge
  EXPECT_DOUBLE_EQ(total.residual, 5.0);
  // b stopped after its first iteration and counts with its last values after it.
  ASSERT_EQ(total.residualHistory.size(), 3u);
  EXPECT_DOUBLE_EQ(total.residualHistory[0], std::sqrt(41.0));
  EXPECT_DOUBLE_EQ(total.residualHistory[2], 5.0);
  EXPECT_EQ(total.constraintHistory, (std::vector<double>{0.5, 0.3, 0.3}));
}

TEST(DeformableIslands, AStepsPassesAddUpOneAfterTheOther) {
  DeformableSolveReport step, first, second;
  first.iterations = 30;
  first.allIterations = 50;
  first.activeSetChanges = 4;
  first.residualHistory = {2.0, 1.0};
  first.constraintHistory = {0.2, 0.1};
  second.iterations = 7;
  second.allIterations = 7;
  second.relinearizations = 2;
  second.localMinimum = true;
  second.residualHistory = {0.5};
  second.constraintHistory = {0.05};
  addPassReport(step, first);
  addPassReport(step, second);
  EXPECT_EQ(step.iterations, 37);
  EXPECT_EQ(step.allIterations, 57);
  EXPECT_EQ(step.activeSetChanges, 4);
  EXPECT_EQ(step.relinearizations, 2);
  EXPECT_TRUE(step.localMinimum);
  EXPECT_EQ(step.residualHistory, (std::vector<double>{2.0, 1.0, 0.5}));
  EXPECT_EQ(step.constraintHistory, (std::vector<double>{0.2, 0.1, 0.05}));
}

// The first soft cube's node positions after every step of a cube landing on a corner on the
// ground, with or without a second one dropped elsewhere, onto the same ground.
std::vector<double> landingCubeTrace(bool withAnotherIsland) {
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies = {test::staticGround(), test::softCube(0.2, Vec3(0, 0, 0.16))};
  scene.bodies[1].orientation = Quat(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  if (withAnotherIsland) {
    scene.bodies.push_back(test::softCube(0.15, Vec3(1.0, 0.5, 0.2)));
    scene.bodies.back().angularVelocity = Vec3(2.0, 0.0, 1.0);
  }
  World world(scene);
  std::vector<double> trace;
  for (int i = 0; i < 80; ++i) {
    world.step();
    EXPECT_EQ(world.lastMetrics().deformable.islands, withAnotherIsland ? 2 : 1) << "step " << i;
    for (const Vec3& x : world.deformableBody(0).positions) trace.insert(trace.end(), x.data(), x.data() + 3);
  }
  return trace;
}

// The cubes share the ground, a static body, which joins no island. In one MLCP the other cube's
// residual would set when this one's solve stops.
TEST(DeformableIslands, AnotherIslandDoesNotChangeABitOfACubesLanding) {
  const std::vector<double> alone = landingCubeTrace(false), withOther = landingCubeTrace(true);
  ASSERT_EQ(alone.size(), withOther.size());
  EXPECT_EQ(std::memcmp(alone.data(), withOther.data(), alone.size() * sizeof(double)), 0);
}

// Two soft cubes 6 mm apart at rest, out of each other's reach at the step's start (their
// candidates cover a millimetre): separate islands. A force on every node of the first throws it
// 20 mm in one step; its solve's collision check (Alg. 1, line 25) finds its vertices against the
// second cube's faces, which joins the islands, and the two are solved again as one: the first
// cube stops at the second's surface and pushes it.
// Solved side by side on two threads, the islands give the same bits as one after the other.
class IslandsOnThreads : public ::testing::TestWithParam<int> {};

TEST_P(IslandsOnThreads, IslandsACollisionCheckJoinsAreSolvedAgainAsOne) {
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  scene.bodies = {test::softCube(0.1, Vec3::Zero()), test::softCube(0.1, Vec3(0.106, 0.0, 0.0))};
  WorldSettings settings;
  settings.threads = GetParam();
  World world(scene, settings);
  const int nodes = static_cast<int>(world.deformableBody(0).positions.size());
  const double mass = world.bodies()[0].mass;
  for (int node = 0; node < nodes; ++node)
    world.setDeformableNodeForce(0, node, Vec3(mass * 20.0 / scene.dt / nodes, 0.0, 0.0));
  world.step();
  const StepMetrics& m = world.lastMetrics();
  EXPECT_EQ(m.deformable.islands, 1);
  EXPECT_GT(m.deformableConstraints, 0);
  EXPECT_LT(m.maxPenetration, 1e-4);  // the independent check: no vertex inside the other cube
  // The impulse of the forces, 20 m/s times the first cube's mass, is shared with the second.
  const Body &first = world.bodies()[0], &second = world.bodies()[1];
  EXPECT_GT(second.velocity.x(), 1.0);
  EXPECT_NEAR(first.mass * first.velocity.x() + second.mass * second.velocity.x(), mass * 20.0, 1e-3 * mass * 20.0);
}

INSTANTIATE_TEST_SUITE_P(Threads, IslandsOnThreads, ::testing::Values(1, 2));

// Pairs of cubes dropped onto each other, the pairs apart: a soft cube on a soft one, and two
// rigid boxes on soft ones (rigid bodies coupled to the soft ones, one per island). The node
// positions of the soft cubes and the rigid boxes' poses after every step, on `threads` threads.
std::vector<double> pairsOfCubesTrace(int threads) {
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies = {test::staticGround()};
  for (int pair = 0; pair < 3; ++pair) {
    const Vec3 base(0.4 * pair, 0.1 * pair, 0.0);
    scene.bodies.push_back(test::softCube(0.08, base + Vec3(0.0, 0.0, 0.05)));
    const Vec3 above = base + Vec3(0.01 * pair, 0.0, 0.13);
    scene.bodies.push_back(pair == 0 ? test::softCube(0.06, above) : test::box(Vec3::Constant(0.06), above));
    scene.bodies.back().orientation = Quat(Eigen::AngleAxisd(0.3 * (pair + 1), Vec3(1, 0, 0)));
  }
  WorldSettings settings;
  settings.threads = threads;
  World world(scene, settings);
  std::vector<double> trace;
  int mostIslands = 0;
  for (int i = 0; i < 120; ++i) {
    world.step();
    mostIslands = std::max(mostIslands, world.lastMetrics().deformable.islands);
    for (int b = 0; b < world.deformableBodyCount(); ++b)
      for (const Vec3& x : world.deformableBody(b).positions) trace.insert(trace.end(), x.data(), x.data() + 3);
    for (const Body& b : world.bodies())
      if (!b.isDeformable()) trace.insert(trace.end(), {b.position.x(), b.position.y(), b.position.z(), b.orientation.w()});
  }
  EXPECT_GE(mostIslands, 3);
  return trace;
}

TEST(DeformableIslands, ThreadCountDoesNotChangeABitOfIslandsSolvedSideBySide) {
  const std::vector<double> one = pairsOfCubesTrace(1), two = pairsOfCubesTrace(2);
  ASSERT_EQ(one.size(), two.size());
  EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace contactlab
