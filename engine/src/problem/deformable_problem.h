#pragma once
// The deformable contact problem of Verschoor & Jalba (2019), eq. 20: node velocities v of the
// linearly implicit step A v = b (eq. 4) under non-penetration and friction constraints, J v >= c_n
// (eq. 7-8) and J_t v = c_t for sticking contacts. It holds no geometry: the deformable subsystem
// builds it, and re-linearizes or extends its constraints through ConstraintUpdater while the CR
// solver runs (Alg. 1, lines 25-27).
#include <array>
#include <cstdint>
#include <vector>

#include "contactlab/math.h"
#include "problem/block_sparse_matrix.h"

namespace contactlab {

using Vec2 = Eigen::Vector2d;

// One contact k between a point of a deformable surface and another surface (vertex-face, edge-edge
// or against a rigid body). Its Jacobian rows (eq. 7) act on up to four nodes:
//   j_k   = dt * sum_i weight[i] n^T        (normal, on node[i]'s velocity)
//   j_k,t = dt * sum_i weight[i] [t1 t2]^T  (friction)
// e.g. a vertex m against a face abc: nodes (a, b, c, m), weights (-w_a, -w_b, -w_c, 1); against a
// static or kinematic rigid body only the deformable side's nodes, the rigid side's known velocity
// folded into c. A dynamic rigid body in the solve (a mixed island) enters through a rigid term: its
// point at lever arm r from its centre of mass moves with u + w x r, so the rows gain
//   dt weight n^T (u + w x r) = dt weight (n^T u + (r x n)^T w)   (and the same for t1, t2)
// on the body's two nodes, u and w (DeformableProblem::linearNode, angularNode). A contact
// between two rigid bodies has two rigid terms and no deformable node.
struct DeformableConstraint {
  struct RigidTerm {
    int body = -1;  // index among the problem's rigid bodies; -1: unused
    double weight = 0.0;
    Vec3 arm = Vec3::Zero();  // from the body's centre of mass to the contact point
  };
  std::array<int, 4> node{-1, -1, -1, -1};  // global node indices; -1: unused
  std::array<double, 4> weight{0.0, 0.0, 0.0, 0.0};
  std::array<RigidTerm, 2> rigid{};
  Mat3 frame = Mat3::Identity();  // columns n, t1, t2; n points towards the side of weight > 0 (nodes and rigid terms)
  double cn = 0.0;                // right side of eq. 7: -d_{k,n} plus dt n . (velocity of the other side's point)
  Vec2 ct = Vec2::Zero();         // tangential right side c_{k,t} (0 for a persistent contact of static sides)
  double mu = 0.0;                // Coulomb friction coefficient
  double similarity = 1.0;        // Z_k of sec. 3.4.1: how many near-duplicates share this constraint's rows
};

// The unknowns are 3 per node: first the FEM nodes' velocities, then two nodes per rigid body of a
// mixed island, its linear velocity u (A block m I, b = m u + dt m g) and its angular velocity w
// (A block the world inertia I, b = I w_free, w_free the torque-free turn of free_rotation.h): the
// rigid body's own step, which the constraints' forces join as they join the nodes' (see
// docs/deformable.md, "Rigid bodies in the same solve").
struct DeformableProblem {
  double dt = 0.0;
  BlockSparseMatrix3 A;  // 3x3 block per node pair: M + dt C + dt^2 K (eq. 4), symmetric positive definite
  Eigen::VectorXd b;     // 3 per node: M v^i + dt (f_elastic(x^i) + f_external)
  std::vector<DeformableConstraint> constraints;
  int firstRigidNode = 0;  // the FEM nodes come first, then two per rigid body

  int numNodes() const { return A.blockRows(); }
  int linearNode(int rigidBody) const { return firstRigidNode + 2 * rigidBody; }
  int angularNode(int rigidBody) const { return firstRigidNode + 2 * rigidBody + 1; }
  int numConstraints() const { return static_cast<int>(constraints.size()); }
};

// What the CR solve asks of the geometry when it has converged on the current linearization
// (Alg. 1, lines 25 and 27). Implemented by the deformable subsystem; the solver knows no geometry.
class ConstraintUpdater {
 public:
  virtual ~ConstraintUpdater() = default;
  // Line 25 (sec. 5.2): appends a constraint for each candidate pair that the node velocities v would
  // make collide in this step and that has none yet; returns how many it appended. The solver
  // evaluates them at once, activating those v violates.
  virtual int addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) = 0;
  // Line 27 (sec. 3.3, eq. 21): re-linearizes each constraint at the positions v leads to (normal,
  // weights, c), retiring those whose point slid off its feature (all nodes set to -1); `active`
  // holds one flag per constraint. It may append constraints too (a second one for a vertex in a
  // crease), which the solver starts inactive. Returns how many it changed or appended.
  virtual int relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                          DeformableProblem& problem) = 0;
};

// The constraint's three rows (normal, t1, t2; eq. 7) times the node velocities v (3 per node):
// dt frame^T (sum_i weight_i v_node(i) + sum over rigid terms weight (u + w x arm)).
Vec3 constraintRowsTimes(const DeformableProblem& problem, int k, const Eigen::VectorXd& v);
// The same for a constraint not (yet) in the problem, over the problem's nodes.
Vec3 constraintRowsTimes(const DeformableProblem& problem, const DeformableConstraint& c, const Eigen::VectorXd& v);
// out += L_k^T s: the node forces of the constraint's rows weighted by s (normal, t1, t2).
void addConstraintRowsTransposed(const DeformableProblem& problem, int k, const Vec3& s, Eigen::VectorXd& out);
// The 3x3 block of the constraint's three rows on each node it involves, without dt: fn(node,
// block) with block = weight frame^T on a FEM node or a rigid body's linear node, and
// weight (r x frame)^T = -weight frame^T [r]x on a rigid body's angular node.
template <typename Fn>
void forEachConstraintBlock(const DeformableProblem& problem, const DeformableConstraint& c, Fn&& fn) {
  for (int i = 0; i < 4; ++i)
    if (c.node[i] >= 0) fn(c.node[i], Mat3(c.weight[i] * c.frame.transpose()));
  for (const DeformableConstraint::RigidTerm& term : c.rigid) {
    if (term.body < 0) continue;
    fn(problem.linearNode(term.body), Mat3(term.weight * c.frame.transpose()));
    Mat3 armCross;
    for (int r = 0; r < 3; ++r) armCross.row(r) = term.weight * term.arm.cross(c.frame.col(r)).transpose();
    fn(problem.angularNode(term.body), armCross);
  }
}
// A constraint with no node and no rigid body left (a re-linearization retired it) takes no part
// in the solve.
inline bool isRetired(const DeformableConstraint& c) {
  return c.node[0] < 0 && c.node[1] < 0 && c.node[2] < 0 && c.node[3] < 0 && c.rigid[0].body < 0 && c.rigid[1].body < 0;
}
inline void retire(DeformableConstraint& c) {
  c.node = {-1, -1, -1, -1};
  c.rigid = {};
}

}  // namespace contactlab
