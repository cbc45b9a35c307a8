#pragma once
// The simulation world: Moreau midpoint stepping of rigid bodies in frictional contact.
#include <memory>
#include <vector>

#include "contactlab/body.h"
#include "contactlab/debug_draw.h"
#include "contactlab/metrics.h"
#include "contactlab/scene.h"
#include "contactlab/solver_settings.h"

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

class World {
 public:
  // Throws SceneError if the scene is invalid (bad dt, a shape with a non-positive size, ...).
  explicit World(const Scene& scene, const SolverSettings& settings = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  // One time step (paper eqs. 41-42). Throws std::runtime_error naming the body and step if the
  // state becomes non-finite.
  void step();

  // Takes effect on the next step; unknown solver names throw std::invalid_argument.
  void setSolverSettings(const SolverSettings& settings);
  const SolverSettings& solverSettings() const;

  const std::vector<Body>& bodies() const;
  const std::vector<ContactReport>& contacts() const;
  const StepMetrics& lastMetrics() const;
  int stepCount() const;
  double time() const;
  double dt() const;
  void setDt(double dt);
  const Vec3& gravity() const;

  double kineticEnergy() const;
  double potentialEnergy() const;  // -m g.x summed over dynamic bodies, zero at the origin

  // The current state as a scene that runs on from here.
  Scene snapshot() const;

  void debugDraw(DebugDraw& draw) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactlab
