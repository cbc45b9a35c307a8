#pragma once
// Post-stabilization (PROX paper sec. 4.4): after the step, a position-level LCP pushes
// penetrating bodies apart along the contact normals without touching velocities.
#include <vector>

#include "dynamics/contact_problem.h"
#include "contactlab/body.h"

namespace contactlab {

struct StabilizationSettings {
  // Penetration left alone (metres): correcting all of it would make resting contacts chatter.
  double allowedPenetration = 1e-3;
  int sweeps = 50;
};

// gapAtEnd[k] is contact k's gap at q^{t+1} to first order. Solves eq. 49-50 for the normal
// displacement impulses by projected Gauss-Seidel (PROX with the Local r-factor on the normal cone)
// and applies eq. 51, q <- q + M^-1 J^T lambda, to the dynamic bodies.
void stabilizePositions(const ContactProblem& problem, const std::vector<double>& gapAtEnd,
                        const std::vector<int>& bodyOfSlot, const StabilizationSettings& settings,
                        std::vector<Body>& bodies);

}  // namespace contactlab
