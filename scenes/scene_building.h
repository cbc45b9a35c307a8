#pragma once
#include <functional>
// Shared by the built-in scene builders: the ground, body constructors and parameter access.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "contactlab/scene.h"

namespace contactlab::scenes {

// Reproducible uniform numbers from a seed: std::mt19937_64's output is fixed by the standard, but
// the std distributions are not, so they are derived here to give the same scene on every platform.
class SceneRandom {
 public:
  explicit SceneRandom(std::uint64_t seed);
  double uniform(double lo, double hi);
  Quat orientation();  // uniformly distributed rotation
 private:
  std::mt19937_64 engine_;
};

// The drop scenes (box drops, chess, funnel, pile) start their bodies at lattice points, each moved
// by up to kLatticeJitter along each axis so that no two columns are exactly aligned.
constexpr double kLatticeJitter = 0.02;   // m
constexpr double kFloorClearance = 0.05;  // gap under a lattice's lowest layer, m
// Several times what a body falling from a column's top moves in a step, m.
constexpr double kContainerWallThickness = 0.5;

// Static ground box `extent` x `extent` x 1 whose top face is the plane z = 0.
BodyDesc groundBox(double extent = 40.0);
BodyDesc staticBox(const std::string& name, const Vec3& size, const Vec3& position,
                   const Quat& orientation = Quat::Identity());
BodyDesc dynamicBox(const std::string& name, const Vec3& size, const Vec3& position,
                    const Quat& orientation = Quat::Identity());
BodyDesc dynamicSphere(const std::string& name, double radius, const Vec3& position);
BodyDesc meshBody(const std::string& name, std::shared_ptr<const MeshGeometry> geometry, const Vec3& position,
                  const Quat& orientation = Quat::Identity(), MotionType motion = MotionType::Dynamic);

// A named procedural mesh (geometry/mesh_library) at `scale`, shared by every body that asks for
// the same one; a mesh that cannot be built (the bunny's missing model file, tetgen failing) is a
// SceneError naming the scene.
std::shared_ptr<const MeshGeometry> sceneMesh(const std::string& scene, const std::string& mesh, double scale);

// An open box container: the ground box as its floor (top face z = 0) and four walls of
// `wallThickness` standing on it round the square |x|, |y| <= innerWidth / 2, the ±y walls fitting
// between the ±x walls; named "ground", "wall_x-", "wall_x+", "wall_y-", "wall_y+".
void addBoxContainer(Scene& scene, double innerWidth, double wallHeight, double wallThickness);

// The scene's "count" bodies of the named mesh at its "scale", named mesh_0, mesh_1, ..., at the
// dropPositions of a square footprint of its "width" with seeded orientations, in an open box
// container (addBoxContainer) whose walls reach the top of the column; `makeBody` (if any) finishes
// each body (a mass, a deformable description).
Scene dropMeshesIntoBox(const std::string& sceneName, const std::string& mesh, const SceneParams& params,
                        std::uint64_t seed, const std::function<void(BodyDesc&)>& makeBody = {});

// Where to drop `count` bodies whose bounding balls have radius `bodyRadius`: the centres of a square
// lattice filled layer by layer upwards from z = `bottom`, each moved by up to `jitter` along every
// axis (seeded). Cells are wide enough that the bodies' bounding balls stay inside their own cells,
// so no two bodies overlap, and only cells wholly inside the footprint (the square |x|, |y| <= half
// width, or the disc of that radius round the z axis) are used. SceneError if none fits.
enum class Footprint { Square, Disc };
std::vector<Vec3> dropPositions(const std::string& scene, int count, Footprint footprint, double halfWidth,
                                double bodyRadius, double jitter, double bottom, SceneRandom& random);

// Reads a scene's parameters, which arrive complete (buildBuiltinScene fills in the defaults),
// checking each one's range; failures are SceneErrors naming the scene and the parameter.
class ParamReader {
 public:
  ParamReader(std::string scene, const SceneParams& params) : scene_(std::move(scene)), params_(params) {}
  double finite(const std::string& name) const;
  double positive(const std::string& name) const;
  double nonNegative(const std::string& name) const;
  // lo <= value <= hi
  double inRange(const std::string& name, double lo, double hi) const;
  int count(const std::string& name, int minimum = 1) const;

 private:
  [[noreturn]] void reject(const std::string& name, double value, const std::string& rule) const;
  std::string scene_;
  const SceneParams& params_;
};

// One entry per built-in scene; builtin_scenes.cpp lists them.
SceneEntry wallScene();
SceneEntry towerScene();
SceneEntry pyramidScene();
SceneEntry inclineScene();
SceneEntry bounceScene();
SceneEntry spinScene();
SceneEntry pileScene();
SceneEntry truckScene();
SceneEntry jacksScene();
SceneEntry funnelScene();
SceneEntry spheresScene();
SceneEntry chessScene();
SceneEntry bunniesRigidScene();
// Deformable (FEM) bodies, soft_bodies.cpp.
SceneEntry softBlockScene();
SceneEntry cantileverScene();
SceneEntry hangingBarScene();
SceneEntry softInclineScene();
SceneEntry softCubesScene();
SceneEntry softSlabBoxesScene();
SceneEntry ballOnMatScene();
// Piles of deformable bodies, soft_piles.cpp.
SceneEntry ringsScene();
SceneEntry bunniesScene();

}  // namespace contactlab::scenes
