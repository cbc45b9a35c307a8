#pragma once
// The simulation world: Moreau midpoint stepping of rigid bodies in frictional contact.
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "contactlab/body.h"
#include "contactlab/debug_draw.h"
#include "contactlab/metrics.h"
#include "contactlab/scene.h"
#include "contactlab/world_settings.h"

namespace contactlab {

enum class ContactState { Separating, Sticking, Sliding };
const char* contactStateName(ContactState s);

// One contact point of the last step, with the impulse the solver found.
struct ContactReport {
  int bodyA = -1, bodyB = -1;  // indices into bodies(); the normal points from A to B
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::Zero();
  Vec3 tangentT = Vec3::Zero(), tangentS = Vec3::Zero();
  double gap = 0.0;             // signed distance at q^{t+1/2}; negative is penetration
  Vec4 lambda = Vec4::Zero();   // impulse (n, t, s, tau)
  ContactState state = ContactState::Separating;
};

// What World::debugDraw draws. Forces are the contact impulses divided by dt, drawn as segments
// of forceScale metres per newton from the contact point.
struct DebugDrawOptions {
  bool contactPoints = true;
  bool contactNormals = true;
  bool contactForces = false;
  double forceScale = 1e-3;  // metres per newton
  bool colorByState = true;  // separating grey, sticking green, sliding orange; else one colour
  bool boundingBoxes = false;   // the broadphase's inflated boxes at q^{t+1/2}
  bool broadphaseCells = false; // occupied cells of the broadphase grid
};

// The colour of a contact in `state` when DebugDrawOptions::colorByState: separating (a deformable
// constraint inactive) grey, sticking (static) green, sliding (kinetic) orange. The app's legend
// shows the same colours.
Color contactStateColor(ContactState state);

// A deformable body's tetrahedral mesh as it is after the last step (World::deformableBody).
struct DeformableMeshView {
  int body = -1;                                       // its index in World::bodies()
  std::span<const Vec3> positions;                     // per node
  std::span<const Vec3> velocities;                    // per node
  std::span<const std::array<int, 4>> tetrahedra;      // positively oriented
  std::span<const std::array<int, 3>> surface;         // boundary triangles, counter-clockwise from outside
};

struct ContactProblem;

class World {
 public:
  // Throws SceneError if the scene is invalid (bad dt, a shape with a non-positive size, ...).
  explicit World(const Scene& scene, const WorldSettings& settings = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // One time step (paper eqs. 41-42). Throws std::runtime_error naming the body and step if the
  // state becomes non-finite.
  void step();

  // Takes effect on the next step; unknown solver names and out-of-range values throw
  // std::invalid_argument.
  void setSettings(const WorldSettings& settings);
  const WorldSettings& settings() const;

  const std::vector<Body>& bodies() const;
  const std::vector<ContactReport>& contacts() const;
  const StepMetrics& lastMetrics() const;
  // Steps and time since the scene's start (a saved state's count on from where it was saved:
  // Scene::time, Scene::step).
  int stepCount() const;
  double time() const;
  // Whether this World has stepped since it was built, so that lastMetrics() describes a step.
  bool stepped() const;
  double dt() const;
  void setDt(double dt);
  const Vec3& gravity() const;

  // Scene-wide friction and restitution, applied on the next step to every body that does not
  // override them itself (per-body values from the scene file keep precedence).
  void setFrictionDefaults(const FrictionDefaults& defaults);
  const FrictionDefaults& frictionDefaults() const;

  // An impulse (N s) at a world point on a dynamic body, added to its velocity now: the viewer's
  // mouse-drag perturbation. Throws std::out_of_range for a bad index and std::invalid_argument
  // for a non-dynamic body or a non-finite impulse.
  void applyImpulse(int body, const Vec3& impulse, const Vec3& worldPoint);

  // Deformable bodies (BodyDesc::deformable), in the order of their bodies. The views stay valid
  // until the next step.
  int deformableBodyCount() const;
  // The deformable constraints of the last step's MLCP at the end of its solve, active or not
  // (retired ones left out); StepMetrics::deformableConstraints counts the active ones.
  int deformableConstraintCount() const;
  DeformableMeshView deformableBody(int i) const;
  std::vector<double> deformableStress(int i) const;  // per tetrahedron: von Mises stress (Pa)
  // An external force (N) on node `node` (numbered as in deformableBody(i).positions) of deformable
  // body i, added to the right side of every following step (b += dt f, eq. 4) until it is set
  // again or cleared: the viewer's mouse spring. A pinned node ignores it; a zero force removes it.
  // Throws std::out_of_range for a bad body or node and std::invalid_argument for a non-finite force.
  void setDeformableNodeForce(int i, int node, const Vec3& force);
  void clearDeformableNodeForces();

  double kineticEnergy() const;
  double potentialEnergy() const;  // -m g.x summed over dynamic bodies, zero at the origin

  // The current state as a scene that runs on from here, with its continuation (warm starts,
  // sleeping islands): a World built from it with the same settings steps as this one would
  // (the contacts of meshes at rest aside, which the new world finds afresh; docs/pipeline.md).
  Scene snapshot() const;

  void debugDraw(DebugDraw& draw, const DebugDrawOptions& options = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // The engine's own access to the last step's contact problem (dynamics/world_problem.h).
  friend const ContactProblem& lastContactProblem(const World& world);
};

}  // namespace contactlab
