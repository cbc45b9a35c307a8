#pragma once
// Bodies: shapes, motion types, the description a scene gives, and the runtime body the world steps.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "contactlab/math.h"
#include "contactlab/mesh.h"

namespace contactlab {

struct SphereShape {
  double radius = 0.5;
};
struct BoxShape {
  Vec3 halfExtents{0.5, 0.5, 0.5};  // half of the scene file's full "size"
};
struct CapsuleShape {
  double radius = 0.25;
  double halfLength = 0.5;  // half the length of the axis segment, which lies along body z
};
// Static half-space {x : normal . x <= offset}; its surface is the plane normal . x = offset.
struct PlaneShape {
  Vec3 normal{0, 0, 1};
  double offset = 0.0;
};
// A closed triangle mesh in its principal frame (MeshShape, mesh.h). The narrowphase dispatches on
// the variant index, so ShapeKind follows the variant's order.
using Shape = std::variant<SphereShape, BoxShape, CapsuleShape, PlaneShape, MeshShape>;

enum class ShapeKind { Sphere = 0, Box, Capsule, Plane, Mesh, Count };
inline ShapeKind kindOf(const Shape& s) { return static_cast<ShapeKind>(s.index()); }
const char* shapeKindName(ShapeKind kind);

enum class MotionType { Dynamic, Static, Kinematic };

// A kinematic body's linear velocity from `time` on, until the next entry (piecewise constant).
struct VelocityKey {
  double time = 0.0;
  Vec3 velocity = Vec3::Zero();
};

// Per-body material; unset fields fall back to the scene's friction defaults.
struct MaterialOverride {
  std::optional<double> mu;
  std::optional<double> muTorsion;  // metres: largest torsional impulse is mu_torsion * lambda_n
  std::optional<double> restitution;
  std::optional<double> muRolling;  // metres: largest rolling-resistance angular impulse is mu_rolling * lambda_n
};

// A body made deformable: its shape is tetrahedralized and simulated by FEM (Verschoor & Jalba 2019,
// sec. 2.1-2.2; docs/deformable.md). Density, friction, position, orientation and velocities keep
// their rigid meaning; the motion type must be dynamic.
enum class DeformableModel { Corotational, NeoHookean };
const char* deformableModelName(DeformableModel model);
struct DeformableDesc {
  DeformableModel model = DeformableModel::Corotational;
  double youngsModulus = 5e5;  // Pa, > 0
  double poissonRatio = 0.2;   // in (-1, 0.5)
  double dampingMass = 0.0;       // Rayleigh alpha (1/s): C = alpha M + beta K
  double dampingStiffness = 0.0;  // Rayleigh beta (s)
  // Largest tetrahedron volume (m^3); unset: the solid's volume / 150 (a few hundred tetrahedra).
  std::optional<double> maxTetVolume;
  // Nodes that start inside this world box are held in place (fixtures); unset: none.
  struct Box {
    Vec3 min = Vec3::Zero();
    Vec3 max = Vec3::Zero();
  };
  std::optional<Box> pinned;
  // Surface vertices and edges of this body against its own faces and edges, away from their own
  // (a ring squeezed flat, a sheet folding over): off by default, as it searches the body against
  // itself every step.
  bool selfCollision = false;
  // A saved state (scene key "nodes", written by --state-out and the app's save): every node's
  // position and velocity, world frame, in the order of the body's tetrahedralization; empty: the
  // rest shape at the body's pose and velocities. Position and orientation then say where the body
  // was made, not where it is.
  std::vector<Vec3> nodePositions;
  std::vector<Vec3> nodeVelocities;
};

// What a scene says about one body. position is the centre of mass; velocities are world frame.
struct BodyDesc {
  std::string name;
  Shape shape;
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  std::optional<double> density;  // kg/m^3; default 1000 when neither density nor mass is given
  std::optional<double> mass;     // kg; replaces density
  MaterialOverride material;
  MotionType motion = MotionType::Dynamic;
  std::vector<VelocityKey> velocitySchedule;  // kinematic bodies only
  std::optional<DeformableDesc> deformable;   // set: an FEM body (dynamic only)
};

// The runtime body. Static and kinematic bodies have zero inverse mass and inverse inertia.
struct Body {
  std::string name;
  Shape shape;
  MotionType motion = MotionType::Dynamic;

  Vec3 position = Vec3::Zero();         // centre of mass, world
  Quat orientation = Quat::Identity();  // body -> world
  Vec3 velocity = Vec3::Zero();         // world
  Vec3 angularVelocity = Vec3::Zero();  // world

  double mass = 0.0;
  double invMass = 0.0;
  Vec3 inertiaBody = Vec3::Zero();     // principal moments in the body frame (shapes are axis aligned there)
  Vec3 invInertiaBody = Vec3::Zero();  // zero for static and kinematic bodies

  double mu = 0.75;
  double muTorsion = 0.01;
  double restitution = 0.0;
  double muRolling = 0.001;
  // A dynamic body of a sleeping island (WorldSettings::sleep): at rest, not simulated until woken.
  bool asleep = false;
  // >= 0: a deformable (FEM) body, the World's deformable body of that index. Its pose and velocities
  // summarize its nodes after each step; the rigid pipeline treats it as a static body that touches
  // nothing (its motion is Static there), and the deformable stages move and collide it.
  int deformable = -1;
  // A dynamic rigid body that this step shares an island with a deformable body (World::step decides
  // at the step's start): the deformable stages solve and move it with that island, in one system
  // (docs/deformable.md, "Rigid bodies in the same solve"); the rigid pipeline leaves it alone.
  bool coupled = false;

  std::vector<VelocityKey> velocitySchedule;
  // Density or mass as the scene gave them, kept so a saved state round-trips.
  std::optional<double> sceneDensity;
  std::optional<double> sceneMass;
  MaterialOverride sceneMaterial;

  bool isDynamic() const { return motion == MotionType::Dynamic; }
  bool isDeformable() const { return deformable >= 0; }
  // Whether the rigid pipeline steps this body: dynamic, awake and not coupled to a deformable one.
  bool rigidStepped() const { return isDynamic() && !asleep && !coupled; }
  Mat3 rotation() const { return orientation.toRotationMatrix(); }
  // I_WF^-1 = R I_BF^-1 R^T (paper eq. 58).
  Mat3 invInertiaWorld() const {
    const Mat3 r = rotation();
    return r * invInertiaBody.asDiagonal() * r.transpose();
  }
  Mat3 inertiaWorld() const {
    const Mat3 r = rotation();
    return r * inertiaBody.asDiagonal() * r.transpose();
  }
};

}  // namespace contactlab
