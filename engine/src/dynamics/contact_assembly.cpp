#include "dynamics/contact_assembly.h"

#include <cmath>

#include "core/thread_pool.h"

namespace contactlab {
namespace {

// J_k u for one contact (eq. 52, 56) from the two bodies' velocities (linear, angular): the
// velocity of B's material point against A's, in frame rows, and the relative spin about n.
Vec4 jacobianTimesVelocities(const Mat3& frame, const Vec3& armA, const Vec6& velocityA, const Vec3& armB,
                             const Vec6& velocityB) {
  const Vec3 linear = velocityB.head<3>() + velocityB.tail<3>().cross(armB) -
                      (velocityA.head<3>() + velocityA.tail<3>().cross(armA));
  Vec4 v;
  v.head<3>().noalias() = frame.transpose() * linear;
  v[kTorsion] = frame.col(0).dot(velocityB.tail<3>() - velocityA.tail<3>());
  return v;
}

// diag(J_k M^-1 J_k^T), the diagonal of diagonalBlock without the rest of the 4x4 product.
Vec4 diagonalOfA(const ContactBlock& block, const std::vector<SlotInverseMass>& inverseMass) {
  Vec4 diagonal = Vec4::Zero();
  auto addSide = [&](int slot, const Vec3& arm) {
    if (slot < 0) return;
    const SlotInverseMass& m = inverseMass[slot];
    for (int row = 0; row < 3; ++row) {
      const Vec3 angular = arm.cross(block.frame.col(row));
      diagonal[row] += m.invMass * block.frame.col(row).squaredNorm() + angular.dot(m.invInertiaWorld * angular);
    }
    diagonal[kTorsion] += block.frame.col(0).dot(m.invInertiaWorld * block.frame.col(0));
  };
  addSide(block.slotA, block.armA);
  addSide(block.slotB, block.armB);
  return diagonal;
}

Vec6 bodyVelocity(const Body& body) {
  Vec6 u;
  u << body.velocity, body.angularVelocity;
  return u;
}

}  // namespace

Mat3 contactFrame(const Vec3& normal) {
  // Cross with the world axis least aligned with n: well conditioned for every n.
  Eigen::Index axis;
  normal.cwiseAbs().minCoeff(&axis);
  const Vec3 t = normal.cross(Vec3::Unit(axis)).normalized();
  Mat3 frame;
  frame << normal, t, normal.cross(t);
  return frame;
}

Vec4 relativeContactVelocity(const Body& bodyA, const Body& bodyB, const Vec3& point, const Mat3& frame) {
  return jacobianTimesVelocities(frame, point - bodyA.position, bodyVelocity(bodyA), point - bodyB.position,
                                 bodyVelocity(bodyB));
}

void buildContactProblem(const AssemblyInput& input, const std::vector<BodyContact>& contacts,
                         ContactProblem& problem, ContactExtras& extras, ThreadPool* pool) {
  const std::vector<Body>& bodies = *input.bodies;
  const std::vector<int>& slotOfBody = *input.slotOfBody;
  const std::vector<Vec6>& freeVelocity = *input.freeVelocity;
  problem.numSlots = static_cast<int>(freeVelocity.size());
  problem.freeVelocity = freeVelocity;
  problem.blocks.resize(contacts.size());
  extras.frames.resize(contacts.size());
  extras.impactClosing.assign(contacts.size(), 0.0);
  extras.rollingArm.resize(contacts.size());

  // M^-1 per dynamic body, once per step (eq. 58-59), rather than per contact. This and the
  // contact loop below write each body's or contact's own entries only, so they run in parallel
  // with the same result for any thread count.
  problem.inverseMass.resize(problem.numSlots);
  constexpr int kBodiesPerChunk = 256;
  parallelFor(pool, static_cast<int>(bodies.size()), kBodiesPerChunk, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      const int slot = slotOfBody[i];
      if (slot < 0) continue;
      problem.inverseMass[slot] = {bodies[i].invInertiaWorld(), bodies[i].invMass};
    }
  });

  constexpr int kContactsPerChunk = 256;
  parallelFor(pool, static_cast<int>(contacts.size()), kContactsPerChunk, [&](int begin, int end, int) {
    for (int k = begin; k < end; ++k) {
      const BodyContact& contact = contacts[k];
      const Body& bodyA = bodies[contact.bodyA];
      const Body& bodyB = bodies[contact.bodyB];
      ContactBlock& block = problem.blocks[k];
      block.frame = contactFrame(contact.contact.normal);
      extras.frames[k] = block.frame;

      block.slotA = slotOfBody[contact.bodyA];
      block.slotB = slotOfBody[contact.bodyB];
      block.armA = contact.contact.point - bodyA.position;
      block.armB = contact.contact.point - bodyB.position;

      // J u_free; bodies without a slot move as prescribed (or not at all).
      const Vec4 free = jacobianTimesVelocities(
          block.frame, block.armA, block.slotA >= 0 ? freeVelocity[block.slotA] : bodyVelocity(bodyA), block.armB,
          block.slotB >= 0 ? freeVelocity[block.slotB] : bodyVelocity(bodyB));

      // Normal row of b (eq. 19, 22): the Newton impact law adds eps v^-_n (eq. 14a) when the contact
      // closes within this step at a speed above the threshold. Otherwise a contact still open by
      // gap g > 0 may close at most by g over the step to the next midpoint: v_n^+ >= -g/dt. The
      // impact case keeps eps exact in the velocities; the gap g it had not yet closed is made up at
      // position level after the step (placeImpacts): with the impact at time g/|v^-| after the
      // midpoint, the exact path ends (1 + eps) g closer to the surface than ours.
      // v^-_n = (J u^t)_n, only needed, and so only formed, when the pair can bounce (most scenes
      // have eps = 0 everywhere).
      const double gap = contact.contact.gap;
      const double restitution = std::max(bodyA.restitution, bodyB.restitution);
      const double preImpactNormal =
          restitution > 0.0
              ? jacobianTimesVelocities(block.frame, block.armA, bodyVelocity(bodyA), block.armB, bodyVelocity(bodyB))[kNormal]
              : 0.0;
      const bool impact = restitution > 0.0 && preImpactNormal < -input.restitutionThreshold &&
                          gap + input.dt * preImpactNormal < 0.0;
      Vec4 extra = Vec4::Zero();
      extra[kNormal] = impact ? restitution * preImpactNormal : std::max(gap, 0.0) / input.dt;
      if (impact && gap > 0.0) extras.impactClosing[k] = (1.0 + restitution) * gap;
      block.b = free + extra;

      // Pair friction: sqrt(a b) for mu, mu_tau and mu_rolling (a combination that lets a frictionless
      // body stay frictionless); eq. 16 with mu_s = mu_t (isotropic Coulomb).
      const double mu = std::sqrt(bodyA.mu * bodyB.mu);
      block.friction = Vec3(mu, mu, std::sqrt(bodyA.muTorsion * bodyB.muTorsion));
      extras.rollingArm[k] = std::sqrt(bodyA.muRolling * bodyB.muRolling);
      block.diagonalA = diagonalOfA(block, problem.inverseMass);
    }
  });
}

}  // namespace contactlab
