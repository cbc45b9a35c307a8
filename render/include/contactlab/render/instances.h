#pragma once
// Per-frame instance data for the instanced draws: one unit mesh per kind, one model matrix and
// colour per instance. GL-free so it can be tested; the renderer uploads it as it is.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "contactlab/body.h"
#include "contactlab/debug_draw.h"

namespace contactlab::render {

// Unit meshes: a cube [-1,1]^3, a sphere of radius 1, an open cylinder of radius 1 along z in
// [-1,1] (capsule sides, with spheres as the ends), a quad [-1,1]^2 at z=0 facing +z (planes), and
// a sphere of radius 1 with a quarter of the triangles for spheres that cover few pixels.
enum class MeshKind { Box = 0, Sphere, Cylinder, Quad, SmallSphere, Count };
inline constexpr int kMeshKindCount = static_cast<int>(MeshKind::Count);

// How body.frag shades a surface.
enum class SurfaceStyle { Dynamic = 0, Selected = 1, Static = 2 };

struct Instance {
  std::array<float, 16> model;  // column-major, unit mesh -> world
  std::array<float, 4> color;   // sRGB, alpha 1
  float style;                  // a SurfaceStyle
};
static_assert(sizeof(Instance) == 21 * sizeof(float), "uploaded to GL as tightly packed floats");

// The bodies made of one MeshGeometry: drawn with that geometry's own triangles, placed by the
// body's pose (no scaling: the geometry is already in the body frame).
struct GeometryInstances {
  std::shared_ptr<const MeshGeometry> geometry;
  std::vector<Instance> instances;
};

struct InstanceBatches {
  std::array<std::vector<Instance>, kMeshKindCount> byMesh;
  std::vector<GeometryInstances> byGeometry;  // one entry per distinct geometry, in order of first use
  std::vector<Instance>& operator[](MeshKind kind) { return byMesh[static_cast<int>(kind)]; }
  const std::vector<Instance>& operator[](MeshKind kind) const { return byMesh[static_cast<int>(kind)]; }
  void clear();
};

// Planes are drawn as a square of this half size, centred on the plane's point nearest the origin.
inline constexpr double kPlaneHalfSize = 100.0;

// A floor for scenes whose ground is a finite static box (the built-in scenes): a square of
// kPlaneHalfSize just below the top of the widest static box, so the scene does not float in the
// sky. None when a plane is the ground, or when the widest static box is narrower than
// kMinGroundSide on x or y (a pedestal or a ramp, not the ground).
inline constexpr double kMinGroundSide = 4.0;
std::optional<Instance> floorInstance(const std::vector<Body>& bodies);

// Dynamic bodies: distinct hues stepping round the colour wheel by the golden ratio; static bodies
// light grey; kinematic bodies slate blue.
Color bodyColor(int bodyIndex, MotionType motion);
// Whether a body moves in the scene: a dynamic one, or a deformable one (which the rigid pipeline
// holds Static, Body::deformable). These take the dynamic colours, can be selected, and are framed.
inline bool movesInScene(const Body& body) { return body.isDynamic() || body.isDeformable(); }
// A sleeping body's colour (Body::asleep): its own, visibly dimmer and greyer.
Color sleepingColor(const Color& awake);

// Fills batches (cleared first) with every rigid body: a box or sphere is one instance, a capsule a
// cylinder and two spheres, a plane one quad, a mesh body one instance of its geometry. Bodies with a
// non-finite state are skipped, and so are deformable bodies: their shape is the undeformed solid's,
// and they are drawn by their surface instead (deformableInstance, deformable_surface.h).
void buildInstances(const std::vector<Body>& bodies, int selectedBody, InstanceBatches& batches);

// The one instance a deformable body's surface is drawn with: the identity placement (its vertices
// are in world coordinates already), in the colour and style buildInstances gives a dynamic body.
Instance deformableInstance(const Body& body, int bodyIndex, int selectedBody);

// Level of detail: moves the sphere instances whose radius on screen is below maxRadiusPixels to
// the SmallSphere batch (order kept). focalPixels is the image height over 2 tan(vertical fov / 2).
// Its outline then strays under half a pixel from a true circle, and a pile of spheres draws much
// faster on a software rasterizer (docs/app-performance.md).
inline constexpr double kSmallSphereRadiusPixels = 12.0;
void useSmallSpheresWhereTheyLookTheSame(InstanceBatches& batches, const Vec3& eye, double focalPixels,
                                         double maxRadiusPixels = kSmallSphereRadiusPixels);

}  // namespace contactlab::render
