#pragma once
// The renderer's DebugDraw: collects World::debugDraw output as vertex arrays for GL_LINES and
// GL_POINTS. GL-free so it can be tested.
#include <vector>

#include "contactlab/debug_draw.h"
#include "contactlab/math.h"

namespace contactlab::render {

struct DebugVertex {
  float position[3];
  float color[4];
  float sizePixels;  // points only
};

class DebugGeometry final : public DebugDraw {
 public:
  void clear();
  // Non-finite coordinates are dropped: a diverging simulation must not poison the draw.
  void drawSegment(const Vec3& from, const Vec3& to, const Color& color) override;
  void drawPoint(const Vec3& at, float sizePixels, const Color& color) override;
  void drawAabb(const Vec3& lower, const Vec3& upper, const Color& color) override;  // 12 segments
  // The 12 edges of a box with the given centre, orientation and half extents.
  void drawOrientedBox(const Vec3& centre, const Quat& orientation, const Vec3& halfExtents, const Color& color);

  const std::vector<DebugVertex>& lineVertices() const { return lines_; }  // two per segment
  const std::vector<DebugVertex>& pointVertices() const { return points_; }

 private:
  std::vector<DebugVertex> lines_;
  std::vector<DebugVertex> points_;
};

}  // namespace contactlab::render
