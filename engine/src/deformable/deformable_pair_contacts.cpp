// Constraints between two deformable bodies (deformable_contacts.h): vertex-face and edge-edge
// pairs over the whole step, both sides moving (Verschoor & Jalba Fig. 3, eqs. 6-7).
#include <algorithm>
#include <cmath>

#include "collision/segment_geometry.h"
#include "deformable/deformable_contacts.h"

namespace contactlab {

bool DeformableContacts::linearizeVertexFace(int s, int d, const Eigen::VectorXd& v, double w, double reach,
                                             DeformableConstraint& out, int face) const {
  const int m = (*surface_)[s].node;
  const Vec3 start = position(s);
  const Vec3 point = start + w * dt_ * v.segment<3>(3 * m);
  FacePoint q;
  if (face >= 0) {
    q = facePoint(d, face, point, v, w);
    if ((point - q.point).norm() > reach) return false;
  } else if (!nearestFace(d, point, v, w, reach, q, m)) {
    return false;
  }
  const auto& nodes = (*faces_)[d].faces[q.face];
  const Vec3 faceStart = faceAtStart(nodes, q.weights);
  // Within one body a vertex behind the face at the step's start is across the body from it (a
  // plate thinner than the reach), not in front of it: no constraint.
  if (d == surfaceBody_[s] && q.normal.dot(start - faceStart) < 0.0) return false;
  // n . (x_m + dt v_m - sum w_i (x_i + dt v_i)) >= 0 at the end of the step.
  out.frame = frameAround(q.normal);
  out.node = {m, nodes[0], nodes[1], nodes[2]};
  out.weight = {1.0, -q.weights[0], -q.weights[1], -q.weights[2]};
  out.cn = -q.normal.dot(start - faceStart);
  out.ct = Vec2::Zero();  // sticking: no relative tangential travel of the two surfaces
  out.mu = std::sqrt((*surface_)[s].mu * (*faces_)[d].mu);
  return true;
}

bool DeformableContacts::linearizeDeformableEdges(int d1, int e1, int d2, int e2, const Eigen::VectorXd& v, double w,
                                                  double reach, DeformableConstraint& out) const {
  const auto [i, j] = (*faces_)[d1].edges[e1];
  const auto [k, l] = (*faces_)[d2].edges[e2];
  EdgeCrossing crossing;
  if (!edgeCrossing(Segment{nodeAt(i, v, w), nodeAt(j, v, w)}, Segment{nodeAt(k, v, w), nodeAt(l, v, w)}, reach, crossing))
    return false;
  const double s = crossing.s, t = crossing.t;
  Vec3 n = crossing.normal;
  const auto startOf = [&](int a, int b, double u) {
    return Vec3((1.0 - u) * positions_->segment<3>(3 * a) + u * positions_->segment<3>(3 * b));
  };
  // From the second body towards the first. The step starts free of contact, so the two edge
  // points there tell the side apart; where they (nearly) touch, the surfaces' outward directions
  // do: outward of the second, inward of the first.
  const double side = n.dot(startOf(i, j, s) - startOf(k, l, t));
  if (std::abs(side) > tolerance_ ? side < 0.0 : n.dot(edgeOutward(d2, e2, v, w) - edgeOutward(d1, e1, v, w)) < 0.0) n = -n;
  out.frame = frameAround(n);
  out.node = {i, j, k, l};
  out.weight = {1.0 - s, s, -(1.0 - t), -t};
  out.cn = -n.dot(startOf(i, j, s) - startOf(k, l, t));
  out.ct = Vec2::Zero();
  out.mu = std::sqrt((*faces_)[d1].mu * (*faces_)[d2].mu);
  return true;
}

void DeformableContacts::addDeformablePairConstraints(DeformableProblem& problem) {
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(positions_->size());
  const int axisCount = static_cast<int>(kdopAxes(kdop_).size());
  const int bodies = static_cast<int>(faces_->size());
  std::vector<int> near;
  std::vector<std::pair<int, int>> edgePairs;
  for (int d1 = 0; d1 < bodies; ++d1)
    for (int d2 = 0; d2 < bodies; ++d2) {
      const bool self = d1 == d2;
      if (self && !(*faces_)[d1].selfCollision) continue;
      // d1's vertices, each inflated by its reach, against d2's faces inflated by theirs: the two
      // sides may close that gap from both ends.
      const Kdop faceReach = trees_[d2].faces().bounds().inflated(bodyReach_[d2], axisCount);
      if (!trees_[d1].vertices().bounds().overlaps(faceReach, axisCount)) continue;
      near.clear();
      trees_[d1].vertices().forEachOverlapping(faceReach, [&](int i) { near.push_back(i); });
      std::sort(near.begin(), near.end());
      for (const int i : near) {
        const int s = (*faces_)[d1].firstSurface + i;
        DeformableConstraint c;
        if (!linearizeVertexFace(s, d2, still, 0.0, reach_[s] + bodyReach_[d2], c)) continue;
        // Within the vertex's reach and the nearest face's own (c.cn: minus the distance at the start).
        if (-c.cn > reach_[s] + largestReach({c.node[1], c.node[2], c.node[3]})) continue;
        append({.surface = s, .deformable = d2}, c, problem);
      }
      if (d1 > d2) continue;  // edge pairs once per pair of bodies
      edgePairs.clear();
      const auto& edges = (*faces_)[d1].edges;
      forEachOverlappingPair(trees_[d1].edges(), trees_[d2].edges(), Pose{}, maxReach_, [&](int e1, int e2) {
        // Within one body, each pair once and not two edges sharing a node.
        if (self && (e1 >= e2 || edges[e1][0] == edges[e2][0] || edges[e1][0] == edges[e2][1] ||
                     edges[e1][1] == edges[e2][0] || edges[e1][1] == edges[e2][1]))
          return;
        edgePairs.push_back({e1, e2});
      });
      std::sort(edgePairs.begin(), edgePairs.end());
      for (const auto& [e1, e2] : edgePairs) {
        // Each edge may close by its own nodes' travel; the margin counted once, as for one vertex.
        // (The tree search above keeps only pairs whose boxes come within the scene's largest reach.)
        const auto [i, j] = edges[e1];
        const auto [k, l] = (*faces_)[d2].edges[e2];
        const double reach = largestReach({i, j}) + largestReach({k, l}) - kMargin;
        DeformableConstraint c;
        if (!linearizeDeformableEdges(d1, e1, d2, e2, still, 0.0, reach, c)) continue;
        append({.deformable = d2, .edge = e2, .otherDeformable = d1, .otherEdge = e1}, c, problem);
      }
    }
}

}  // namespace contactlab
