#pragma once
// Small contact problems built through the real assembly path, for solver tests, and solveFromZero.
#include <algorithm>
#include <random>
#include <vector>

#include "collision/contact_generation.h"
#include "contactlab/scene.h"
#include "dynamics/body_setup.h"
#include "dynamics/contact_assembly.h"
#include "dynamics/moreau_midpoint.h"
#include "solvers/contact_solver.h"

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

// Slots for the dynamic bodies, free velocities under gravity over dt = 0.01 s, and the contact
// problem of p.contacts through the real assembly.
inline void assemble(AssembledProblem& p) {
  for (int i = 0; i < static_cast<int>(p.bodies.size()); ++i) {
    const bool dynamic = p.bodies[i].isDynamic();
    p.slotOfBody.push_back(dynamic ? static_cast<int>(p.bodyOfSlot.size()) : -1);
    if (dynamic) p.bodyOfSlot.push_back(i);
  }
  const double dt = 0.01;
  computeFreeVelocities(p.bodies, p.bodyOfSlot, Vec3(0, 0, -9.81), dt, p.freeVelocity);
  AssemblyInput input;
  input.bodies = &p.bodies;
  input.slotOfBody = &p.slotOfBody;
  input.freeVelocity = &p.freeVelocity;
  input.dt = dt;
  buildContactProblem(input, p.contacts, p.problem, p.extras);
}

// Body 0: a static slab of the given half width whose top face is the plane z = 0.
inline void addGround(AssembledProblem& p, const FrictionDefaults& defaults, double halfWidth) {
  BodyDesc ground;
  ground.shape = BoxShape{Vec3(halfWidth, halfWidth, 0.5)};
  ground.position = Vec3(0, 0, -0.5);
  ground.motion = MotionType::Static;
  p.bodies.push_back(makeBody(ground, defaults, 0));
}

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
  addGround(p, defaults, 5);
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
  for (int i = 0; i < count; ++i) {
    BodyContact c;
    c.bodyA = i;
    c.bodyB = i + 1;
    c.contact.normal = Vec3(0.1 * unit(rng), 0.1 * unit(rng), 1.0).normalized();
    c.contact.point = Vec3(0.1 * unit(rng), 0.1 * unit(rng), 0.5 * i);
    c.contact.gap = -0.001;
    p.contacts.push_back(c);
  }
  assemble(p);
  return p;
}

// A static ground and `count` boxes joined by random contacts (random points, normals and pair
// velocities, so some contacts close and some open): contact i joins box i + 1 to the ground or to a
// random earlier box (a tree, so every box's own 4 rows against its 6 degrees of freedom keep J of
// full row rank), plus up to `extra` contacts between random pairs of boxes (loops). A = J M^-1 J^T is
// positive definite for generic data unless the loops overconstrain a cluster (see below).
inline AssembledProblem makeRandomContactGraphProblem(int count, int extra, unsigned seed, double mu = 0.3,
                                                      double muTorsion = 0.02) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  AssembledProblem p;
  FrictionDefaults defaults;
  defaults.mu = mu;
  defaults.muTorsion = muTorsion;
  addGround(p, defaults, 20);
  for (int i = 0; i < count; ++i) {
    BodyDesc box;
    box.shape = BoxShape{Vec3(0.3 + 0.1 * unit(rng), 0.2 + 0.05 * unit(rng), 0.25 + 0.05 * unit(rng))};
    box.position = Vec3(2.0 * unit(rng), 2.0 * unit(rng), 1.0 + unit(rng));
    box.orientation = Quat(Eigen::AngleAxisd(3.0 * unit(rng), Vec3(unit(rng), unit(rng), unit(rng) + 2.0).normalized()));
    box.velocity = Vec3(0.5 * unit(rng), 0.5 * unit(rng), 0.5 * unit(rng));
    box.angularVelocity = Vec3(unit(rng), unit(rng), unit(rng));
    box.density = 1000.0 * (1.0 + 0.5 * unit(rng));
    p.bodies.push_back(makeBody(box, defaults, i + 1));
  }
  auto addContact = [&](int a, int b) {
    BodyContact c;
    c.bodyA = a;
    c.bodyB = b;
    const Vec3 midpoint = 0.5 * (p.bodies[a].position + p.bodies[b].position);
    const Vec3 towardB = p.bodies[b].position - p.bodies[a].position;
    c.contact.normal = (a == 0 ? Vec3(0, 0, 1) : towardB.normalized()) + 0.3 * Vec3(unit(rng), unit(rng), unit(rng));
    c.contact.normal.normalize();
    c.contact.point = (a == 0 ? Vec3(p.bodies[b].position.x(), p.bodies[b].position.y(), 0.0) : midpoint) +
                      0.2 * Vec3(unit(rng), unit(rng), unit(rng));
    c.contact.gap = 0.002 * unit(rng);
    p.contacts.push_back(c);
  };
  for (int i = 1; i <= count; ++i) addContact(std::uniform_int_distribution<int>(0, i - 1)(rng), i);
  // Each box takes part in at most one extra contact, and never joins a box it already touches: two
  // boxes have 6 degrees of freedom of relative motion, so two contacts between them (8 rows) make A
  // singular. (Denser clusters can still do so, e.g. a path a-b-c-d closed by a-c and b-d: 20 rows
  // against 18; the tests check that A is positive definite for the seeds they use.)
  std::vector<int> boxes(count);
  for (int i = 0; i < count; ++i) boxes[i] = i + 1;
  std::shuffle(boxes.begin(), boxes.end(), rng);
  auto joined = [&](int a, int b) {
    return std::any_of(p.contacts.begin(), p.contacts.end(), [&](const BodyContact& c) {
      return (c.bodyA == a && c.bodyB == b) || (c.bodyA == b && c.bodyB == a);
    });
  };
  for (int e = 0, added = 0; e + 1 < count && added < extra; e += 2)
    if (!joined(boxes[e], boxes[e + 1])) {
      addContact(std::min(boxes[e], boxes[e + 1]), std::max(boxes[e], boxes[e + 1]));
      ++added;
    }
  assemble(p);
  return p;
}

// A ContactProblem built directly (no assembly) from random bodies and contacts: contact k pushes
// body k (random mass and inertia) against a static body or one of the bodies 0..k-1 (chosen at
// random), with a random frame, arms and free velocity b. J is then block lower triangular with
// full-rank 4x6 diagonal blocks, so A = J M^-1 J^T is symmetric positive definite. mu applies to
// both tangent directions, mu / 10 (a length) to torsion. With `bodies` given (fewer than the
// contacts), each contact instead pushes a random body against a static one or another random
// body: many contacts per body, and A is then singular (more rows than the bodies' freedoms).
inline ContactProblem makeRandomProblem(int contacts, unsigned seed, double mu, int bodies = -1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  auto randomVector = [&] { return Vec3(unit(rng), unit(rng), unit(rng)); };
  const bool oneBodyPerContact = bodies < 0;
  if (oneBodyPerContact) bodies = contacts;
  ContactProblem problem;
  problem.numSlots = bodies;
  for (int i = 0; i < bodies; ++i) {
    SlotInverseMass m;
    m.invMass = 1.0 / (1.0 + 0.9 * unit(rng));
    const Mat3 rotation = Quat(Eigen::AngleAxisd(3.0 * unit(rng), randomVector().normalized())).toRotationMatrix();
    const Vec3 inertia(0.2 + 0.15 * unit(rng), 0.2 + 0.15 * unit(rng), 0.2 + 0.15 * unit(rng));
    m.invInertiaWorld = rotation * inertia.cwiseInverse().asDiagonal() * rotation.transpose();
    problem.inverseMass.push_back(m);
  }
  for (int k = 0; k < contacts; ++k) {
    ContactBlock block;
    if (oneBodyPerContact) {
      block.slotB = k;
      block.slotA = std::uniform_int_distribution<int>(-1, k - 1)(rng);
    } else {
      block.slotB = std::uniform_int_distribution<int>(0, bodies - 1)(rng);
      do block.slotA = std::uniform_int_distribution<int>(-1, bodies - 1)(rng);
      while (block.slotA == block.slotB);
    }
    const Vec3 n = randomVector().normalized();
    const Vec3 t = n.unitOrthogonal();
    block.frame.col(0) = n;
    block.frame.col(1) = t;
    block.frame.col(2) = n.cross(t);
    block.armA = 0.5 * randomVector();
    block.armB = 0.5 * randomVector();
    block.friction = Vec3(mu, mu, 0.1 * mu);
    // Mostly approaching (b_n < 0), some separating; tangential velocities of either size.
    block.b = Vec4(unit(rng) - 0.4, unit(rng), unit(rng), 0.5 * unit(rng));
    problem.blocks.push_back(block);
  }
  for (int k = 0; k < contacts; ++k) problem.blocks[k].diagonalA = diagonalBlock(problem, k).diagonal();
  return problem;
}

// The dense A = J M^-1 J^T of a problem, column by column through M^-1 J^T and J (for references).
inline Eigen::MatrixXd denseDelassus(const ContactProblem& problem) {
  const int rows = problem.numRows();
  Eigen::MatrixXd a(rows, rows);
  Eigen::VectorXd unitImpulse = Eigen::VectorXd::Zero(rows), w;
  for (int j = 0; j < rows; ++j) {
    unitImpulse.setZero();
    unitImpulse[j] = 1.0;
    applyInvMassJt(problem, unitImpulse, w);
    for (int k = 0; k < problem.numContacts(); ++k) a.block<4, 1>(4 * k, j) = jacobianTimes(problem.blocks[k], w);
  }
  return a;
}

// Solves `problem` from lambda = 0 with the registered solver settings.solver; the report into *report.
inline Eigen::VectorXd solveFromZero(const ContactProblem& problem, const SolverSettings& settings,
                                     SolveReport* report = nullptr) {
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  const SolveReport r = makeSolver(settings.solver)->solve(problem, settings, lambda);
  if (report) *report = r;
  return lambda;
}

}  // namespace contactlab::test
