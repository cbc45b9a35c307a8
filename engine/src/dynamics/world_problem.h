#pragma once
// The contact problem the last World::step solved (empty before the first step), for the engine's
// own tools: `contactlab-cli run --dump-problems` writes it as a Siconos file. Valid until the
// next step.
#include "contactlab/world.h"
#include "problem/contact_problem.h"

namespace contactlab {

const ContactProblem& lastContactProblem(const World& world);

}  // namespace contactlab
