#include "deformable/deformable_contacts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/box_geometry.h"
#include "collision/segment_geometry.h"
#include "collision/triangle_geometry.h"
#include "deformable/rigid_surface_query.h"
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

// A box's 12 edges and a mesh's unique surface edges, world, at the body's pose.
std::vector<Segment> rigidEdges(const Body& body) {
  std::vector<Segment> edges;
  const Pose pose{body.position, body.rotation()};
  if (const auto* box = std::get_if<BoxShape>(&body.shape))
    for (int i = 0; i < 8; ++i)
      for (int axis = 0; axis < 3; ++axis)
        if (!(i & (1 << axis))) edges.push_back({boxVertex(*box, pose, i), boxVertex(*box, pose, i | (1 << axis))});
  if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) {
    const TriangleMesh& surface = mesh->geometry->surface;
    for (const auto& t : surface.triangles)
      for (int e = 0; e < 3; ++e) {
        const int a = t[e], b = t[(e + 1) % 3];
        if (a < b)  // each edge of a closed, consistently oriented surface once
          edges.push_back({pose.position + pose.rotation * surface.vertices[a], pose.position + pose.rotation * surface.vertices[b]});
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

// An axis-aligned box as a kDOP over any axes: its three slabs, the others unbounded.
Kdop boxKdop(const Aabb& box) {
  Kdop kdop;
  kdop.lower.fill(-std::numeric_limits<double>::infinity());
  kdop.upper.fill(std::numeric_limits<double>::infinity());
  for (int i = 0; i < 3; ++i) kdop.lower[i] = box.lower[i], kdop.upper[i] = box.upper[i];
  return kdop;
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
                                    const MeshModelCache& meshes, const std::vector<SurfaceNode>& surface,
                                    const std::vector<SurfaceFaces>& faces, const Eigen::VectorXd& positions,
                                    const Eigen::VectorXd& velocities, const Vec3& gravity,
                                    DeformableProblem& problem) {
  bodies_ = &bodies;
  meshes_ = &meshes;
  obstacles_ = &obstacles;
  surface_ = &surface;
  faces_ = &faces;
  positions_ = &positions;
  // The obstacles' vertices and edges at their end-of-step poses, once for the step's searches and
  // re-linearizations.
  rigidVertices_.assign(bodies.size(), {});
  rigidEdges_.assign(bodies.size(), {});
  for (const int b : obstacles) {
    rigidVertices_[b] = deformable_contacts_impl::rigidVertices(bodies[b]);
    rigidEdges_[b] = deformable_contacts_impl::rigidEdges(bodies[b]);
  }
  dt_ = problem.dt;
  if (trees_.size() != faces.size()) buildSurfaceTrees();
  candidates_.clear();
  pairs_.clear();
  reach_.resize(surface.size());
  surfaceBody_.resize(surface.size());
  for (std::size_t d = 0; d < faces.size(); ++d)
    std::fill_n(surfaceBody_.begin() + faces[d].firstSurface, faces[d].numSurface, static_cast<int>(d));
  for (std::size_t s = 0; s < surface.size(); ++s) {
    // Sec. 5.1 extends a face's box by 3 dt v; gravity's pull over the step is part of the travel.
    const double travel = dt_ * (velocities.segment<3>(3 * surface[s].node).norm() + gravity.norm() * dt_);
    reach_[s] = 3.0 * travel + kMargin;
  }
  fitSurfaceTrees();
  for (const int b : obstacles) {
    const Body& body = bodies[b];
    const Aabb box = shapeAabb(body.shape, {body.position, body.rotation()});
    std::vector<int> near;
    for (int d = 0; d < static_cast<int>(faces.size()); ++d)
      trees_[d].vertices().forEachOverlapping(deformable_contacts_impl::boxKdop(box), [&](int i) {
        const int s = faces[d].firstSurface + i;
        if (box.inflated(reach_[s]).contains(position(s))) near.push_back(s);
      });
    std::sort(near.begin(), near.end());  // in surface order, whatever the trees' shapes
    for (const int s : near) candidates_.push_back({s, b, false});
  }
  // A constraint for every candidate within its reach: the solve activates those the step closes.
  for (Candidate& candidate : candidates_) {
    DeformableConstraint c;
    if (!linearize(candidate.surface, candidate.body, position(candidate.surface), reach_[candidate.surface], c)) continue;
    candidate.constrained = true;
    addConstraint(candidate.surface, candidate.body, c, problem);
  }
  maxReach_ = kMargin;
  for (const double r : reach_) maxReach_ = std::max(maxReach_, r);
  bodyReach_.assign(faces.size(), kMargin);
  for (std::size_t d = 0; d < faces.size(); ++d)
    for (int i = 0; i < faces[d].numSurface; ++i) bodyReach_[d] = std::max(bodyReach_[d], reach_[faces[d].firstSurface + i]);
  addRigidVertexConstraints(problem);
  addEdgeConstraints(problem);
  addDeformablePairConstraints(problem);
  updateSimilarity(problem);
}

void DeformableContacts::addEdgeConstraints(DeformableProblem& problem) {
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(positions_->size());
  const std::span<const Vec3> axes = kdopAxes(kdop_);
  std::vector<int> near;
  for (const int b : *obstacles_) {
    const std::vector<Segment>& edges = rigidEdges_[b];
    for (int d = 0; d < static_cast<int>(faces_->size()); ++d) {
      for (int r = 0; r < static_cast<int>(edges.size()); ++r) {
        const std::array<Vec3, 2> ends{edges[r].start, edges[r].end};
        near.clear();
        trees_[d].edges().forEachOverlapping(kdopOfPoints(axes, ends).inflated(maxReach_, static_cast<int>(axes.size())),
                                             [&](int e) { near.push_back(e); });
        std::sort(near.begin(), near.end());
        for (const int e : near) {
          DeformableConstraint c;
          if (!linearizeEdges(b, edges[r], d, e, still, 0.0, maxReach_, c)) continue;
          problem.constraints.push_back(c);
          pairs_.push_back({-1, b, -1, d, r, e});
        }
      }
    }
  }
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

bool DeformableContacts::linearizeEdges(int body, const Segment& rigid, int d, int e, const Eigen::VectorXd& v,
                                             double w, double reach, DeformableConstraint& out) const {
  using namespace deformable_contacts_impl;
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  const auto [i, j] = (*faces_)[d].edges[e];
  EdgeCrossing crossing;
  if (!edgeCrossing(rigid, Segment{at(i), at(j)}, reach, crossing)) return false;
  const auto [s, t, p, unsignedNormal] = crossing;
  Vec3 n = unsignedNormal;
  // Outward of the deformable surface: along the sum of the two faces' normals at the edge.
  if (n.dot(edgeOutward(d, e, v, w)) < 0.0) n = -n;
  // The edge point at the step's start with this parameter: n . (p - q - dt ((1 - t) v_i + t v_j)) >= 0.
  const Vec3 start = (1.0 - t) * positions_->segment<3>(3 * i) + t * positions_->segment<3>(3 * j);
  out.frame = frameAround(n);
  out.node = {i, j, -1, -1};
  out.weight = {-(1.0 - t), -t, 0.0, 0.0};
  out.cn = -n.dot(p - start);
  const Vec3 travel = dt_ * rigidPointVelocity((*bodies_)[body], p);
  out.ct = -Vec2(out.frame.col(1).dot(travel), out.frame.col(2).dot(travel));
  out.mu = std::sqrt((*faces_)[d].mu * (*bodies_)[body].mu);
  return true;
}

void DeformableContacts::addRigidVertexConstraints(DeformableProblem& problem) {
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(positions_->size());
  for (const int b : *obstacles_) {
    const std::vector<Vec3>& vertices = rigidVertices_[b];
    for (int d = 0; d < static_cast<int>(faces_->size()); ++d) {
      for (int i = 0; i < static_cast<int>(vertices.size()); ++i) {
        DeformableConstraint c;
        if (!linearizeRigidVertex(b, vertices[i], d, still, 0.0, maxReach_, c)) continue;
        problem.constraints.push_back(c);
        pairs_.push_back({-1, b, i, d});
      }
    }
  }
}

bool DeformableContacts::nearestFace(int d, const Vec3& point, const Eigen::VectorXd& v, double w, double reach,
                                     FacePoint& out) const {
  using namespace deformable_contacts_impl;
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  const auto& faces = (*faces_)[d].faces;
  const KdopTree::Nearest nearest = trees_[d].faces().nearest(point, reach, [&](int f, double) {
    return (point - closestPointOnTriangle(point, at(faces[f][0]), at(faces[f][1]), at(faces[f][2])).point).norm();
  });
  if (nearest.primitive < 0) return false;
  const auto& face = faces[nearest.primitive];
  const Vec3 a = at(face[0]), b = at(face[1]), c = at(face[2]);
  const TrianglePoint q = closestPointOnTriangle(point, a, b, c);
  const Vec3 faceNormal = (b - a).cross(c - a).normalized();
  const Vec3 away = point - q.point;
  out.face = nearest.primitive;
  out.point = q.point;
  out.weights = barycentric(q.point, a, b, c);
  out.normal = !q.interior && away.dot(faceNormal) > 0.0 && away.norm() > 0.0 ? Vec3(away.normalized()) : faceNormal;
  return true;
}

Vec3 DeformableContacts::edgeOutward(int d, int e, const Eigen::VectorXd& v, double w) const {
  const auto at = [&](int node) { return nodeAt(node, v, w); };
  Vec3 outward = Vec3::Zero();
  for (const int f : (*faces_)[d].edgeFaces[e]) {
    if (f < 0) continue;
    const auto& face = (*faces_)[d].faces[f];
    outward += (at(face[1]) - at(face[0])).cross(at(face[2]) - at(face[0])).normalized();
  }
  return outward;
}

bool DeformableContacts::linearizeRigidVertex(int body, const Vec3& vertex, int d, const Eigen::VectorXd& v,
                                              double w, double reach, DeformableConstraint& out) const {
  using namespace deformable_contacts_impl;
  FacePoint q;
  if (!nearestFace(d, vertex, v, w, reach, q)) return false;
  const auto& face = (*faces_)[d].faces[q.face];
  const Vec3& n = q.normal;
  // The face point at the step's start with these weights: the constraint n . (p - q - dt sum w v) >= 0.
  const Vec3 start = q.weights[0] * positions_->segment<3>(3 * face[0]) + q.weights[1] * positions_->segment<3>(3 * face[1]) +
                     q.weights[2] * positions_->segment<3>(3 * face[2]);
  out.frame = frameAround(n);
  out.node = {face[0], face[1], face[2], -1};
  out.weight = {-q.weights[0], -q.weights[1], -q.weights[2], 0.0};
  out.cn = -n.dot(vertex - start);
  // Sticking: the face point moves with the rigid vertex, -dt (t . sum w v) = -dt (t . u).
  const Vec3 travel = dt_ * rigidPointVelocity((*bodies_)[body], vertex);
  out.ct = -Vec2(out.frame.col(1).dot(travel), out.frame.col(2).dot(travel));
  out.mu = std::sqrt((*faces_)[d].mu * (*bodies_)[body].mu);
  return true;
}

bool DeformableContacts::linearize(int s, int body, const Vec3& linearizationPoint, double reach,
                                        DeformableConstraint& out) const {
  const Body& rigid = (*bodies_)[body];
  const auto nearest = nearestRigidSurfacePoint(rigid, *meshes_, linearizationPoint, reach);
  if (!nearest) return false;
  const Vec3 n = nearest->normal;
  out.frame = frameAround(n);
  out.node = {(*surface_)[s].node, -1, -1, -1};
  out.weight = {1.0, 0.0, 0.0, 0.0};
  out.cn = n.dot(linearizationPoint - position(s)) - nearest->distance;
  const Vec3 travel = dt_ * rigidPointVelocity(rigid, nearest->point);
  out.ct = Vec2(out.frame.col(1).dot(travel), out.frame.col(2).dot(travel));
  // The rigid pairs' rule (contact_assembly.cpp): the geometric mean of the two coefficients.
  out.mu = std::sqrt((*surface_)[s].mu * rigid.mu);
  return true;
}

void DeformableContacts::addConstraint(int s, int body, const DeformableConstraint& c, DeformableProblem& problem) {
  problem.constraints.push_back(c);
  pairs_.push_back({s, body, -1, -1});
}

int DeformableContacts::addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) {
  int added = 0;
  // Candidates not within reach at the start, and vertices that travel farther than their candidates
  // were found for (sec. 5.2's "vertex out of its extended box"), against every obstacle.
  for (int s = 0; s < static_cast<int>(surface_->size()); ++s) {
    const double travel = dt_ * v.segment<3>(3 * (*surface_)[s].node).norm() + kMargin;
    if (travel <= reach_[s]) continue;
    for (const int b : *obstacles_) {
      bool known = false;
      for (const Pair& pair : pairs_) known = known || (pair.surface == s && pair.body == b);
      DeformableConstraint c;
      if (known || !linearize(s, b, position(s), travel, c)) continue;
      addConstraint(s, b, c, problem);
      ++added;
    }
    // Against the other deformable bodies' faces.
    for (int d = 0; d < static_cast<int>(faces_->size()); ++d) {
      if (d == surfaceBody_[s]) continue;
      bool known = false;
      for (const Pair& pair : pairs_) known = known || (pair.surface == s && !pair.againstRigid() && pair.deformable == d);
      DeformableConstraint c;
      if (known || !linearizeVertexFace(s, d, Eigen::VectorXd::Zero(v.size()), 0.0, travel + bodyReach_[d], c)) continue;
      problem.constraints.push_back(c);
      pairs_.push_back({.surface = s, .deformable = d});
      ++added;
    }
    reach_[s] = travel;
  }
  if (added > 0) updateSimilarity(problem);
  return added;
}

bool DeformableContacts::linearizePair(const Pair& pair, const Eigen::VectorXd& v, double w, double reach,
                                       DeformableConstraint& out) const {
  if (pair.rigidVertex >= 0)
    return linearizeRigidVertex(pair.body, rigidVertices_[pair.body][pair.rigidVertex], pair.deformable, v, w, reach, out);
  if (pair.rigidEdge >= 0)
    return linearizeEdges(pair.body, rigidEdges_[pair.body][pair.rigidEdge], pair.deformable, pair.edge, v, w, reach, out);
  if (pair.againstRigid())
    return linearize(pair.surface, pair.body,
                     position(pair.surface) + w * dt_ * v.segment<3>(3 * (*surface_)[pair.surface].node), reach, out);
  if (pair.otherEdge >= 0)
    return linearizeDeformableEdges(pair.otherDeformable, pair.otherEdge, pair.deformable, pair.edge, v, w, reach, out);
  return linearizeVertexFace(pair.surface, pair.deformable, v, w, reach, out);
}

int DeformableContacts::relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                                    DeformableProblem& problem) {
  // Vertices against faces seek their nearest face with the nodes part of the way to x + dt v.
  const bool searchesFaces = std::any_of(pairs_.begin(), pairs_.end(), [](const Pair& p) {
    return p.rigidVertex >= 0 || (!p.againstRigid() && p.surface >= 0);
  });
  if (searchesFaces) {
    const Eigen::VectorXd move = dt_ * v;
    for (SurfaceTrees& trees : trees_) trees.refitEdgesAndFaces(*positions_, move);
  }
  int changed = 0;
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const Pair& pair = pairs_[k];
    DeformableConstraint& current = problem.constraints[k];
    if (isRetired(current)) continue;
    // An inactive constraint is re-linearized only where the end of the step would violate it
    // there (Alg. 1, line 25: the state must be collision-free): a vertex that slides off the face
    // it was linearized on, over an edge, into the next face, still clears the first face's plane.
    if (!active[k] && !violatedAtEnd(pair, v)) continue;
    const bool edgePair = pair.edge >= 0;
    const bool onRigid = pair.againstRigid() && pair.surface >= 0;  // a deformable vertex against the rigid surface
    double longestMove = 0.0;
    for (const int node : current.node)
      if (node >= 0) longestMove = std::max(longestMove, dt_ * v.segment<3>(3 * node).norm());
    const double reach = longestMove + (onRigid ? reach_[pair.surface] : maxReach_);
    // Eq. 21: the linearization point moves towards the end position, by less where the normal
    // would turn by more than kMostNormalTurn.
    DeformableConstraint next;
    bool found = false;
    for (double w = 1.0; w > 1.0 / 64.0; w *= 0.5) {
      if (!linearizePair(pair, v, w, reach, next)) {
        // Sec. 3.3: a contact point that slid off its edge leaves the system.
        if (edgePair && w == 1.0) {
          current.node = {-1, -1, -1, -1};
          ++changed;
        }
        break;
      }
      found = next.frame.col(0).dot(current.frame.col(0)) >= std::cos(kMostNormalTurn);
      if (found) break;
    }
    if (!found) continue;
    double weightChange = 0.0;
    for (int i = 0; i < 4; ++i) weightChange += std::abs(next.weight[i] - current.weight[i]) + (next.node[i] != current.node[i]);
    const double change = std::abs(next.cn - current.cn) + (next.ct - current.ct).norm() +
                          ((next.frame.col(0) - current.frame.col(0)).norm() + weightChange) * longestMove;
    if (change <= tolerance_) continue;
    next.mu = current.mu;
    current = next;
    ++changed;
  }
  if (changed > 0) updateSimilarity(problem);
  return changed;
}

bool DeformableContacts::violatedAtEnd(const Pair& pair, const Eigen::VectorXd& v) const {
  DeformableConstraint end;
  if (!linearizePair(pair, v, 1.0, kMargin, end)) return false;
  double rows = 0.0;
  for (int i = 0; i < 4; ++i)
    if (end.node[i] >= 0) rows += dt_ * end.weight[i] * end.frame.col(0).dot(v.segment<3>(3 * end.node[i]));
  return rows - end.cn < -tolerance_;
}

void DeformableContacts::updateSimilarity(DeformableProblem& problem) {
  // Each node's constraints, with the node's weight in them.
  std::vector<std::vector<std::pair<int, double>>> byNode(problem.numNodes());
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const DeformableConstraint& c = problem.constraints[k];
    for (int i = 0; i < 4; ++i)
      if (c.node[i] >= 0) byNode[c.node[i]].push_back({k, c.weight[i]});
  }
  std::vector<int> others;
  for (int a = 0; a < problem.numConstraints(); ++a) {
    DeformableConstraint& c = problem.constraints[a];
    others.clear();
    for (const int node : c.node)
      if (node >= 0)
        for (const auto& [b, weight] : byNode[node])
          if (b != a) others.push_back(b);
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
