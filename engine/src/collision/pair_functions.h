#pragma once
// One function per unordered pair of shape kinds, each defined in its own file (sphere_box.cpp,
// ...). narrowphase.cpp dispatches to them and serves the reversed order by swapping arguments.
// Each proposes contacts to the buffer, normals from the first shape to the second.
#include "collision/contact_buffer.h"
#include "collision/mesh_model.h"
#include "contactlab/body.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

void collideSphereSphere(const SphereShape& a, const Pose& poseA, const SphereShape& b, const Pose& poseB,
                         ContactBuffer& buffer);
void collideSphereBox(const SphereShape& sphere, const Pose& spherePose, const BoxShape& box, const Pose& boxPose,
                      ContactBuffer& buffer);
void collideCapsuleSphere(const CapsuleShape& capsule, const Pose& capsulePose, const SphereShape& sphere,
                          const Pose& spherePose, ContactBuffer& buffer);
void collideCapsuleCapsule(const CapsuleShape& a, const Pose& poseA, const CapsuleShape& b, const Pose& poseB,
                           ContactBuffer& buffer);
void collideCapsuleBox(const CapsuleShape& capsule, const Pose& capsulePose, const BoxShape& box,
                       const Pose& boxPose, ContactBuffer& buffer);
void collideBoxBox(const BoxShape& a, const Pose& poseA, const BoxShape& b, const Pose& poseB,
                   ContactBuffer& buffer);
// Planes live in world coordinates; their pose is ignored.
void collidePlaneSphere(const PlaneShape& plane, const Pose& planePose, const SphereShape& sphere,
                        const Pose& spherePose, ContactBuffer& buffer);
void collidePlaneBox(const PlaneShape& plane, const Pose& planePose, const BoxShape& box, const Pose& boxPose,
                     ContactBuffer& buffer);
void collidePlaneCapsule(const PlaneShape& plane, const Pose& planePose, const CapsuleShape& capsule,
                         const Pose& capsulePose, ContactBuffer& buffer);
// Mesh pairs take the mesh's collision model (the World's MeshModelCache) in place of the shape.
void collideMeshMesh(const MeshCollisionModel& a, const Pose& poseA, const MeshCollisionModel& b, const Pose& poseB,
                     ContactBuffer& buffer);
void collideMeshBox(const MeshCollisionModel& mesh, const Pose& meshPose, const BoxShape& box, const Pose& boxPose,
                    ContactBuffer& buffer);
void collideMeshSphere(const MeshCollisionModel& mesh, const Pose& meshPose, const SphereShape& sphere,
                       const Pose& spherePose, ContactBuffer& buffer);
void collideMeshCapsule(const MeshCollisionModel& mesh, const Pose& meshPose, const CapsuleShape& capsule,
                        const Pose& capsulePose, ContactBuffer& buffer);
void collidePlaneMesh(const PlaneShape& plane, const Pose& planePose, const MeshCollisionModel& mesh,
                      const Pose& meshPose, ContactBuffer& buffer);

}  // namespace contactlab
