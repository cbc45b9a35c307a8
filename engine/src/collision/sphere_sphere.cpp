#include "collision/pair_functions.h"

namespace contactlab {

void collideSphereSphere(const SphereShape& a, const Pose& poseA, const SphereShape& b, const Pose& poseB,
                         ContactBuffer& buffer) {
  // Concentric spheres have no preferred direction; any unit normal separates them equally well.
  addBallContact(poseA.position, a.radius, poseB.position, b.radius, Vec3::UnitZ(), 0, buffer);
}

}  // namespace contactlab
