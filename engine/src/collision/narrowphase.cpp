#include "collision/narrowphase.h"

#include <algorithm>
#include <array>
#include <stdexcept>

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

// A mesh's collision model from the World's cache (prepared for every mesh body before the
// narrowphase runs).
const MeshCollisionModel& meshModel(const Shape& shape, const MeshModelCache* meshes) {
  if (!meshes) throw std::logic_error("a mesh pair needs the World's mesh collision models (MeshModelCache)");
  return meshes->model(*std::get<MeshShape>(shape).geometry);
}

// Adapts pair functions that take meshes as collision models: mesh first, a primitive second ...
template <class B, void (*collide)(const MeshCollisionModel&, const Pose&, const B&, const Pose&, ContactBuffer&)>
void unpackMeshFirst(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, const MeshModelCache* meshes,
                     ContactBuffer& buffer) {
  collide(meshModel(a, meshes), poseA, std::get<B>(b), poseB, buffer);
}
// ... a primitive first, the mesh second ...
template <class A, void (*collide)(const A&, const Pose&, const MeshCollisionModel&, const Pose&, ContactBuffer&)>
void unpackMeshSecond(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                      const MeshModelCache* meshes, ContactBuffer& buffer) {
  collide(std::get<A>(a), poseA, meshModel(b, meshes), poseB, buffer);
}
// ... or two meshes.
void unpackMeshMesh(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, const MeshModelCache* meshes,
                    ContactBuffer& buffer) {
  collideMeshMesh(meshModel(a, meshes), poseA, meshModel(b, meshes), poseB, buffer);
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
  auto set = [&](ShapeKind first, ShapeKind second, PairFunction collide, int clusters = 1) {
    table[static_cast<int>(first)][static_cast<int>(second)] = {collide, false, clusters};
    if (first != second) table[static_cast<int>(second)][static_cast<int>(first)] = {collide, true, clusters};
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
  // A mesh touches along several faces at once (a jack's arms): its pairs keep several clusters.
  constexpr int kMesh = ContactBuffer::kMaxMeshClusters;
  set(K::Mesh, K::Mesh, unpackMeshMesh, kMesh);
  set(K::Mesh, K::Sphere, unpackMeshFirst<SphereShape, collideMeshSphere>, kMesh);
  set(K::Mesh, K::Box, unpackMeshFirst<BoxShape, collideMeshBox>, kMesh);
  set(K::Mesh, K::Capsule, unpackMeshFirst<CapsuleShape, collideMeshCapsule>, kMesh);
  set(K::Plane, K::Mesh, unpackMeshSecond<PlaneShape, collidePlaneMesh>, kMesh);
  return table;
}

constexpr PairTable kPairTable = makePairTable();

}  // namespace

double collideShapes(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                     const MeshModelCache* meshes, ContactManifold& out, MeshPairFronts* fronts,
                     const RelativeTravel* travel) {
  const PairEntry& entry = kPairTable[static_cast<int>(kindOf(a))][static_cast<int>(kindOf(b))];
  if (!entry.collide) return 0.0;
  // Points closer than this are one contact; relative to the larger shape so it scales with the scene.
  const double mergeDistance = 1e-6 * std::max(boundingRadius(a), boundingRadius(b));
  // One buffer per thread, kept from pair to pair so that mesh pairs stop allocating.
  thread_local ContactBuffer buffer;
  buffer.reset(margin, mergeDistance);
  buffer.setMeshPairFronts(fronts);
  // The pair function's second shape is a when it takes them swapped: then a moves by the opposite.
  if (travel)
    buffer.setRelativeTravel(entry.swapped ? RelativeTravel{-travel->translationOfSecond, travel->turnOfSecond,
                                                            travel->turnOfFirst, travel->pointMargin}
                                           : *travel);
  if (entry.swapped) entry.collide(b, poseB, a, poseA, meshes, buffer);
  else entry.collide(a, poseA, b, poseB, meshes, buffer);
  buffer.finalizeInto(out, entry.swapped, entry.clusters);
  return buffer.separationBound();
}

}  // namespace contactlab
