#include "dynamics/contact_assembly.h"

#include <cmath>

namespace contactlab {
namespace {

// eq. 56 for one body: J = sign * [C^T, (r x C)^T; 0, n^T] with C = [n t s].
Mat46 bodyJacobian(const Mat3& frame, const Vec3& arm, double sign) {
  Mat46 j = Mat46::Zero();
  for (int row = 0; row < 3; ++row) {
    j.block<1, 3>(row, 0) = frame.col(row).transpose();
    j.block<1, 3>(row, 3) = arm.cross(frame.col(row)).transpose();
  }
  j.block<1, 3>(kTorsion, 3) = frame.col(0).transpose();
  return sign * j;
}

// W = M^-1 J^T for one body, M = diag(m 1, I_WF) (eq. 59).
Mat64 bodyInvMassJt(const Body& body, const Mat46& jacobian) {
  Mat64 w;
  w.topRows<3>() = body.invMass * jacobian.leftCols<3>().transpose();
  w.bottomRows<3>() = body.invInertiaWorld() * jacobian.rightCols<3>().transpose();
  return w;
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
  return bodyJacobian(frame, point - bodyA.position, -1.0) * bodyVelocity(bodyA) +
         bodyJacobian(frame, point - bodyB.position, +1.0) * bodyVelocity(bodyB);
}

void buildContactProblem(const AssemblyInput& input, const std::vector<BodyContact>& contacts,
                         ContactProblem& problem, ContactExtras& extras) {
  const std::vector<Body>& bodies = *input.bodies;
  const std::vector<int>& slotOfBody = *input.slotOfBody;
  problem.numSlots = static_cast<int>(input.freeVelocity->size());
  problem.blocks.resize(contacts.size());
  extras.frames.resize(contacts.size());
  extras.impactClosing.assign(contacts.size(), 0.0);

  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const BodyContact& contact = contacts[k];
    const Body& bodyA = bodies[contact.bodyA];
    const Body& bodyB = bodies[contact.bodyB];
    ContactBlock& block = problem.blocks[k];
    const Mat3 frame = contactFrame(contact.contact.normal);
    extras.frames[k] = frame;

    block.slotA = slotOfBody[contact.bodyA];
    block.slotB = slotOfBody[contact.bodyB];
    const Mat46 jacobianA = bodyJacobian(frame, contact.contact.point - bodyA.position, -1.0);
    const Mat46 jacobianB = bodyJacobian(frame, contact.contact.point - bodyB.position, +1.0);

    // v^- = J u^t (pre-impact) and J u_free; bodies without a slot move as prescribed (or not at all).
    const Vec4 preImpact = jacobianA * bodyVelocity(bodyA) + jacobianB * bodyVelocity(bodyB);
    // A dynamic side enters J and W; a static or kinematic side only adds its prescribed velocity to b.
    auto assembleSide = [&](const Body& body, int slot, const Mat46& jacobian, Mat46& blockJacobian,
                            Mat64& blockInvMassJt) -> Vec4 {
      blockJacobian = slot >= 0 ? jacobian : Mat46::Zero();
      blockInvMassJt = slot >= 0 ? bodyInvMassJt(body, jacobian) : Mat64::Zero();
      return jacobian * (slot >= 0 ? (*input.freeVelocity)[slot] : bodyVelocity(body));
    };
    const Vec4 free = assembleSide(bodyA, block.slotA, jacobianA, block.jacobianA, block.invMassJtA) +
                      assembleSide(bodyB, block.slotB, jacobianB, block.jacobianB, block.invMassJtB);

    // Normal row of b (eq. 19, 22): the Newton impact law adds eps v^-_n (eq. 14a) when the contact
    // closes within this step at a speed above the threshold. Otherwise a contact still open by
    // gap g > 0 may close at most by g over the step to the next midpoint: v_n^+ >= -g/dt. The
    // impact case keeps eps exact in the velocities; the gap g it had not yet closed is made up at
    // position level after the step (placeImpacts): with the impact at time g/|v^-| after the
    // midpoint, the exact path ends (1 + eps) g closer to the surface than ours.
    const double gap = contact.contact.gap;
    const double restitution = std::max(bodyA.restitution, bodyB.restitution);
    const bool impact = restitution > 0.0 && preImpact[kNormal] < -input.restitutionThreshold &&
                        gap + input.dt * preImpact[kNormal] < 0.0;
    Vec4 extra = Vec4::Zero();
    extra[kNormal] = impact ? restitution * preImpact[kNormal] : std::max(gap, 0.0) / input.dt;
    if (impact && gap > 0.0) extras.impactClosing[k] = (1.0 + restitution) * gap;
    block.b = free + extra;

    // Pair friction: sqrt(a b) for mu and mu_tau (a combination that lets a frictionless body stay
    // frictionless); eq. 16 with mu_s = mu_t (isotropic Coulomb).
    const double mu = std::sqrt(bodyA.mu * bodyB.mu);
    block.friction = Vec3(mu, mu, std::sqrt(bodyA.muTorsion * bodyB.muTorsion));
    block.diagonalA = diagonalBlock(block).diagonal();
  }
}

}  // namespace contactlab
