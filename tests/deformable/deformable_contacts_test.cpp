// DeformableContacts (deformable_contacts.h): the side of another body's surface that a vertex
// starts on, beside a sharp tip, and which rigid edges an edge pair joins, against the geometry
// worked out by hand.
#include "deformable/deformable_contacts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dynamics/body_setup.h"

namespace contactlab {
namespace {

// A spike: a tetrahedron on a 2 cm base, 20 cm tall, its tip at (0, 0, 0.2).
const TetMesh kSpike{{Vec3(-0.01, -0.01, 0.0), Vec3(0.01, -0.01, 0.0), Vec3(0.0, 0.01, 0.0), Vec3(0.0, 0.0, 0.2)},
                     {{0, 1, 2, 3}}};
const Vec3 kTip(0.0, 0.0, 0.2);

// The vertex-face constraint of the first node of a small tetrahedron placed at `vertex` against the
// spike's faces, at the start of a 1 ms step with every node moving at 1 m/s (a reach of 4 mm per
// body); nullopt when there is none.
std::optional<DeformableConstraint> constraintOfVertexAt(const Vec3& vertex, const Vec3& away) {
  // The small tetrahedron reaches 2 cm away from the spike along `away` from `vertex`.
  const Vec3 side = away.unitOrthogonal(), up = away.cross(side);
  TetMesh small{{vertex, vertex + 0.02 * away + 0.01 * side, vertex + 0.02 * away + 0.01 * up,
                 vertex + 0.02 * away - 0.01 * side - 0.01 * up},
                {{0, 1, 2, 3}}};
  const auto& x = small.vertices;
  if ((x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]) < 0.0) std::swap(small.tetrahedra[0][1], small.tetrahedra[0][2]);
  const TetBoundary spikeBoundary = extractBoundary(kSpike, "spike"), smallBoundary = extractBoundary(small, "small");
  const std::vector<DeformableContacts::SurfaceFaces> faces{DeformableContacts::surfaceFaces(spikeBoundary, 0, 4, 0),
                                                            DeformableContacts::surfaceFaces(smallBoundary, 4, 4, 4)};
  std::vector<DeformableContacts::SurfaceNode> surface;
  for (int node = 0; node < 8; ++node) surface.push_back({node, 0.0});
  Eigen::VectorXd positions(24), velocities(24);
  for (int i = 0; i < 4; ++i) {
    positions.segment<3>(3 * i) = kSpike.vertices[i];
    positions.segment<3>(12 + 3 * i) = small.vertices[i];
  }
  for (int node = 0; node < 8; ++node) velocities.segment<3>(3 * node) = Vec3(0.0, 0.0, -1.0);
  DeformableProblem problem;
  problem.dt = 1e-3;
  problem.A.resize(8);
  problem.firstRigidNode = 8;
  const std::vector<Body> bodies;
  const MeshModelCache meshes;
  DeformableContacts contacts;
  contacts.begin(bodies, {}, {}, meshes, surface, faces, positions, velocities, Vec3::Zero(), problem);
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const DeformableContacts::Pair& pair = contacts.pairs()[k];
    if (pair.surface == 4 && pair.deformable == 0 && pair.edge < 0) return problem.constraints[k];
  }
  return std::nullopt;
}

// Twelve directions from the tip, 17 degrees above the horizontal: the tip is the spike's nearest
// point along each (they point away from all three of its edges), and each lies behind the planes
// of one or two of the three faces round the tip, any of which a nearest-face search may return.
// A vertex 3 mm out is outside the spike, so its constraint must hold it 3 mm off the tip along
// that direction, c_n = -3 mm, whichever face holds it.
TEST(DeformableContacts, VertexBesideASharpTipIsOutsideWhicheverFaceIsNearest) {
  const double distance = 3e-3;
  int checked = 0;
  for (int turn = 0; turn < 12; ++turn) {
    const double angle = 2.0 * M_PI * turn / 12.0;
    const Vec3 direction = Vec3(std::cos(angle), std::sin(angle), 0.3).normalized();
    bool tipNearest = true;
    for (int i = 0; i < 3; ++i) tipNearest = tipNearest && direction.dot(kSpike.vertices[i] - kTip) < 0.0;
    if (!tipNearest) continue;
    ++checked;
    const std::optional<DeformableConstraint> c = constraintOfVertexAt(kTip + distance * direction, direction);
    ASSERT_TRUE(c) << "direction " << turn;
    EXPECT_NEAR(c->cn, -distance, 1e-12) << "direction " << turn;
    EXPECT_GT(c->frame.col(0).dot(direction), 1.0 - 1e-9) << "direction " << turn;
  }
  EXPECT_EQ(checked, 12);
}

// A vertex 5 mm below the tip on the spike's axis is inside it (the spike is 0.5 mm wide there): its
// constraint pushes it out, c_n > 0, through the nearest face's plane.
TEST(DeformableContacts, VertexInsideASharpTipIsPushedOut) {
  const std::optional<DeformableConstraint> c = constraintOfVertexAt(kTip - Vec3(0.0, 0.0, 5e-3), Vec3(0.0, 0.0, 1.0));
  ASSERT_TRUE(c);
  EXPECT_GT(c->cn, 0.0);
  EXPECT_LT(c->cn, 5e-4);
}

// Every constraint of a tetrahedron with vertices `x` (its first edge, AB, the one of interest)
// moving down at 10 m/s (a reach of 3.1 cm) beside a static wall filling y <= 0, 0 <= z <= 0.2,
// whose bottom edge runs along x at y = z = 0 between its faces +y and -z.
std::vector<DeformableConstraint> constraintsBesideAWall(const std::array<Vec3, 4>& x) {
  TetMesh tet{{x.begin(), x.end()}, {{0, 1, 2, 3}}};
  if ((x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]) < 0.0) std::swap(tet.tetrahedra[0][2], tet.tetrahedra[0][3]);
  const TetBoundary boundary = extractBoundary(tet, "tet");
  const std::vector<DeformableContacts::SurfaceFaces> faces{DeformableContacts::surfaceFaces(boundary, 0, 4, 0)};
  std::vector<DeformableContacts::SurfaceNode> surface;
  for (int node = 0; node < 4; ++node) surface.push_back({node, 0.0});
  Eigen::VectorXd positions(12), velocities(12);
  for (int i = 0; i < 4; ++i) {
    positions.segment<3>(3 * i) = x[i];
    velocities.segment<3>(3 * i) = Vec3(0.0, 0.0, -10.0);
  }
  BodyDesc wall;
  wall.shape = BoxShape{Vec3(0.1, 0.05, 0.1)};
  wall.position = Vec3(0.0, -0.05, 0.1);
  wall.motion = MotionType::Static;
  const std::vector<Body> bodies{makeBody(wall, FrictionDefaults{}, 0)};
  DeformableProblem problem;
  problem.dt = 1e-3;
  problem.A.resize(4);
  problem.firstRigidNode = 4;
  const MeshModelCache meshes;
  DeformableContacts contacts;
  contacts.begin(bodies, {0}, {}, meshes, surface, faces, positions, velocities, Vec3::Zero(), problem);
  return problem.constraints;
}

// The constraint of the edge pair between AB (nodes 0 and 1) and the wall, if any.
std::optional<DeformableConstraint> pairOfAB(const std::vector<DeformableConstraint>& constraints) {
  for (const DeformableConstraint& c : constraints)
    if (c.node[0] == 0 && c.node[1] == 1 && c.node[2] < 0) return c;
  return std::nullopt;
}

// AB runs nearly along the wall, 1.6 mm from it and 2.76 cm above its bottom edge, with its nearest
// point to that edge inside AB; the tetrahedron lies wholly outside the wall. Its constraints may
// hold it off, never push it out: the wall's bottom edge lies behind AB (and behind two more of the
// tetrahedron's edges) only across the tetrahedron's body, and such an edge pair, 2.8 cm deep,
// threw a ring lying beside a wall at 30 m/s.
TEST(DeformableContacts, RigidEdgeAcrossTheBodyFromAnEdgeMakesNoConstraint) {
  const Vec3 along(1.0, 0.05, -0.003), middle(0.0, 0.0016, 0.0276);
  const std::vector<DeformableConstraint> constraints =
      constraintsBesideAWall({middle - 0.02 * along, middle + 0.02 * along, Vec3(0.0, 0.03, 0.0), Vec3(0.0, 0.0008, 0.0)});
  EXPECT_FALSE(pairOfAB(constraints));
  for (const DeformableConstraint& c : constraints) EXPECT_LE(c.cn, 0.0) << "nodes " << c.node[0] << " " << c.node[1];
}

// AB crosses the wall's bottom edge: its middle, nearest that edge, lies 0.5 mm inside the wall
// (y = -0.5 mm, z = 0.5 mm), the rest of the tetrahedron outside. The pair pushes AB back out along
// their common normal (0, -1, 1)/sqrt(2), by the 0.71 mm between the edges.
TEST(DeformableContacts, RigidEdgeThatCrossedAnEdgeIsPushedBack) {
  const Vec3 along(1.0, 0.5, 0.5), middle(0.0, -0.0005, 0.0005);
  const std::optional<DeformableConstraint> c = pairOfAB(constraintsBesideAWall(
      {middle - 0.02 * along, middle + 0.02 * along, middle + Vec3(0.005, 0.02, -0.005), middle + Vec3(-0.005, 0.005, -0.02)}));
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->cn, 0.0005 * std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(c->frame.col(0).dot(Vec3(0.0, -1.0, 1.0).normalized()), 1.0, 1e-9);
}

// A V-shaped trough, 0.2 m across and 0.2 m long along y: its cross-section in (x, z) is the
// pentagon (-0.1, 0), (0.1, 0), (0.1, 0.1), (0, 0.05), (-0.1, 0.1), so its top is two slopes, each
// turned 26.6 degrees from the horizontal, meeting in a valley along y at x = 0, z = 0.05. Three
// triangular prisms, each cut into three tetrahedra with the diagonals of their sides agreeing.
TetMesh troughMesh() {
  const std::array<Vec2, 5> section{Vec2(-0.1, 0.0), Vec2(0.1, 0.0), Vec2(0.1, 0.1), Vec2(0.0, 0.05), Vec2(-0.1, 0.1)};
  TetMesh mesh;
  for (const double y : {-0.1, 0.1})
    for (const Vec2& p : section) mesh.vertices.push_back(Vec3(p.x(), y, p.y()));
  const std::array<std::array<int, 3>, 3> triangles{{{0, 3, 4}, {0, 1, 3}, {1, 2, 3}}};
  for (std::array<int, 3> t : triangles) {
    std::sort(t.begin(), t.end());
    const int a = t[0], b = t[1], c = t[2], a2 = a + 5, b2 = b + 5, c2 = c + 5;
    // Each side's diagonal joins the far end of its lower-numbered vertex to the near end of the
    // other, whichever prism it belongs to.
    for (std::array<int, 4> tet : {std::array<int, 4>{a, b, c, a2}, {b, c, a2, b2}, {c, a2, b2, c2}}) {
      const auto& x = mesh.vertices;
      if ((x[tet[1]] - x[tet[0]]).cross(x[tet[2]] - x[tet[0]]).dot(x[tet[3]] - x[tet[0]]) < 0.0) std::swap(tet[2], tet[3]);
      mesh.tetrahedra.push_back(tet);
    }
  }
  return mesh;
}

// A vertex starts 0.5 mm above the trough's left slope, 2 mm from the valley. Held on the left
// slope's plane, the solve moves it to x = 3 mm, 0.5 mm under the right slope; held on the right
// one, to x = -3 mm, 0.5 mm under the left. Re-linearized after each such solve, its one pair
// switched between the two slopes round after round; the vertex needs a constraint on each.
TEST(DeformableContacts, VertexInACreaseGetsAConstraintOnEachFace) {
  const TetMesh trough = troughMesh();
  const int troughNodes = static_cast<int>(trough.vertices.size());
  const Vec3 start(-0.002, 0.03, 0.0515), up = Vec3(0.5, 0.0, 1.0).normalized();
  TetMesh small{{start, start + 0.02 * up + Vec3(0.01, 0.0, 0.0), start + 0.02 * up + Vec3(0.0, 0.01, 0.0),
                 start + 0.02 * up + Vec3(-0.01, -0.01, 0.0)},
                {{0, 1, 2, 3}}};
  const auto& x = small.vertices;
  if ((x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]) < 0.0) std::swap(small.tetrahedra[0][2], small.tetrahedra[0][3]);
  const std::vector<DeformableContacts::SurfaceFaces> faces{
      DeformableContacts::surfaceFaces(extractBoundary(trough, "trough"), 0, troughNodes, 0),
      DeformableContacts::surfaceFaces(extractBoundary(small, "small"), troughNodes, 4, troughNodes)};
  const int nodes = troughNodes + 4, vertex = troughNodes;
  std::vector<DeformableContacts::SurfaceNode> surface;
  for (int node = 0; node < nodes; ++node) surface.push_back({node, 0.0});
  Eigen::VectorXd positions(3 * nodes);
  for (int i = 0; i < troughNodes; ++i) positions.segment<3>(3 * i) = trough.vertices[i];
  for (int i = 0; i < 4; ++i) positions.segment<3>(3 * (troughNodes + i)) = small.vertices[i];
  const double dt = 1e-3;
  // The small tetrahedron's velocity that takes the vertex from `start` to `end` in the step.
  const auto moving = [&](const Vec3& end) {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(3 * nodes);
    for (int i = 0; i < 4; ++i) v.segment<3>(3 * (troughNodes + i)) = (end - start) / dt;
    return v;
  };
  const Eigen::VectorXd underRight = moving(Vec3(0.003, 0.03, 0.051)), underLeft = moving(Vec3(-0.003, 0.03, 0.051));
  DeformableProblem problem;
  problem.dt = dt;
  problem.A.resize(nodes);
  problem.firstRigidNode = nodes;
  const std::vector<Body> bodies;
  const MeshModelCache meshes;
  DeformableContacts contacts;
  contacts.begin(bodies, {}, {}, meshes, surface, faces, positions, underRight, Vec3::Zero(), problem);
  // The vertex's constraints against the trough, by their normals' x: +0.447 on the left slope.
  const auto vertexConstraints = [&]() {
    std::vector<double> normalsX;
    for (int k = 0; k < problem.numConstraints(); ++k) {
      const DeformableContacts::Pair& pair = contacts.pairs()[k];
      if (pair.surface == vertex && pair.deformable == 0 && !isRetired(problem.constraints[k]))
        normalsX.push_back(problem.constraints[k].frame.col(0).x());
    }
    std::sort(normalsX.begin(), normalsX.end());
    return normalsX;
  };
  ASSERT_EQ(vertexConstraints().size(), 1u);
  EXPECT_NEAR(vertexConstraints()[0], up.x(), 1e-9);
  for (int round = 0; round < 6 && vertexConstraints().size() < 2; ++round) {
    std::vector<std::uint8_t> active(problem.numConstraints(), 1);
    const bool onLeft = vertexConstraints().back() > 0.0;
    contacts.relinearize(onLeft ? underRight : underLeft, active, problem);
  }
  const std::vector<double> normalsX = vertexConstraints();
  ASSERT_EQ(normalsX.size(), 2u);
  EXPECT_NEAR(normalsX[0], -up.x(), 1e-9);
  EXPECT_NEAR(normalsX[1], up.x(), 1e-9);
}

}  // namespace
}  // namespace contactlab
