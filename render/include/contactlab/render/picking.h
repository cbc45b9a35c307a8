#pragma once
// Ray casts against the bodies' exact shapes, for selecting a body with the mouse.
#include <optional>
#include <vector>

#include "contactlab/body.h"
#include "contactlab/render/camera.h"
#include "contactlab/world.h"

namespace contactlab::render {

struct BodyHit {
  int body;        // index into the body list
  Vec3 point;      // world point where the ray enters the body
  double distance; // along the ray, from its origin
};

// Distance along the ray to where it enters the shape placed at position/orientation, if it does
// (a ray starting inside a shape hits it at distance 0). Planes never hit.
std::optional<double> intersectShape(const Shape& shape, const Vec3& position, const Quat& orientation, const Ray& ray);

// Nearest hit among the dynamic rigid bodies (boxes, spheres, capsules, meshes); static and
// kinematic bodies, planes and deformable bodies are not pickable here.
std::optional<BodyHit> pickBody(const std::vector<Body>& bodies, const Ray& ray);

// The same, and the world's deformable bodies too, through their deformed surfaces (as drawn; not
// their Body::shape, the undeformed solid's).
std::optional<BodyHit> pickBody(const World& world, const Ray& ray);

}  // namespace contactlab::render
