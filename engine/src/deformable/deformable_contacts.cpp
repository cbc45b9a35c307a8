#include "deformable/deformable_contacts.h"

#include <cmath>

#include "collision/segment_geometry.h"
#include "deformable/rigid_surface_query.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

void DeformableRigidContacts::begin(const std::vector<Body>& bodies, const std::vector<int>& obstacles,
                                    const MeshModelCache& meshes, const std::vector<SurfaceNode>& surface,
                                    const Eigen::VectorXd& positions, const Eigen::VectorXd& velocities,
                                    const Vec3& gravity, DeformableProblem& problem) {
  bodies_ = &bodies;
  meshes_ = &meshes;
  obstacles_ = obstacles;
  surface_ = surface;
  positions_ = positions;
  dt_ = problem.dt;
  candidates_.clear();
  pairs_.clear();
  reach_.resize(surface.size());
  for (std::size_t s = 0; s < surface.size(); ++s) {
    // Sec. 5.1 extends a face's box by 3 dt v; gravity's pull over the step is part of the travel.
    const double travel = dt_ * (velocities.segment<3>(3 * surface[s].node).norm() + gravity.norm() * dt_);
    reach_[s] = 3.0 * travel + kMargin;
  }
  for (const int b : obstacles) {
    const Body& body = bodies[b];
    const Aabb box = shapeAabb(body.shape, {body.position, body.rotation()});
    for (int s = 0; s < static_cast<int>(surface.size()); ++s)
      if (box.inflated(reach_[s]).contains(position(s))) candidates_.push_back({s, b, false});
  }
  // A constraint for every candidate within its reach: the solve activates those the step closes.
  for (Candidate& candidate : candidates_) {
    DeformableConstraint c;
    if (!linearize(candidate.surface, candidate.body, position(candidate.surface), reach_[candidate.surface], c)) continue;
    candidate.constrained = true;
    addConstraint(candidate.surface, candidate.body, c, problem);
  }
}

bool DeformableRigidContacts::linearize(int s, int body, const Vec3& linearizationPoint, double reach,
                                        DeformableConstraint& out) const {
  const Body& rigid = (*bodies_)[body];
  const auto nearest = nearestRigidSurfacePoint(rigid, *meshes_, linearizationPoint, reach);
  if (!nearest) return false;
  const Vec3 n = nearest->normal;
  const Vec3 t1 = anyPerpendicular(n).normalized();
  out.frame << n, t1, n.cross(t1);
  out.node = {surface_[s].node, -1, -1, -1};
  out.weight = {1.0, 0.0, 0.0, 0.0};
  out.cn = n.dot(linearizationPoint - position(s)) - nearest->distance;
  const Vec3 travel = dt_ * rigidPointVelocity(rigid, nearest->point);
  out.ct = Vec2(out.frame.col(1).dot(travel), out.frame.col(2).dot(travel));
  // The rigid pairs' rule (contact_assembly.cpp): the geometric mean of the two coefficients.
  out.mu = std::sqrt(surface_[s].mu * rigid.mu);
  out.similarity = 1.0;  // one constraint per vertex and body: no near-duplicates (sec. 3.4.1)
  return true;
}

void DeformableRigidContacts::addConstraint(int s, int body, const DeformableConstraint& c, DeformableProblem& problem) {
  problem.constraints.push_back(c);
  pairs_.push_back({s, body});
}

int DeformableRigidContacts::addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) {
  int added = 0;
  // Candidates not within reach at the start, and vertices that travel farther than their candidates
  // were found for (sec. 5.2's "vertex out of its extended box"), against every obstacle.
  for (int s = 0; s < static_cast<int>(surface_.size()); ++s) {
    const double travel = dt_ * v.segment<3>(3 * surface_[s].node).norm() + kMargin;
    if (travel <= reach_[s]) continue;
    for (const int b : obstacles_) {
      bool known = false;
      for (const Pair& pair : pairs_) known = known || (pair.surface == s && pair.body == b);
      DeformableConstraint c;
      if (known || !linearize(s, b, position(s), travel, c)) continue;
      addConstraint(s, b, c, problem);
      ++added;
    }
    reach_[s] = travel;
  }
  return added;
}

int DeformableRigidContacts::relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                                         DeformableProblem& problem) {
  int changed = 0;
  for (int k = 0; k < problem.numConstraints(); ++k) {
    if (!active[k]) continue;
    const Pair& pair = pairs_[k];
    DeformableConstraint& current = problem.constraints[k];
    const Vec3 start = position(pair.surface);
    const Vec3 move = dt_ * v.segment<3>(3 * surface_[pair.surface].node);
    const double reach = move.norm() + reach_[pair.surface];
    // Eq. 21: the linearization point moves towards the end position, by less where the normal
    // would turn by more than kMostNormalTurn.
    DeformableConstraint next;
    bool found = false;
    for (double w = 1.0; w > 1.0 / 64.0; w *= 0.5) {
      if (!linearize(pair.surface, pair.body, start + w * move, reach, next)) break;
      found = next.frame.col(0).dot(current.frame.col(0)) >= std::cos(kMostNormalTurn);
      if (found) break;
    }
    if (!found) continue;
    const double change = std::abs(next.cn - current.cn) + (next.ct - current.ct).norm() +
                          (next.frame.col(0) - current.frame.col(0)).norm() * move.norm();
    if (change <= tolerance_) continue;
    next.mu = current.mu;
    next.similarity = current.similarity;
    current = next;
    ++changed;
  }
  return changed;
}

}  // namespace contactlab
