#pragma once
// Small contact problems built through the real assembly path, for solver tests.
#include <random>
#include <vector>

#include "collision/contact_generation.h"
#include "contactlab/scene.h"
#include "dynamics/body_setup.h"
#include "dynamics/contact_assembly.h"
#include "dynamics/moreau_midpoint.h"

namespace contactlab::test {

struct AssembledProblem {
  std::vector<Body> bodies;
  std::vector<int> slotOfBody;
  std::vector<int> bodyOfSlot;
  std::vector<Vec6> freeVelocity;
  std::vector<BodyContact> contacts;
  ContactProblem problem;
  ContactExtras extras;
};

// A static ground and a column of `count` boxes, each touching the one below at a single point with
// a tilted normal, moving with random velocities. One contact per body pair and 4 rows against 6
// degrees of freedom per body make A = J M^-1 J^T positive definite: the solution is unique.
// Every mass and inertia is multiplied by massScale.
inline AssembledProblem makeColumnProblem(int count, unsigned seed, double massScale = 1.0, double mu = 0.3) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  AssembledProblem p;
  FrictionDefaults defaults;
  defaults.mu = mu;
  defaults.muTorsion = 0.02;
  BodyDesc ground;
  ground.shape = BoxShape{Vec3(5, 5, 0.5)};
  ground.position = Vec3(0, 0, -0.5);
  ground.motion = MotionType::Static;
  p.bodies.push_back(makeBody(ground, defaults, 0));
  for (int i = 0; i < count; ++i) {
    BodyDesc box;
    box.shape = BoxShape{Vec3(0.3 + 0.1 * unit(rng), 0.2 + 0.05 * unit(rng), 0.25)};
    box.position = Vec3(0.05 * unit(rng), 0.05 * unit(rng), 0.25 + 0.5 * i);
    box.orientation = Quat(Eigen::AngleAxisd(0.3 * unit(rng), Vec3(unit(rng), unit(rng), 1).normalized()));
    box.velocity = Vec3(0.5 * unit(rng), 0.5 * unit(rng), -1.0 + 0.2 * unit(rng));
    box.angularVelocity = Vec3(unit(rng), unit(rng), unit(rng));
    box.density = 1000.0 * massScale;
    p.bodies.push_back(makeBody(box, defaults, i + 1));
  }
  for (int i = 0; i < static_cast<int>(p.bodies.size()); ++i) {
    const bool dynamic = p.bodies[i].isDynamic();
    p.slotOfBody.push_back(dynamic ? static_cast<int>(p.bodyOfSlot.size()) : -1);
    if (dynamic) p.bodyOfSlot.push_back(i);
  }
  for (int i = 0; i < count; ++i) {
    BodyContact c;
    c.bodyA = i;
    c.bodyB = i + 1;
    c.contact.normal = Vec3(0.1 * unit(rng), 0.1 * unit(rng), 1.0).normalized();
    c.contact.point = Vec3(0.1 * unit(rng), 0.1 * unit(rng), 0.5 * i);
    c.contact.gap = -0.001;
    p.contacts.push_back(c);
  }
  const double dt = 0.01;
  computeFreeVelocities(p.bodies, p.bodyOfSlot, Vec3(0, 0, -9.81), dt, p.freeVelocity);
  AssemblyInput input;
  input.bodies = &p.bodies;
  input.slotOfBody = &p.slotOfBody;
  input.freeVelocity = &p.freeVelocity;
  input.dt = dt;
  buildContactProblem(input, p.contacts, p.problem, p.extras);
  return p;
}

}  // namespace contactlab::test
