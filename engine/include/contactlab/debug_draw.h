#pragma once
// The engine draws through this interface only; render/ implements it with OpenGL.
#include "contactlab/math.h"

namespace contactlab {

struct Color {
  float r = 1, g = 1, b = 1, a = 1;
};

class DebugDraw {
 public:
  virtual ~DebugDraw() = default;
  virtual void drawSegment(const Vec3& from, const Vec3& to, const Color& color) = 0;
  virtual void drawPoint(const Vec3& at, float sizePixels, const Color& color) = 0;
  virtual void drawAabb(const Vec3& lower, const Vec3& upper, const Color& color) = 0;
};

}  // namespace contactlab
