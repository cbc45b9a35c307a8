#pragma once
// Runtime bodies for the renderer's GL-free tests (bounds, instances, picking).
#include <memory>
#include <utility>

#include "contactlab/body.h"

namespace contactlab::render::test {

inline Body makeBody(Shape shape, const Vec3& position, MotionType motion = MotionType::Dynamic,
                     const Quat& orientation = Quat::Identity()) {
  Body body;
  body.shape = std::move(shape);
  body.position = position;
  body.orientation = orientation;
  body.motion = motion;
  return body;
}

}  // namespace contactlab::render::test

namespace contactlab::render::test {

// The tetrahedron with corners at the origin and the three unit points, as a MeshShape. Only the
// fields the renderer reads are filled (surface and body-frame bounds); the frame is the corner's,
// not the centroid's, which the renderer must not care about.
inline MeshShape unitTetrahedronShape() {
  auto geometry = std::make_shared<MeshGeometry>();
  geometry->source = "tetrahedron";
  geometry->surface.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  geometry->surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  geometry->boundsLower = Vec3::Zero();
  geometry->boundsUpper = Vec3::Ones();
  geometry->boundingRadius = 1.0;
  return MeshShape{geometry};
}

}  // namespace contactlab::render::test
