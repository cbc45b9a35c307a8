#pragma once
// Shared set-up for the mesh pair tests: collision models of the test meshes and one-call contact
// generation through a pair function, reduced as the narrowphase reduces mesh pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

#include "collision/contact_buffer.h"
#include "collision/mesh_contacts.h"
#include "collision/mesh_model.h"
#include "collision/pair_functions.h"
#include "collision/triangle_geometry.h"
#include "support/test_meshes.h"

namespace contactlab::testing {

inline MeshCollisionModel modelOf(const std::shared_ptr<const MeshGeometry>& mesh, int k = 18) {
  return MeshCollisionModel(mesh, k);
}

// Runs `propose(buffer)` and returns the reduced contacts, checking that normals are unit and gaps
// below the margin; the number of candidates before the reduction into *candidates.
template <class Propose>
ContactManifold meshContacts(Propose&& propose, double margin, int* candidates = nullptr) {
  ContactBuffer buffer(margin, 1e-9);
  propose(buffer);
  if (candidates) *candidates = buffer.size();
  ContactManifold out;
  buffer.finalizeInto(out, false, ContactBuffer::kMaxMeshClusters);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    EXPECT_LT(c.gap, margin);
  }
  return out;
}

// Every contact has this normal and gap.
inline void expectNormalAndGap(const ContactManifold& contacts, const Vec3& normal, double gap) {
  for (const ContactPoint& c : contacts) {
    EXPECT_TRUE(c.normal.isApprox(normal, 1e-12)) << c.normal.transpose();
    EXPECT_NEAR(c.gap, gap, 1e-12);
  }
}

// The contacts are the four corners of a rectangle footprint, one at each: (x, y) = centre +- half
// in every sign combination (the z of the points is left to the caller).
inline void expectFootprintCorners(const ContactManifold& contacts, double centreX, double centreY, double halfX,
                                   double halfY) {
  ASSERT_EQ(contacts.size(), 4u);
  bool seen[2][2] = {{false, false}, {false, false}};
  for (const ContactPoint& c : contacts) {
    const double dx = c.point.x() - centreX, dy = c.point.y() - centreY;
    EXPECT_NEAR(std::abs(dx), halfX, 1e-12) << c.point.transpose();
    EXPECT_NEAR(std::abs(dy), halfY, 1e-12) << c.point.transpose();
    bool& corner = seen[dx > 0.0][dy > 0.0];
    EXPECT_FALSE(corner) << "two contacts at the corner " << c.point.transpose();
    corner = true;
  }
}

// Exact distance from a point to tetrahedron t of the mesh (0 inside), by brute force over its faces.
inline double distanceToTetrahedron(const MeshGeometry& mesh, int t, const Vec3& p) {
  const auto& [a, b, c, d] = mesh.tetrahedra[t];
  const auto& v = mesh.tetVertices;
  if (tetrahedronContains(p, v[a], v[b], v[c], v[d])) return 0.0;
  double distance = std::numeric_limits<double>::infinity();
  for (const auto& [x, y, z] : {std::array{a, b, c}, std::array{a, b, d}, std::array{a, c, d}, std::array{b, c, d}})
    distance = std::min(distance, (closestPointOnTriangle(p, v[x], v[y], v[z]).point - p).norm());
  return distance;
}

inline Pose poseOf(const Vec3& position, const Quat& orientation = Quat::Identity()) {
  return Pose{position, orientation.toRotationMatrix()};
}

}  // namespace contactlab::testing
