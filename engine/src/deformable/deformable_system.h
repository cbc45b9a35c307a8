#pragma once
// The World's deformable bodies and their part of the step (Verschoor & Jalba 2019, Alg. 1): the
// stages assemble (A, b of eq. 4), collide (candidates and constraints against rigid bodies, sec. 5),
// solve (the CR method, cr_solver.h) and integrate (eq. 5), which the World times as its own stages.
// Each deformable body also has a Body in the World's list, whose pose and velocities summarize its
// nodes (summarize) and which the rigid pipeline treats as absent.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collision/mesh_model.h"
#include "contactlab/metrics.h"
#include "contactlab/scene.h"
#include "contactlab/solver_settings.h"
#include "contactlab/world.h"
#include "deformable/deformable_contacts.h"
#include "deformable/fem_body.h"
#include "problem/deformable_problem.h"
#include "solvers/cr/cr_solver.h"

namespace contactlab {

class ThreadPool;

class DeformableSystem {
 public:
  // Tetrahedralizes the body's shape (deformable_shape.h) at its pose and velocities and adds it;
  // `body` is its index in the World's list, `mu` its friction coefficient. Throws
  // std::invalid_argument (bad material) or MeshError (tetgen), naming the body.
  void add(const BodyDesc& desc, int body, double mu);
  bool empty() const { return bodies_.empty(); }
  int numBodies() const { return static_cast<int>(bodies_.size()); }
  const FemBody& femBody(int i) const { return bodies_[i].fem; }
  FemBody& femBody(int i) { return bodies_[i].fem; }
  const TetBoundary& boundary(int i) const { return bodies_[i].boundary; }
  int worldBody(int i) const { return bodies_[i].body; }
  int firstNode(int i) const { return bodies_[i].firstNode; }
  // The body's description as the scene gave it with its nodes' current state (DeformableDesc's
  // nodePositions, nodeVelocities): what a saved scene holds, and runs on from.
  BodyDesc describe(int i) const;
  // The active constraints' CR states and multipliers that the next step starts from, and setting
  // them: a saved scene's continuation (World::snapshot). Entries of pairs no step finds are unused.
  std::vector<Continuation::Constraint> carriedConstraints() const;
  void setCarriedConstraints(const std::vector<Continuation::Constraint>& carried);

  // Throws std::invalid_argument naming the solver when there is none of that name.
  void setSettings(const DeformableSolverSettings& settings);
  // The static and kinematic rigid bodies the deformable ones collide with (all but dynamic and
  // deformable bodies); prepares the mesh models of all rigid bodies (dynamic ones are coupled in
  // some steps).
  void setObstacles(const std::vector<Body>& bodies, int kdop);

  // Each deformable body's box, grown by how far its nodes can move in the step (dt |v| + |g| dt^2)
  // and a millimetre: what a rigid body must come near to share its island (mixed_islands.h).
  std::vector<Aabb> sweptBoxes(double dt, const Vec3& gravity) const;

  // An external force (N) on node `node` of body i, added to b by every assemble() (b += dt f) until
  // set again or cleared; a zero force removes it. The caller checks the indices.
  void setNodeForce(int i, int node, const Vec3& force);
  void clearNodeForces() { nodeForces_.clear(); }

  // The step's stages. `coupled`: the dynamic rigid bodies solved with the deformable ones this
  // step (Body::coupled), whose velocities join the unknowns after the nodes' (DeformableProblem).
  void assemble(double dt, const Vec3& gravity, const std::vector<Body>& bodies, const std::vector<int>& coupled,
                ThreadPool* pool);
  void collide(const std::vector<Body>& bodies, const Vec3& gravity);
  // Solves each island of bodies joined by constraints as its own MLCP (deformable_islands.h).
  void solve(ThreadPool* pool);
  // x += dt v for the nodes (eq. 5); a coupled rigid body takes its solved velocities and moves by
  // them for dt (its centre by dt u, its orientation turned by dt w).
  void integrate(std::vector<Body>& bodies);
  // Each deformable body's Body: centre of mass of all nodes (lumped masses) and its velocity, the
  // rotation of the best-fitting rigid motion from the rest shape (polar decomposition), and
  // w = I^-1 L about the centre of mass.
  void summarize(std::vector<Body>& bodies) const;

  const DeformableSolveReport& lastSolve() const { return report_; }
  int numConstraints() const { return problem_.numConstraints(); }
  int numActiveConstraints() const;
  const DeformableProblem& problem() const { return problem_; }
  const std::vector<DeformableContacts::Pair>& constraintPairs() const { return contacts_.pairs(); }
  const std::vector<DeformableContacts::SurfaceNode>& surfaceNodes() const { return surface_; }
  Eigen::VectorXd constraintForces() const { return crConstraintForces(states_, multipliers_); }
  const std::vector<CrConstraintState>& constraintStates() const { return states_; }
  // The last step's constraints as contact reports (after `reports`): body A the rigid body, B the
  // deformable one (between two rigid bodies, the lower index first); the point where the vertex
  // ends on the linearized surface, the gap its distance above it, lambda the impulses (dt times
  // the constraint forces); inactive constraints separating, static sticking, kinetic sliding.
  void appendContactReports(const std::vector<Body>& bodies, std::vector<ContactReport>& reports) const;
  // An independent check after a step: the deepest any surface vertex lies inside a rigid body
  // (metres, >= 0), by nearest-surface queries at the vertices' positions, or inside another
  // deformable body (deepestBetweenDeformables); and the deepest end-of-step gap of the coupled
  // rigid bodies' contacts with rigid bodies, to first order (as the rigid pipeline's).
  double deepestPenetration(const std::vector<Body>& bodies) const;
  double elasticEnergy() const;
  double kineticEnergy() const;
  double potentialEnergy(const Vec3& gravity) const;

 private:
  struct Entry {
    BodyDesc desc;  // as the scene gave it
    FemBody fem;
    TetBoundary boundary;
    std::vector<Vec3> restInBodyFrame;  // rest positions about the rest centre of mass: the fit's reference
    int body = 0;
    int firstNode = 0;
  };
  int bodyOfNode(int node) const;
  // Each constraint's state and multipliers from its pair's at the end of the last step (states_,
  // multipliers_), and back after the solve (remembered_).
  void startFromLastStep();
  void rememberForNextStep();
  // states_ and multipliers_ to the problem's constraints, those added inactive with zero multipliers.
  void fitConstraintArrays();
  // The deepest any surface vertex lies inside another deformable body: inside one of its
  // tetrahedra, by its distance to that body's surface (brute force, apart from the contacts' trees).
  double deepestBetweenDeformables() const;
  static double distanceToBoundary(const Entry& e, const Vec3& x);  // the body whose nodes include global node `node`
  std::vector<Entry> bodies_;
  std::vector<DeformableContacts::SurfaceNode> surface_;
  std::vector<DeformableContacts::SurfaceFaces> faces_;  // per body, global node indices
  std::vector<int> obstacles_;
  std::vector<int> coupled_;           // this step's coupled rigid bodies (the problem's rigid bodies)
  std::vector<Pose> coupledStart_;     // their poses at the step's start
  std::vector<int> rigidBodies_;       // every rigid body (not deformable): the penetration check's
  MeshModelCache meshes_;
  DeformableSolverSettings settings_;
  DeformableProblem problem_;
  DeformableContacts contacts_;
  Eigen::VectorXd positions_, velocities_;  // 3 per node, all bodies, gathered for the step
  DeformableSolveReport report_;
  // The last solve's constraint states and multipliers (3 per constraint), its islands' together.
  std::vector<CrConstraintState> states_;
  Eigen::VectorXd multipliers_;
  int numNodes_ = 0;
  // The last step's active constraint states and multipliers by their Pair, sorted: the next step's
  // constraints of the same pairs start from them (the kinetic friction's average and
  // direction, sticking or sliding), as the rigid solves start from last step's impulses.
  struct Remembered {
    DeformableContacts::Pair pair;
    CrConstraintState state;
    Vec3 multipliers;
  };
  std::vector<Remembered> remembered_;
  std::map<int, Vec3> nodeForces_;  // by global node: external forces (setNodeForce), in node order
};

}  // namespace contactlab
