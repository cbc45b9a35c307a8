// Self-collision of one deformable body (DeformableDesc::selfCollision; deformable_contacts.h):
// the paper's ring squeezed flat between two plates, whose inner surfaces meet each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "geometry/mesh_library.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

// The ring (0.225 m across, a 2.5 cm square section) stands in the xz plane between two rigid plates
// that close on it at 0.25 m/s each to 4.5 cm apart and stop, in zero gravity: the ring flattens,
// and its top and bottom halves, 2.5 cm thick each, would have to overlap by 5 mm unless they push
// on each other. Returns how far the nodes of either half's inner surface end beyond the other's near
// x = 0 (positive: overlapping), after the plates have held still for 0.1 s.
double innerOverlapOfSqueezedRing(bool selfCollision) {
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  scene.friction.mu = 0.5;
  const double outer = 0.1 + 0.0125, speed = 0.25, gap = 0.045;
  const double closing = (2.0 * outer - gap) / (2.0 * speed);  // s
  for (const int side : {-1, 1}) {
    BodyDesc plate = test::box(Vec3(0.4, 0.2, 0.02), Vec3(0, 0, side * (outer + 1e-4 + 0.01)));
    plate.name = side < 0 ? "bottom" : "top";
    plate.motion = MotionType::Kinematic;
    plate.velocity = Vec3(0, 0, -side * speed);
    plate.velocitySchedule = {{closing, Vec3::Zero()}};
    scene.bodies.push_back(plate);
  }
  BodyDesc ring;
  ring.name = "ring";
  ring.shape = MeshShape{namedMeshGeometry("ring", 1.0)};
  ring.orientation = Quat(Eigen::AngleAxisd(0.5 * 3.14159265358979323846, Vec3::UnitX()));  // axis along y
  ring.deformable = DeformableDesc{};
  ring.deformable->selfCollision = selfCollision;
  ring.deformable->dampingStiffness = 0.01;
  scene.bodies.push_back(ring);
  World world(scene);
  const std::vector<Vec3> start(world.deformableBody(0).positions.begin(), world.deformableBody(0).positions.end());
  test::runFor(world, closing + 0.1);
  const DeformableMeshView mesh = world.deformableBody(0);
  // The inner surface's nodes (nearest the ring's axis) of each half, told apart by where they
  // started, in two rows along x, one per edge of the section (y < 0 and y > 0).
  std::vector<Vec3> rows[2][2];  // [top half][y > 0]
  for (std::size_t i = 0; i < start.size(); ++i)
    if (std::hypot(start[i].x(), start[i].z()) < 0.1)
      rows[start[i].z() > 0.0][start[i].y() > 0.0].push_back(mesh.positions[i]);
  // How far each node of one half near x = 0 is beyond the other half's inner surface, that surface
  // taken as the polyline of its row between the nodes on either side.
  double deepest = -1.0;
  for (int top = 0; top < 2; ++top)
    for (int edge = 0; edge < 2; ++edge) {
      std::vector<Vec3> other = rows[1 - top][edge];
      std::sort(other.begin(), other.end(), [](const Vec3& a, const Vec3& b) { return a.x() < b.x(); });
      for (const Vec3& x : rows[top][edge]) {
        if (std::abs(x.x()) > 0.04) continue;
        const auto after = std::lower_bound(other.begin(), other.end(), x, [](const Vec3& a, const Vec3& b) { return a.x() < b.x(); });
        if (after == other.begin() || after == other.end()) continue;
        const Vec3 &a = *(after - 1), &b = *after;
        const double surface = a.z() + (b.z() - a.z()) * (x.x() - a.x()) / (b.x() - a.x());
        deepest = std::max(deepest, top ? surface - x.z() : x.z() - surface);
      }
    }
  return deepest;
}

TEST(DeformableSelfContact, SqueezedRingsInnerSurfacesStayApartWithSelfCollision) {
  const double without = innerOverlapOfSqueezedRing(false), with = innerOverlapOfSqueezedRing(true);
  EXPECT_GT(without, 2e-3) << "without self-collision the halves pass into each other";
  EXPECT_LT(with, 1e-5) << "with it they meet and push on each other";
}

}  // namespace
}  // namespace contactlab
