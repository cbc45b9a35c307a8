#include "deformable/mixed_islands.h"

#include <algorithm>
#include <numeric>

#include "collision/contact_generation.h"
#include "core/disjoint_sets.h"

namespace contactlab {

Aabb sweptRigidBox(const Body& body, double dt, const Vec3& gravity) {
  const double radius = boundingRadius(body.shape);
  const double travel = dt * (body.velocity.norm() + gravity.norm() * dt + body.angularVelocity.norm() * radius);
  return shapeAabb(body.shape, {body.position, body.rotation()}).inflated(travel + kContactSkin);
}

std::vector<int> rigidBodiesInMixedIslands(const std::vector<Body>& bodies, const std::vector<Aabb>& deformableBoxes,
                                          double dt, const Vec3& gravity) {
  // Items: the dynamic rigid bodies, then the deformable bodies; one sweep along x over their boxes.
  std::vector<int> rigid;
  std::vector<Aabb> boxes;
  for (int b = 0; b < static_cast<int>(bodies.size()); ++b)
    if (bodies[b].isDynamic() && !bodies[b].isDeformable()) {
      rigid.push_back(b);
      boxes.push_back(sweptRigidBox(bodies[b], dt, gravity));
    }
  const int numRigid = static_cast<int>(rigid.size());
  boxes.insert(boxes.end(), deformableBoxes.begin(), deformableBoxes.end());
  const int items = static_cast<int>(boxes.size());
  std::vector<int> order(items);
  std::iota(order.begin(), order.end(), 0);
  DisjointSets sets;
  sets.reset(items);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return boxes[a].lower.x() < boxes[b].lower.x(); });
  for (int i = 0; i < items; ++i)
    for (int j = i + 1; j < items && boxes[order[j]].lower.x() <= boxes[order[i]].upper.x(); ++j) {
      const int a = order[i], b = order[j];
      if ((a < numRigid || b < numRigid) && boxes[a].overlaps(boxes[b]))
        sets.join(a, b);
    }
  std::vector<char> mixed(items, 0);
  for (int d = numRigid; d < items; ++d) mixed[sets.root(d)] = 1;
  std::vector<int> coupled;
  for (int i = 0; i < numRigid; ++i)
    if (mixed[sets.root(i)]) coupled.push_back(rigid[i]);
  return coupled;
}

}  // namespace contactlab
