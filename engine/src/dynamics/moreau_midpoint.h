#pragma once
// The time-stepping stages of Moreau's midpoint scheme (PROX paper sec. 4.3, eqs. 41-42).
// Dynamic bodies own a slot in the velocity vectors; static and kinematic ones do not. Sleeping bodies
// (Body::asleep) and rigid bodies coupled to a deformable one this step (Body::coupled, which the
// deformable stages move) are left exactly as they are: no motion, zero free velocity. The per-body
// loops run on `pool` (serially when null) with the same result for any thread count.
#include <vector>

#include "contactlab/body.h"

namespace contactlab {

class ThreadPool;

// Kinematic bodies take the velocity their schedule prescribes at the step's midpoint time.
void setKinematicVelocities(std::vector<Body>& bodies, double stepStartTime, double dt);

// eq. 41: q^{t+1/2} = q^t + dt/2 u^t (orientation by the exponential map, then normalized).
void halfStepPositions(std::vector<Body>& bodies, double dt, ThreadPool* pool = nullptr);

// u_free = u^t + dt M^-1 h per slot: gravity on the linear part and torque-free rotation on the
// angular part (see free_rotation.h), evaluated at q^{t+1/2}. Layout per slot: (v, w), world frame.
void computeFreeVelocities(const std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot,
                           const Vec3& gravity, double dt, std::vector<Vec6>& freeVelocity,
                           ThreadPool* pool = nullptr);

// eq. 42b: u^{t+1} = u_free + M^-1 J^T lambda, with contactResponse = M^-1 J^T lambda per slot.
void integrateVelocities(std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot,
                         const std::vector<Vec6>& freeVelocity, const Eigen::VectorXd& contactResponse,
                         ThreadPool* pool = nullptr);

// eq. 42c: q^{t+1} = q^{t+1/2} + dt/2 u^{t+1}.
void finishPositions(std::vector<Body>& bodies, double dt, ThreadPool* pool = nullptr);

}  // namespace contactlab
