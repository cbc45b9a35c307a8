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

// Box2D's, Jolt's and Bullet's engines sleep bodies that move slower than a few cm/s for half a
// second or more. Ours ask how far a body got from where its rest began: no point of its bounding
// sphere may travel more than pointSpeed x restTime (|dp| + angle r) over restTime. That is the mean
// speed over the window, as Jolt measures it, not the speed at each step: a body that trembles in
// place with brief speeds above the threshold (a heap's bodies do, solved to a tolerance) sleeps, and
// one that creeps on slower than the threshold sleeps too, as it would under a speed test.
struct SleepThresholds {
  double pointSpeed = 0.02;   // m/s, mean over the window
  double restTime = 0.5;      // s within pointSpeed x restTime of the rest's start before an island sleeps
};

class SleepTracker {
 public:
  // Forget everything: every body awake, every rest timer at zero.
  void reset(std::vector<Body>& bodies);
  // After a step: advances each awake dynamic body's rest timer (restarted, from where the body is
  // now, when it got farther than the threshold from where its rest began) and puts to sleep every island of `islands` (this step's, over `bodyOfSlot`'s slots)
  // whose bodies have all rested long enough, with their velocities zeroed.
  // `contacts` are the problem's (islands' contact indices point into them).
  void update(std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot, const ContactIslands& islands,
              const std::vector<BodyContact>& contacts, double dt, const SleepThresholds& thresholds = {});
  // Wakes the island `body` sleeps in (nothing if it is awake); returns whether it woke any body.
  bool wake(std::vector<Body>& bodies, int body);
  bool anyAsleep() const { return sleepingCount_ > 0; }
  // Per body: its rest timer, where its rest began, and the first body of the island it sleeps in (-1
  // awake); setting them puts those bodies to sleep (a saved scene's continuation). `rest` is empty
  // (all awake, timers at zero, rests beginning where the bodies are) or one per body.
  std::vector<Continuation::Rest> rest() const;
  void setRest(std::vector<Body>& bodies, const std::vector<Continuation::Rest>& rest);

 private:
  // Where body i's rest began: restTime_ ago, or when it fell asleep or woke.
  void beginRest(const Body& body, int i);

  std::vector<double> restTime_;    // per body: how long it has stayed near restPose_
  std::vector<Vec3> restPosition_;  // per body: its pose when its rest began
  std::vector<Quat> restOrientation_;
  std::vector<int> sleepingIsland_;  // per body: the first body of the island it sleeps in, -1 awake
  std::vector<std::vector<int>> islandBodies_;  // per first body: the bodies sleeping with it
  int sleepingCount_ = 0;
};

}  // namespace contactlab
