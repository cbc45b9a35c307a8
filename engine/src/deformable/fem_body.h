#pragma once
// One deformable body of linear tetrahedra (Verschoor & Jalba 2019, sec. 2.1-2.2): its cold data
// (rest mesh, inverse rest shapes, volumes, lumped masses, material, damping, pinned nodes) apart
// from its hot state (node positions and velocities, contiguous), and the assembly of its part of
// the linearly implicit Euler step A v = b (eq. 4) that the deformable problem holds.
#include <cstdint>
#include <vector>

#include "contactlab/math.h"
#include "deformable/conjugate_gradient.h"
#include "deformable/elasticity.h"
#include "geometry/tet_mesh.h"
#include "problem/block_sparse_matrix.h"
#include "problem/deformable_problem.h"

namespace contactlab {

class ThreadPool;

struct FemBodySettings {
  Material material;
  double density = 1000.0;  // kg/m^3
  // Rayleigh damping C = alpha M + beta K (1/s and s).
  double rayleighAlpha = 0.0;
  double rayleighBeta = 0.0;
};

// Cold: fixed once the body is made (pins aside).
struct FemBodyRest {
  TetMesh mesh;                 // rest positions and positively oriented tetrahedra
  std::vector<TetRest> tets;    // one per tetrahedron: Dm^-1 and rest volume
  FemBodySettings settings;
  std::vector<double> nodeMass;  // lumped: each tetrahedron's rho V split equally among its 4 nodes
  double totalMass = 0.0;
  std::vector<std::uint8_t> pinned;  // one per node; 1: the node's velocity is held at zero
};

// Hot: what a step changes. One entry per node.
struct FemBodyState {
  std::vector<Vec3> positions;
  std::vector<Vec3> velocities;
};

class FemBody {
 public:
  // The body at rest (positions = rest positions, velocities zero). Throws std::invalid_argument for
  // an invalid material or density, a tetrahedron index out of range, or a degenerate or
  // negatively oriented tetrahedron (makeTetRest).
  FemBody(TetMesh restMesh, const FemBodySettings& settings);

  int numNodes() const { return static_cast<int>(rest_.nodeMass.size()); }
  int numTets() const { return static_cast<int>(rest_.tets.size()); }
  const FemBodyRest& rest() const { return rest_; }
  const FemBodyState& state() const { return state_; }
  FemBodyState& state() { return state_; }

  // A pinned node keeps its position: its velocity is zeroed here and held at zero by every step.
  void setPinned(int node, bool pinned);
  bool isPinned(int node) const { return rest_.pinned[node] != 0; }

  // The current positions of tetrahedron t's four nodes.
  std::array<Vec3, 4> tetPositions(int t) const;

 private:
  FemBodyRest rest_;
  FemBodyState state_;
};

// Appends this body's part of the linearly implicit Euler step (eq. 3-4, written as Baraff &
// Witkin 1998 do) for the body's nodes numbered from `offset` in the global system:
//   A = M + dt C + dt^2 K = (1 + dt alpha) M + (dt beta + dt^2) K,
//   b = M v + dt (f_elastic(x) + M g),
// K and f_elastic summed over the tetrahedra at the current positions. The damping force -C v is
// part of the step's force (Baraff & Witkin's f_0), so it cancels out of b. Pinned nodes: their
// rows and columns hold only M_i I and their b_i = 0, so their velocity solves to 0 and A stays
// symmetric positive definite. A node in no tetrahedron has no mass: its block is I and b_i = 0.
// `entries` receives 3x3 blocks (duplicates are summed by BlockSparseMatrix3::assign); `b` must
// have at least 3 (offset + numNodes) entries, of which this body's are overwritten.
void appendImplicitEulerSystem(const FemBody& body, double dt, const Vec3& gravity, int offset,
                               std::vector<BlockSparseMatrix3::Entry>& entries, Eigen::VectorXd& b);

// A rigid body of a mixed island in the deformable problem: its mass, world inertia, and its
// velocities after the step's free motion (gravity, and the torque-free rotation of the rigid
// pipeline, free_rotation.h), which b = (m u_free, I w_free) holds.
struct RigidBodyUnknowns {
  double mass = 0.0;
  Mat3 inertia = Mat3::Identity();
  Vec3 freeVelocity = Vec3::Zero();
  Vec3 freeAngularVelocity = Vec3::Zero();
};

// The deformable problem of eq. 4 (no constraints) for several bodies, each numbered after the
// previous ones in the given order, then two nodes per rigid body (DeformableProblem). With a pool,
// the bodies are assembled side by side; the result does not depend on the thread count.
void assembleDeformableProblem(const std::vector<const FemBody*>& bodies, double dt, const Vec3& gravity,
                               DeformableProblem& problem, const std::vector<RigidBodyUnknowns>& rigid = {},
                               ThreadPool* pool = nullptr);

// One contact-free step: solves A v = b by preconditioned CG (warm-started from the current
// velocities), then x += dt v (eq. 5). The contact solver replaces the solve in the world step.
ConjugateGradientReport stepWithoutContacts(FemBody& body, double dt, const Vec3& gravity,
                                            const ConjugateGradientSettings& settings = {});

// Measures of the current state.
double elasticEnergy(const FemBody& body);                        // sum over tets of V psi(F)
double kineticEnergy(const FemBody& body);                        // 1/2 sum m_i |v_i|^2
double gravitationalEnergy(const FemBody& body, const Vec3& gravity);  // -sum m_i g . x_i
Vec3 linearMomentum(const FemBody& body);                         // sum m_i v_i
Vec3 angularMomentum(const FemBody& body, const Vec3& about = Vec3::Zero());  // sum m_i (x_i - about) x v_i
Vec3 centerOfMass(const FemBody& body);
// Per tetrahedron, the von Mises equivalent of its Cauchy stress (vonMisesStress), for output.
std::vector<double> elementVonMisesStress(const FemBody& body);

}  // namespace contactlab
