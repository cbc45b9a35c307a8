#pragma once
// Shared by the built-in scene builders: the ground, body constructors and parameter access.
#include <cstdint>
#include <random>
#include <string>

#include "contactlab/scene.h"

namespace contactlab::scenes {

// Static ground box `extent` x `extent` x 1 whose top face is the plane z = 0.
BodyDesc groundBox(double extent = 40.0);
BodyDesc staticBox(const std::string& name, const Vec3& size, const Vec3& position,
                   const Quat& orientation = Quat::Identity());
BodyDesc dynamicBox(const std::string& name, const Vec3& size, const Vec3& position,
                    const Quat& orientation = Quat::Identity());
BodyDesc dynamicSphere(const std::string& name, double radius, const Vec3& position);

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

// One entry per built-in scene; builtin_scenes.cpp lists them.
SceneEntry wallScene();
SceneEntry towerScene();
SceneEntry pyramidScene();
SceneEntry inclineScene();
SceneEntry bounceScene();
SceneEntry spinScene();
SceneEntry pileScene();
SceneEntry truckScene();

}  // namespace contactlab::scenes
