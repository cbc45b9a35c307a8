#include "deformable/deformable_system.h"

#include <Eigen/SVD>
#include <algorithm>
#include <limits>
#include <mutex>
#include <numeric>
#include <stdexcept>

#include "collision/triangle_geometry.h"
#include "core/stage_timer.h"
#include "core/thread_pool.h"
#include "deformable/deformable_islands.h"
#include "deformable/rigid_surface_query.h"
#include "dynamics/free_rotation.h"
#include "geometry/deformable_shape.h"

namespace contactlab {
namespace deformable_system_impl {

DeformableSolid solidOf(const BodyDesc& desc) {
  if (const auto* s = std::get_if<SphereShape>(&desc.shape)) return *s;
  if (const auto* b = std::get_if<BoxShape>(&desc.shape)) return *b;
  if (const auto* c = std::get_if<CapsuleShape>(&desc.shape)) return *c;
  if (const auto* m = std::get_if<MeshShape>(&desc.shape)) return m->geometry->surface;  // body frame
  throw std::invalid_argument("body \"" + desc.name + "\": a plane cannot be deformable");
}

MaterialModel materialModel(DeformableModel model) {
  return model == DeformableModel::NeoHookean ? MaterialModel::NeoHookean : MaterialModel::Corotational;
}

// Volume of a tetrahedral mesh (sum of its tetrahedra), for a density given by mass.
double meshVolume(const TetMesh& mesh) {
  double volume = 0.0;
  for (const auto& t : mesh.tetrahedra) {
    const Vec3 &a = mesh.vertices[t[0]], &b = mesh.vertices[t[1]], &c = mesh.vertices[t[2]], &d = mesh.vertices[t[3]];
    volume += (b - a).cross(c - a).dot(d - a) / 6.0;
  }
  return volume;
}

// The rotation part of the polar decomposition of M (nearest rotation in the Frobenius sense).
Mat3 nearestRotation(const Mat3& m) {
  const Eigen::JacobiSVD<Mat3> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 u = svd.matrixU();
  if ((u * svd.matrixV().transpose()).determinant() < 0.0) u.col(2) = -u.col(2);
  return u * svd.matrixV().transpose();
}

// The box of a body's nodes.
Aabb nodeBox(const FemBody& fem) {
  Aabb box{fem.state().positions[0], fem.state().positions[0]};
  for (const Vec3& x : fem.state().positions) box.lower = box.lower.cwiseMin(x), box.upper = box.upper.cwiseMax(x);
  return box;
}

// Whether x lies inside one of the body's tetrahedra at their current positions (all four
// barycentric volumes of the same sign as the tetrahedron's, an inverted one included).
bool insideTetrahedra(const FemBody& fem, const Vec3& x) {
  const auto volume = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) { return (b - a).cross(c - a).dot(d - a); };
  for (int t = 0; t < fem.numTets(); ++t) {
    const auto [a, b, c, d] = fem.tetPositions(t);
    const double whole = volume(a, b, c, d);
    if (whole == 0.0) continue;
    const double sign = whole > 0.0 ? 1.0 : -1.0;
    if (sign * volume(x, b, c, d) >= 0.0 && sign * volume(a, x, c, d) >= 0.0 && sign * volume(a, b, x, d) >= 0.0 &&
        sign * volume(a, b, c, x) >= 0.0)
      return true;
  }
  return false;
}

}  // namespace deformable_system_impl

double DeformableSystem::distanceToBoundary(const Entry& e, const Vec3& x) {
  const auto& positions = e.fem.state().positions;
  double nearest = std::numeric_limits<double>::infinity();
  for (const auto& t : e.boundary.triangles)
    nearest = std::min(nearest, (closestPointOnTriangle(x, positions[t[0]], positions[t[1]], positions[t[2]]).point - x).norm());
  return nearest;
}

void DeformableSystem::add(const BodyDesc& desc, int body, double mu) {
  using namespace deformable_system_impl;
  const DeformableDesc& d = *desc.deformable;
  const std::string source = desc.name.empty() ? "body " + std::to_string(body) : "body \"" + desc.name + "\"";
  TetMesh mesh;
  const auto* meshShape = std::get_if<MeshShape>(&desc.shape);
  if (meshShape && meshShape->geometry->directTetrahedra) {
    // A mesh built with its tetrahedra (the ring): used as they are, in the body frame.
    if (d.maxTetVolume)
      throw std::invalid_argument(source + ": max_tet_volume does not apply to mesh \"" + meshShape->geometry->source +
                                  "\", which comes with its own tetrahedra");
    mesh = {meshShape->geometry->tetVertices, meshShape->geometry->tetrahedra};
  } else {
    const DeformableSolid solid = solidOf(desc);
    const double volume = solidVolume(solid, source);
    mesh = tetrahedralizeShape(solid, d.maxTetVolume.value_or(defaultMaxTetVolume(volume)), source);
  }
  FemBodySettings settings;
  settings.material.model = materialModel(d.model);
  settings.material.youngsModulus = d.youngsModulus;
  settings.material.poissonRatio = d.poissonRatio;
  settings.rayleighAlpha = d.dampingMass;
  settings.rayleighBeta = d.dampingStiffness;
  settings.density = desc.mass ? *desc.mass / meshVolume(mesh) : desc.density.value_or(1000.0);
  std::vector<Vec3> restInBodyFrame = mesh.vertices;
  const Mat3 rotation = desc.orientation.toRotationMatrix();
  for (Vec3& x : mesh.vertices) x = desc.position + rotation * x;
  TetBoundary boundary = extractBoundary(mesh, source);
  Entry entry{desc, FemBody(std::move(mesh), settings), std::move(boundary), std::move(restInBodyFrame), body, numNodes_};
  entry.desc.deformable->nodePositions.clear();
  entry.desc.deformable->nodeVelocities.clear();
  FemBodyState& state = entry.fem.state();
  const bool saved = !d.nodePositions.empty();
  if (saved && (d.nodePositions.size() != state.positions.size() || d.nodeVelocities.size() != state.positions.size()))
    throw std::invalid_argument(source + ": the saved state has " + std::to_string(d.nodePositions.size()) +
                                " node positions and " + std::to_string(d.nodeVelocities.size()) +
                                " velocities, its tetrahedralization " + std::to_string(state.positions.size()) +
                                " nodes (saved with another shape, max_tet_volume or tetgen?)");
  for (int i = 0; i < entry.fem.numNodes(); ++i) {
    state.velocities[i] = desc.velocity + desc.angularVelocity.cross(state.positions[i] - desc.position);
    if (d.pinned && (state.positions[i].array() >= d.pinned->min.array()).all() &&
        (state.positions[i].array() <= d.pinned->max.array()).all())
      entry.fem.setPinned(i, true);
  }
  if (saved) {
    for (int i = 0; i < entry.fem.numNodes(); ++i) {
      state.positions[i] = d.nodePositions[i];
      state.velocities[i] = entry.fem.isPinned(i) ? Vec3::Zero() : d.nodeVelocities[i];
    }
  }
  // The fit's reference about the rest centre of mass (tetgen's interior points move it a little).
  Vec3 restCentre = Vec3::Zero();
  for (int i = 0; i < entry.fem.numNodes(); ++i) restCentre += entry.fem.rest().nodeMass[i] * entry.restInBodyFrame[i];
  restCentre /= entry.fem.rest().totalMass;
  for (Vec3& x : entry.restInBodyFrame) x -= restCentre;
  DeformableContacts::SurfaceFaces faces =
      DeformableContacts::surfaceFaces(entry.boundary, numNodes_, entry.fem.numNodes(), static_cast<int>(surface_.size()));
  faces.mu = mu;
  faces.selfCollision = d.selfCollision;
  for (const int v : entry.boundary.vertices) surface_.push_back({numNodes_ + v, mu});
  faces_.push_back(std::move(faces));
  numNodes_ += entry.fem.numNodes();
  bodies_.push_back(std::move(entry));
}

BodyDesc DeformableSystem::describe(int i) const {
  const Entry& e = bodies_[i];
  BodyDesc desc = e.desc;
  desc.deformable->nodePositions = e.fem.state().positions;
  desc.deformable->nodeVelocities = e.fem.state().velocities;
  return desc;
}

void DeformableSystem::setSettings(const DeformableSolverSettings& settings) {
  makeDeformableSolver(settings.solver);  // throws, naming it, for an unknown solver
  settings_ = settings;
  contacts_.setTolerance(settings.absoluteTolerance);
}

void DeformableSystem::setObstacles(const std::vector<Body>& bodies, int kdop) {
  obstacles_.clear();
  rigidBodies_.clear();
  meshes_.setK(kdop);
  contacts_.setKdop(kdop);
  for (int b = 0; b < static_cast<int>(bodies.size()); ++b) {
    const Body& body = bodies[b];
    if (body.isDeformable()) continue;
    rigidBodies_.push_back(b);
    if (!body.isDynamic()) obstacles_.push_back(b);
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) meshes_.prepare(mesh->geometry);
  }
}

std::vector<Aabb> DeformableSystem::sweptBoxes(double dt, const Vec3& gravity) const {
  std::vector<Aabb> boxes;
  for (const Entry& e : bodies_) {
    double fastest = 0.0;
    for (const Vec3& v : e.fem.state().velocities) fastest = std::max(fastest, v.norm());
    boxes.push_back(deformable_system_impl::nodeBox(e.fem).inflated(dt * (fastest + gravity.norm() * dt) +
                                                                    DeformableContacts::kMargin));
  }
  return boxes;
}

void DeformableSystem::setNodeForce(int i, int node, const Vec3& force) {
  const int global = bodies_[i].firstNode + node;
  if (force.isZero(0.0)) {
    nodeForces_.erase(global);
  } else {
    nodeForces_[global] = force;
  }
}

void DeformableSystem::assemble(double dt, const Vec3& gravity, const std::vector<Body>& bodies,
                                const std::vector<int>& coupled, ThreadPool* pool) {
  std::vector<const FemBody*> fems;
  for (const Entry& e : bodies_) fems.push_back(&e.fem);
  coupled_ = coupled;
  coupledStart_.clear();
  std::vector<RigidBodyUnknowns> rigid;
  for (const int b : coupled) {
    const Body& body = bodies[b];
    const Mat3 rotation = body.rotation();
    coupledStart_.push_back({body.position, rotation});
    // The rigid pipeline's free motion (computeFreeVelocities): gravity, and the torque-free turn of
    // the body-frame angular velocity.
    const Vec3 freeOmega = rotation * freeRotationStep(rotation.transpose() * body.angularVelocity, body.inertiaBody, dt);
    rigid.push_back({body.mass, body.inertiaWorld(), body.velocity + dt * gravity, freeOmega});
  }
  assembleDeformableProblem(fems, dt, gravity, problem_, rigid, pool);
  // External node forces join f_external of eq. 4; a pinned node's row keeps b_i = 0.
  for (const auto& [node, force] : nodeForces_) {
    const Entry& e = bodies_[bodyOfNode(node)];
    if (!e.fem.isPinned(node - e.firstNode)) problem_.b.segment<3>(3 * node) += dt * force;
  }
  // Rigid bodies have no node position: their entries of positions_ stay zero, unused.
  positions_.setZero(problem_.A.rows());
  velocities_.resize(problem_.A.rows());
  for (const Entry& e : bodies_)
    for (int i = 0; i < e.fem.numNodes(); ++i) {
      positions_.segment<3>(3 * (e.firstNode + i)) = e.fem.state().positions[i];
      velocities_.segment<3>(3 * (e.firstNode + i)) = e.fem.state().velocities[i];
    }
  for (std::size_t j = 0; j < coupled.size(); ++j) {
    velocities_.segment<3>(3 * problem_.linearNode(static_cast<int>(j))) = bodies[coupled[j]].velocity;
    velocities_.segment<3>(3 * problem_.angularNode(static_cast<int>(j))) = bodies[coupled[j]].angularVelocity;
  }
}

void DeformableSystem::collide(const std::vector<Body>& bodies, const Vec3& gravity) {
  problem_.constraints.clear();
  contacts_.begin(bodies, obstacles_, coupled_, meshes_, surface_, faces_, positions_, velocities_, gravity, problem_);
}

void DeformableSystem::startFromLastStep() {
  const std::vector<DeformableContacts::Pair>& pairs = contacts_.pairs();
  states_.assign(pairs.size(), CrConstraintState{});
  multipliers_.setZero(3 * pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto it = std::lower_bound(remembered_.begin(), remembered_.end(), pairs[k],
                                     [](const Remembered& r, const DeformableContacts::Pair& p) { return r.pair < p; });
    if (it == remembered_.end() || pairs[k] < it->pair) continue;
    states_[k] = it->state;
    multipliers_.segment<3>(3 * k) = it->multipliers;
  }
}

void DeformableSystem::rememberForNextStep() {
  remembered_.clear();
  for (std::size_t k = 0; k < contacts_.pairs().size(); ++k)
    if (states_[k].active) remembered_.push_back({contacts_.pairs()[k], states_[k], multipliers_.segment<3>(3 * k)});
  std::sort(remembered_.begin(), remembered_.end(), [](const Remembered& a, const Remembered& b) { return a.pair < b.pair; });
}

namespace deformable_system_impl {

std::array<int, 10> pairIndices(const DeformableContacts::Pair& p) {
  return {p.surface, p.body, p.rigidVertex, p.deformable, p.rigidEdge, p.edge, p.otherDeformable, p.otherEdge, p.face,
          p.otherBody};
}

DeformableContacts::Pair pairFromIndices(const std::array<int, 10>& i, std::uint32_t feature) {
  return {i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7], i[8], i[9], feature};
}

}  // namespace deformable_system_impl

std::vector<Continuation::Constraint> DeformableSystem::carriedConstraints() const {
  std::vector<Continuation::Constraint> out;
  for (const Remembered& r : remembered_) {
    Continuation::Constraint& c = out.emplace_back();
    c.pair = deformable_system_impl::pairIndices(r.pair);
    c.pairFeature = r.pair.feature;
    c.kinetic = r.state.friction == FrictionMode::Kinetic;
    c.direction = {r.state.direction.x(), r.state.direction.y()};
    c.lambdaEstimate = r.state.lambdaEstimate;
    c.lambdaHistory = r.state.lambdaHistory;
    c.historyCount = r.state.historyCount;
    c.kineticForce = {r.state.kineticForce.x(), r.state.kineticForce.y()};
    c.multipliers = r.multipliers;
  }
  return out;
}

void DeformableSystem::setCarriedConstraints(const std::vector<Continuation::Constraint>& carried) {
  remembered_.clear();
  for (const Continuation::Constraint& c : carried) {
    Remembered& r = remembered_.emplace_back();
    r.pair = deformable_system_impl::pairFromIndices(c.pair, c.pairFeature);
    r.state.active = true;
    r.state.friction = c.kinetic ? FrictionMode::Kinetic : FrictionMode::Static;
    r.state.direction = Vec2(c.direction[0], c.direction[1]);
    r.state.lambdaEstimate = c.lambdaEstimate;
    r.state.lambdaHistory = c.lambdaHistory;
    r.state.historyCount = c.historyCount;
    r.state.kineticForce = Vec2(c.kineticForce[0], c.kineticForce[1]);
    r.multipliers = c.multipliers;
  }
  std::sort(remembered_.begin(), remembered_.end(), [](const Remembered& a, const Remembered& b) { return a.pair < b.pair; });
}

void DeformableSystem::fitConstraintArrays() {
  const int before = static_cast<int>(states_.size()), count = problem_.numConstraints();
  states_.resize(count);
  multipliers_.conservativeResize(3 * count);
  if (count > before) multipliers_.tail(3 * (count - before)).setZero();
}

void DeformableSystem::solve(ThreadPool* pool) {
  const Stopwatch watch;
  startFromLastStep();
  // Each island is its own MLCP (deformable_islands.h), solved from the step's velocities (a resting
  // body's barely change), islands side by side over the pool's threads. Constraints a solve finds
  // between two islands wait for the pass to end; the islands are then found again and those that
  // changed solved again, as one, from where their solves ended, until a pass finds no constraint
  // between islands. (An island split by a constraint its solve retired is solved again only in
  // such a pass.)
  std::vector<int> firstNodes;
  for (const Entry& e : bodies_) firstNodes.push_back(e.firstNode);
  std::vector<std::pair<DeformableIsland, DeformableSolveReport>> solved;
  Eigen::VectorXd scratch = velocities_;
  std::mutex contactsMutex;
  DeformableSolveReport total;
  for (bool changed = true; changed;) {
    std::vector<std::pair<DeformableIsland, DeformableSolveReport>> pass;
    struct Solve {
      std::unique_ptr<IslandProblem> island;
      Eigen::VectorXd v;
      std::vector<CrConstraintState> states;
      Eigen::VectorXd multipliers;
      DeformableSolveReport report;
    };
    std::vector<Solve> solves;
    std::vector<int> passIndex;  // per solve: its place in `pass`
    for (DeformableIsland& island : findDeformableIslands(problem_, firstNodes)) {
      const auto same = std::find_if(solved.begin(), solved.end(), [&](const auto& s) {
        return s.first.nodes == island.nodes && s.first.constraints == island.constraints;
      });
      if (same != solved.end()) {
        pass.push_back(std::move(*same));
        continue;
      }
      passIndex.push_back(static_cast<int>(pass.size()));
      pass.emplace_back();
      solves.emplace_back().island =
          std::make_unique<IslandProblem>(std::move(island), problem_, contacts_, scratch, numBodies(), &contactsMutex);
    }
    const int before = problem_.numConstraints();
    contacts_.freezeReaches();
    const auto solveIsland = [&](Solve& solve) {
      IslandProblem& own = *solve.island;
      const std::unique_ptr<CrSolver> solver = makeDeformableSolver(settings_.solver);
      std::vector<CrConstraintState> warm;
      for (const int k : own.island().constraints) warm.push_back(states_[k]);
      solver->setWarmStart(std::move(warm), own.gatherConstraints(multipliers_));
      solve.v = own.gatherNodes(velocities_);
      solve.report = solver->solve(own.problem(), settings_, &own, solve.v, pool);
      solve.states = solver->states();
      solve.multipliers = solver->multipliers();
    };
    // An island with most of the pass's nodes (a pile) is solved first on its own, its products with
    // A cut among the pool's threads; the others side by side, one per thread. Either way the
    // results are the same.
    std::size_t passNodes = 0;
    for (const Solve& solve : solves) passNodes += solve.island->island().nodes.size();
    std::vector<Solve*> sideBySide;
    for (Solve& solve : solves) {
      if (2 * solve.island->island().nodes.size() > passNodes) solveIsland(solve);
      else sideBySide.push_back(&solve);
    }
    parallelFor(pool, static_cast<int>(sideBySide.size()), 1, [&](int i, int, int) { solveIsland(*sideBySide[i]); });
    // The constraints the solves added, numbered by island and within one in the order found,
    // whichever thread appended them when.
    std::vector<int> order(before);
    std::iota(order.begin(), order.end(), 0);
    for (const Solve& solve : solves)
      for (const int k : solve.island->island().constraints)
        if (k >= before) order.push_back(k);
    if (!std::is_sorted(order.begin(), order.end())) {
      std::vector<int> newIndex(order.size());
      for (std::size_t i = 0; i < order.size(); ++i) newIndex[order[i]] = static_cast<int>(i);
      contacts_.reorder(order, problem_);
      for (Solve& solve : solves) solve.island->renumberConstraints(newIndex);
    }
    fitConstraintArrays();
    std::vector<DeformableSolveReport> passReports;
    for (const Solve& solve : solves) passReports.push_back(solve.report);
    addPassReport(total, combineIslandReports(passReports));
    for (std::size_t i = 0; i < solves.size(); ++i) {
      Solve& solve = solves[i];
      const IslandProblem& own = *solve.island;
      own.scatterNodes(solve.v, velocities_);
      for (std::size_t j = 0; j < own.island().constraints.size(); ++j) states_[own.island().constraints[j]] = solve.states[j];
      own.scatterConstraints(solve.multipliers, multipliers_);
      // As the next pass will find it if nothing joins it: without the constraints it retired.
      DeformableIsland island = own.island();
      std::erase_if(island.constraints, [&](int k) { return isRetired(problem_.constraints[k]); });
      pass[passIndex[i]] = {std::move(island), std::move(solve.report)};
    }
    // Constraints between islands join the problem, starting inactive; the islands they join are
    // solved again.
    const int joined = problem_.numConstraints();
    for (const Solve& solve : solves) contacts_.appendDeferred(solve.island->deferred(), problem_);
    changed = problem_.numConstraints() > joined;
    fitConstraintArrays();
    solved = std::move(pass);
  }
  // Whether the step converged, and its residual, are those of the islands it ends with.
  std::vector<DeformableSolveReport> finalReports;
  for (auto& [island, report] : solved) finalReports.push_back(std::move(report));
  const DeformableSolveReport final = combineIslandReports(finalReports);
  report_ = std::move(total);
  report_.islands = final.islands;
  report_.convergence = final.convergence;
  report_.residual = final.residual;
  report_.seconds = watch.elapsedSeconds();
  rememberForNextStep();
}

void DeformableSystem::integrate(std::vector<Body>& bodies) {
  const double dt = problem_.dt;
  for (std::size_t j = 0; j < coupled_.size(); ++j) {
    Body& body = bodies[coupled_[j]];
    body.velocity = velocities_.segment<3>(3 * problem_.linearNode(static_cast<int>(j)));
    body.angularVelocity = velocities_.segment<3>(3 * problem_.angularNode(static_cast<int>(j)));
    body.position += dt * body.velocity;
    body.orientation = rotateByAngularVelocity(body.orientation, body.angularVelocity, dt);
  }
  for (Entry& e : bodies_) {
    FemBodyState& state = e.fem.state();
    for (int i = 0; i < e.fem.numNodes(); ++i) {
      const Vec3 v = velocities_.segment<3>(3 * (e.firstNode + i));
      state.velocities[i] = e.fem.isPinned(i) ? Vec3::Zero() : v;
      state.positions[i] += dt * state.velocities[i];  // eq. 5
    }
  }
}

void DeformableSystem::summarize(std::vector<Body>& bodies) const {
  using namespace deformable_system_impl;
  for (const Entry& e : bodies_) {
    const FemBodyRest& rest = e.fem.rest();
    const FemBodyState& state = e.fem.state();
    const Vec3 centre = centerOfMass(e.fem);
    const Vec3 momentum = linearMomentum(e.fem);
    Mat3 fit = Mat3::Zero(), inertia = Mat3::Zero();
    Vec3 angularMomentum = Vec3::Zero();
    for (int i = 0; i < e.fem.numNodes(); ++i) {
      const double m = rest.nodeMass[i];
      const Vec3 r = state.positions[i] - centre;
      fit += m * r * e.restInBodyFrame[i].transpose();
      inertia += m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
      angularMomentum += m * r.cross(state.velocities[i] - momentum / rest.totalMass);
    }
    Body& body = bodies[e.body];
    body.position = centre;
    body.velocity = momentum / rest.totalMass;
    body.orientation = Quat(nearestRotation(fit)).normalized();
    body.angularVelocity = inertia.ldlt().solve(angularMomentum);
  }
}

int DeformableSystem::bodyOfNode(int node) const {
  const auto after = std::upper_bound(bodies_.begin(), bodies_.end(), node,
                                      [](int n, const Entry& e) { return n < e.firstNode; });
  return static_cast<int>(after - bodies_.begin()) - 1;
}

int DeformableSystem::numActiveConstraints() const {
  int active = 0;
  for (const CrConstraintState& s : states_) active += s.active ? 1 : 0;
  return active;
}

void DeformableSystem::appendContactReports(const std::vector<Body>& bodies, std::vector<ContactReport>& reports) const {
  const Eigen::VectorXd forces = constraintForces();
  const std::vector<CrConstraintState>& states = states_;
  const std::vector<DeformableContacts::Pair>& pairs = contacts_.pairs();
  for (int k = 0; k < problem_.numConstraints(); ++k) {
    const DeformableConstraint& c = problem_.constraints[k];
    const DeformableContacts::Pair& pair = pairs[k];
    if (isRetired(c)) continue;
    const Vec4 lambda = Vec4(forces[3 * k], forces[3 * k + 1], forces[3 * k + 2], 0.0) * problem_.dt;
    const CrConstraintState& state = states[k];
    const ContactState contactState = !state.active                            ? ContactState::Separating
                                      : state.friction == FrictionMode::Static ? ContactState::Sticking
                                                                               : ContactState::Sliding;
    if (pair.rigidPair()) {
      // Where the contact was found, carried with a coupled body of the pair to where it is now.
      const DeformableConstraint::RigidTerm& term = c.rigid[0];
      const int b = coupled_[term.body];
      const Pose& start = coupledStart_[term.body];
      ContactReport r;
      r.bodyA = pair.body;
      r.bodyB = pair.otherBody;
      r.normal = c.frame.col(0);
      r.tangentT = c.frame.col(1);
      r.tangentS = c.frame.col(2);
      r.gap = constraintRowsTimes(problem_, k, velocities_)[0] - c.cn;
      r.point = bodies[b].position + bodies[b].rotation() * (start.rotation.transpose() * term.arm);
      r.lambda = lambda;
      r.state = contactState;
      reports.push_back(r);
      continue;
    }
    // Body B is on the side of the positive weights (the normal points to it): the vertex, the
    // first edge, or for a rigid vertex the deformable face.
    const int entry = bodyOfNode(c.node[0]);
    ContactReport r;
    r.bodyA = pair.againstRigid() ? pair.body : bodies_[pair.deformable].body;
    r.bodyB = bodies_[entry].body;
    r.normal = c.frame.col(0);
    r.tangentT = c.frame.col(1);
    r.tangentS = c.frame.col(2);
    r.gap = constraintRowsTimes(problem_, k, velocities_)[0] - c.cn;
    // The point where the B side ends, on A's surface: the vertex or edge point moved back by the
    // gap; for a rigid vertex or edge, the deformable surface point under it.
    Vec3 point = Vec3::Zero();
    const bool rigidFeature = pair.rigidVertex >= 0 || pair.rigidEdge >= 0 || (pair.face >= 0 && pair.againstRigid());
    for (int i = 0; i < 4; ++i) {
      const bool sideB = rigidFeature || c.weight[i] > 0.0;
      if (c.node[i] < 0 || !sideB) continue;
      const Entry& owner = bodies_[bodyOfNode(c.node[i])];
      point += std::abs(c.weight[i]) * owner.fem.state().positions[c.node[i] - owner.firstNode];
    }
    r.point = rigidFeature ? point : Vec3(point - r.gap * r.normal);
    r.lambda = lambda;
    r.state = contactState;
    reports.push_back(r);
  }
}

double DeformableSystem::deepestPenetration(const std::vector<Body>& bodies) const {
  double deepest = 0.0;
  for (const DeformableContacts::SurfaceNode& s : surface_) {
    const int entry = bodyOfNode(s.node);
    const Vec3& x = bodies_[entry].fem.state().positions[s.node - bodies_[entry].firstNode];
    for (const int b : rigidBodies_)
      if (const auto q = nearestRigidSurfacePoint(bodies[b], meshes_, x, 0.0)) deepest = std::max(deepest, -q->distance);
  }
  for (int k = 0; k < problem_.numConstraints(); ++k)
    if (contacts_.pairs()[k].rigidPair())
      deepest = std::max(deepest, problem_.constraints[k].cn - constraintRowsTimes(problem_, k, velocities_)[0]);
  return std::max(deepest, deepestBetweenDeformables());
}

double DeformableSystem::deepestBetweenDeformables() const {
  using namespace deformable_system_impl;
  if (bodies_.size() < 2) return 0.0;
  std::vector<Aabb> boxes;
  for (const Entry& e : bodies_) boxes.push_back(nodeBox(e.fem));
  double deepest = 0.0;
  for (const DeformableContacts::SurfaceNode& s : surface_) {
    const int own = bodyOfNode(s.node);
    const Vec3& x = bodies_[own].fem.state().positions[s.node - bodies_[own].firstNode];
    for (int other = 0; other < numBodies(); ++other)
      if (other != own && boxes[other].contains(x) && insideTetrahedra(bodies_[other].fem, x))
        deepest = std::max(deepest, distanceToBoundary(bodies_[other], x));
  }
  return deepest;
}

double DeformableSystem::elasticEnergy() const {
  double energy = 0.0;
  for (const Entry& e : bodies_) energy += contactlab::elasticEnergy(e.fem);
  return energy;
}

double DeformableSystem::kineticEnergy() const {
  double energy = 0.0;
  for (const Entry& e : bodies_) energy += contactlab::kineticEnergy(e.fem);
  return energy;
}

double DeformableSystem::potentialEnergy(const Vec3& gravity) const {
  double energy = 0.0;
  for (const Entry& e : bodies_) energy += gravitationalEnergy(e.fem, gravity);
  return energy;
}

}  // namespace contactlab
