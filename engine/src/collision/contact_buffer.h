#pragma once
// The scratch list one shape pair writes its candidate contacts into, before they are ordered,
// de-duplicated and reduced (finalizeInto).
#include <cstdint>
#include <vector>

#include "collision/contact_point.h"

namespace contactlab {

struct MeshPairFronts;

// How the second shape of a pair may move relative to the first before the next midpoint, to first
// order: a point x of the second moves by translationOfSecond + turnOfSecond x (x - c_second) -
// turnOfFirst x (x - c_first) relative to the first, c being the shapes' pose positions and turn
// dt w (world frame). pointMargin bounds the rest for a point moved by its own first-order
// displacement (the skin and the rotations' second-order terms). See ContactBuffer::relativeTravel.
struct RelativeTravel {
  Vec3 translationOfSecond = Vec3::Zero();
  Vec3 turnOfFirst = Vec3::Zero();
  Vec3 turnOfSecond = Vec3::Zero();
  double pointMargin = 0.0;
};

class ContactBuffer {
 public:
  // Primitive pairs propose at most 8 points (Sutherland-Hodgman clipping of a quad by four
  // planes); mesh pairs one per surface vertex in touch, so the storage grows. A buffer kept
  // from pair to pair (see collideShapes) stops allocating once it has seen the largest pair.
  ContactBuffer() = default;
  ContactBuffer(double margin, double mergeDistance) { reset(margin, mergeDistance); }
  // Empties the buffer for the next pair.
  void reset(double margin, double mergeDistance);

  double margin() const { return margin_; }

  // The pair's relative travel, if its caller knows it; after reset, none: no motion and the point
  // margin the margin. Two meshes propose only the vertices whose path comes within pointMargin of
  // the other shape (collideMeshMesh): a vertex within the margin but moving away or sideways
  // cannot touch before the next midpoint.
  void setRelativeTravel(const RelativeTravel& travel) { travel_ = travel; }
  const RelativeTravel& relativeTravel() const { return travel_; }

  // A lower bound of the distance between the two shapes' contact features that a pair found
  // while proposing no point (mesh pairs, collideMeshMesh); 0, the default after reset, when the
  // pair knows none. The contact generator keeps it to skip the pair while the bodies move less
  // than it allows (ContactGenerator::generate).
  void setSeparationBound(double bound) { separationBound_ = bound; }
  double separationBound() const { return separationBound_; }

  // A mesh pair's traversal fronts from the last step, if its caller keeps them (null after reset).
  void setMeshPairFronts(MeshPairFronts* fronts) { meshPairFronts_ = fronts; }
  MeshPairFronts* meshPairFronts() const { return meshPairFronts_; }
  int size() const { return static_cast<int>(points_.size()); }
  const ContactPoint& operator[](int i) const { return points_[i]; }

  // A contact between the witness points on the two surfaces, `normal` unit from A to B. The gap
  // is the signed distance between them along the normal; contacts at or beyond the margin are
  // dropped here, so pairs can propose points without testing the margin themselves.
  void add(const Vec3& witnessA, const Vec3& witnessB, const Vec3& normal, std::uint32_t feature);

  // Sorts by (feature, coordinates), drops points within mergeDistance of an earlier one, groups
  // the rest into at most `maxClusters` clusters of similar normals, keeps at most
  // maxClusters * kMaxPointsPerCluster shared evenly by the clusters made (the deepest first, then
  // those spanning the largest area, then the deepest) and
  // appends them to `out` in the sorted order, with normals flipped when the pair ran with its
  // arguments swapped. Primitive pairs have one normal and use one cluster; mesh pairs touch along
  // several faces at once (a jack's arms) and use kMaxMeshClusters, the most there can be.
  void finalizeInto(ContactManifold& out, bool flipNormals, int maxClusters = 1);

  static constexpr int kMaxPointsPerCluster = 4;
  static constexpr int kMaxMeshClusters = 3;

 private:
  void sortAndMerge();
  int clusterByNormal(int maxClusters);  // returns how many clusters it made
  void keepSupportPolygon(const std::vector<int>& cluster, int budget);

  std::vector<ContactPoint> points_;
  std::vector<int> cluster_;         // per point
  std::vector<std::uint8_t> keep_;   // per point
  std::vector<int> members_;         // scratch: one cluster's points
  std::vector<int> byDepth_;         // scratch: them, deepest first
  std::vector<int> representatives_; // scratch: the deepest of each patch of them
  double margin_ = 0.0;
  RelativeTravel travel_;
  double mergeDistance_ = 0.0;
  double separationBound_ = 0.0;
  MeshPairFronts* meshPairFronts_ = nullptr;
};

// Contact between two balls (a point is a ball of radius 0). When the centres coincide the
// direction is undefined and `fallbackNormal` (unit, A to B) is used.
void addBallContact(const Vec3& centreA, double radiusA, const Vec3& centreB, double radiusB,
                    const Vec3& fallbackNormal, std::uint32_t feature, ContactBuffer& buffer);

}  // namespace contactlab
