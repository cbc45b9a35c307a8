#include "collision/narrowphase.h"

#include <algorithm>
#include <array>

#include "collision/pair_functions.h"

namespace contactlab {

namespace {

using PairFunction = void (*)(const Shape&, const Pose&, const Shape&, const Pose&, const MeshModelCache*,
                              ContactBuffer&);

// Adapts a typed pair function of two primitives to the table's signature.
template <class A, class B, void (*collide)(const A&, const Pose&, const B&, const Pose&, ContactBuffer&)>
void unpack(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, const MeshModelCache*,
            ContactBuffer& buffer) {
  collide(std::get<A>(a), poseA, std::get<B>(b), poseB, buffer);
}

struct PairEntry {
  PairFunction collide = nullptr;  // null: the pair never touches (plane-plane)
  bool swapped = false;            // the function takes the shapes in the other order
  int clusters = 1;                // normal clusters the reduction keeps (ContactBuffer::finalizeInto)
};

constexpr int kKinds = static_cast<int>(ShapeKind::Count);
using PairTable = std::array<std::array<PairEntry, kKinds>, kKinds>;

constexpr PairTable makePairTable() {
  PairTable table{};
  auto set = [&](ShapeKind first, ShapeKind second, PairFunction collide) {
    table[static_cast<int>(first)][static_cast<int>(second)] = {collide, false};
    if (first != second) table[static_cast<int>(second)][static_cast<int>(first)] = {collide, true};
  };
  using K = ShapeKind;
  set(K::Sphere, K::Sphere, unpack<SphereShape, SphereShape, collideSphereSphere>);
  set(K::Sphere, K::Box, unpack<SphereShape, BoxShape, collideSphereBox>);
  set(K::Capsule, K::Sphere, unpack<CapsuleShape, SphereShape, collideCapsuleSphere>);
  set(K::Capsule, K::Capsule, unpack<CapsuleShape, CapsuleShape, collideCapsuleCapsule>);
  set(K::Capsule, K::Box, unpack<CapsuleShape, BoxShape, collideCapsuleBox>);
  set(K::Box, K::Box, unpack<BoxShape, BoxShape, collideBoxBox>);
  set(K::Plane, K::Sphere, unpack<PlaneShape, SphereShape, collidePlaneSphere>);
  set(K::Plane, K::Box, unpack<PlaneShape, BoxShape, collidePlaneBox>);
  set(K::Plane, K::Capsule, unpack<PlaneShape, CapsuleShape, collidePlaneCapsule>);
  return table;
}

constexpr PairTable kPairTable = makePairTable();

}  // namespace

void collideShapes(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                   const MeshModelCache* meshes, ContactManifold& out) {
  const PairEntry& entry = kPairTable[static_cast<int>(kindOf(a))][static_cast<int>(kindOf(b))];
  if (!entry.collide) return;
  // Points closer than this are one contact; relative to the larger shape so it scales with the scene.
  const double mergeDistance = 1e-6 * std::max(boundingRadius(a), boundingRadius(b));
  // One buffer per thread, kept from pair to pair so that mesh pairs stop allocating.
  thread_local ContactBuffer buffer;
  buffer.reset(margin, mergeDistance);
  if (entry.swapped) entry.collide(b, poseB, a, poseA, meshes, buffer);
  else entry.collide(a, poseA, b, poseB, meshes, buffer);
  buffer.finalizeInto(out, entry.swapped, entry.clusters);
}

}  // namespace contactlab
