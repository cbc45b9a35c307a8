#include "dynamics/sleeping.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "geometry/shape_geometry.h"

namespace contactlab {

namespace {

// The farthest any point of the body's bounding sphere got from where it was in the rest pose: the
// move of its centre plus the turn's angle times the sphere's radius.
double farthestPointMove(const Body& body, const Vec3& restPosition, const Quat& restOrientation) {
  const double turn = body.orientation.angularDistance(restOrientation);
  return (body.position - restPosition).norm() + turn * boundingRadius(body.shape);
}

}  // namespace

void SleepTracker::beginRest(const Body& body, int i) {
  restTime_[i] = 0.0;
  restPosition_[i] = body.position;
  restOrientation_[i] = body.orientation;
}

void SleepTracker::reset(std::vector<Body>& bodies) {
  for (Body& body : bodies) body.asleep = false;
  restTime_.assign(bodies.size(), 0.0);
  restPosition_.resize(bodies.size());
  restOrientation_.resize(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) beginRest(bodies[i], static_cast<int>(i));
  sleepingIsland_.assign(bodies.size(), -1);
  islandBodies_.assign(bodies.size(), {});
  sleepingCount_ = 0;
}

void SleepTracker::update(std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot, const ContactIslands& islands,
                          const std::vector<BodyContact>& contacts, double dt, const SleepThresholds& thresholds) {
  if (restTime_.size() != bodies.size()) reset(bodies);
  const double farthestMove = thresholds.pointSpeed * thresholds.restTime;
  for (const int index : bodyOfSlot) {
    const Body& body = bodies[index];
    if (body.asleep) continue;
    // A body stepped with a deformable island (which does not sleep), or one that got too far: its
    // rest begins again from here.
    if (body.coupled || farthestPointMove(body, restPosition_[index], restOrientation_[index]) > farthestMove)
      beginRest(body, index);
    else
      restTime_[index] += dt;
  }
  for (int island = 0; island < islands.count(); ++island) {
    const auto slots = islands.slots(island);
    const bool rested = std::all_of(slots.begin(), slots.end(), [&](int slot) {
      const int index = bodyOfSlot[slot];
      return !bodies[index].asleep && restTime_[index] >= thresholds.restTime;
    });
    const auto carried = [&](int k) {  // on a kinematic body that moves
      for (const int index : {contacts[k].bodyA, contacts[k].bodyB}) {
        const Body& other = bodies[index];
        if (other.motion == MotionType::Kinematic &&
            (other.velocity != Vec3::Zero() || other.angularVelocity != Vec3::Zero()))
          return true;
      }
      return false;
    };
    const auto islandContacts = islands.contacts(island);
    if (!rested || std::any_of(islandContacts.begin(), islandContacts.end(), carried)) continue;
    const int first = bodyOfSlot[slots.front()];
    std::vector<int>& members = islandBodies_[first];
    members.clear();
    for (const int slot : slots) {
      const int index = bodyOfSlot[slot];
      Body& body = bodies[index];
      body.asleep = true;
      body.velocity.setZero();
      body.angularVelocity.setZero();
      sleepingIsland_[index] = first;
      members.push_back(index);
    }
    sleepingCount_ += static_cast<int>(members.size());
  }
}

std::vector<Continuation::Rest> SleepTracker::rest() const {
  std::vector<Continuation::Rest> out(restTime_.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = {restTime_[i], sleepingIsland_[i], restPosition_[i], restOrientation_[i]};
  return out;
}

void SleepTracker::setRest(std::vector<Body>& bodies, const std::vector<Continuation::Rest>& rest) {
  reset(bodies);
  if (rest.empty()) return;
  if (rest.size() != bodies.size())
    throw std::invalid_argument("continuation: " + std::to_string(rest.size()) + " rest entries for " +
                                std::to_string(bodies.size()) + " bodies");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    restTime_[i] = rest[i].time;
    restPosition_[i] = rest[i].position;
    restOrientation_[i] = rest[i].orientation;
    const int first = rest[i].asleepWith;
    if (first < 0) continue;
    if (first >= static_cast<int>(bodies.size()) || rest[first].asleepWith != first || !bodies[i].isDynamic())
      throw std::invalid_argument("continuation: body " + std::to_string(i) + " cannot sleep with body " +
                                  std::to_string(first));
    Body& body = bodies[i];
    body.asleep = true;
    body.velocity.setZero();
    body.angularVelocity.setZero();
    sleepingIsland_[i] = first;
    islandBodies_[first].push_back(static_cast<int>(i));
    ++sleepingCount_;
  }
}

bool SleepTracker::wake(std::vector<Body>& bodies, int body) {
  if (body < 0 || body >= static_cast<int>(sleepingIsland_.size()) || sleepingIsland_[body] < 0) return false;
  std::vector<int>& members = islandBodies_[sleepingIsland_[body]];
  for (const int index : members) {
    bodies[index].asleep = false;
    sleepingIsland_[index] = -1;
    beginRest(bodies[index], index);
  }
  sleepingCount_ -= static_cast<int>(members.size());
  members.clear();
  return true;
}

}  // namespace contactlab
