#include "deformable/deformable_contacts.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>

#include "collision/box_geometry.h"
#include "collision/segment_geometry.h"
#include "collision/triangle_geometry.h"
#include "deformable/rigid_surface_query.h"
#include "dynamics/free_rotation.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

namespace deformable_contacts_impl {

// A box's corners and a mesh's vertices, world, at the body's pose; other shapes have none.
std::vector<Vec3> rigidVertices(const Body& body) {
  std::vector<Vec3> vertices;
  const Pose pose{body.position, body.rotation()};
  if (const auto* box = std::get_if<BoxShape>(&body.shape))
    for (int i = 0; i < 8; ++i) vertices.push_back(boxVertex(*box, pose, i));
  if (const auto* mesh = std::get_if<MeshShape>(&body.shape))
    for (const Vec3& x : mesh->geometry->surface.vertices) vertices.push_back(pose.position + pose.rotation * x);
  return vertices;
}

// A box's 12 edges and a mesh's unique surface edges, world, at the body's pose, each with its two
// faces' outward normals.
std::vector<RigidEdge> rigidEdges(const Body& body) {
  std::vector<RigidEdge> edges;
  const Pose pose{body.position, body.rotation()};
  if (const auto* box = std::get_if<BoxShape>(&body.shape))
    for (int i = 0; i < 8; ++i)
      for (int axis = 0; axis < 3; ++axis) {
        if (i & (1 << axis)) continue;
        // The edge from corner i along `axis` bounds the faces of the other two axes on corner i's sides.
        RigidEdge edge{{boxVertex(*box, pose, i), boxVertex(*box, pose, i | (1 << axis))}, {}, true};
        for (int k = 0; k < 2; ++k) {
          const int other = (axis + 1 + k) % 3;
          edge.normals[k] = pose.rotation.col(other) * ((i >> other & 1) ? 1.0 : -1.0);
        }
        edges.push_back(edge);
      }
  if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) {
    const TriangleMesh& surface = mesh->geometry->surface;
    const auto at = [&](int v) { return Vec3(pose.position + pose.rotation * surface.vertices[v]); };
    // The faces on each edge, the one that runs it from its lower vertex first.
    std::map<std::pair<int, int>, std::array<int, 2>> faces;
    for (int f = 0; f < static_cast<int>(surface.triangles.size()); ++f)
      for (int e = 0; e < 3; ++e) {
        const int a = surface.triangles[f][e], b = surface.triangles[f][(e + 1) % 3];
        auto& sides = faces.try_emplace(std::minmax(a, b), std::array<int, 2>{-1, -1}).first->second;
        sides[a < b ? 0 : 1] = f;
      }
    const auto normal = [&](int f) {
      const auto& t = surface.triangles[f];
      return Vec3((at(t[1]) - at(t[0])).cross(at(t[2]) - at(t[0])).normalized());
    };
    for (const auto& [ends, sides] : faces) {
      if (sides[0] < 0 || sides[1] < 0) continue;  // not a closed surface's edge
      RigidEdge edge{{at(ends.first), at(ends.second)}, {normal(sides[0]), normal(sides[1])}, true};
      const auto& second = surface.triangles[sides[1]];
      const int far = second[0] != ends.first && second[0] != ends.second ? second[0]
                      : second[1] != ends.first && second[1] != ends.second ? second[1] : second[2];
      edge.convex = edge.normals[0].dot(at(far) - edge.segment.start) < 0.0;
      edges.push_back(edge);
    }
  }
  return edges;
}

// Barycentric weights of a point q of triangle abc's plane.
Vec3 barycentric(const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e0 = b - a, e1 = c - a, d = q - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1), d20 = d.dot(e0), d21 = d.dot(e1);
  const double denominator = d00 * d11 - d01 * d01;
  if (!(denominator > 0.0)) return Vec3(1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0);
  const double wb = (d11 * d20 - d01 * d21) / denominator, wc = (d00 * d21 - d01 * d20) / denominator;
  return Vec3(1.0 - wb - wc, wb, wc);
}

// The point of segment `axis` nearest triangle abc (a capsule's core against a face): the nearer of
// the segment's ends to the triangle and the segment's points nearest the triangle's edges. A segment
// through the triangle's interior is deep inside and any of these serves.
Vec3 closestAxisPointToTriangle(const Segment& axis, const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 best = axis.start;
  double nearest = (closestPointOnTriangle(axis.start, a, b, c).point - axis.start).norm();
  const auto consider = [&](const Vec3& point, const Vec3& onTriangle) {
    const double distance = (point - onTriangle).norm();
    if (distance < nearest) nearest = distance, best = point;
  };
  consider(axis.end, closestPointOnTriangle(axis.end, a, b, c).point);
  for (const Segment& edge : {Segment{a, b}, Segment{b, c}, Segment{c, a}}) {
    const auto [s, t] = closestParameters(axis, edge);
    consider(axis.at(s), edge.at(t));
  }
  return best;
}

// An axis-aligned box as a kDOP over any axes: its three slabs, the others unbounded.
Kdop boxKdop(const Aabb& box) {
  Kdop kdop;
  kdop.lower.fill(-std::numeric_limits<double>::infinity());
  kdop.upper.fill(std::numeric_limits<double>::infinity());
  for (int i = 0; i < 3; ++i) kdop.lower[i] = box.lower[i], kdop.upper[i] = box.upper[i];
  return kdop;
}

// Whether two vertex-face constraints hold their vertex on the same face (its nodes in the same order).
bool sameFace(const DeformableConstraint& a, const DeformableConstraint& b) {
  return a.node[1] == b.node[1] && a.node[2] == b.node[2] && a.node[3] == b.node[3];
}

}  // namespace deformable_contacts_impl

Mat3 DeformableContacts::frameAround(const Vec3& n) {
  const Vec3 t1 = anyPerpendicular(n).normalized();
  Mat3 frame;
  frame << n, t1, n.cross(t1);
  return frame;
}

void DeformableContacts::setKdop(int k) {
  kdopAxes(k);  // throws std::invalid_argument for an unsupported k
  if (k != kdop_) trees_.clear();
  kdop_ = k;
}

DeformableContacts::SurfaceFaces DeformableContacts::surfaceFaces(const TetBoundary& boundary, int firstNode, int numNodes,
                                                                  int firstSurface) {
  SurfaceFaces faces;
  faces.firstSurface = firstSurface;
  faces.numSurface = static_cast<int>(boundary.vertices.size());
  faces.firstNode = firstNode;
  faces.nodeFaces.resize(numNodes);
  for (const auto& t : boundary.triangles) faces.faces.push_back({firstNode + t[0], firstNode + t[1], firstNode + t[2]});
  for (const auto& e : boundary.edges) faces.edges.push_back({firstNode + e[0], firstNode + e[1]});
  faces.edgeFaces.assign(boundary.edges.size(), {-1, -1});
  faces.faceEdges.assign(boundary.triangles.size(), {-1, -1, -1});
  // The boundary's edges are sorted (a < b), so a face's edge is found by search.
  for (int f = 0; f < static_cast<int>(boundary.triangles.size()); ++f) {
    const auto& t = boundary.triangles[f];
    for (int k = 0; k < 3; ++k) {
      faces.nodeFaces[t[k]].push_back(f);
      const std::array<int, 2> edge{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])};
      const auto it = std::lower_bound(boundary.edges.begin(), boundary.edges.end(), edge);
      if (it == boundary.edges.end() || *it != edge) continue;
      const int e = static_cast<int>(it - boundary.edges.begin());
      faces.faceEdges[f][k] = e;
      (faces.edgeFaces[e][0] < 0 ? faces.edgeFaces[e][0] : faces.edgeFaces[e][1]) = f;
    }
  }
  return faces;
}

void DeformableContacts::buildSurfaceTrees() {
  trees_.clear();
  for (const SurfaceFaces& body : *faces_) {
    std::vector<int> vertexNodes;
    for (int i = 0; i < body.numSurface; ++i) vertexNodes.push_back((*surface_)[body.firstSurface + i].node);
    trees_.emplace_back(kdop_, vertexNodes, body.edges, body.faces, *positions_);
  }
}

void DeformableContacts::fitSurfaceTrees() {
  for (std::size_t d = 0; d < trees_.size(); ++d) {
    const SurfaceFaces& body = (*faces_)[d];
    trees_[d].refitVertices(*positions_, std::span(reach_).subspan(body.firstSurface, body.numSurface));
    trees_[d].refitEdgesAndFaces(*positions_, Eigen::VectorXd());
  }
}

void DeformableContacts::begin(const std::vector<Body>& bodies, const std::vector<int>& obstacles,
                               const std::vector<int>& coupled, const MeshModelCache& meshes,
                               const std::vector<SurfaceNode>& surface, const std::vector<SurfaceFaces>& faces,
                               const Eigen::VectorXd& positions, const Eigen::VectorXd& velocities,
                               const Vec3& gravity, DeformableProblem& problem) {
  bodies_ = &bodies;
  meshes_ = &meshes;
  surface_ = &surface;
  faces_ = &faces;
  positions_ = &positions;
  dt_ = problem.dt;
  firstRigidNode_ = problem.firstRigidNode;
  colliders_ = obstacles;
  colliders_.insert(colliders_.end(), coupled.begin(), coupled.end());
  rigidIndex_.assign(bodies.size(), -1);
  rigidReach_.assign(bodies.size(), 0.0);
  for (std::size_t j = 0; j < coupled.size(); ++j) {
    const Body& body = bodies[coupled[j]];
    rigidIndex_[coupled[j]] = static_cast<int>(j);
    const double speed = body.velocity.norm() + body.angularVelocity.norm() * boundingRadius(body.shape);
    rigidReach_[coupled[j]] = 3.0 * dt_ * (speed + gravity.norm() * dt_);
  }
  // The rigid bodies' vertices and edges, once for the step's searches and re-linearizations (the
  // coupled bodies' move with them, rigidPointAt).
  rigidVertices_.assign(bodies.size(), {});
  rigidEdges_.assign(bodies.size(), {});
  for (const int b : colliders_) {
    rigidVertices_[b] = deformable_contacts_impl::rigidVertices(bodies[b]);
    rigidEdges_[b] = deformable_contacts_impl::rigidEdges(bodies[b]);
  }
  if (trees_.size() != faces.size()) buildSurfaceTrees();
  pairs_.clear();
  previous_.clear();
  reach_.resize(surface.size());
  surfaceBody_.resize(surface.size());
  for (std::size_t d = 0; d < faces.size(); ++d)
    std::fill_n(surfaceBody_.begin() + faces[d].firstSurface, faces[d].numSurface, static_cast<int>(d));
  for (std::size_t s = 0; s < surface.size(); ++s) {
    // Sec. 5.1 extends a face's box by 3 dt v; gravity's pull over the step is part of the travel.
    const double travel = dt_ * (velocities.segment<3>(3 * surface[s].node).norm() + gravity.norm() * dt_);
    reach_[s] = 3.0 * travel + kMargin;
  }
  nodeReach_.assign(positions.size() / 3, 0.0);
  for (std::size_t s = 0; s < surface.size(); ++s) nodeReach_[surface[s].node] = reach_[s];
  fitSurfaceTrees();
  maxReach_ = kMargin;
  for (const double r : reach_) maxReach_ = std::max(maxReach_, r);
  bodyReach_.assign(faces.size(), kMargin);
  for (std::size_t d = 0; d < faces.size(); ++d)
    for (int i = 0; i < faces[d].numSurface; ++i) bodyReach_[d] = std::max(bodyReach_[d], reach_[faces[d].firstSurface + i]);
  for (const int b : colliders_) addRigidBodyConstraints(b, {}, problem);
  addDeformablePairConstraints(problem);
  addRigidPairConstraints(problem);
  updateSimilarity(problem);
}

DeformableContacts::RigidAt DeformableContacts::rigidAt(int body, const Eigen::VectorXd& v, double w) const {
  const Body& b = (*bodies_)[body];
  const int j = rigidIndex_[body];
  if (j < 0) return {{b.position, b.rotation()}, b.velocity, b.angularVelocity, -1};
  const Vec3 u = v.segment<3>(3 * linearNode(j)), omega = v.segment<3>(3 * angularNode(j));
  const Quat turned = rotateByAngularVelocity(b.orientation, omega, w * dt_);
  return {{b.position + w * dt_ * u, turned.toRotationMatrix()}, u, omega, j};
}

Vec3 DeformableContacts::rigidPointAt(int body, const Vec3& point, const RigidAt& at) const {
  if (at.index < 0) return point;
  const Body& b = (*bodies_)[body];
  return at.pose.position + at.pose.rotation * (b.rotation().transpose() * (point - b.position));
}

Vec3 DeformableContacts::addRigidSide(const RigidAt& at, const Vec3& p, double weight, double w,
                                      DeformableConstraint& out) const {
  const Vec3 pointVelocity = at.pointVelocity(p);
  if (at.index >= 0) {
    // A constraint joins at most two rigid bodies, each once.
    const int slot = out.rigid[0].body < 0 ? 0 : 1;
    assert(out.rigid[slot].body < 0 && out.rigid[0].body != at.index);
    out.rigid[slot] = {at.index, weight, p - at.pose.position};
    return p - w * dt_ * pointVelocity;
  }
  // The obstacle is at its end-of-step pose: a sticking contact moves with it,
  // dt (t1, t2) . (sum of the other side's weighted velocities) = -weight dt (t1, t2) . u_p.
  const Vec3 travel = -weight * dt_ * pointVelocity;
  out.ct += Vec2(out.frame.col(1).dot(travel), out.frame.col(2).dot(travel));
  return p;
}

int DeformableContacts::addRigidBodyConstraints(int b, const std::vector<Pair>& known, DeformableProblem& problem) {
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(positions_->size());
  const Body& body = (*bodies_)[b];
  const double reach = maxReach_ + rigidReach_[b];
  const Aabb box = shapeAabb(body.shape, {body.position, body.rotation()}).inflated(rigidReach_[b]);
  int added = 0;
  const auto add = [&](const Pair& pair, const DeformableConstraint& c) {
    if (!std::binary_search(known.begin(), known.end(), pair) && append(pair, c, problem)) ++added;
  };
  const std::span<const Vec3> axes = kdopAxes(kdop_);
  const int axisCount = static_cast<int>(axes.size());
  std::vector<int> near;
  for (int d = 0; d < static_cast<int>(faces_->size()); ++d) {
    // Surface vertices whose boxes, extended by their reach, overlap the body's (sec. 5.1).
    near.clear();
    trees_[d].vertices().forEachOverlapping(deformable_contacts_impl::boxKdop(box), [&](int i) {
      const int s = (*faces_)[d].firstSurface + i;
      if (box.inflated(reachOf(s)).contains(position(s))) near.push_back(s);
    });
    std::sort(near.begin(), near.end());  // in surface order, whatever the trees' shapes
    for (const int s : near) {
      DeformableConstraint c;
      if (linearize(s, b, still, 0.0, reachOf(s) + rigidReach_[b], c)) add({s, b, -1, -1}, c);
    }
    // The body's vertices against the nearest faces.
    for (int i = 0; i < static_cast<int>(rigidVertices_[b].size()); ++i) {
      DeformableConstraint c;
      if (linearizeRigidVertex(b, i, d, still, 0.0, reach, c)) add({-1, b, i, d}, c);
    }
    // The body's edges against the surface edges near them.
    const std::vector<RigidEdge>& edges = rigidEdges_[b];
    for (int r = 0; r < static_cast<int>(edges.size()); ++r) {
      const std::array<Vec3, 2> ends{edges[r].segment.start, edges[r].segment.end};
      near.clear();
      trees_[d].edges().forEachOverlapping(kdopOfPoints(axes, ends).inflated(reach, axisCount),
                                           [&](int e) { near.push_back(e); });
      std::sort(near.begin(), near.end());
      for (const int e : near) {
        DeformableConstraint c;
        if (linearizeEdges(b, r, d, e, still, 0.0, reach, c)) add({-1, b, -1, d, r, e}, c);
      }
    }
    // A round body's surface against the faces under it.
    if (std::holds_alternative<SphereShape>(body.shape) || std::holds_alternative<CapsuleShape>(body.shape)) {
      near.clear();
      trees_[d].faces().forEachOverlapping(deformable_contacts_impl::boxKdop(box.inflated(maxReach_)),
                                           [&](int f) { near.push_back(f); });
      std::sort(near.begin(), near.end());
      for (const int f : near) {
        DeformableConstraint c;
        if (linearizeRoundFace(b, d, f, still, 0.0, reach, c)) add({.body = b, .deformable = d, .face = f}, c);
      }
    }
  }
  return added;
}

bool DeformableContacts::edgeCrossing(const Segment& first, const Segment& second, double reach, EdgeCrossing& out) {
  const auto [s, t] = closestParameters(first, second);
  // At an end of either edge a vertex pair (vertex-face or vertex against a rigid surface) holds.
  constexpr double kEnd = 1e-6;
  if (s <= kEnd || s >= 1.0 - kEnd || t <= kEnd || t >= 1.0 - kEnd) return false;
  if ((first.at(s) - second.at(t)).norm() > reach) return false;
  const Vec3 n = first.direction().cross(second.direction());
  const double length = n.norm();
  if (!(length > 1e-9 * first.direction().norm() * second.direction().norm())) return false;  // parallel
  out = {s, t, first.at(s), n / length};
  return true;
}

bool DeformableContacts::linearizeEdges(int body, int edge, int d, int e, const Eigen::VectorXd& v, double w,
                                        double reach, DeformableConstraint& out) const {
  using namespace deformable_contacts_impl;
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  const auto [i, j] = (*faces_)[d].edges[e];
  const RigidAt rigidBody = rigidAt(body, v, w);
  const Segment& start = rigidEdges_[body][edge].segment;
  const Segment rigid{rigidPointAt(body, start.start, rigidBody), rigidPointAt(body, start.end, rigidBody)};
  EdgeCrossing crossing;
  if (!edgeCrossing(rigid, Segment{at(i), at(j)}, reach, crossing)) return false;
  const auto [s, t, p, unsignedNormal] = crossing;
  Vec3 n = unsignedNormal;
  // Outward of the deformable surface: along the sum of the two faces' normals at the edge.
  if (n.dot(edgeOutward(d, e, v, w)) < 0.0) n = -n;
  if (!withinEdgeNormals(d, e, n, v, w)) return false;
  // The edge point at the step's start with this parameter: n . (p - q - dt ((1 - t) v_i + t v_j)) >= 0.
  const Vec3 edgeStart = (1.0 - t) * positions_->segment<3>(3 * i) + t * positions_->segment<3>(3 * j);
  out.frame = frameAround(n);
  out.node = {i, j, -1, -1};
  out.weight = {-(1.0 - t), -t, 0.0, 0.0};
  out.cn = -n.dot(addRigidSide(rigidBody, p, 1.0, w, out) - edgeStart);
  // Behind the deformable edge at the step's start, the rigid edge has either crossed it (the
  // deformable edge point then lies inside the rigid body) or lies across the deformable body from
  // it: a wall's bottom edge under a flat ring beside it, paired with the ring's top edge, took a
  // constraint 2.8 cm deep whose multiplier of 1e4 threw the ring at 30 m/s.
  if (out.cn > tolerance_ && rigidEdges_[body][edge].outside(edgeStart)) return false;
  out.mu = std::sqrt((*faces_)[d].mu * (*bodies_)[body].mu);
  return true;
}

bool DeformableContacts::linearizeRoundFace(int body, int d, int f, const Eigen::VectorXd& v, double w, double reach,
                                            DeformableConstraint& out) const {
  using namespace deformable_contacts_impl;
  const RigidAt rigidBody = rigidAt(body, v, w);
  const Shape& shape = (*bodies_)[body].shape;
  const auto& face = (*faces_)[d].faces[f];
  const Vec3 a = nodeAt(face[0], v, w), b = nodeAt(face[1], v, w), c = nodeAt(face[2], v, w);
  Vec3 core;
  double radius = 0.0;
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    core = rigidBody.pose.position;
    radius = sphere->radius;
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    core = closestAxisPointToTriangle(capsuleSegment(*capsule, rigidBody.pose), a, b, c);
    radius = capsule->radius;
  } else {
    return false;
  }
  const TrianglePoint q = closestPointOnTriangle(core, a, b, c);
  const Vec3 weights = barycentric(q.point, a, b, c);
  constexpr double kCorner = 1e-6;  // a vertex's own pair holds at the face's corners
  if (weights.maxCoeff() >= 1.0 - kCorner) return false;
  const Vec3 away = core - q.point;
  if ((away.norm() - radius) > reach) return false;
  // From the face towards the core. A core beside or behind the face's plane (a ball beyond the end
  // of a mat, over the mat's end face) is not in front of this face: the faces it is in front of
  // hold it there, and this one would kick it through the plane.
  if (!(away.dot(faceNormal(d, f, v, w)) > 0.0)) return false;
  const Vec3 n = away.normalized();
  const Vec3 start = faceAtStart(face, weights);
  out.frame = frameAround(n);
  out.node = {face[0], face[1], face[2], -1};
  out.weight = {-weights[0], -weights[1], -weights[2], 0.0};
  out.cn = -n.dot(addRigidSide(rigidBody, core - radius * n, 1.0, w, out) - start);
  out.mu = std::sqrt((*faces_)[d].mu * (*bodies_)[body].mu);
  return true;
}

bool DeformableContacts::nearestFace(int d, const Vec3& point, const Eigen::VectorXd& v, double w, double reach,
                                     FacePoint& out, int skipNode) const {
  using namespace deformable_contacts_impl;
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  const auto& faces = (*faces_)[d].faces;
  const KdopTree::Nearest nearest = trees_[d].faces().nearest(point, reach, [&](int f, double) {
    if (faces[f][0] == skipNode || faces[f][1] == skipNode || faces[f][2] == skipNode)
      return std::numeric_limits<double>::infinity();
    return (point - closestPointOnTriangle(point, at(faces[f][0]), at(faces[f][1]), at(faces[f][2])).point).norm();
  });
  if (nearest.primitive < 0) return false;
  out = facePoint(d, nearest.primitive, point, v, w);
  return true;
}

DeformableContacts::FacePoint DeformableContacts::facePoint(int d, int f, const Vec3& point, const Eigen::VectorXd& v,
                                                            double w) const {
  using namespace deformable_contacts_impl;
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  const auto& face = (*faces_)[d].faces[f];
  const Vec3 a = at(face[0]), b = at(face[1]), c = at(face[2]);
  const TrianglePoint q = closestPointOnTriangle(point, a, b, c);
  const Vec3 planeNormal = (b - a).cross(c - a).normalized();
  const Vec3 away = point - q.point;
  FacePoint out;
  out.face = f;
  out.point = q.point;
  out.weights = barycentric(q.point, a, b, c);
  const bool outside = !q.interior && away.norm() > 0.0 && away.dot(featureOutward(d, f, q, v, w)) > 0.0;
  out.normal = outside ? Vec3(away.normalized()) : planeNormal;
  return out;
}

Vec3 DeformableContacts::featureOutward(int d, int f, const TrianglePoint& q, const Eigen::VectorXd& v, double w) const {
  const SurfaceFaces& body = (*faces_)[d];
  if (q.edge >= 0) return body.faceEdges[f][q.edge] >= 0 ? edgeOutward(d, body.faceEdges[f][q.edge], v, w) : faceNormal(d, f, v, w);
  const int node = body.faces[f][q.corner];
  const Vec3 corner = nodeAt(node, v, w);
  Vec3 outward = Vec3::Zero();
  for (const int g : body.nodeFaces[node - body.firstNode]) {
    const auto& face = body.faces[g];
    const int k = face[0] == node ? 0 : face[1] == node ? 1 : 2;
    const Vec3 toNext = nodeAt(face[(k + 1) % 3], v, w) - corner, toPrevious = nodeAt(face[(k + 2) % 3], v, w) - corner;
    const double angle = std::atan2(toNext.cross(toPrevious).norm(), toNext.dot(toPrevious));
    outward += angle * faceNormal(d, g, v, w);
  }
  return outward;
}

Vec3 DeformableContacts::faceNormal(int d, int f, const Eigen::VectorXd& v, double w) const {
  const auto& face = (*faces_)[d].faces[f];
  const Vec3 a = nodeAt(face[0], v, w);
  return (nodeAt(face[1], v, w) - a).cross(nodeAt(face[2], v, w) - a).normalized();
}

Vec3 DeformableContacts::edgeOutward(int d, int e, const Eigen::VectorXd& v, double w) const {
  Vec3 outward = Vec3::Zero();
  for (const int f : (*faces_)[d].edgeFaces[e])
    if (f >= 0) outward += faceNormal(d, f, v, w);
  return outward;
}

bool DeformableContacts::withinEdgeNormals(int d, int e, const Vec3& n, const Eigen::VectorXd& v, double w) const {
  const auto [f1, f2] = (*faces_)[d].edgeFaces[e];
  if (f1 < 0) return true;
  const Vec3 first = faceNormal(d, f1, v, w);
  if (f2 < 0) return n.dot(first) >= -std::sin(kEdgeNormalSlack);  // an open surface's rim: its face's side
  // Angles about the edge, from the first face's normal: the second's turn and n's.
  const auto [i, j] = (*faces_)[d].edges[e];
  const Vec3 across = (nodeAt(j, v, w) - nodeAt(i, v, w)).normalized().cross(first);
  const Vec3 second = faceNormal(d, f2, v, w);
  const double turn = std::atan2(second.dot(across), second.dot(first)), angle = std::atan2(n.dot(across), n.dot(first));
  return std::min(0.0, turn) - kEdgeNormalSlack <= angle && angle <= std::max(0.0, turn) + kEdgeNormalSlack;
}

bool DeformableContacts::linearizeRigidVertex(int body, int vertexIndex, int d, const Eigen::VectorXd& v,
                                              double w, double reach, DeformableConstraint& out) const {
  using namespace deformable_contacts_impl;
  const RigidAt rigidBody = rigidAt(body, v, w);
  const Vec3 vertex = rigidPointAt(body, rigidVertices_[body][vertexIndex], rigidBody);
  FacePoint q;
  if (!nearestFace(d, vertex, v, w, reach, q)) return false;
  const auto& face = (*faces_)[d].faces[q.face];
  const Vec3& n = q.normal;
  // The face point at the step's start with these weights: the constraint n . (p - q - dt sum w v) >= 0.
  const Vec3 start = faceAtStart(face, q.weights);
  out.frame = frameAround(n);
  out.node = {face[0], face[1], face[2], -1};
  out.weight = {-q.weights[0], -q.weights[1], -q.weights[2], 0.0};
  // Sticking: the face point moves with the rigid vertex.
  out.cn = -n.dot(addRigidSide(rigidBody, vertex, 1.0, w, out) - start);
  out.mu = std::sqrt((*faces_)[d].mu * (*bodies_)[body].mu);
  return true;
}

bool DeformableContacts::linearize(int s, int body, const Eigen::VectorXd& v, double w, double reach,
                                   DeformableConstraint& out) const {
  const Body& rigid = (*bodies_)[body];
  const RigidAt rigidBody = rigidAt(body, v, w);
  const Vec3 linearizationPoint = nodeAt((*surface_)[s].node, v, w);
  const auto nearest = nearestRigidSurfacePoint(rigid.shape, rigidBody.pose, *meshes_, linearizationPoint, reach);
  if (!nearest) return false;
  const Vec3 n = nearest->normal;
  out.frame = frameAround(n);
  out.node = {(*surface_)[s].node, -1, -1, -1};
  out.weight = {1.0, 0.0, 0.0, 0.0};
  // n . (x_m + dt v_m - p_0 - dt u_p) >= 0 with p_0 where the surface point starts (the point itself
  // on an obstacle); n . (p_0 - x_m) = n . (x_w - x_m) - d less what the body moved by w.
  out.cn = n.dot(addRigidSide(rigidBody, nearest->point, -1.0, w, out) - position(s));
  // The rigid pairs' rule (contact_assembly.cpp): the geometric mean of the two coefficients.
  out.mu = std::sqrt((*surface_)[s].mu * rigid.mu);
  return true;
}

int DeformableContacts::addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) {
  int added = 0;
  const int before = problem.numConstraints();
  // Candidates not within reach at the start, and vertices that travel farther than their candidates
  // were found for (sec. 5.2's "vertex out of its extended box"), against every obstacle.
  for (int s = 0; s < static_cast<int>(surface_->size()); ++s) {
    const double travel = dt_ * v.segment<3>(3 * (*surface_)[s].node).norm() + kMargin;
    if (travel <= reach_[s] || !inScope(surfaceBody_[s])) continue;
    for (const int b : colliders_) {
      bool known = false;
      for (const Pair& pair : pairs_) known = known || (pair.surface == s && pair.body == b);
      DeformableConstraint c;
      if (known || !linearize(s, b, Eigen::VectorXd::Zero(v.size()), 0.0, travel + rigidReachOf(b), c)) continue;
      if (append({s, b, -1, -1}, c, problem)) ++added;
    }
    // Against the other deformable bodies' faces (and its own, with self-collision).
    for (int d = 0; d < static_cast<int>(faces_->size()); ++d) {
      if (d == surfaceBody_[s] && !(*faces_)[d].selfCollision) continue;
      bool known = false;
      for (const Pair& pair : pairs_) known = known || (pair.surface == s && !pair.againstRigid() && pair.deformable == d);
      DeformableConstraint c;
      if (known || !linearizeVertexFace(s, d, Eigen::VectorXd::Zero(v.size()), 0.0, travel + bodyReach_[d], c)) continue;
      if (append({.surface = s, .deformable = d}, c, problem)) ++added;
    }
    reach_[s] = travel;
  }
  // A coupled body that the solve speeds up beyond the reach its pairs were found for searches again
  // with the travel v gives it.
  std::vector<Pair> known;
  for (const int b : colliders_) {
    const int j = rigidIndex_[b];
    if (j < 0 || (scope_ && !scope_->coupled[j])) continue;
    const Body& body = (*bodies_)[b];
    const double speed = v.segment<3>(3 * linearNode(j)).norm() +
                         v.segment<3>(3 * angularNode(j)).norm() * boundingRadius(body.shape);
    const double travel = dt_ * speed + kMargin;
    if (travel <= rigidReach_[b]) continue;
    rigidReach_[b] = travel;
    if (known.empty()) {
      known = pairs_;
      std::sort(known.begin(), known.end());
    }
    added += addRigidBodyConstraints(b, known, problem);
  }
  if (added > 0) {
    std::vector<std::uint8_t> touched(problem.numNodes(), 0);
    for (int k = before; k < problem.numConstraints(); ++k) touchNodes(problem.constraints[k], touched);
    updateSimilarity(problem, &touched);
  }
  return added;
}

bool DeformableContacts::linearizePair(const Pair& pair, const Eigen::VectorXd& v, double w, double reach,
                                       DeformableConstraint& out) const {
  if (pair.rigidPair()) return false;  // the narrowphase's points hold for the step
  if (pair.rigidVertex >= 0) return linearizeRigidVertex(pair.body, pair.rigidVertex, pair.deformable, v, w, reach, out);
  if (pair.rigidEdge >= 0) return linearizeEdges(pair.body, pair.rigidEdge, pair.deformable, pair.edge, v, w, reach, out);
  if (pair.face >= 0 && pair.againstRigid()) return linearizeRoundFace(pair.body, pair.deformable, pair.face, v, w, reach, out);
  if (pair.againstRigid()) return linearize(pair.surface, pair.body, v, w, reach, out);
  if (pair.otherEdge >= 0)
    return linearizeDeformableEdges(pair.otherDeformable, pair.otherEdge, pair.deformable, pair.edge, v, w, reach, out);
  return linearizeVertexFace(pair.surface, pair.deformable, v, w, reach, out, pair.face);
}

int DeformableContacts::relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                                    DeformableProblem& problem) {
  using namespace deformable_contacts_impl;
  // Vertices against faces seek their nearest face with the nodes part of the way to x + dt v.
  const bool searchesFaces = std::any_of(pairs_.begin(), pairs_.end(), [](const Pair& p) {
    return p.rigidVertex >= 0 || (!p.againstRigid() && p.surface >= 0);
  });
  if (searchesFaces) {
    const Eigen::VectorXd move = dt_ * v;
    for (std::size_t d = 0; d < trees_.size(); ++d)
      if (inScope(static_cast<int>(d))) trees_[d].refitEdgesAndFaces(*positions_, move);
  }
  int changed = 0;
  std::vector<std::uint8_t> touched(problem.numNodes(), 0);
  std::vector<std::pair<int, DeformableConstraint>> creases;  // (pair, its other face's constraint)
  previous_.resize(pairs_.size());
  const int count = scope_ ? static_cast<int>(scope_->constraints.size()) : problem.numConstraints();
  for (int i = 0; i < count; ++i) {
    const int k = scope_ ? scope_->constraints[i] : i;
    const Pair& pair = pairs_[k];
    DeformableConstraint& current = problem.constraints[k];
    if (isRetired(current) || pair.rigidPair()) continue;
    const bool edgePair = pair.edge >= 0;
    const bool onRigid = pair.againstRigid() && pair.surface >= 0;  // a deformable vertex against the rigid surface
    double longestMove = 0.0;
    for (const int node : current.node)
      if (node >= 0) longestMove = std::max(longestMove, dt_ * v.segment<3>(3 * node).norm());
    for (const DeformableConstraint::RigidTerm& term : current.rigid)
      if (term.body >= 0)
        longestMove = std::max(longestMove, dt_ * (v.segment<3>(3 * problem.linearNode(term.body)).norm() +
                                                   v.segment<3>(3 * problem.angularNode(term.body)).norm() * term.arm.norm()));
    const double reach = longestMove + (onRigid ? reach_[pair.surface] : maxReach_) + (pair.againstRigid() ? rigidReach_[pair.body] : 0.0);
    // An inactive constraint is re-linearized only where the end of the step would violate it
    // there (Alg. 1, line 25: the state must be collision-free): a vertex that slides off the face
    // it was linearized on, over an edge, into the next face, still clears the first face's plane.
    const std::optional<double> endGap = gapAtEnd(pair, v, reach, problem);
    if (!active[k] && !(endGap && *endGap < -tolerance_)) continue;
    // An active one, where the end of the step holds it within epsilon_2 of touching (sec. 3.3:
    // "until, for each active constraint, 0 < C_k(x) < epsilon_2").
    if (active[k] && endGap && std::abs(*endGap) <= tolerance_) continue;
    // How far apart two linearizations of this pair are, in metres over the step's travel.
    const auto distance = [&](const DeformableConstraint& a, const DeformableConstraint& b) {
      double weightChange = 0.0;
      for (int i = 0; i < 4; ++i) weightChange += std::abs(a.weight[i] - b.weight[i]) + (a.node[i] != b.node[i]);
      for (int i = 0; i < 2; ++i) weightChange += (a.rigid[i].arm - b.rigid[i].arm).norm() / (1.0 + b.rigid[i].arm.norm());
      return std::abs(a.cn - b.cn) + (a.ct - b.ct).norm() + ((a.frame.col(0) - b.frame.col(0)).norm() + weightChange) * longestMove;
    };
    // Eq. 21: the linearization point moves towards the end position, by less where the normal
    // would turn by more than kMostNormalTurn.
    DeformableConstraint next, atEnd;
    bool found = false;
    for (double w = 1.0; w > 1.0 / 64.0; w *= 0.5) {
      next = DeformableConstraint{};  // the linearizations add to c_t and fill rigid terms
      if (!linearizePair(pair, v, w, reach, next)) {
        // Sec. 3.3: a contact point that slid off its edge leaves the system.
        if (edgePair && w == 1.0) {
          touchNodes(current, touched);
          retire(current);
          ++changed;
        }
        break;
      }
      if (w == 1.0) atEnd = next;
      found = next.frame.col(0).dot(current.frame.col(0)) >= std::cos(kMostNormalTurn);
      if (found) break;
    }
    // A vertex that goes round a sharp edge deep into the other body ends nearest a face whose
    // normal is more than kMostNormalTurn from its present one while, part of the way there, it is
    // still nearest the present face: the shorter moves give back the present linearization round
    // after round (a vertex ended 0.19 mm inside a bunny's ear). Ended deeper than kDeepAtEnd, the
    // pair takes the end's linearization however far its normal turns; for every violation the
    // 30 rings went up to 0.12 mm deep.
    const bool stalled = !found || distance(next, current) <= tolerance_;
    if (stalled && atEnd.node[0] >= 0 && endGap && *endGap < -kDeepAtEnd) {
      next = atEnd;
      found = true;
    }
    if (!found) continue;
    if (distance(next, current) <= tolerance_) continue;
    // A vertex in a crease of the other body (a valley between two of its faces): held on either
    // face's plane, it ends inside the body through the other face, and its one pair would switch
    // between the two faces round after round. It keeps its present face and gets a second
    // constraint on the other (a bunny's vertex in the fold of another's haunch ended 1 mm deep).
    const bool vertexOnFaces = pair.surface >= 0 && !pair.againstRigid() && pair.face < 0;
    if (vertexOnFaces && endGap && *endGap < -tolerance_ && previous_[k].node[0] >= 0 && sameFace(next, previous_[k]) &&
        !sameFace(next, current)) {
      creases.push_back({k, next});
      continue;
    }
    // Back to the linearization this one replaced: the solve with each gives the other (a vertex
    // sliding to and fro over the edge between two faces, an edge pair's normal turning back and
    // forth), a cycle that only the bound on geometry rounds ends. The pair keeps its present one.
    if (previous_[k].node[0] >= 0 && distance(next, previous_[k]) <= tolerance_) continue;
    next.mu = current.mu;
    touchNodes(current, touched);
    touchNodes(next, touched);
    previous_[k] = current;
    current = next;
    ++changed;
  }
  for (auto& [k, constraint] : creases) {
    const Pair& pair = pairs_[k];
    const auto& faces = (*faces_)[pair.deformable].faces;
    const auto face = std::find(faces.begin(), faces.end(), std::array<int, 3>{constraint.node[1], constraint.node[2], constraint.node[3]});
    const Pair second{.surface = pair.surface, .deformable = pair.deformable, .face = static_cast<int>(face - faces.begin())};
    if (face == faces.end() || std::find(pairs_.begin(), pairs_.end(), second) != pairs_.end()) continue;
    constraint.mu = problem.constraints[k].mu;
    touchNodes(constraint, touched);
    if (append(second, constraint, problem)) ++changed;
  }
  if (changed > 0) updateSimilarity(problem, &touched);
  return changed;
}

std::optional<double> DeformableContacts::gapAtEnd(const Pair& pair, const Eigen::VectorXd& v, double reach,
                                                  const DeformableProblem& problem) const {
  DeformableConstraint end;
  if (!linearizePair(pair, v, 1.0, reach, end)) return std::nullopt;
  return constraintRowsTimes(problem, end, v)[0] - end.cn;
}

bool DeformableContacts::append(const Pair& pair, const DeformableConstraint& c, DeformableProblem& problem) {
  if (scope_ && !inScope(pair)) {
    scope_->deferred.push_back({pair, c});
    return false;
  }
  if (scope_) scope_->constraints.push_back(problem.numConstraints());
  problem.constraints.push_back(c);
  pairs_.push_back(pair);
  return true;
}

void DeformableContacts::freezeReaches() {
  frozenReach_ = reach_;
  frozenRigidReach_ = rigidReach_;
}

double DeformableContacts::largestReach(std::initializer_list<int> nodes) const {
  double largest = 0.0;
  for (const int node : nodes) largest = std::max(largest, nodeReach_[node]);
  return largest;
}

double DeformableContacts::reachOf(int s) const {
  return scope_ && !scope_->deformable[surfaceBody_[s]] ? frozenReach_[s] : reach_[s];
}

double DeformableContacts::rigidReachOf(int body) const {
  const int j = rigidIndex_[body];
  return scope_ && j >= 0 && !scope_->coupled[j] ? frozenRigidReach_[body] : rigidReach_[body];
}

bool DeformableContacts::inScope(const Pair& pair) const {
  const auto rigidInScope = [&](int body) { return body < 0 || rigidIndex_[body] < 0 || scope_->coupled[rigidIndex_[body]]; };
  const auto deformableInScope = [&](int d) { return d < 0 || scope_->deformable[d]; };
  return (pair.surface < 0 || deformableInScope(surfaceBody_[pair.surface])) && deformableInScope(pair.deformable) &&
         deformableInScope(pair.otherDeformable) && rigidInScope(pair.body) && rigidInScope(pair.otherBody);
}

int DeformableContacts::appendDeferred(const std::vector<std::pair<Pair, DeformableConstraint>>& deferred,
                                       DeformableProblem& problem) {
  std::vector<Pair> known = pairs_;
  std::sort(known.begin(), known.end());
  const int before = problem.numConstraints();
  for (const auto& [pair, c] : deferred) {
    const auto at = std::lower_bound(known.begin(), known.end(), pair);
    if (at != known.end() && *at == pair) continue;
    known.insert(at, pair);
    problem.constraints.push_back(c);
    pairs_.push_back(pair);
  }
  if (problem.numConstraints() > before) {
    std::vector<std::uint8_t> touched(problem.numNodes(), 0);
    for (int k = before; k < problem.numConstraints(); ++k) touchNodes(problem.constraints[k], touched);
    updateSimilarity(problem, &touched);
  }
  return problem.numConstraints() - before;
}

void DeformableContacts::reorder(const std::vector<int>& order, DeformableProblem& problem) {
  previous_.resize(pairs_.size());
  std::vector<DeformableConstraint> constraints, previous;
  std::vector<Pair> pairs;
  for (const int k : order) {
    constraints.push_back(problem.constraints[k]);
    pairs.push_back(pairs_[k]);
    previous.push_back(previous_[k]);
  }
  problem.constraints = std::move(constraints);
  pairs_ = std::move(pairs);
  previous_ = std::move(previous);
}

std::pair<int, int> DeformableContacts::bodiesOf(const Pair& pair) const {
  int first = pair.body, second = pair.otherBody;
  if (!pair.rigidPair()) {
    // A deformable body stands for itself by -1 - its index.
    first = pair.againstRigid() ? pair.body : -1 - pair.deformable;
    second = -1 - (pair.surface >= 0 ? surfaceBody_[pair.surface] : pair.againstRigid() ? pair.deformable : pair.otherDeformable);
  }
  return {std::min(first, second), std::max(first, second)};
}

void DeformableContacts::touchNodes(const DeformableConstraint& c, std::vector<std::uint8_t>& touched) {
  for (const int node : c.node)
    if (node >= 0) touched[node] = 1;
}

void DeformableContacts::updateSimilarity(DeformableProblem& problem, const std::vector<std::uint8_t>* touched) const {
  // (node, constraint) for every node of every constraint, sorted: each node's constraints.
  std::vector<std::pair<int, int>> byNode;
  std::map<std::pair<int, int>, int> betweenBodies;  // constraints on a coupled body, per pair of bodies
  const auto onCoupled = [](const DeformableConstraint& c) { return c.rigid[0].body >= 0 || c.rigid[1].body >= 0; };
  // Under a scope, the island's constraints: all that share a node or a pair of bodies with them.
  std::vector<int> all;
  if (!scope_) {
    all.resize(problem.numConstraints());
    std::iota(all.begin(), all.end(), 0);
  }
  const std::vector<int>& constraints = scope_ ? scope_->constraints : all;
  for (const int k : constraints) {
    const DeformableConstraint& c = problem.constraints[k];
    for (const int node : c.node)
      if (node >= 0) byNode.push_back({node, k});
    if (onCoupled(c)) ++betweenBodies[bodiesOf(pairs_[k])];
  }
  std::sort(byNode.begin(), byNode.end());
  std::vector<int> others;
  for (const int a : constraints) {
    DeformableConstraint& c = problem.constraints[a];
    if (onCoupled(c)) {
      c.similarity = betweenBodies[bodiesOf(pairs_[a])];
      continue;
    }
    if (touched && std::none_of(c.node.begin(), c.node.end(), [&](int node) { return node >= 0 && (*touched)[node]; })) {
      if (isRetired(c)) c.similarity = 1.0;  // as the full update leaves it: no node, no neighbour
      continue;
    }
    others.clear();
    for (const int node : c.node) {
      if (node < 0) continue;
      for (auto at = std::lower_bound(byNode.begin(), byNode.end(), std::pair(node, -1));
           at != byNode.end() && at->first == node; ++at)
        if (at->second != a) others.push_back(at->second);
    }
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    double z = 1.0;
    for (const int b : others) {
      const DeformableConstraint& o = problem.constraints[b];
      double product = std::abs(c.frame.col(0).dot(o.frame.col(0)));
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          if (c.node[i] >= 0 && c.node[i] == o.node[j]) product *= 1.0 - std::min(1.0, std::abs(c.weight[i] - o.weight[j]));
      z += product;
    }
    c.similarity = z;
  }
}

}  // namespace contactlab
