#pragma once
// Torque-free rotation of a rigid body over one time step.
#include "contactlab/math.h"

namespace contactlab {

// Body-frame angular velocity after dt of Euler's equations I dOmega/dt = -Omega x I Omega,
// integrated by the implicit midpoint rule (solved by Newton's method).
//
// Departure from the paper: eq. 61 puts the gyroscopic term -w x I w explicitly into h, which
// drifts badly (about 29 % energy error in 10 s for a body tumbling about its intermediate axis at
// 10 rad/s, dt = 0.01). The implicit midpoint rule conserves the quadratic invariants of Euler's
// equations exactly: kinetic energy Omega.I Omega / 2 and |I Omega|.
Vec3 freeRotationStep(const Vec3& omegaBody, const Vec3& principalInertia, double dt);

// q <- exp(h w) q for a world-frame angular velocity w, normalized. Rotating about w leaves w's
// body-frame coordinates unchanged, which is what lets the stepper carry the body-frame velocity
// through the Moreau half steps (see moreau_midpoint.cpp).
Quat rotateByAngularVelocity(const Quat& q, const Vec3& omegaWorld, double h);

}  // namespace contactlab
