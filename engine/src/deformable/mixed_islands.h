#pragma once
// Which dynamic rigid bodies share an island with a deformable body in the coming step, so that the
// deformable stages solve them in one system with it (conjugate-residual-deformable-contact.txt
// sec. 2.3; docs/deformable.md, "Rigid bodies in the same solve"). Islands are found before the
// step from boxes rather than contacts: the rigid pipeline has to leave these bodies alone from its
// first stage on, before any contact is known. Two bodies are joined when their boxes, each grown
// by how far the body can move in the step, overlap; a rigid body joins a deformable one likewise,
// and the joins chain through dynamic rigid bodies (static and kinematic bodies join nothing).
#include <vector>

#include "contactlab/body.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

// A rigid body's box for the islands: its shape's box grown by dt (|v| + |g| dt + |w| r_bound) and
// the rigid contacts' skin, so that any contact the rigid pipeline could find lies inside.
Aabb sweptRigidBox(const Body& body, double dt, const Vec3& gravity);

// The dynamic rigid bodies (indices into `bodies`, ascending) whose island holds a deformable body;
// `deformableBoxes` are the deformable bodies' swept boxes (DeformableSystem::sweptBoxes). Sleeping
// bodies are included: the caller wakes them.
std::vector<int> rigidBodiesInMixedIslands(const std::vector<Body>& bodies, const std::vector<Aabb>& deformableBoxes,
                                          double dt, const Vec3& gravity);

}  // namespace contactlab
