#include "deformable/fem_body.h"

#include "core/thread_pool.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {

FemBody::FemBody(TetMesh restMesh, const FemBodySettings& settings) {
  validateMaterial(settings.material);
  if (!(settings.density > 0.0) || !std::isfinite(settings.density))
    throw std::invalid_argument("FemBody: density must be positive, got " + std::to_string(settings.density));
  if (!(settings.rayleighAlpha >= 0.0) || !(settings.rayleighBeta >= 0.0))
    throw std::invalid_argument("FemBody: Rayleigh damping coefficients must be non-negative");
  const int nodes = static_cast<int>(restMesh.vertices.size());
  rest_.settings = settings;
  rest_.nodeMass.assign(nodes, 0.0);
  rest_.pinned.assign(nodes, 0);
  rest_.tets.reserve(restMesh.tetrahedra.size());
  for (std::size_t t = 0; t < restMesh.tetrahedra.size(); ++t) {
    const std::array<int, 4>& tet = restMesh.tetrahedra[t];
    std::array<Vec3, 4> corners;
    for (int k = 0; k < 4; ++k) {
      if (tet[k] < 0 || tet[k] >= nodes)
        throw std::invalid_argument("FemBody: tetrahedron " + std::to_string(t) + " has node index " +
                                    std::to_string(tet[k]) + " outside [0, " + std::to_string(nodes) + ")");
      corners[k] = restMesh.vertices[tet[k]];
    }
    try {
      rest_.tets.push_back(makeTetRest(corners));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("FemBody: tetrahedron " + std::to_string(t) + ": " + e.what());
    }
    // Lumped mass: a quarter of the tetrahedron's mass on each node.
    const double quarter = 0.25 * settings.density * rest_.tets.back().volume;
    for (int k = 0; k < 4; ++k) rest_.nodeMass[tet[k]] += quarter;
    rest_.totalMass += 4.0 * quarter;
  }
  state_.positions = restMesh.vertices;
  state_.velocities.assign(nodes, Vec3::Zero());
  rest_.mesh = std::move(restMesh);
}

void FemBody::setPinned(int node, bool pinned) {
  if (node < 0 || node >= numNodes())
    throw std::invalid_argument("FemBody::setPinned: node " + std::to_string(node) + " outside [0, " +
                                std::to_string(numNodes()) + ")");
  rest_.pinned[node] = pinned ? 1 : 0;
  if (pinned) state_.velocities[node].setZero();
}

std::array<Vec3, 4> FemBody::tetPositions(int t) const {
  const std::array<int, 4>& tet = rest_.mesh.tetrahedra[t];
  return {state_.positions[tet[0]], state_.positions[tet[1]], state_.positions[tet[2]], state_.positions[tet[3]]};
}

void appendImplicitEulerSystem(const FemBody& body, double dt, const Vec3& gravity, int offset,
                               std::vector<BlockSparseMatrix3::Entry>& entries, Eigen::VectorXd& b) {
  if (!(dt > 0.0)) throw std::invalid_argument("appendImplicitEulerSystem: dt must be positive");
  if (offset < 0 || b.size() < 3 * (offset + body.numNodes()))
    throw std::invalid_argument("appendImplicitEulerSystem: b has " + std::to_string(b.size()) +
                                " entries, fewer than 3 (offset + nodes)");
  const FemBodyRest& rest = body.rest();
  const FemBodyState& state = body.state();
  const double alpha = rest.settings.rayleighAlpha, beta = rest.settings.rayleighBeta;

  // Mass part (eq. 4): (1 + dt alpha) M on the diagonal, M v + dt M g on the right.
  for (int i = 0; i < body.numNodes(); ++i) {
    const double m = rest.nodeMass[i];
    const int row = offset + i;
    if (m == 0.0) {
      entries.push_back({row, row, Mat3::Identity()});
      b.segment<3>(3 * row).setZero();
    } else if (body.isPinned(i)) {
      entries.push_back({row, row, m * Mat3::Identity()});
      b.segment<3>(3 * row).setZero();
    } else {
      entries.push_back({row, row, (1.0 + dt * alpha) * m * Mat3::Identity()});
      b.segment<3>(3 * row) = m * state.velocities[i] + dt * m * gravity;
    }
  }

  // Stiffness part: (dt beta + dt^2) K_e and dt f_e per tetrahedron, without pinned rows/columns.
  const double stiffnessFactor = dt * beta + dt * dt;
  for (int t = 0; t < body.numTets(); ++t) {
    const std::array<int, 4>& tet = rest.mesh.tetrahedra[t];
    const ElementResponse e = evaluateElement(rest.settings.material, rest.tets[t], body.tetPositions(t), true);
    for (int p = 0; p < 4; ++p) {
      if (body.isPinned(tet[p])) continue;
      b.segment<3>(3 * (offset + tet[p])) += dt * e.force.segment<3>(3 * p);
      for (int q = 0; q < 4; ++q) {
        if (body.isPinned(tet[q])) continue;
        entries.push_back({offset + tet[p], offset + tet[q], stiffnessFactor * e.stiffness.block<3, 3>(3 * p, 3 * q)});
      }
    }
  }
}

void assembleDeformableProblem(const std::vector<const FemBody*>& bodies, double dt, const Vec3& gravity,
                               DeformableProblem& problem, const std::vector<RigidBodyUnknowns>& rigid, ThreadPool* pool) {
  int femNodes = 0;
  for (const FemBody* body : bodies) femNodes += body->numNodes();
  const int nodes = femNodes + 2 * static_cast<int>(rigid.size());
  problem.b = Eigen::VectorXd::Zero(3 * nodes);
  // Each body's blocks on a thread of its own (its rows of b are its own), then all in body order:
  // the entries, and so A, are those of the bodies one after the other.
  std::vector<int> offsets{0};
  for (const FemBody* body : bodies) offsets.push_back(offsets.back() + body->numNodes());
  std::vector<std::vector<BlockSparseMatrix3::Entry>> bodyEntries(bodies.size());
  parallelFor(pool, static_cast<int>(bodies.size()), 1, [&](int i, int, int) {
    appendImplicitEulerSystem(*bodies[i], dt, gravity, offsets[i], bodyEntries[i], problem.b);
  });
  std::size_t count = 2 * rigid.size();
  for (const auto& e : bodyEntries) count += e.size();
  std::vector<BlockSparseMatrix3::Entry> entries;
  entries.reserve(count);
  for (const auto& e : bodyEntries) entries.insert(entries.end(), e.begin(), e.end());
  bodyEntries.clear();
  int offset = femNodes;
  for (const RigidBodyUnknowns& r : rigid) {
    entries.push_back({offset, offset, r.mass * Mat3::Identity()});
    entries.push_back({offset + 1, offset + 1, r.inertia});
    problem.b.segment<3>(3 * offset) = r.mass * r.freeVelocity;
    problem.b.segment<3>(3 * offset + 3) = r.inertia * r.freeAngularVelocity;
    offset += 2;
  }
  problem.firstRigidNode = femNodes;
  problem.A.assign(nodes, std::move(entries));
  problem.dt = dt;
  problem.constraints.clear();
}

ConjugateGradientReport stepWithoutContacts(FemBody& body, double dt, const Vec3& gravity,
                                            const ConjugateGradientSettings& settings) {
  DeformableProblem problem;
  assembleDeformableProblem({&body}, dt, gravity, problem);
  FemBodyState& state = body.state();
  Eigen::VectorXd v(3 * body.numNodes());
  for (int i = 0; i < body.numNodes(); ++i)
    v.segment<3>(3 * i) = body.isPinned(i) ? Vec3::Zero() : state.velocities[i];
  const ConjugateGradientReport report = solveConjugateGradient(problem.A, problem.b, v, settings);
  // Eq. 5: x^{i+1} = x^i + dt v^{i+1}.
  for (int i = 0; i < body.numNodes(); ++i) {
    state.velocities[i] = v.segment<3>(3 * i);
    state.positions[i] += dt * state.velocities[i];
  }
  return report;
}

double elasticEnergy(const FemBody& body) {
  double energy = 0.0;
  for (int t = 0; t < body.numTets(); ++t)
    energy += evaluateElement(body.rest().settings.material, body.rest().tets[t], body.tetPositions(t), false).energy;
  return energy;
}

double kineticEnergy(const FemBody& body) {
  double energy = 0.0;
  for (int i = 0; i < body.numNodes(); ++i)
    energy += 0.5 * body.rest().nodeMass[i] * body.state().velocities[i].squaredNorm();
  return energy;
}

double gravitationalEnergy(const FemBody& body, const Vec3& gravity) {
  double energy = 0.0;
  for (int i = 0; i < body.numNodes(); ++i) energy -= body.rest().nodeMass[i] * gravity.dot(body.state().positions[i]);
  return energy;
}

Vec3 linearMomentum(const FemBody& body) {
  Vec3 momentum = Vec3::Zero();
  for (int i = 0; i < body.numNodes(); ++i) momentum += body.rest().nodeMass[i] * body.state().velocities[i];
  return momentum;
}

Vec3 angularMomentum(const FemBody& body, const Vec3& about) {
  Vec3 momentum = Vec3::Zero();
  for (int i = 0; i < body.numNodes(); ++i)
    momentum += body.rest().nodeMass[i] * (body.state().positions[i] - about).cross(body.state().velocities[i]);
  return momentum;
}

Vec3 centerOfMass(const FemBody& body) {
  Vec3 sum = Vec3::Zero();
  for (int i = 0; i < body.numNodes(); ++i) sum += body.rest().nodeMass[i] * body.state().positions[i];
  return body.rest().totalMass > 0.0 ? Vec3(sum / body.rest().totalMass) : Vec3::Zero();
}

std::vector<double> elementVonMisesStress(const FemBody& body) {
  std::vector<double> stress(body.numTets());
  for (int t = 0; t < body.numTets(); ++t)
    stress[t] = vonMisesStress(
        evaluateElement(body.rest().settings.material, body.rest().tets[t], body.tetPositions(t), false));
  return stress;
}

}  // namespace contactlab
