#include "dynamics/moreau_midpoint.h"

#include "core/thread_pool.h"
#include "dynamics/free_rotation.h"

namespace contactlab {
namespace {

void advancePose(Body& body, double h) {
  body.position += h * body.velocity;
  body.orientation = rotateByAngularVelocity(body.orientation, body.angularVelocity, h);
}

// Every loop here touches one body's own state per index, so it runs in parallel with the same
// result for any thread count.
constexpr int kBodiesPerChunk = 256;

void advancePoses(std::vector<Body>& bodies, double h, ThreadPool* pool) {
  parallelFor(pool, static_cast<int>(bodies.size()), kBodiesPerChunk, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i)
      if (bodies[i].motion != MotionType::Static && !bodies[i].asleep && !bodies[i].coupled) advancePose(bodies[i], h);
  });
}

}  // namespace

void setKinematicVelocities(std::vector<Body>& bodies, double stepStartTime, double dt) {
  const double midTime = stepStartTime + 0.5 * dt;
  for (Body& body : bodies) {
    if (body.motion != MotionType::Kinematic || body.velocitySchedule.empty()) continue;
    // Piecewise constant: the last key at or before the midpoint; before the first key the body
    // keeps the velocity it was given.
    for (const VelocityKey& key : body.velocitySchedule)
      if (key.time <= midTime) body.velocity = key.velocity;
  }
}

void halfStepPositions(std::vector<Body>& bodies, double dt, ThreadPool* pool) {
  advancePoses(bodies, 0.5 * dt, pool);
}

void computeFreeVelocities(const std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot,
                           const Vec3& gravity, double dt, std::vector<Vec6>& freeVelocity, ThreadPool* pool) {
  freeVelocity.resize(bodyOfSlot.size());
  parallelFor(pool, static_cast<int>(bodyOfSlot.size()), kBodiesPerChunk, [&](int begin, int end, int) {
    for (int slot = begin; slot < end; ++slot) {
      const Body& body = bodies[bodyOfSlot[slot]];
      if (body.asleep || body.coupled) {  // asleep: no gravity either, it rests on what it touches
        freeVelocity[slot].setZero();
        continue;
      }
      // The half step rotated the body about w^t itself, so w^t has the same body-frame coordinates
      // at q^t and at q^{t+1/2}; likewise the second half step rotates about w^{t+1}. Carrying the
      // body-frame velocity through R(q^{t+1/2}) is therefore exact at both ends of the step.
      const Mat3 rotation = body.rotation();
      const Vec3 omegaBody = rotation.transpose() * body.angularVelocity;
      freeVelocity[slot] << body.velocity + dt * gravity,
          rotation * freeRotationStep(omegaBody, body.inertiaBody, dt);
    }
  });
}

void integrateVelocities(std::vector<Body>& bodies, const std::vector<int>& bodyOfSlot,
                         const std::vector<Vec6>& freeVelocity, const Eigen::VectorXd& contactResponse,
                         ThreadPool* pool) {
  parallelFor(pool, static_cast<int>(bodyOfSlot.size()), kBodiesPerChunk, [&](int begin, int end, int) {
    for (int slot = begin; slot < end; ++slot) {
      Body& body = bodies[bodyOfSlot[slot]];
      if (body.asleep || body.coupled) continue;
      const Vec6 u = freeVelocity[slot] + contactResponse.segment<6>(6 * slot);
      body.velocity = u.head<3>();
      body.angularVelocity = u.tail<3>();
    }
  });
}

void finishPositions(std::vector<Body>& bodies, double dt, ThreadPool* pool) {
  advancePoses(bodies, 0.5 * dt, pool);
}

}  // namespace contactlab
