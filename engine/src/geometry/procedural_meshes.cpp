#include "geometry/procedural_meshes.h"

#include <cmath>
#include <algorithm>
#include <numbers>
#include <stdexcept>

#include "geometry/marching_tetrahedra.h"
#include "geometry/mesh_mass_properties.h"
#include "geometry/mesh_simplification.h"

namespace contactlab {
namespace {

constexpr double kPi = std::numbers::pi;

void flipTriangles(TriangleMesh& mesh) {
  for (auto& tri : mesh.triangles) std::swap(tri[1], tri[2]);
}

// Both triangles of the quad a-b-c-d (in order round it).
void addQuad(TriangleMesh& mesh, int a, int b, int c, int d) {
  mesh.triangles.push_back({a, b, c});
  mesh.triangles.push_back({a, c, d});
}

// The profile with every segment longer than maxLength split evenly, so long straight walls do not
// become needle triangles (tetgen keeps the surface's triangles as they are, -Y).
std::vector<ProfilePoint> refined(const std::vector<ProfilePoint>& profile, double maxLength, bool closedLoop) {
  std::vector<ProfilePoint> out;
  const std::size_t segments = closedLoop ? profile.size() : profile.size() - 1;
  for (std::size_t i = 0; i < segments; ++i) {
    const ProfilePoint a = profile[i], b = profile[(i + 1) % profile.size()];
    const int pieces = std::max(1, static_cast<int>(std::ceil(std::hypot(b.r - a.r, b.z - a.z) / maxLength)));
    for (int k = 0; k < pieces; ++k)
      out.push_back({a.r + (b.r - a.r) * k / pieces, a.z + (b.z - a.z) * k / pieces});
  }
  if (!closedLoop) out.push_back(profile.back());
  return out;
}

// Points on the circle of `radius` about (r, z) from angle `from` to `to` (radians from +r towards
// +z), both ends included.
void appendArc(std::vector<ProfilePoint>& profile, ProfilePoint centre, double radius, double from, double to, int steps) {
  for (int i = 0; i <= steps; ++i) {
    const double angle = from + (to - from) * i / steps;
    const double r = centre.r + radius * std::cos(angle);
    // An arc closing on the axis must end exactly on it (r = 0 makes a pole, revolvedMesh).
    profile.push_back({std::abs(r) < 1e-12 ? 0.0 : r, centre.z + radius * std::sin(angle)});
  }
}

// Distance from p to the segment [-reach', reach'] on `axis`, minus the radius: the capsule's SDF.
double capsuleDistance(const Vec3& p, int axis, double halfLength, double radius) {
  Vec3 nearest = Vec3::Zero();
  nearest[axis] = std::clamp(p[axis], -halfLength, halfLength);
  return (p - nearest).norm() - radius;
}

constexpr int kRevolutionSegments = 32;

}  // namespace

TriangleMesh boxMesh(const Vec3& halfExtents) {
  TriangleMesh mesh;
  for (int corner = 0; corner < 8; ++corner)
    mesh.vertices.push_back(Vec3((corner & 1) ? 1 : -1, (corner & 2) ? 1 : -1, (corner & 4) ? 1 : -1)
                                .cwiseProduct(halfExtents));
  // Corners by bits (x = 1, y = 2, z = 4); each face counter-clockwise seen from outside.
  addQuad(mesh, 0, 2, 3, 1);  // -z
  addQuad(mesh, 4, 5, 7, 6);  // +z
  addQuad(mesh, 0, 1, 5, 4);  // -y
  addQuad(mesh, 2, 6, 7, 3);  // +y
  addQuad(mesh, 0, 4, 6, 2);  // -x
  addQuad(mesh, 1, 3, 7, 5);  // +x
  return mesh;
}

TriangleMesh uvSphereMesh(double radius, int slices, int stacks) {
  std::vector<ProfilePoint> meridian;
  for (int i = 0; i <= stacks; ++i) {
    const double polar = kPi * i / stacks;  // from the south pole up
    meridian.push_back({i == 0 || i == stacks ? 0.0 : radius * std::sin(polar), -radius * std::cos(polar)});
  }
  return revolvedMesh(meridian, slices);
}

TriangleMesh revolvedMesh(const std::vector<ProfilePoint>& profile, int segments) {
  if (profile.size() < 3 || segments < 3) throw std::invalid_argument("revolvedMesh: too few profile points or segments");
  const bool poles = profile.front().r == 0.0 && profile.back().r == 0.0;
  const std::size_t firstRing = poles ? 1 : 0;
  const std::size_t ringCount = poles ? profile.size() - 2 : profile.size();
  TriangleMesh mesh;
  std::vector<int> ringStart;
  for (std::size_t i = firstRing; i < firstRing + ringCount; ++i) {
    ringStart.push_back(static_cast<int>(mesh.vertices.size()));
    for (int k = 0; k < segments; ++k) {
      const double angle = 2.0 * kPi * k / segments;
      mesh.vertices.push_back({profile[i].r * std::cos(angle), profile[i].r * std::sin(angle), profile[i].z});
    }
  }
  const auto at = [&](std::size_t ring, int k) { return ringStart[ring] + k % segments; };
  const std::size_t bands = poles ? ringCount - 1 : ringCount;  // a loop's last ring joins its first
  for (std::size_t ring = 0; ring < bands; ++ring)
    for (int k = 0; k < segments; ++k)
      addQuad(mesh, at(ring, k), at(ring, k + 1), at((ring + 1) % ringCount, k + 1), at((ring + 1) % ringCount, k));
  if (poles) {
    const int bottom = static_cast<int>(mesh.vertices.size());
    mesh.vertices.push_back({0.0, 0.0, profile.front().z});
    const int top = bottom + 1;
    mesh.vertices.push_back({0.0, 0.0, profile.back().z});
    for (int k = 0; k < segments; ++k) {
      mesh.triangles.push_back({bottom, at(0, k + 1), at(0, k)});
      mesh.triangles.push_back({top, at(ringCount - 1, k), at(ringCount - 1, k + 1)});
    }
  }
  // Which way round the quads face depends on the profile's direction: orient by the volume's sign.
  if (integrateMassProperties(mesh).volume < 0.0) flipTriangles(mesh);
  return mesh;
}

}  // namespace contactlab

namespace contactlab {

TriangleMesh jackMesh(double reach, double armRadius, int targetTriangles) {
  const double halfLength = reach - armRadius;
  const auto unionDistance = [&](const Vec3& p) {
    return std::min({capsuleDistance(p, 0, halfLength, armRadius), capsuleDistance(p, 1, halfLength, armRadius),
                     capsuleDistance(p, 2, halfLength, armRadius)});
  };
  // A fifth of the radius per cell resolves the arms' round section well; the simplification then
  // removes most of the grid's triangles where the surface is flat along the arms.
  const double cell = armRadius / 5.0;
  const Vec3 corner = Vec3::Constant(reach + 2.0 * cell);
  // Edges no longer than h = 1.25 radii: an arm crossing another is seen by a vertex once it is
  // h^2 / (8 r), a fifth of the radius, deep (docs/meshes.md). Without the bound the simplification
  // ran single edges 3.5 radii long along the arms' sides, and crossed arms went unseen until
  // 1.5 radii deep (a vertex inside).
  return simplifyMesh(marchingTetrahedra(unionDistance, -corner, corner, cell), targetTriangles, 1.25 * armRadius);
}

TriangleMesh torusMesh(double ringRadius, double tubeRadius, int ringSegments, int tubeSegments) {
  std::vector<ProfilePoint> tube;
  for (int i = 0; i < tubeSegments; ++i) {
    const double angle = 2.0 * kPi * i / tubeSegments;
    tube.push_back({ringRadius + tubeRadius * std::cos(angle), tubeRadius * std::sin(angle)});
  }
  return revolvedMesh(tube, ringSegments);
}

TriangleMesh glassMesh(double outerRadius, double height, double wall, double base) {
  const double inner = outerRadius - wall;
  const std::vector<ProfilePoint> profile = {{0.0, 0.0},     {outerRadius, 0.0}, {outerRadius, height},
                                             {inner, height}, {inner, base},      {0.0, base}};
  return revolvedMesh(refined(profile, 2.0 * kPi * outerRadius / kRevolutionSegments, false), kRevolutionSegments);
}

TriangleMesh funnelMesh(double mouthRadius, double spoutRadius, double coneHeight, double spoutLength, double wall) {
  // Counter-clockwise round the wall's section: up the outside, over the rim, down the inside.
  const double top = spoutLength + coneHeight;
  const std::vector<ProfilePoint> section = {{spoutRadius + wall, 0.0},        {spoutRadius + wall, spoutLength},
                                             {mouthRadius + wall, top},        {mouthRadius, top},
                                             {spoutRadius, spoutLength + wall}, {spoutRadius, 0.0}};
  return revolvedMesh(refined(section, 2.0 * kPi * spoutRadius / kRevolutionSegments * 2.0, true), kRevolutionSegments);
}

TriangleMesh chessPieceMesh(ChessPiece piece) {
  // Every piece: a two-step base, then a body narrowing to a collar, then its head.
  std::vector<ProfilePoint> profile = {{0.0, 0.0}, {0.20, 0.0}, {0.20, 0.05}, {0.16, 0.08}};
  const auto head = [&](double collarHeight, double bodyRadius) {
    profile.push_back({bodyRadius, 0.12});
    profile.push_back({0.55 * bodyRadius, collarHeight - 0.04});
    profile.push_back({bodyRadius, collarHeight});
    profile.push_back({0.55 * bodyRadius, collarHeight + 0.02});
  };
  switch (piece) {
    case ChessPiece::Pawn:
      head(0.30, 0.12);
      appendArc(profile, {0.0, 0.40}, 0.09, -0.3 * kPi, 0.5 * kPi, 8);
      break;
    case ChessPiece::Rook:
      // A crowned tower with a hollow top.
      profile = {{0.0, 0.0}, {0.20, 0.0}, {0.20, 0.05}, {0.15, 0.09}, {0.12, 0.45}, {0.15, 0.50},
                 {0.15, 0.60}, {0.10, 0.60}, {0.10, 0.55}, {0.0, 0.55}};
      break;
    case ChessPiece::Knight:
      head(0.30, 0.12);
      profile.push_back({0.13, 0.45});
      profile.push_back({0.10, 0.62});
      profile.push_back({0.04, 0.68});
      profile.push_back({0.0, 0.68});
      break;
    case ChessPiece::Bishop:
      head(0.42, 0.11);
      appendArc(profile, {0.0, 0.55}, 0.10, -0.5 * kPi + 0.4, 0.25 * kPi, 6);
      profile.push_back({0.02, 0.70});
      appendArc(profile, {0.0, 0.73}, 0.03, -0.5 * kPi + 0.6, 0.5 * kPi, 4);
      break;
    case ChessPiece::Queen:
      head(0.62, 0.13);
      profile.push_back({0.14, 0.80});
      profile.push_back({0.10, 0.80});
      appendArc(profile, {0.0, 0.84}, 0.05, -0.5 * kPi + 0.7, 0.5 * kPi, 5);
      break;
    case ChessPiece::King:
      head(0.65, 0.14);
      profile.push_back({0.13, 0.84});
      profile.push_back({0.05, 0.87});
      profile.push_back({0.05, 0.93});
      profile.push_back({0.03, 1.0});
      profile.push_back({0.0, 1.0});
      break;
  }
  if (profile.back().r != 0.0) profile.push_back({0.0, profile.back().z});
  return revolvedMesh(refined(profile, 0.05, false), kRevolutionSegments);
}

TriangleMesh shapeSurface(const Shape& shape, double planeHalfSize) {
  constexpr int kSegments = 24;
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) return uvSphereMesh(sphere->radius, kSegments, kSegments / 2);
  if (const auto* box = std::get_if<BoxShape>(&shape)) return boxMesh(box->halfExtents);
  if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    // Two hemispheres joined by the cylinder, as a profile from pole to pole.
    std::vector<ProfilePoint> profile;
    for (int i = 0; i <= kSegments / 4; ++i) {
      const double a = -0.5 * std::numbers::pi + i * std::numbers::pi / (kSegments / 2);
      profile.push_back({capsule->radius * std::cos(a), -capsule->halfLength + capsule->radius * std::sin(a)});
    }
    for (int i = 0; i <= kSegments / 4; ++i) {
      const double a = i * std::numbers::pi / (kSegments / 2);
      profile.push_back({capsule->radius * std::cos(a), capsule->halfLength + capsule->radius * std::sin(a)});
    }
    profile.front().r = 0.0;
    profile.back().r = 0.0;
    return revolvedMesh(profile, kSegments);
  }
  if (const auto* mesh = std::get_if<MeshShape>(&shape)) return mesh->geometry->surface;
  const auto& plane = std::get<PlaneShape>(shape);
  const Vec3 n = plane.normal.normalized();
  const Vec3 u = n.unitOrthogonal() * planeHalfSize, w = n.cross(n.unitOrthogonal()) * planeHalfSize;
  const Vec3 centre = plane.offset * n;
  TriangleMesh square;
  square.vertices = {centre - u - w, centre + u - w, centre + u + w, centre - u + w};
  square.triangles = {{0, 1, 2}, {0, 2, 3}};
  return square;
}

}  // namespace contactlab
