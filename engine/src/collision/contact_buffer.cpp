#include "collision/contact_buffer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

namespace contactlab {

void ContactBuffer::reset(double margin, double mergeDistance) {
  margin_ = margin;
  travel_ = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), margin};
  mergeDistance_ = mergeDistance;
  separationBound_ = 0.0;
  meshPairFronts_ = nullptr;
  points_.clear();
}

void ContactBuffer::add(const Vec3& witnessA, const Vec3& witnessB, const Vec3& normal, std::uint32_t feature) {
  const double gap = normal.dot(witnessB - witnessA);
  if (!(gap < margin_)) return;
  points_.push_back(ContactPoint{0.5 * (witnessA + witnessB), normal, gap, feature});
}

void ContactBuffer::finalizeInto(ContactManifold& out, bool flipNormals, int maxClusters) {
  sortAndMerge();
  const int clusters = clusterByNormal(maxClusters);
  keep_.assign(points_.size(), 0);
  // The pair's budget of maxClusters * kMaxPointsPerCluster points, shared by the clusters found:
  // a jack on the ground (one normal) keeps the lowest point of each arm end near the ground.
  const int budget = clusters > 0 ? maxClusters * kMaxPointsPerCluster / clusters : 0;
  for (int c = 0; c < clusters; ++c) {
    members_.clear();
    for (int i = 0; i < size(); ++i)
      if (cluster_[i] == c) members_.push_back(i);
    keepSupportPolygon(members_, budget);
  }
  for (int i = 0; i < size(); ++i) {
    if (!keep_[i]) continue;
    ContactPoint contact = points_[i];
    if (flipNormals) contact.normal = -contact.normal;
    out.push_back(contact);
  }
  points_.clear();
}

// A canonical order (as the PROX paper orders its contacts) makes the output independent of the
// order in which a pair happened to propose its points.
void ContactBuffer::sortAndMerge() {
  auto key = [](const ContactPoint& c) { return std::tuple(c.feature, c.point.x(), c.point.y(), c.point.z()); };
  std::sort(points_.begin(), points_.end(), [&](const ContactPoint& l, const ContactPoint& r) { return key(l) < key(r); });
  // Squared distances against the squared merge distance: no square root per pair of points (the
  // two comparisons can disagree only where rounding ties them).
  const double squaredMergeDistance = mergeDistance_ * mergeDistance_;
  size_t kept = 0;
  for (size_t i = 0; i < points_.size(); ++i) {
    const bool duplicate = std::any_of(points_.begin(), points_.begin() + kept, [&](const ContactPoint& k) {
      return (k.point - points_[i].point).squaredNorm() <= squaredMergeDistance;
    });
    if (!duplicate) points_[kept++] = points_[i];
  }
  points_.resize(kept);
}

// Greedy clustering: the deepest point not yet in a cluster starts one, which takes every free
// point whose normal lies within about 25 degrees of its own; once maxClusters exist, the points
// left join the cluster whose normal is nearest theirs. Ties go to the earlier point, so the result
// is deterministic. One cluster (every primitive pair) takes every point as it is.
int ContactBuffer::clusterByNormal(int maxClusters) {
  if (maxClusters <= 1) {
    cluster_.assign(points_.size(), 0);
    return points_.empty() ? 0 : 1;
  }
  constexpr double kSameDirection = 0.9;  // cosine of the largest angle between normals of a cluster
  cluster_.assign(points_.size(), -1);
  std::array<Vec3, kMaxMeshClusters> seedNormals;
  int clusters = 0;
  for (; clusters < std::min(maxClusters, kMaxMeshClusters); ++clusters) {
    int seed = -1;
    for (int i = 0; i < size(); ++i)
      if (cluster_[i] < 0 && (seed < 0 || points_[i].gap < points_[seed].gap)) seed = i;
    if (seed < 0) break;
    seedNormals[clusters] = points_[seed].normal;
    for (int i = 0; i < size(); ++i)
      if (cluster_[i] < 0 && points_[i].normal.dot(seedNormals[clusters]) >= kSameDirection) cluster_[i] = clusters;
    cluster_[seed] = clusters;
  }
  for (int i = 0; i < size(); ++i) {
    if (cluster_[i] >= 0) continue;
    int nearest = 0;
    for (int c = 1; c < clusters; ++c)
      if (points_[i].normal.dot(seedNormals[c]) > points_[i].normal.dot(seedNormals[nearest])) nearest = c;
    cluster_[i] = nearest;
  }
  return clusters;
}

// First each patch of nearby points (within a tenth of the cluster's extent: one end of a jack's
// arm) is represented by its deepest point, so that a rounded end touching the ground keeps its
// lowest vertex, not the one on its rim that spans the most area (which let the lowest sink
// unconstrained, step after step). Of the representatives, keeps the deepest point (it carries
// the penetration), then the point farthest from it, then the two that add the most area to the
// support polygon, which best resists tipping, then the deepest of the rest up to `budget`. Ties go
// to the earlier point in the canonical order, so the choice is deterministic.
void ContactBuffer::keepSupportPolygon(const std::vector<int>& cluster, int budget) {
  if (static_cast<int>(cluster.size()) <= budget) {
    for (int i : cluster) keep_[i] = 1;
    return;
  }
  // The largest squared distance between two points, each pair once.
  double squaredExtent = 0.0;
  for (size_t i = 0; i < cluster.size(); ++i)
    for (size_t j = i + 1; j < cluster.size(); ++j)
      squaredExtent = std::max(squaredExtent, (points_[cluster[i]].point - points_[cluster[j]].point).squaredNorm());
  // A tenth of the extent, squared: compared with squared distances, no square root per pair of
  // points (which can disagree with comparing the distances themselves only at rounding ties).
  const double squaredPatchRadius = 0.01 * squaredExtent;
  // Deepest first, ties in canonical order. A box pair's cluster has 5-8 points: there each
  // point goes to its rank, counted without branches (a stable sort; std::stable_sort's buffer
  // allocation per call, and then an insertion sort's mispredicted branches, showed in the wall's
  // profile); a mesh pair's may have hundreds.
  const auto deeper = [&](int l, int r) { return points_[l].gap < points_[r].gap; };
  constexpr size_t kRankSortUpTo = 16;
  if (cluster.size() > kRankSortUpTo) {
    byDepth_ = cluster;
    std::stable_sort(byDepth_.begin(), byDepth_.end(), deeper);
  } else {
    byDepth_.resize(cluster.size());
    for (size_t i = 0; i < cluster.size(); ++i) {
      size_t rank = 0;
      for (size_t j = 0; j < cluster.size(); ++j)
        rank += deeper(cluster[j], cluster[i]) || (j < i && !deeper(cluster[i], cluster[j]));
      byDepth_[rank] = cluster[i];
    }
  }
  std::vector<int>& members = representatives_;
  members.clear();
  for (int i : byDepth_)
    if (std::none_of(members.begin(), members.end(),
                     [&](int k) { return (points_[k].point - points_[i].point).squaredNorm() <= squaredPatchRadius; }))
      members.push_back(i);
  std::sort(members.begin(), members.end());  // back to the canonical order, for the tie-breaks
  if (static_cast<int>(members.size()) <= budget) {
    for (int i : members) keep_[i] = 1;
    return;
  }
  const Vec3 normal = points_[cluster.front()].normal;

  // Keeps the not yet kept member with the highest score (the first one on ties).
  auto pickBest = [&](auto score) {
    int best = -1;
    double bestScore = 0.0;
    for (int i : members) {
      if (keep_[i]) continue;
      const double s = score(points_[i]);
      if (best < 0 || s > bestScore) best = i, bestScore = s;
    }
    keep_[best] = 1;
    return points_[best].point;
  };
  auto areaAlongNormal = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
    return (b - a).cross(c - a).dot(normal);
  };

  const Vec3 p0 = pickBest([](const ContactPoint& c) { return -c.gap; });
  const Vec3 p1 = pickBest([&](const ContactPoint& c) { return (c.point - p0).squaredNorm(); });
  const Vec3 p2 = pickBest([&](const ContactPoint& c) { return std::abs(areaAlongNormal(p0, p1, c.point)); });
  // Orient the triangle counter-clockwise about the normal; a point outside an edge has negative
  // area with it, and the most negative edge area is what the point adds to the polygon.
  const double orientation = areaAlongNormal(p0, p1, p2) >= 0.0 ? 1.0 : -1.0;
  pickBest([&](const ContactPoint& c) {
    return -std::min({orientation * areaAlongNormal(p0, p1, c.point),
                      orientation * areaAlongNormal(p1, p2, c.point), orientation * areaAlongNormal(p2, p0, c.point)});
  });
  for (int kept = kMaxPointsPerCluster; kept < std::min<int>(budget, static_cast<int>(members.size())); ++kept)
    pickBest([](const ContactPoint& c) { return -c.gap; });
}

void addBallContact(const Vec3& centreA, double radiusA, const Vec3& centreB, double radiusB,
                    const Vec3& fallbackNormal, std::uint32_t feature, ContactBuffer& buffer) {
  const Vec3 offset = centreB - centreA;
  const double distance = offset.norm();
  // Below this the direction is numerical noise; the fallback keeps the normal meaningful.
  constexpr double kCoincident = 1e-12;
  const Vec3 normal = distance > kCoincident * (1.0 + radiusA + radiusB) ? Vec3(offset / distance) : fallbackNormal;
  buffer.add(centreA + radiusA * normal, centreB - radiusB * normal, normal, feature);
}

}  // namespace contactlab
