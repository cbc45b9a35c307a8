#include "collision/contact_buffer.h"

#include <algorithm>
#include <cassert>
#include <tuple>

#include "collision/narrowphase.h"

namespace contactlab {

void ContactBuffer::add(const Vec3& witnessA, const Vec3& witnessB, const Vec3& normal, std::uint32_t feature) {
  const double gap = normal.dot(witnessB - witnessA);
  if (!(gap < margin_)) return;
  assert(count_ < kCapacity);
  points_[count_++] = ContactPoint{0.5 * (witnessA + witnessB), normal, gap, feature};
}

void ContactBuffer::finalizeInto(ContactManifold& out, bool flipNormals) {
  sortAndMerge();
  reduceToMaxPoints();
  for (int i = 0; i < count_; ++i) {
    ContactPoint contact = points_[i];
    if (flipNormals) contact.normal = -contact.normal;
    out.push_back(contact);
  }
  count_ = 0;
}

// A canonical order (as the PROX paper orders its contacts) makes the output independent of the
// order in which a pair happened to propose its points.
void ContactBuffer::sortAndMerge() {
  auto key = [](const ContactPoint& c) { return std::tuple(c.feature, c.point.x(), c.point.y(), c.point.z()); };
  std::sort(points_.begin(), points_.begin() + count_,
            [&](const ContactPoint& l, const ContactPoint& r) { return key(l) < key(r); });
  int kept = 0;
  for (int i = 0; i < count_; ++i) {
    const bool duplicate = std::any_of(points_.begin(), points_.begin() + kept, [&](const ContactPoint& k) {
      return (k.point - points_[i].point).norm() <= mergeDistance_;
    });
    if (!duplicate) points_[kept++] = points_[i];
  }
  count_ = kept;
}

// Keeps the deepest point (it carries the penetration), then the point farthest from it, then the
// two that add the most area to the support polygon, which best resists tipping. Ties go to the
// earlier point in the canonical order, so the choice is deterministic.
void ContactBuffer::reduceToMaxPoints() {
  if (count_ <= kMaxPointsPerPair) return;
  const Vec3 normal = points_[0].normal;
  std::array<bool, kCapacity> keep{};

  // Keeps the not yet kept point with the highest score (the first one on ties).
  auto pickBest = [&](auto score) {
    int best = -1;
    double bestScore = 0.0;
    for (int i = 0; i < count_; ++i) {
      if (keep[i]) continue;
      const double s = score(points_[i]);
      if (best < 0 || s > bestScore) best = i, bestScore = s;
    }
    keep[best] = true;
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

  int kept = 0;
  for (int i = 0; i < count_; ++i)
    if (keep[i]) points_[kept++] = points_[i];
  count_ = kept;
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
