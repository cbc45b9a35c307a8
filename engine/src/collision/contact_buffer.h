#pragma once
// The scratch list one shape pair writes its candidate contacts into, before they are ordered,
// de-duplicated and reduced to kMaxPointsPerPair (finalizeContacts).
#include <array>
#include <cstdint>

#include "collision/contact_point.h"

namespace contactlab {

class ContactBuffer {
 public:
  // Sutherland-Hodgman clipping of a quad by four planes yields at most 8 vertices, the most any
  // pair produces before reduction.
  static constexpr int kCapacity = 8;

  ContactBuffer(double margin, double mergeDistance) : margin_(margin), mergeDistance_(mergeDistance) {}

  double margin() const { return margin_; }
  int size() const { return count_; }
  const ContactPoint& operator[](int i) const { return points_[i]; }

  // A contact between the witness points on the two surfaces, `normal` unit from A to B. The gap
  // is the signed distance between them along the normal; contacts at or beyond the margin are
  // dropped here, so pairs can propose points without testing the margin themselves.
  void add(const Vec3& witnessA, const Vec3& witnessB, const Vec3& normal, std::uint32_t feature);

  // Sorts by (feature, coordinates), drops points within mergeDistance of an earlier one, keeps at
  // most kMaxPointsPerPair (the deepest first, then those spanning the largest area) and appends
  // the rest to `out`, with normals flipped when the pair ran with its arguments swapped.
  void finalizeInto(ContactManifold& out, bool flipNormals);

 private:
  void sortAndMerge();
  void reduceToMaxPoints();

  std::array<ContactPoint, kCapacity> points_;
  int count_ = 0;
  double margin_;
  double mergeDistance_;
};

// Contact between two balls (a point is a ball of radius 0). When the centres coincide the
// direction is undefined and `fallbackNormal` (unit, A to B) is used.
void addBallContact(const Vec3& centreA, double radiusA, const Vec3& centreB, double radiusB,
                    const Vec3& fallbackNormal, std::uint32_t feature, ContactBuffer& buffer);

}  // namespace contactlab
