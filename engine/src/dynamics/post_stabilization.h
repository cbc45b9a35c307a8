#pragma once
// Position-level corrections after the velocity step. Both move bodies along contact normals by
// dq = M^-1 J_n^T mu (PROX paper eqs. 44-45, 51) and leave velocities alone:
// - post-stabilization (sec. 4.4) pushes penetrating bodies apart;
// - impact placement moves a body that bounced off a contact detected while still open by the gap
//   it had not closed, so the bounce starts at the surface (see contact_assembly.cpp).
#include <vector>

#include "contactlab/body.h"
#include "dynamics/islands.h"
#include "problem/contact_problem.h"

namespace contactlab {

struct StabilizationSettings {
  // Penetration left alone (metres): correcting all of it would make resting contacts chatter.
  double allowedPenetration = 1e-3;
  int sweeps = 10;
  // A sweep that changed no gap by more than this (metres) ends the island's correction.
  double tolerance = 1e-6;
};

// gapAtEnd[k] is contact k's gap at q^{t+1} to first order. Solves eqs. 49-50 for the normal
// displacement impulses by projected Gauss-Seidel (PROX with the Local r-factor on the normal cone),
// island by island (islands of the same problem), and applies eq. 51 to the dynamic bodies.
void stabilizePositions(const ContactProblem& problem, const std::vector<double>& gapAtEnd,
                        const ContactIslands& islands, const std::vector<int>& bodyOfSlot,
                        const StabilizationSettings& settings, std::vector<Body>& bodies);

// closing[k] > 0 asks contact k's gap to shrink by that much (an impact detected early); contacts
// with 0 take no part. Solved as equalities by Gauss-Seidel over the involved contacts.
void placeImpacts(const ContactProblem& problem, const std::vector<double>& closing,
                  const std::vector<int>& bodyOfSlot, std::vector<Body>& bodies);

}  // namespace contactlab
