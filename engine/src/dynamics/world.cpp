// World::step, stage by stage (PROX paper eqs. 41-42, sec. 4.4). docs/pipeline.md describes each
// stage under the name of the function that implements it.
#include "contactlab/world.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "collision/contact_cache.h"
#include "collision/contact_generation.h"
#include "collision/kdop.h"
#include "core/stage_timer.h"
#include "core/thread_pool.h"
#include "deformable/deformable_system.h"
#include "deformable/mixed_islands.h"
#include "dynamics/body_setup.h"
#include "dynamics/contact_assembly.h"
#include "dynamics/island_solve.h"
#include "dynamics/moreau_midpoint.h"
#include "dynamics/post_stabilization.h"
#include "dynamics/rolling_resistance.h"
#include "dynamics/sleeping.h"
#include "dynamics/world_problem.h"
#include "problem/natural_map.h"

namespace contactlab {

struct World::Impl {
  Vec3 gravity;
  FrictionDefaults frictionDefaults;
  double dt = 0.01;
  int stepCount = 0;
  // The clock reads clockTime + (stepCount - clockStep) dt: exact multiples of dt from the scene's
  // start or the last change of dt, so a change of dt neither rewinds it nor lets rounding pile up.
  double clockTime = 0.0;
  int clockStep = 0;
  double time() const { return clockTime + (stepCount - clockStep) * dt; }
  int startStep = 0;  // the scene's step (Scene::step): stepped() once stepCount passes it
  std::vector<Body> bodies;
  std::vector<int> slotOfBody;  // -1 for static and kinematic bodies
  std::vector<int> bodyOfSlot;

  WorldSettings settings;
  IslandSolve islandSolve;           // the contact solve, island by island
  std::unique_ptr<ThreadPool> pool;  // settings.threads threads; shared by every stage and the solver
  SleepTracker sleep;
  DeformableSystem deformables;  // FEM bodies, stepped by their own stages after the rigid ones

  ContactGenerator contactGenerator;
  ContactCache warmStartCache;
  std::vector<ContactCache::Entry> cacheEntries;  // reused buffer for filling the cache each step
  std::vector<BodyContact> bodyContacts;
  std::vector<Vec6> freeVelocity;  // per slot: u^t + dt M^-1 h
  std::vector<Vec3> angularVelocityAhead;  // per body: the free w^{t+1} (dynamic), w (the others)
  ContactProblem problem;
  ContactExtras extras;            // per contact: frame, impact closing
  Eigen::VectorXd lambda;          // 4 * contacts: n, t, s, tau
  std::vector<double> lastNormal;  // per contact: its normal impulse of the last step (0: new)
  Eigen::VectorXd rollingChange;   // per slot: what resistRolling changed in the free velocity
  std::vector<char> known;         // warmStart's: per contact, whether the cache knows its features
  std::vector<double> gapAtEnd;    // per contact, for stabilization

  StepMetrics metrics;
  // Built from this step's contacts when first asked for (contacts(), debugDraw), not every step:
  // nothing in the step needs them, and they cost about as much as the assembly. Valid until the
  // state changes (the next step, or an impulse, which builds them first).
  std::vector<ContactReport> reports;
  bool reportsCurrent = false;

  void step();
  void collide();
  void generateContacts();
  bool wakeTouchedIslands();
  void buildProblem();
  void warmStart();
  void resistRolling();
  void solve();
  void storeImpulses();
  const Eigen::VectorXd& applyContactResponse();
  void stabilize();
  void updateSleep();
  void coupleToDeformables();
  void stepDeformables();
  void report();
  const std::vector<ContactReport>& contactReports();
  void checkFinite() const;
  void continueFrom(const Continuation& continuation);
  Continuation continuation() const;
};

World::World(const Scene& scene, const WorldSettings& settings) : impl_(std::make_unique<Impl>()) {
  validateSceneSettings(scene);
  impl_->gravity = scene.gravity;
  impl_->dt = scene.dt;
  impl_->stepCount = impl_->startStep = scene.step;
  // A state saved from a clock that ran at one dt from 0 (time = step x dt to the last bit) runs
  // on from that origin, so that its times are those the uninterrupted run would have had.
  const bool sameOrigin = scene.step * scene.dt == scene.time;
  impl_->clockTime = sameOrigin ? 0.0 : scene.time;
  impl_->clockStep = sameOrigin ? 0 : scene.step;
  impl_->frictionDefaults = scene.friction;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    impl_->bodies.push_back(makeBody(scene.bodies[i], scene.friction, static_cast<int>(i)));
    if (scene.bodies[i].deformable) {
      Body& body = impl_->bodies.back();
      body.deformable = impl_->deformables.numBodies();
      impl_->deformables.add(scene.bodies[i], static_cast<int>(i), body.mu);
      body.motion = MotionType::Static;  // to the rigid pipeline (Body::deformable)
      body.invMass = 0.0;
      body.invInertiaBody = Vec3::Zero();
    }
    const bool dynamic = impl_->bodies.back().isDynamic();
    impl_->slotOfBody.push_back(dynamic ? static_cast<int>(impl_->bodyOfSlot.size()) : -1);
    if (dynamic) impl_->bodyOfSlot.push_back(static_cast<int>(i));
  }
  setSettings(settings);
  impl_->deformables.setObstacles(impl_->bodies, settings.kdop);
  impl_->deformables.summarize(impl_->bodies);
  impl_->continueFrom(scene.continuation);
  impl_->report();
}

// A saved scene's warm starts and sleeping islands, as snapshot() took them: the next step starts
// from them as it would have in the world that was saved.
void World::Impl::continueFrom(const Continuation& continuation) {
  const int count = static_cast<int>(bodies.size());
  cacheEntries.clear();
  for (const Continuation::Contact& c : continuation.contacts) {
    if (c.bodyA < 0 || c.bodyA >= count || c.bodyB < 0 || c.bodyB >= count)
      throw std::invalid_argument("continuation: a contact between bodies " + std::to_string(c.bodyA) + " and " +
                                  std::to_string(c.bodyB) + " of " + std::to_string(count));
    cacheEntries.push_back({{c.bodyA, c.bodyB, c.feature}, {c.normal, c.tangential, c.torsion, c.point}});
  }
  warmStartCache.store(cacheEntries);
  deformables.setCarriedConstraints(continuation.constraints);
  if (settings.sleep) sleep.setRest(bodies, continuation.rest);
}

Continuation World::Impl::continuation() const {
  Continuation out;
  for (const ContactCache::Entry& entry : warmStartCache.entries()) {
    const auto& [key, cached] = entry;
    out.contacts.push_back(
        {key.bodyA, key.bodyB, key.feature, cached.normal, cached.tangential, cached.torsion, cached.point});
  }
  out.constraints = deformables.carriedConstraints();
  if (settings.sleep) out.rest = sleep.rest();
  return out;
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::step() { impl_->step(); }

void World::Impl::step() {
  const Stopwatch stepWatch;
  metrics = StepMetrics{};
  {
    ScopedStageTimer timer(metrics, Stage::Collision);
    if (!deformables.empty()) coupleToDeformables();  // which rigid bodies the deformable stages step
  }
  {
    ScopedStageTimer timer(metrics, Stage::Integrate);
    setKinematicVelocities(bodies, time(), dt);
    halfStepPositions(bodies, dt, pool.get());  // eq. 41
    computeFreeVelocities(bodies, bodyOfSlot, gravity, dt, freeVelocity, pool.get());
  }
  {
    ScopedStageTimer timer(metrics, Stage::Collision);
    collide();  // contacts at q^{t+1/2}
  }
  {
    ScopedStageTimer timer(metrics, Stage::Assembly);
    buildProblem();    // J, W, b, mu
    warmStart();      // lambda and last normal impulses of the contacts seen last step
    resistRolling();  // rolling_resistance.h: u_free and b take the impulses against rolling
  }
  {
    ScopedStageTimer timer(metrics, Stage::Solve);
    solve();  // eq. 42a
  }
  {
    ScopedStageTimer timer(metrics, Stage::Integrate);
    const Eigen::VectorXd& response = applyContactResponse();  // M^-1 J^T lambda
    storeImpulses();  // for the next step's warm start
    integrateVelocities(bodies, bodyOfSlot, freeVelocity, response, pool.get());  // eq. 42b
    finishPositions(bodies, dt, pool.get());                                        // eq. 42c
    placeImpacts(problem, extras.impactClosing, bodyOfSlot, bodies);
  }
  {
    ScopedStageTimer timer(metrics, Stage::Stabilize);
    if (settings.stabilize) stabilize();  // sec. 4.4
  }
  {
    ScopedStageTimer timer(metrics, Stage::Sleep);
    if (settings.sleep) updateSleep();
  }
  if (!deformables.empty()) stepDeformables();
  ++stepCount;
  report();
  metrics.stepMs = stepWatch.elapsedMs();
  checkFinite();
}

void World::Impl::collide() {
  generateContacts();
  // Something awake touches a sleeping island: the island wakes, and the step's contacts are found
  // again with it awake (its own contacts, and those with static bodies, were not searched). A woken
  // island may touch another sleeping one, which wakes in turn.
  while (settings.sleep && wakeTouchedIslands()) {
    computeFreeVelocities(bodies, bodyOfSlot, gravity, dt, freeVelocity, pool.get());
    generateContacts();
  }
}

void World::Impl::generateContacts() {
  // A body turns by dt w^{t+1} from this midpoint to the next; the free angular velocity predicts
  // w^{t+1} as the free linear velocity (v + g dt, in the contact margins) predicts v^{t+1}.
  angularVelocityAhead.resize(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i)
    angularVelocityAhead[i] =
        slotOfBody[i] >= 0 ? Vec3(freeVelocity[slotOfBody[i]].tail<3>()) : bodies[i].angularVelocity;
  contactGenerator.generate(bodies, dt, gravity, bodyContacts, pool.get(), &angularVelocityAhead);
}

// Contacts with a sleeping body come only from pairs with something awake (ContactGenerator skips
// pairs of sleeping and static bodies), so each wakes that body's island.
bool World::Impl::wakeTouchedIslands() {
  if (!sleep.anyAsleep()) return false;
  bool woke = false;
  for (const BodyContact& c : bodyContacts) {
    woke |= sleep.wake(bodies, c.bodyA);
    woke |= sleep.wake(bodies, c.bodyB);
  }
  return woke;
}

void World::Impl::buildProblem() {
  AssemblyInput input;
  input.bodies = &bodies;
  input.slotOfBody = &slotOfBody;
  input.freeVelocity = &freeVelocity;
  input.dt = dt;
  input.restitutionThreshold = 2.0 * gravity.norm() * dt;
  buildContactProblem(input, bodyContacts, problem, extras, pool.get());
}

// A contact of a known pair whose feature is new takes the normal impulse of the pair's nearest
// contact of the last step within this distance: a box pair's clipping can renumber the features of
// points that have not moved, and each contact started from zero costs a resting stack many sweeps.
constexpr double kNearestContactRadius = 0.01;  // metres
// Within this distance the nearest contact is the same point under a new number (a corner of two
// boxes' faces becomes a side plane's crossing when the boxes turn the other way by a hair), and it
// takes the friction as well: started from zero, its friction made a resting stack's solve
// redistribute the friction of the contacts around it (docs/benchmarks.md, "The defaults"). From
// farther away, the friction of another point would be a guess in another direction.
constexpr double kSamePointRadius = 1e-4;  // metres, a tenth of the contact skin

void World::Impl::warmStart() {
  lambda.setZero(problem.numRows());
  known.assign(problem.numContacts(), 0);
  lastNormal.assign(problem.numContacts(), 0.0);
  warmStartCache.beginLookups();
  const auto takeImpulse = [&](int k, const CachedImpulse& cached) {
    lambda[4 * k + kNormal] = cached.normal;
    lambda[4 * k + kTangentT] = extras.frames[k].col(1).dot(cached.tangential);
    lambda[4 * k + kTangentS] = extras.frames[k].col(2).dot(cached.tangential);
    lambda[4 * k + kTorsion] = cached.torsion;
  };
  // Contacts the cache knows by their features first, then the others by nearness among the entries
  // of their pair that no contact took.
  std::size_t cursor = 0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const BodyContact& c = bodyContacts[k];
    const CachedImpulse* cached = warmStartCache.find({c.bodyA, c.bodyB, c.contact.feature}, cursor);
    known[k] = cached != nullptr;
    if (!cached) continue;
    lastNormal[k] = cached->normal;
    if (settings.warmStart) takeImpulse(k, *cached);
  }
  for (int k = 0; k < problem.numContacts(); ++k) {
    if (known[k]) continue;
    const BodyContact& c = bodyContacts[k];
    const ContactKey key{c.bodyA, c.bodyB, c.contact.feature};
    const CachedImpulse* nearest = warmStartCache.findNearest(key, c.contact.point, kNearestContactRadius);
    if (!nearest) continue;
    const bool samePoint = (nearest->point - c.contact.point).norm() <= kSamePointRadius;
    if (samePoint) lastNormal[k] = nearest->normal;
    if (!settings.warmStart) continue;
    if (samePoint) takeImpulse(k, *nearest);
    else lambda[4 * k + kNormal] = nearest->normal;
  }
}

void World::Impl::resistRolling() {
  contactlab::resistRolling(lastNormal, extras.rollingArm, freeVelocity, rollingChange, problem);
}

// A cold start: contacts of which the last step knew none (a scene's first step with bodies resting
// on each other). Its solve sets the impulses every later step starts from, so with the stall test
// on (SolverSettings::stallWindow) it runs in two passes, both without that test, to the absolute
// tolerance or the sweep cap:
// - first without friction, so that the load settles before friction is asked for anything;
// - then with friction, from there.
// Solved with friction from zero, the first sweeps' partial normal impulses turned the bodies and
// friction took up the turning; what it took stayed locked in (a resting pyramid's friction was
// 40 % of its normal impulses at the median, half its contacts on the friction ellipsoid), and the
// impulses then crept along that boundary step after step, each solve running its stall window.
// Stopped at the stall, the first solve also left the pyramid swaying out of its plane for seconds
// (docs/benchmarks.md, "The defaults").
namespace {
bool coldStart(const std::vector<char>& known) {
  return !known.empty() && std::none_of(known.begin(), known.end(), [](char k) { return k != 0; });
}

// One report for two solves of the step run one after the other: `first`'s sweeps go before
// `then`'s, and the outcome is `then`'s.
SolveReport inSequence(const SolveReport& first, SolveReport then) {
  then.iterations += first.iterations;
  then.contactSweeps += first.contactSweeps;
  then.rollbacks += first.rollbacks;
  then.residualHistory.insert(then.residualHistory.begin(), first.residualHistory.begin(), first.residualHistory.end());
  then.rFactorHistory.insert(then.rFactorHistory.begin(), first.rFactorHistory.begin(), first.rFactorHistory.end());
  then.seconds += first.seconds;
  then.iterationSeconds += first.iterationSeconds;
  return then;
}
}  // namespace

void World::Impl::solve() {
  if (coldStart(known) && settings.solver.stallWindow > 0) {
    SolverSettings withoutStall = settings.solver;
    withoutStall.stallWindow = 0;
    std::vector<Vec3> friction(problem.numContacts());
    for (int k = 0; k < problem.numContacts(); ++k) friction[k] = std::exchange(problem.blocks[k].friction, Vec3::Zero());
    const SolveReport frictionless = islandSolve.solve(problem, withoutStall, lambda);
    for (int k = 0; k < problem.numContacts(); ++k) problem.blocks[k].friction = friction[k];
    metrics.solve = inSequence(frictionless, islandSolve.solve(problem, withoutStall, lambda));
  } else {
    metrics.solve = islandSolve.solve(problem, settings.solver, lambda);
  }
  if (settings.computeNaturalMap) metrics.solve.naturalMapResidual = naturalMapResidual(problem, lambda);
}

// The impulses keyed by body pair and feature, the tangential part in world coordinates: the next
// step's contact frames differ, and warmStart projects the stored vector onto them.
void World::Impl::storeImpulses() {
  cacheEntries.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) {
    const BodyContact& c = bodyContacts[k];
    const Vec4 impulse = lambda.segment<4>(4 * k);
    cacheEntries[k] = {{c.bodyA, c.bodyB, c.contact.feature},
                       {impulse[kNormal],
                        extras.frames[k].col(1) * impulse[kTangentT] + extras.frames[k].col(2) * impulse[kTangentS],
                        impulse[kTorsion], c.contact.point}};
  }
  if (sleep.anyAsleep())
    warmStartCache.carryOver(cacheEntries, [&](const ContactKey& key) {
      const Body &a = bodies[key.bodyA], &b = bodies[key.bodyB];
      return (a.asleep || b.asleep) && (a.asleep || !a.isDynamic()) && (b.asleep || !b.isDynamic());
    });
  warmStartCache.store(cacheEntries);
}

// M^-1 J^T lambda, 6 per slot, which eq. 42b adds to the free velocities; Gauss-Seidel solvers
// keep it up to date while they sweep (ContactSolver::bodySpaceResponse), the others' is gathered.
const Eigen::VectorXd& World::Impl::applyContactResponse() { return islandSolve.contactResponse(problem, lambda); }

void World::Impl::stabilize() {
  // First-order gap at q^{t+1}: the midpoint gap plus the second half step's normal travel.
  gapAtEnd.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) {
    const BodyContact& c = bodyContacts[k];
    const double normalSpeed =
        relativeContactVelocity(bodies[c.bodyA], bodies[c.bodyB], c.contact.point, extras.frames[k])[kNormal];
    gapAtEnd[k] = c.contact.gap + 0.5 * dt * normalSpeed;
  }
  stabilizePositions(problem, gapAtEnd, islandSolve.islands(), bodyOfSlot, StabilizationSettings{}, bodies);
}

// Dynamic rigid bodies that share an island with a deformable body this step are solved with it
// (mixed_islands.h): the rigid stages leave them alone (Body::coupled), and a sleeping one wakes.
void World::Impl::coupleToDeformables() {
  for (Body& body : bodies) body.coupled = false;
  for (const int b : rigidBodiesInMixedIslands(bodies, deformables.sweptBoxes(dt, gravity), dt, gravity)) {
    if (bodies[b].asleep) sleep.wake(bodies, b);
    bodies[b].coupled = true;
  }
}

// The deformable bodies' step (conjugate-residual-deformable-contact.txt, Alg. 1), after the rigid
// one: the static and kinematic bodies they touch are then at their poses at the end of the step,
// where the constraints want the vertices to end up outside them; the coupled rigid bodies are
// still where the step started and are solved with the nodes. Timed in the same stages.
void World::Impl::stepDeformables() {
  std::vector<int> coupled;
  for (int b = 0; b < static_cast<int>(bodies.size()); ++b)
    if (bodies[b].coupled) coupled.push_back(b);
  {
    ScopedStageTimer timer(metrics, Stage::Assembly);
    deformables.assemble(dt, gravity, bodies, coupled, pool.get());  // A = M + dt C + dt^2 K, b (eq. 4)
  }
  {
    ScopedStageTimer timer(metrics, Stage::Collision);
    deformables.collide(bodies, gravity);  // candidates and constraints (sec. 5.1)
  }
  {
    ScopedStageTimer timer(metrics, Stage::Solve);
    deformables.solve(pool.get());  // Alg. 1 lines 6-31
  }
  {
    ScopedStageTimer timer(metrics, Stage::Integrate);
    deformables.integrate(bodies);  // eq. 5
    deformables.summarize(bodies);
  }
}

void World::Impl::updateSleep() { sleep.update(bodies, bodyOfSlot, islandSolve.islands(), bodyContacts, dt); }

void World::Impl::report() {
  metrics.step = stepCount;
  metrics.time = time();
  metrics.bodies = static_cast<int>(bodies.size());
  metrics.contacts = problem.numContacts();
  reportsCurrent = false;
  double maxPenetration = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k)
    maxPenetration = std::max(maxPenetration, -bodyContacts[k].contact.gap);
  if (!deformables.empty()) {
    metrics.deformable = deformables.lastSolve();
    metrics.deformableConstraints = deformables.numActiveConstraints();
    metrics.contacts += metrics.deformableConstraints;
    maxPenetration = std::max(maxPenetration, deformables.deepestPenetration(bodies));
    metrics.elasticEnergy = deformables.elasticEnergy();
  }
  metrics.maxPenetration = maxPenetration;
  double kinetic = 0.0, potential = 0.0;
  for (const Body& body : bodies) {
    if (!body.isDynamic()) continue;
    kinetic += 0.5 * body.mass * body.velocity.squaredNorm() +
               0.5 * body.angularVelocity.dot(body.inertiaWorld() * body.angularVelocity);
    potential -= body.mass * gravity.dot(body.position);
  }
  metrics.kineticEnergy = kinetic + deformables.kineticEnergy();
  metrics.potentialEnergy = potential + deformables.potentialEnergy(gravity);
}

const std::vector<ContactReport>& World::Impl::contactReports() {
  if (reportsCurrent) return reports;
  reportsCurrent = true;
  reports.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) {
    const BodyContact& c = bodyContacts[k];
    ContactReport& r = reports[k];
    r.bodyA = c.bodyA;
    r.bodyB = c.bodyB;
    r.point = c.contact.point;
    r.normal = extras.frames[k].col(0);
    r.tangentT = extras.frames[k].col(1);
    r.tangentS = extras.frames[k].col(2);
    r.gap = c.contact.gap;
    r.lambda = lambda.segment<4>(4 * k);
    // Sliding: carrying load while the contact point still slips after the step.
    constexpr double kSlipSpeed = 1e-3;  // m/s
    const Vec4 v = relativeContactVelocity(bodies[c.bodyA], bodies[c.bodyB], c.contact.point, extras.frames[k]);
    if (r.lambda[kNormal] <= 0.0) r.state = ContactState::Separating;
    else if (v.segment<2>(kTangentT).norm() > kSlipSpeed) r.state = ContactState::Sliding;
    else r.state = ContactState::Sticking;
  }
  deformables.appendContactReports(bodies, reports);
  return reports;
}

void World::Impl::checkFinite() const {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (b.position.allFinite() && b.orientation.coeffs().allFinite() && b.velocity.allFinite() &&
        b.angularVelocity.allFinite())
      continue;
    std::ostringstream message;
    message << "body " << i;
    if (!b.name.empty()) message << " (\"" << b.name << "\")";
    message << " has a non-finite state at step " << stepCount << " (time " << time() << " s)";
    throw std::runtime_error(message.str());
  }
}

void World::setSettings(const WorldSettings& settings) {
  if (settings.solver.maxIterations < 1) throw std::invalid_argument("max iterations must be at least 1");
  if (settings.solver.stallWindow < 0) throw std::invalid_argument("the stall window must be at least 0");
  if (!(settings.solver.psor.omega > 0.0 && settings.solver.psor.omega < 2.0))
    throw std::invalid_argument("psor omega must be in (0, 2)");
  if (!(settings.solver.modulus.alpha > 0.0) || !(settings.solver.modulus.gamma > 0.0))
    throw std::invalid_argument("modulus alpha and gamma must be positive");
  if (settings.solver.pgsSm.pgsSweeps < 1 || settings.solver.pgsSm.subspaceSteps < 0 ||
      settings.solver.pgsSm.cgMaxIterations < 0 || !(settings.solver.pgsSm.cgTolerance >= 0.0) ||
      !(settings.solver.pgsSm.regularization >= 0.0))
    throw std::invalid_argument("pgs-sm: sweeps at least 1, steps, CG iterations, tolerance and regularization non-negative");
  if (!(settings.solver.tolAbs >= 0.0) || !(settings.solver.tolRel >= 0.0))
    throw std::invalid_argument("tolerances must be non-negative");
  const DeformableSolverSettings& deformable = settings.deformable;
  if (!(deformable.relativeTolerance > 0.0 && std::isfinite(deformable.relativeTolerance)) ||
      !(deformable.absoluteTolerance > 0.0 && std::isfinite(deformable.absoluteTolerance))) {
    std::ostringstream message;
    message << "the deformable solve's tolerances must be positive and finite, got epsilon_1 "
            << deformable.relativeTolerance << ", epsilon_2 " << deformable.absoluteTolerance;
    throw std::invalid_argument(message.str());
  }
  if (deformable.maxIterations < 1)
    throw std::invalid_argument("the deformable solve's iteration cap must be at least 1, got " +
                                std::to_string(deformable.maxIterations));
  if (deformable.stallIterations < 0)
    throw std::invalid_argument("the deformable solve's stall window must be 0 (off) or more, got " +
                                std::to_string(deformable.stallIterations));
  if (settings.threads < 1)
    throw std::invalid_argument("threads must be at least 1, got " + std::to_string(settings.threads));
  if (!isSupportedKdop(settings.kdop))
    throw std::invalid_argument("kdop must be 14, 18 or 26, got " + std::to_string(settings.kdop));
  impl_->islandSolve.setSolver(settings.solver.solver);  // throws for an unknown name
  impl_->deformables.setSettings(settings.deformable);  // the same
  if (!impl_->pool || impl_->pool->threadCount() != settings.threads)
    impl_->pool = std::make_unique<ThreadPool>(settings.threads);
  impl_->islandSolve.setThreadPool(impl_->pool.get());
  // Any change wakes every sleeping island: it is to be solved the new way from the next step on.
  const bool changed = settings != impl_->settings;
  impl_->settings = settings;
  impl_->contactGenerator.prepareMeshes(impl_->bodies, settings.kdop);
  if (changed || !settings.sleep) impl_->sleep.reset(impl_->bodies);
}

const ContactProblem& lastContactProblem(const World& world) { return world.impl_->problem; }

const WorldSettings& World::settings() const { return impl_->settings; }
const std::vector<Body>& World::bodies() const { return impl_->bodies; }
const std::vector<ContactReport>& World::contacts() const { return impl_->contactReports(); }
const StepMetrics& World::lastMetrics() const { return impl_->metrics; }
int World::stepCount() const { return impl_->stepCount; }
bool World::stepped() const { return impl_->stepCount > impl_->startStep; }
double World::time() const { return impl_->time(); }
double World::dt() const { return impl_->dt; }
const Vec3& World::gravity() const { return impl_->gravity; }

void World::setDt(double dt) {
  if (!(std::isfinite(dt) && dt > 0.0)) throw std::invalid_argument("dt must be positive and finite");
  if (dt == impl_->dt) return;  // nothing changes: the clock and the sleeping islands stay as they are
  impl_->clockTime = impl_->time();  // the clock runs on from here at the new rate
  impl_->clockStep = impl_->stepCount;
  impl_->dt = dt;
  impl_->sleep.reset(impl_->bodies);  // every island is to be stepped the new way
}

int World::deformableBodyCount() const { return impl_->deformables.numBodies(); }

int World::deformableConstraintCount() const {
  const std::vector<DeformableConstraint>& constraints = impl_->deformables.problem().constraints;
  return static_cast<int>(std::count_if(constraints.begin(), constraints.end(),
                                        [](const DeformableConstraint& c) { return !isRetired(c); }));
}

DeformableMeshView World::deformableBody(int i) const {
  if (i < 0 || i >= deformableBodyCount()) throw std::out_of_range("no deformable body " + std::to_string(i));
  const FemBody& fem = impl_->deformables.femBody(i);
  return {impl_->deformables.worldBody(i), fem.state().positions, fem.state().velocities, fem.rest().mesh.tetrahedra,
          impl_->deformables.boundary(i).triangles};
}

std::vector<double> World::deformableStress(int i) const {
  if (i < 0 || i >= deformableBodyCount()) throw std::out_of_range("no deformable body " + std::to_string(i));
  return elementVonMisesStress(impl_->deformables.femBody(i));
}

void World::setDeformableNodeForce(int i, int node, const Vec3& force) {
  if (i < 0 || i >= deformableBodyCount()) throw std::out_of_range("no deformable body " + std::to_string(i));
  if (node < 0 || node >= impl_->deformables.femBody(i).numNodes())
    throw std::out_of_range("deformable body " + std::to_string(i) + " has no node " + std::to_string(node));
  if (!force.allFinite()) throw std::invalid_argument("node force must be finite");
  impl_->deformables.setNodeForce(i, node, force);
}

void World::clearDeformableNodeForces() { impl_->deformables.clearNodeForces(); }

double World::kineticEnergy() const { return impl_->metrics.kineticEnergy; }
double World::potentialEnergy() const { return impl_->metrics.potentialEnergy; }

Scene World::snapshot() const {
  Scene scene;
  scene.gravity = impl_->gravity;
  scene.dt = impl_->dt;
  scene.time = impl_->time();
  scene.step = impl_->stepCount;
  scene.friction = {};
  for (const Body& body : impl_->bodies) {
    if (body.isDeformable()) {
      BodyDesc desc = impl_->deformables.describe(body.deformable);
      desc.material = {body.mu, body.muTorsion, body.restitution, body.muRolling};
      scene.bodies.push_back(std::move(desc));
      continue;
    }
    BodyDesc desc = describeBody(body);
    // Resolved materials, so the snapshot does not depend on the scene defaults it is loaded with.
    desc.material = {body.mu, body.muTorsion, body.restitution, body.muRolling};
    scene.bodies.push_back(std::move(desc));
  }
  scene.continuation = impl_->continuation();
  return scene;
}

void World::setFrictionDefaults(const FrictionDefaults& defaults) {
  if (!(defaults.mu >= 0.0 && std::isfinite(defaults.mu)) ||
      !(defaults.muTorsion >= 0.0 && std::isfinite(defaults.muTorsion)) ||
      !(defaults.restitution >= 0.0 && std::isfinite(defaults.restitution)) ||
      !(defaults.muRolling >= 0.0 && std::isfinite(defaults.muRolling)))
    throw std::invalid_argument("friction coefficients and restitution must be non-negative and finite");
  impl_->frictionDefaults = defaults;
  for (Body& body : impl_->bodies) {
    body.mu = body.sceneMaterial.mu.value_or(defaults.mu);
    body.muTorsion = body.sceneMaterial.muTorsion.value_or(defaults.muTorsion);
    body.restitution = body.sceneMaterial.restitution.value_or(defaults.restitution);
    body.muRolling = body.sceneMaterial.muRolling.value_or(defaults.muRolling);
  }
  impl_->sleep.reset(impl_->bodies);  // a box asleep on a slope may slide now
}

const FrictionDefaults& World::frictionDefaults() const { return impl_->frictionDefaults; }

void World::applyImpulse(int index, const Vec3& impulse, const Vec3& worldPoint) {
  if (index < 0 || index >= static_cast<int>(impl_->bodies.size()))
    throw std::out_of_range("no body " + std::to_string(index));
  Body& body = impl_->bodies[index];
  if (!body.isDynamic()) throw std::invalid_argument("body " + std::to_string(index) + " is not dynamic");
  if (!impulse.allFinite() || !worldPoint.allFinite()) throw std::invalid_argument("impulse must be finite");
  impl_->contactReports();  // the reports describe the state the step left, before this impulse
  impl_->sleep.wake(impl_->bodies, index);  // a push wakes the island the body sleeps in
  body.velocity += body.invMass * impulse;
  body.angularVelocity += body.invInertiaWorld() * (worldPoint - body.position).cross(impulse);
}

Color contactStateColor(ContactState state) {
  switch (state) {
    case ContactState::Separating: return Color{0.6f, 0.6f, 0.6f, 1.0f};
    case ContactState::Sticking: return Color{0.2f, 0.85f, 0.3f, 1.0f};
    case ContactState::Sliding: return Color{1.0f, 0.55f, 0.1f, 1.0f};
  }
  return Color{1.0f, 0.3f, 0.2f, 1.0f};
}

void World::debugDraw(DebugDraw& draw, const DebugDrawOptions& options) const {
  const Color plainColor{1.0f, 0.3f, 0.2f, 1.0f};
  const Color normalColor{0.2f, 0.6f, 1.0f, 1.0f};
  const auto stateColor = [&](ContactState state) { return options.colorByState ? contactStateColor(state) : plainColor; };
  for (const ContactReport& c : impl_->contactReports()) {
    const Color color = stateColor(c.state);
    if (options.contactPoints) draw.drawPoint(c.point, 5.0f, color);
    if (options.contactNormals) draw.drawSegment(c.point, c.point + 0.1 * c.normal, normalColor);
    if (options.contactForces) {
      // The impulse on body B, as a force over the step.
      const Vec3 force = (c.lambda[kNormal] * c.normal + c.lambda[kTangentT] * c.tangentT +
                          c.lambda[kTangentS] * c.tangentS) / impl_->dt;
      draw.drawSegment(c.point, c.point + options.forceScale * force, color);
    }
  }
  if (options.boundingBoxes)
    for (const Aabb& box : impl_->contactGenerator.boundingBoxes())
      draw.drawAabb(box.lower, box.upper, Color{0.9f, 0.9f, 0.2f, 1.0f});
  if (options.broadphaseCells) {
    std::vector<Aabb> cells;
    impl_->contactGenerator.grid().occupiedCells(cells);
    for (const Aabb& cell : cells) draw.drawAabb(cell.lower, cell.upper, Color{0.4f, 0.4f, 1.0f, 1.0f});
  }
}

}  // namespace contactlab
