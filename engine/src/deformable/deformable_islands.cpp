#include "deformable/deformable_islands.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/disjoint_sets.h"

namespace contactlab {

std::vector<DeformableIsland> findDeformableIslands(const DeformableProblem& problem, const std::vector<int>& firstNodes) {
  // Units: the deformable bodies, then the coupled rigid bodies, in the order of their nodes.
  const int numDeformable = static_cast<int>(firstNodes.size());
  const int numRigid = (problem.numNodes() - problem.firstRigidNode) / 2;
  const auto unitOfNode = [&](int node) {
    if (node >= problem.firstRigidNode) return numDeformable + (node - problem.firstRigidNode) / 2;
    return static_cast<int>(std::upper_bound(firstNodes.begin(), firstNodes.end(), node) - firstNodes.begin()) - 1;
  };
  // A constraint's first unit, -1 for a retired one.
  const auto firstUnit = [&](const DeformableConstraint& c) {
    for (const int node : c.node)
      if (node >= 0) return unitOfNode(node);
    for (const DeformableConstraint::RigidTerm& term : c.rigid)
      if (term.body >= 0) return numDeformable + term.body;
    return -1;
  };
  DisjointSets sets;
  sets.reset(numDeformable + numRigid);
  for (const DeformableConstraint& c : problem.constraints) {
    const int first = firstUnit(c);
    for (const int node : c.node)
      if (node >= 0) sets.join(first, unitOfNode(node));
    for (const DeformableConstraint::RigidTerm& term : c.rigid)
      if (term.body >= 0) sets.join(first, numDeformable + term.body);
  }
  // A set's root is its first unit, met before the others: islands come in the order of their first node.
  std::vector<int> islandOfUnit(numDeformable + numRigid);
  std::vector<DeformableIsland> islands;
  for (int unit = 0; unit < numDeformable + numRigid; ++unit) {
    const int root = sets.root(unit);
    if (root == unit) {
      islandOfUnit[unit] = static_cast<int>(islands.size());
      islands.emplace_back();
    } else {
      islandOfUnit[unit] = islandOfUnit[root];
    }
    DeformableIsland& island = islands[islandOfUnit[unit]];
    if (unit < numDeformable) {
      island.deformableBodies.push_back(unit);
      const int end = unit + 1 < numDeformable ? firstNodes[unit + 1] : problem.firstRigidNode;
      for (int node = firstNodes[unit]; node < end; ++node) island.nodes.push_back(node);
    } else {
      const int body = unit - numDeformable;
      island.rigidBodies.push_back(body);
      island.nodes.push_back(problem.linearNode(body));
      island.nodes.push_back(problem.angularNode(body));
    }
  }
  for (int k = 0; k < problem.numConstraints(); ++k)
    if (const int first = firstUnit(problem.constraints[k]); first >= 0) islands[islandOfUnit[first]].constraints.push_back(k);
  return islands;
}

namespace deformable_islands_impl {

// The counts that add up and the flags that any solve sets, whether solves ran side by side or
// one after the other.
void addCounts(DeformableSolveReport& into, const DeformableSolveReport& from) {
  into.allIterations += from.allIterations;
  into.activeSetChanges += from.activeSetChanges;
  into.residualRestarts += from.residualRestarts;
  into.relinearizations += from.relinearizations;
  into.collisionRounds += from.collisionRounds;
  into.localMinimum = into.localMinimum || from.localMinimum;
  into.tookBestIterate = into.tookBestIterate || from.tookBestIterate;
  into.stalled = into.stalled || from.stalled;
}

}  // namespace deformable_islands_impl

DeformableSolveReport combineIslandReports(const std::vector<DeformableSolveReport>& islands) {
  using deformable_islands_impl::addCounts;
  DeformableSolveReport total;
  total.islands = static_cast<int>(islands.size());
  total.convergence = Convergence::Absolute;
  double squaredResidual = 0.0;
  std::size_t longest = 0;
  for (const DeformableSolveReport& r : islands) {
    total.iterations = std::max(total.iterations, r.iterations);
    addCounts(total, r);
    if (!r.converged()) total.convergence = Convergence::None;
    squaredResidual += r.residual * r.residual;
    longest = std::max(longest, r.residualHistory.size());
  }
  total.residual = std::sqrt(squaredResidual);
  total.residualHistory.assign(longest, 0.0);
  total.constraintHistory.assign(longest, 0.0);
  for (const DeformableSolveReport& r : islands)
    for (std::size_t i = 0; i < longest; ++i) {
      // An island that has stopped (or never iterated) stays at its last values.
      const double residual = r.residualHistory.empty() ? r.residual : r.residualHistory[std::min(i, r.residualHistory.size() - 1)];
      const double error = r.constraintHistory.empty() ? 0.0 : r.constraintHistory[std::min(i, r.constraintHistory.size() - 1)];
      total.residualHistory[i] += residual * residual;
      total.constraintHistory[i] = std::max(total.constraintHistory[i], error);
    }
  for (double& h : total.residualHistory) h = std::sqrt(h);
  return total;
}

void addPassReport(DeformableSolveReport& step, const DeformableSolveReport& pass) {
  using deformable_islands_impl::addCounts;
  step.iterations += pass.iterations;
  addCounts(step, pass);
  step.residualHistory.insert(step.residualHistory.end(), pass.residualHistory.begin(), pass.residualHistory.end());
  step.constraintHistory.insert(step.constraintHistory.end(), pass.constraintHistory.begin(), pass.constraintHistory.end());
}

IslandProblem::IslandProblem(DeformableIsland island, DeformableProblem& whole, DeformableContacts& contacts,
                             Eigen::VectorXd& wholeVelocities, int numDeformableBodies, std::mutex* contactsMutex)
    : island_(std::move(island)),
      whole_(whole),
      contacts_(contacts),
      wholeVelocities_(wholeVelocities),
      contactsMutex_(contactsMutex) {
  ownNode_.assign(whole.numNodes(), -1);
  for (std::size_t i = 0; i < island_.nodes.size(); ++i) ownNode_[island_.nodes[i]] = static_cast<int>(i);
  ownRigidBody_.assign((whole.numNodes() - whole.firstRigidNode) / 2, -1);
  for (std::size_t j = 0; j < island_.rigidBodies.size(); ++j) ownRigidBody_[island_.rigidBodies[j]] = static_cast<int>(j);
  scope_.deformable.assign(numDeformableBodies, 0);
  for (const int d : island_.deformableBodies) scope_.deformable[d] = 1;
  scope_.coupled.assign(ownRigidBody_.size(), 0);
  for (const int j : island_.rigidBodies) scope_.coupled[j] = 1;
  scope_.constraints = island_.constraints;

  // A's blocks join only nodes of one body, so the island's rows hold all their blocks; the nodes
  // keep their order, so each row's columns stay ascending and a product sums them as the whole's.
  const int count = static_cast<int>(island_.nodes.size());
  std::vector<BlockSparseMatrix3::Entry> entries;
  problem_.b.resize(3 * count);
  for (int i = 0; i < count; ++i) {
    const int row = island_.nodes[i];
    for (int at = whole.A.rowStart()[row]; at < whole.A.rowStart()[row + 1]; ++at)
      entries.push_back({i, ownNode_[whole.A.blockColumn()[at]], whole.A.blocks()[at]});
    problem_.b.segment<3>(3 * i) = whole.b.segment<3>(3 * row);
  }
  problem_.A.assign(count, std::move(entries));
  problem_.dt = whole.dt;
  problem_.firstRigidNode = count - 2 * static_cast<int>(island_.rigidBodies.size());
  copyConstraints(problem_);
}

void IslandProblem::copyConstraints(DeformableProblem& into) const {
  into.constraints.clear();
  for (const int k : island_.constraints) {
    DeformableConstraint c = whole_.constraints[k];
    for (int& node : c.node)
      if (node >= 0) node = ownNode_[node];
    for (DeformableConstraint::RigidTerm& term : c.rigid)
      if (term.body >= 0) term.body = ownRigidBody_[term.body];
    into.constraints.push_back(c);
  }
}

void IslandProblem::renumberConstraints(const std::vector<int>& newIndex) {
  for (int& k : island_.constraints) k = newIndex[k];
  scope_.constraints = island_.constraints;
}

Eigen::VectorXd IslandProblem::gatherNodes(const Eigen::VectorXd& whole) const {
  Eigen::VectorXd own(3 * island_.nodes.size());
  for (std::size_t i = 0; i < island_.nodes.size(); ++i) own.segment<3>(3 * i) = whole.segment<3>(3 * island_.nodes[i]);
  return own;
}

void IslandProblem::scatterNodes(const Eigen::VectorXd& own, Eigen::VectorXd& whole) const {
  for (std::size_t i = 0; i < island_.nodes.size(); ++i) whole.segment<3>(3 * island_.nodes[i]) = own.segment<3>(3 * i);
}

Eigen::VectorXd IslandProblem::gatherConstraints(const Eigen::VectorXd& whole) const {
  Eigen::VectorXd own(3 * island_.constraints.size());
  for (std::size_t i = 0; i < island_.constraints.size(); ++i)
    own.segment<3>(3 * i) = whole.segment<3>(3 * island_.constraints[i]);
  return own;
}

void IslandProblem::scatterConstraints(const Eigen::VectorXd& own, Eigen::VectorXd& whole) const {
  for (std::size_t i = 0; i < island_.constraints.size(); ++i)
    whole.segment<3>(3 * island_.constraints[i]) = own.segment<3>(3 * i);
}

int IslandProblem::addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) {
  const auto lock = lockContacts();
  scatterNodes(v, wholeVelocities_);
  const std::size_t before = scope_.constraints.size();
  {
    const ScopedContacts scoped(contacts_, scope_);
    contacts_.addCollisions(wholeVelocities_, whole_);
  }
  const int taken = static_cast<int>(scope_.constraints.size() - before);
  island_.constraints = scope_.constraints;
  if (taken > 0) copyConstraints(problem);
  return taken;
}

int IslandProblem::relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                               DeformableProblem& problem) {
  const auto lock = lockContacts();
  scatterNodes(v, wholeVelocities_);
  std::vector<std::uint8_t> wholeActive(whole_.numConstraints(), 0);
  for (std::size_t i = 0; i < island_.constraints.size(); ++i) wholeActive[island_.constraints[i]] = active[i];
  int changed = 0;
  {
    const ScopedContacts scoped(contacts_, scope_);
    changed = contacts_.relinearize(wholeVelocities_, wholeActive, whole_);
  }
  island_.constraints = scope_.constraints;  // with the second constraints of vertices in creases
  if (changed > 0) copyConstraints(problem);
  return changed;
}

}  // namespace contactlab
