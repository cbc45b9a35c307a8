#pragma once
// Sleeping: an island whose bodies have all moved slower than a threshold for a while stops being
// simulated (Body::asleep): no integration, no collision among its bodies or with static ones, no
// solve, and its state stays exactly as it was. It wakes as a whole when anything awake (a dynamic
// body or a moving kinematic one) touches one of its bodies, when one of its bodies is pushed
// (World::applyImpulse), or when the settings, the friction defaults or the time step change. An
// island that touches a moving kinematic body does not sleep: it would be woken at once.
#include <vector>

#include "collision/contact_generation.h"
#include "contactlab/body.h"
#include "contactlab/scene.h"
#include "dynamics/islands.h"

namespace contactlab {

// Box2D's, Jolt's and Bullet's engines sleep bodies whose speed stays below a few cm/s for half a
// second or more; ours measure a body by the fastest point of its bounding sphere, |v| + |w| r.
struct SleepThresholds {
  double pointSpeed = 0.02;   // m/s
  double restTime = 0.5;      // s below pointSpeed before an island sleeps
};

class SleepTracker {
 public:
  // Forget everything: every body awake, every rest timer at zero.
  void reset(std::vector<Body>& bodies);
  // After a step: advances each awake dynamic body's rest timer (zero when it moved faster than the
  // threshold) and puts to sleep every island of `islands` (this step's, over `bodyOfSlot`'s slots)
  // whose bodies have all rested long enough, with their velocities zeroed.
  // `contacts` are the problem's (islands' contact indices point into them).
  void update(std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot, const ContactIslands& islands,
              const std::vector<BodyContact>& contacts, double dt, const SleepThresholds& thresholds = {});
  // Wakes the island `body` sleeps in (nothing if it is awake); returns whether it woke any body.
  bool wake(std::vector<Body>& bodies, int body);
  bool anyAsleep() const { return sleepingCount_ > 0; }
  // Per body: its rest timer and the first body of the island it sleeps in (-1 awake); setting them
  // puts those bodies to sleep (a saved scene's continuation). `rest` is empty (all awake, timers at
  // zero) or one per body.
  std::vector<Continuation::Rest> rest() const;
  void setRest(std::vector<Body>& bodies, const std::vector<Continuation::Rest>& rest);

 private:
  std::vector<double> restTime_;    // per body: how long it has moved slower than the threshold
  std::vector<int> sleepingIsland_;  // per body: the first body of the island it sleeps in, -1 awake
  std::vector<std::vector<int>> islandBodies_;  // per first body: the bodies sleeping with it
  int sleepingCount_ = 0;
};

}  // namespace contactlab
