#pragma once
// The assembly stage: per contact J (as frame and arms), b and friction, and M^-1 per dynamic body
// (PROX paper appendix A).
#include <vector>

#include "collision/contact_generation.h"
#include "problem/contact_problem.h"

namespace contactlab {

struct AssemblyInput {
  const std::vector<Body>* bodies = nullptr;    // at q^{t+1/2}, velocities u^t
  const std::vector<int>* slotOfBody = nullptr;  // -1 for static and kinematic bodies
  const std::vector<Vec6>* freeVelocity = nullptr;  // per slot, see computeFreeVelocities
  double dt = 0.01;
  // Approach speeds below this get no restitution bounce (resting contacts would jitter).
  double restitutionThreshold = 0.0;
};

// Contact frame: columns n, t, s (eq. 53). t is a fixed function of n, so the frame is
// deterministic; with isotropic friction (mu_s = mu_t) the model does not depend on it.
Mat3 contactFrame(const Vec3& normal);

// Relative velocity of B against A at a contact point, in frame rows (n, t, s, tau): J u (eq. 52).
Vec4 relativeContactVelocity(const Body& bodyA, const Body& bodyB, const Vec3& point, const Mat3& frame);

// What assembly knows per contact beyond the solver's problem.
struct ContactExtras {
  std::vector<Mat3> frames;            // columns n, t, s
  std::vector<double> impactClosing;   // (1 + eps) g for an impact detected at gap g > 0, else 0
  std::vector<double> rollingArm;      // the pair's mu_rolling (rolling_resistance.h)
};

// Runs on `pool` (serially when null), with the same result for any thread count.
void buildContactProblem(const AssemblyInput& input, const std::vector<BodyContact>& contacts,
                         ContactProblem& problem, ContactExtras& extras, ThreadPool* pool = nullptr);

}  // namespace contactlab
