#pragma once
// Runtime bodies for the renderer's GL-free tests (bounds, instances, picking).
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
