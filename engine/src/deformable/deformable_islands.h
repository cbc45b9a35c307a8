#pragma once
// The islands of the step's deformable MLCP: the deformable bodies and coupled rigid bodies joined by
// its constraints, each solved as its own MLCP by its own CR solve (DeformableSystem::solve). Bodies
// not joined by a constraint do not act on each other in the step, so the islands' solutions
// together solve the whole problem; what changes is the solve's work. In one MLCP every change of a
// constraint's state restarts the recurrence of every body (Alg. 1, lines 19-21), and every body
// iterates until the slowest has converged; per island, a restart costs that island's iterations and
// each island stops at its own tolerance (epsilon_1 relative to its own ||b - A v||). A falling
// bunny needs about 130 iterations a step; in one MLCP with a few cycling constraints elsewhere it
// took thousands. This is our choice; the paper (sec. 2.3, 5) assembles one system.
//
// The constraints the solve's collision checks add (Alg. 1, line 25) can join an island to another;
// such a constraint waits until the islands' solves are over, and the islands it joins are then
// solved again, as one (DeformableSystem::solve).
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "contactlab/metrics.h"
#include "deformable/deformable_contacts.h"
#include "problem/deformable_problem.h"

namespace contactlab {

// One island: its nodes in the problem's order (its deformable bodies' nodes, then two per coupled
// rigid body) and its constraints, all by their indices in the whole problem.
struct DeformableIsland {
  std::vector<int> deformableBodies;  // ascending
  std::vector<int> rigidBodies;       // the problem's rigid bodies (DeformableProblem::linearNode), ascending
  std::vector<int> nodes;             // ascending
  std::vector<int> constraints;       // ascending
};

// The islands of `problem`, ordered by their first node; `firstNodes` holds each deformable body's
// first node (ascending; the bodies' nodes are contiguous). Every deformable and coupled rigid body
// is in exactly one island, alone if no constraint joins it to another; retired constraints (no
// node, no rigid body) are in none.
std::vector<DeformableIsland> findDeformableIslands(const DeformableProblem& problem, const std::vector<int>& firstNodes);

// The report of one pass over the islands from its islands' (DeformableSolveReport says how):
// the most iterations of any, all islands' counts summed, the residual histories together.
DeformableSolveReport combineIslandReports(const std::vector<DeformableSolveReport>& islands);
// Adds a pass's report to the step's, whose passes ran one after the other: iterations and counts
// add up, histories follow each other. Convergence, residual and islands are left to the caller:
// those of the islands the step ends with.
void addPassReport(DeformableSolveReport& step, const DeformableSolveReport& pass);

// An island's own MLCP, cut from the whole problem: A's blocks and b's entries of its nodes, its
// constraints with their nodes and rigid bodies renumbered. As the ConstraintUpdater of the island's
// solve it passes the solve's collision checks and re-linearizations to the whole problem's
// DeformableContacts, scoped to the island (DeformableContacts::Scope), and brings back what they
// change. With a mutex, those calls hold it, so islands can be solved side by side; the island's
// own iterations touch nothing shared.
class IslandProblem final : public ConstraintUpdater {
 public:
  // `whole` and `contacts` are kept by reference until the island's solve is over; `wholeVelocities`
  // (3 per node of `whole`) is the scratch vector the contacts see the island's iterate in. The
  // solve it updates runs on problem().
  IslandProblem(DeformableIsland island, DeformableProblem& whole, DeformableContacts& contacts,
                Eigen::VectorXd& wholeVelocities, int numDeformableBodies, std::mutex* contactsMutex = nullptr);

  DeformableProblem& problem() { return problem_; }
  // The island, its constraints by their indices in the whole problem, in the order of problem()'s:
  // those it started with, then those its collision checks added.
  const DeformableIsland& island() const { return island_; }
  // Constraints the collision checks found between this island and another, not in the problem:
  // DeformableContacts::appendDeferred appends them, and the islands they join are solved again.
  const std::vector<std::pair<DeformableContacts::Pair, DeformableConstraint>>& deferred() const { return scope_.deferred; }
  // The island's entries of a vector of the whole problem, 3 per node or 3 per constraint, and back.
  Eigen::VectorXd gatherNodes(const Eigen::VectorXd& whole) const;
  void scatterNodes(const Eigen::VectorXd& own, Eigen::VectorXd& whole) const;
  Eigen::VectorXd gatherConstraints(const Eigen::VectorXd& whole) const;
  void scatterConstraints(const Eigen::VectorXd& own, Eigen::VectorXd& whole) const;
  // After the whole problem's constraints were renumbered (DeformableContacts::reorder):
  // newIndex[k] is the new index of what was constraint k.
  void renumberConstraints(const std::vector<int>& newIndex);

  int addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) override;
  int relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                  DeformableProblem& problem) override;

 private:
  // The island's constraints, copied from the whole problem with their indices renumbered.
  void copyConstraints(DeformableProblem& into) const;
  std::unique_lock<std::mutex> lockContacts() const {
    return contactsMutex_ ? std::unique_lock<std::mutex>(*contactsMutex_) : std::unique_lock<std::mutex>();
  }
  // The contacts scoped to this island for one call, unscoped again however the call ends.
  class ScopedContacts {
   public:
    ScopedContacts(DeformableContacts& contacts, DeformableContacts::Scope& scope) : contacts_(contacts) {
      contacts_.setScope(&scope);
    }
    ~ScopedContacts() { contacts_.setScope(nullptr); }
    ScopedContacts(const ScopedContacts&) = delete;
    ScopedContacts& operator=(const ScopedContacts&) = delete;

   private:
    DeformableContacts& contacts_;
  };

  DeformableIsland island_;
  DeformableProblem& whole_;
  DeformableContacts& contacts_;
  Eigen::VectorXd& wholeVelocities_;
  std::mutex* contactsMutex_;
  DeformableContacts::Scope scope_;  // its constraints are island_.constraints, kept in step
  std::vector<int> ownNode_;       // per node of the whole problem: its index in the island, -1 outside
  std::vector<int> ownRigidBody_;  // per rigid body of the whole problem: its index in the island, -1
  DeformableProblem problem_;
};

}  // namespace contactlab
