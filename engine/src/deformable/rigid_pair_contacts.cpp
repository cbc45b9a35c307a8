// Contacts between the rigid bodies of a mixed island (DeformableContacts::addRigidPairConstraints):
// a coupled body against another coupled body or against an obstacle, solved in the same system as
// the deformable bodies' constraints (conjugate-residual-deformable-contact.txt sec. 2.3, with both
// sides rigid). The points come from the rigid pipeline's narrowphase (collideShapes) at the step's
// start; a point p with normal n from body A to body B and gap g gives
//   g + dt n . (u_B(p) - u_A(p)) >= 0,   u(p) = u + w x (p - centre of mass),
// rigid terms of weight +1 on B and -1 on A, c_n = -g, and friction rows along t1, t2 with c_t = 0
// (an obstacle's known travel moves to c_t, as for the deformable vertices). Unlike the
// deformable pairs they are not re-linearized during the solve: the narrowphase's points hold for
// the step, as in the rigid solvers' steps.
#include <algorithm>
#include <cmath>

#include "collision/contact_buffer.h"
#include "collision/contact_generation.h"
#include "collision/narrowphase.h"
#include "deformable/deformable_contacts.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

void DeformableContacts::addRigidPairConstraints(DeformableProblem& problem) {
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(positions_->size());
  ContactManifold manifold;
  for (const int a : colliders_) {
    for (const int b : colliders_) {
      // Each pair once, in the World's order (lower index first), with at least one coupled body.
      if (b <= a || (rigidIndex_[a] < 0 && rigidIndex_[b] < 0)) continue;
      const Body &bodyA = (*bodies_)[a], &bodyB = (*bodies_)[b];
      // The margin of the rigid pipeline's contacts: the skin plus how far the gap can close in
      // the step (each body's reach is three times its travel).
      const double margin = kContactSkin + (rigidReach_[a] + rigidReach_[b]) / 3.0;
      const Pose poseA{bodyA.position, bodyA.rotation()}, poseB{bodyB.position, bodyB.rotation()};
      if (!shapeAabb(bodyA.shape, poseA).inflated(margin).overlaps(shapeAabb(bodyB.shape, poseB))) continue;
      manifold.clear();
      collideShapes(bodyA.shape, poseA, bodyB.shape, poseB, margin, meshes_, manifold);
      for (const ContactPoint& point : manifold) {
        DeformableConstraint c;
        c.frame = frameAround(point.normal);
        addRigidSide(rigidAt(b, still, 0.0), point.point, 1.0, 0.0, c);
        addRigidSide(rigidAt(a, still, 0.0), point.point, -1.0, 0.0, c);
        c.cn = -point.gap;
        c.mu = std::sqrt(bodyA.mu * bodyB.mu);
        append({.body = a, .otherBody = b, .feature = point.feature}, c, problem);
      }
    }
  }
}

}  // namespace contactlab
