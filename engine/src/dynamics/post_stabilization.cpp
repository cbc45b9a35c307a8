#include "dynamics/post_stabilization.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "dynamics/free_rotation.h"
#include "solvers/prox/prox_operators.h"

namespace contactlab {
namespace {

// Gauss-Seidel on the normal rows of `contacts` for displacement impulses mu with
//   gapChange_k(dq) = J_n,k dq >= demand_k  (pushOnly: mu >= 0, complementarity, eq. 48-50), or
//   gapChange_k(dq) == demand_k              (contacts with involved[k] only, mu free),
// adding dq = M^-1 J_n^T mu per slot into `displacement`. Stops after `sweeps` sweeps, or once no
// contact's gap changed by more than `tolerance` in a sweep.
//
// A contact whose two bodies have not moved since it was last updated is skipped: its gap change
// is what it was then, so its update would change nothing (up to rounding). The sweeps after the
// first then visit only the contacts of bodies that the correction has moved since.
//
// Visits are numbered as they are made, by a count that runs on over the calls sharing `clock` (the
// islands of one correction, which share no dynamic body): a slot remembers the visit that last
// moved it (0: none) and a contact its last visit in this call (-1: none yet, so the first sweep
// visits every contact). One clock per correction, so that its slots are not cleared per island.
struct VisitClock {
  explicit VisitClock(int slots) : slotMoved(slots, 0) {}
  std::vector<long> slotMoved;
  long visit = 0;
};
void solveNormalDisplacements(const ContactProblem& problem, std::span<const int> contacts,
                              const std::vector<double>& demand, const std::vector<std::uint8_t>& involved,
                              bool pushOnly, int sweeps, double tolerance, VisitClock& clock, Eigen::VectorXd& mu,
                              Eigen::VectorXd& displacement) {
  std::vector<long>& slotMoved = clock.slotMoved;
  long& visit = clock.visit;
  std::vector<long> visited(contacts.size(), -1);
  const auto movedAt = [&](int slot) { return slot >= 0 ? slotMoved[slot] : 0L; };
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    double largestChange = 0.0;
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      const int k = contacts[i];
      if (!involved[k]) continue;
      const ContactBlock& block = problem.blocks[k];
      if (visited[i] >= std::max(movedAt(block.slotA), movedAt(block.slotB))) continue;
      visited[i] = ++visit;
      const double change = jacobianTimes(block, displacement)[kNormal];
      // Local r-factor r = 1 / A_nn.
      double next = mu[k] - (change - demand[k]) / block.diagonalA[kNormal];
      if (pushOnly) next = proxNormalCone(next);
      if (next == mu[k]) continue;
      Vec4 delta = Vec4::Zero();
      delta[kNormal] = next - mu[k];
      largestChange = std::max(largestChange, std::abs(delta[kNormal]) * block.diagonalA[kNormal]);
      addInvMassJt(problem, k, delta, displacement);
      mu[k] = next;
      if (block.slotA >= 0) slotMoved[block.slotA] = visit;
      if (block.slotB >= 0) slotMoved[block.slotB] = visit;
    }
    if (largestChange <= tolerance) break;
  }
}

// eq. 51: q <- q + M^-1 J^T mu.
void applyDisplacement(const Eigen::VectorXd& displacement, const std::vector<int>& bodyOfSlot,
                       std::vector<Body>& bodies) {
  for (std::size_t slot = 0; slot < bodyOfSlot.size(); ++slot) {
    Body& body = bodies[bodyOfSlot[slot]];
    body.position += displacement.segment<3>(6 * slot);
    body.orientation = rotateByAngularVelocity(body.orientation, displacement.segment<3>(6 * slot + 3), 1.0);
  }
}

}  // namespace

void stabilizePositions(const ContactProblem& problem, const std::vector<double>& gapAtEnd,
                        const ContactIslands& islands, const std::vector<int>& bodyOfSlot,
                        const StabilizationSettings& settings, std::vector<Body>& bodies) {
  // eq. 47 with the allowed slop: gap + change >= -allowed.
  std::vector<double> demand(gapAtEnd.size());
  for (std::size_t k = 0; k < gapAtEnd.size(); ++k) demand[k] = -(gapAtEnd[k] + settings.allowedPenetration);
  const std::vector<std::uint8_t> everyContact(gapAtEnd.size(), 1);
  Eigen::VectorXd mu = Eigen::VectorXd::Zero(problem.numContacts());
  Eigen::VectorXd displacement = Eigen::VectorXd::Zero(6 * problem.numSlots);
  // Island by island, so that each island's correction depends on its own contacts alone; an island
  // with no contact deeper than the slop is left as it is.
  bool moved = false;
  VisitClock clock(problem.numSlots);
  for (int island = 0; island < islands.count(); ++island) {
    const std::span<const int> contacts = islands.contacts(island);
    if (std::none_of(contacts.begin(), contacts.end(), [&](int k) { return demand[k] > 0.0; })) continue;
    solveNormalDisplacements(problem, contacts, demand, everyContact, true, settings.sweeps, settings.tolerance, clock,
                             mu, displacement);
    moved = true;
  }
  if (moved) applyDisplacement(displacement, bodyOfSlot, bodies);
}

void placeImpacts(const ContactProblem& problem, const std::vector<double>& closing,
                  const std::vector<int>& bodyOfSlot, std::vector<Body>& bodies) {
  std::vector<std::uint8_t> involved(closing.size());
  std::vector<double> demand(closing.size());
  bool any = false;
  for (std::size_t k = 0; k < closing.size(); ++k) {
    involved[k] = closing[k] > 0.0;
    demand[k] = -closing[k];
    any |= involved[k] != 0;
  }
  if (!any) return;
  constexpr int kSweeps = 20;  // the involved contacts are few and nearly independent
  std::vector<int> every(closing.size());
  std::iota(every.begin(), every.end(), 0);
  Eigen::VectorXd mu = Eigen::VectorXd::Zero(problem.numContacts());
  Eigen::VectorXd displacement = Eigen::VectorXd::Zero(6 * problem.numSlots);
  VisitClock clock(problem.numSlots);
  solveNormalDisplacements(problem, every, demand, involved, false, kSweeps, 0.0, clock, mu, displacement);
  applyDisplacement(displacement, bodyOfSlot, bodies);
}

}  // namespace contactlab
