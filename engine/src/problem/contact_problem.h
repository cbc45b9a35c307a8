#pragma once
// The contact problem of one step (PROX paper appendix A): per contact a 4-row block (n, t, s, tau)
// of J, b and the friction coefficients, and per dynamic body M^-1, from which W = M^-1 J^T is
// applied. Rebuilt every step; solvers only read it.
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

class ThreadPool;

// Rows of a contact block, in the order of eq. 52.
enum ContactRow { kNormal = 0, kTangentT = 1, kTangentS = 2, kTorsion = 3 };

// What the solver sweep reads per contact, in sweep order. J is not stored as two dense 4x6
// blocks (880 bytes a contact, mostly zeros for a contact with a static body) but by what
// determines it: with C = [n t s] and the arms r from each centre of mass to the contact point,
// eq. 56 is J_i = -[C^T, (r_i x C)^T; 0, n^T] and J_j = +[C^T, (r_j x C)^T; 0, n^T], so
//   J w = [C^T (v_j + w_j x r_j - v_i - w_i x r_i); n . (w_j - w_i)]
// and W dlambda = M^-1 J^T dlambda moves body j by M_j^-1 [P; r_j x P + n dtau] with P = C dlambda_nts
// (body i by minus its own). M^-1 comes from ContactProblem::inverseMass, one entry per body.
struct ContactBlock {
  Vec4 b = Vec4::Zero();          // v = A lambda + b: free contact velocity plus impact/gap terms, eq. 22
  Vec4 diagonalA = Vec4::Zero();  // diag of the 4x4 block A_kk = J_k M^-1 J_k^T
  Mat3 frame = Mat3::Zero();      // columns n, t, s (eq. 53); n points from body i to body j
  Vec3 armA = Vec3::Zero();       // r_i: contact point minus body i's centre of mass (unused when slotA < 0)
  Vec3 armB = Vec3::Zero();       // r_j
  Vec3 friction = Vec3::Zero();   // (mu_s, mu_t, mu_tau) of eq. 16; mu_tau is a length
  int slotA = -1;  // dynamic-body slot of body i, -1 when it does not move in the solve (static, kinematic)
  int slotB = -1;  // dynamic-body slot of body j
};
// 26 doubles and two slots, padded to Vec4's 16-byte alignment: a quarter of the dense 880 bytes.
static_assert(sizeof(ContactBlock) == 224);

// M^-1 of one dynamic body, eq. 59: diag(invMass 1, I_WF^-1) with I_WF^-1 = R I_BF^-1 R^T at q^{t+1/2}.
struct SlotInverseMass {
  Mat3 invInertiaWorld = Mat3::Zero();
  double invMass = 0.0;
};

struct ContactProblem {
  int numSlots = 0;  // dynamic bodies; w = M^-1 J^T lambda has 6 entries per slot: (linear, angular)
  std::vector<ContactBlock> blocks;
  std::vector<SlotInverseMass> inverseMass;  // numSlots entries
  // u_free of each dynamic body (linear, angular; eq. 42a without contacts), numSlots entries, or
  // empty for problems not built from bodies. Only solvers that work in absolute body velocities
  // rather than contact velocities read it (plain FFD's friction, ffd_impulse_decomposition.cpp).
  // A copy, not a pointer to the caller's vector: a problem is returned and moved by value (the test
  // helpers' AssembledProblem), and a pointer into the moved-from owner would dangle.
  std::vector<Vec6> freeVelocity;
  int numContacts() const { return static_cast<int>(blocks.size()); }
  int numRows() const { return 4 * numContacts(); }
};

// The 4x4 diagonal block A_kk = J_ki W_ki + J_kj W_kj of contact k (needed by the Blocked r-factor, eq. 40).
Mat4 diagonalBlock(const ContactProblem& problem, int k);

// w = M^-1 J^T lambda; w has 6 * numSlots entries, lambda 4 * numContacts.
void applyInvMassJt(const ContactProblem& problem, const Eigen::VectorXd& lambda, Eigen::VectorXd& w);

// J_k w for contact k: the contact velocity caused by the slot velocities w (6 per slot).
// Both are the body of the solver sweep; forced inline so the compiler schedules them with the
// rest of the contact update (GCC otherwise keeps addInvMassJt out of line).
[[gnu::always_inline]] inline Vec4 jacobianTimes(const ContactBlock& block, const Eigen::VectorXd& w) {
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
  if (block.slotB >= 0) {
    const Vec3 angularB = w.segment<3>(6 * block.slotB + 3);
    linear = w.segment<3>(6 * block.slotB) + angularB.cross(block.armB);
    angular = angularB;
  }
  if (block.slotA >= 0) {
    const Vec3 angularA = w.segment<3>(6 * block.slotA + 3);
    linear -= w.segment<3>(6 * block.slotA) + angularA.cross(block.armA);
    angular -= angularA;
  }
  Vec4 v;
  v.head<3>().noalias() = block.frame.transpose() * linear;
  v[kTorsion] = block.frame.col(0).dot(angular);
  return v;
}

// v = J w + b for contact k (the contact velocity given w = M^-1 J^T lambda).
inline Vec4 contactVelocity(const ContactBlock& block, const Eigen::VectorXd& w) {
  return block.b + jacobianTimes(block, w);
}

// One side of (M^-1 J^T)_k applied to a contact impulse (eq. 56, 59): body j (Sign = +1) moves by
// M_j^-1 [P; r_j x P + n dtau], body i (Sign = -1) by minus its own; `linear` and `angular` are the
// side's 3-vectors of w. One function for the in-place update of the Gauss-Seidel sweep and the
// per-body gather of the parallel applyInvMassJt, so the two add the same terms the same way.
template <int Sign>
[[gnu::always_inline]] inline void addSideResponse(const SlotInverseMass& m, const Vec3& arm, const Vec3& impulse,
                                                   const Vec3& torsion, auto&& linear, auto&& angular) {
  if constexpr (Sign > 0) {
    linear += m.invMass * impulse;
    angular.noalias() += m.invInertiaWorld * (arm.cross(impulse) + torsion);
  } else {
    linear -= m.invMass * impulse;
    angular.noalias() -= m.invInertiaWorld * (arm.cross(impulse) + torsion);
  }
}

// Adds (M^-1 J^T)_k * deltaLambda into w (PROX Alg. 2, line 9).
[[gnu::always_inline]] inline void addInvMassJt(const ContactProblem& problem, int k, const Vec4& deltaLambda, Eigen::VectorXd& w) {
  const ContactBlock& block = problem.blocks[k];
  const Vec3 impulse = block.frame * deltaLambda.head<3>();      // on body j; body i gets -impulse
  const Vec3 torsion = block.frame.col(0) * deltaLambda[kTorsion];
  if (block.slotB >= 0)
    addSideResponse<+1>(problem.inverseMass[block.slotB], block.armB, impulse, torsion,
                        w.segment<3>(6 * block.slotB), w.segment<3>(6 * block.slotB + 3));
  if (block.slotA >= 0)
    addSideResponse<-1>(problem.inverseMass[block.slotA], block.armA, impulse, torsion,
                        w.segment<3>(6 * block.slotA), w.segment<3>(6 * block.slotA + 3));
}

// The contacts touching each dynamic body (slot), in increasing contact order, so that a body can
// gather its own part of M^-1 J^T lambda: what makes applyInvMassJt parallel over bodies without
// changing a bit of the result (each body sums the same terms in the same order as the serial loop).
class SlotContacts {
 public:
  void build(const ContactProblem& problem);
  // Contact indices of `slot`: [begin(slot), end(slot)).
  const int* begin(int slot) const { return contacts_.data() + start_[slot]; }
  const int* end(int slot) const { return contacts_.data() + start_[slot + 1]; }
  int count(int slot) const { return start_[slot + 1] - start_[slot]; }

 private:
  std::vector<int> start_;     // numSlots + 1 offsets into contacts_
  std::vector<int> contacts_;  // 2 * numContacts at most: each contact under each of its dynamic bodies
  std::vector<int> filled_;    // build's scratch, per slot: where its next contact goes (kept, so steps reuse it)
};

// w = M^-1 J^T lambda as above, gathered per body on `pool` (serially when null); bit-identical to
// the serial applyInvMassJt for any thread count. `contacts` must have been built from `problem`.
void applyInvMassJt(const ContactProblem& problem, const SlotContacts& contacts, const Eigen::VectorXd& lambda,
                    Eigen::VectorXd& w, ThreadPool* pool);

}  // namespace contactlab
