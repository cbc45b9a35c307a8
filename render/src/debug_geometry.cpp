#include "contactlab/render/debug_geometry.h"

#include <cmath>

namespace contactlab::render {
namespace {

DebugVertex vertex(const Vec3& at, const Color& color, float sizePixels) {
  return DebugVertex{{static_cast<float>(at.x()), static_cast<float>(at.y()), static_cast<float>(at.z())},
                     {color.r, color.g, color.b, color.a},
                     sizePixels};
}

}  // namespace

void DebugGeometry::clear() {
  lines_.clear();
  points_.clear();
}

void DebugGeometry::drawSegment(const Vec3& from, const Vec3& to, const Color& color) {
  if (!from.allFinite() || !to.allFinite()) return;
  lines_.push_back(vertex(from, color, 1.0f));
  lines_.push_back(vertex(to, color, 1.0f));
}

void DebugGeometry::drawPoint(const Vec3& at, float sizePixels, const Color& color) {
  if (!at.allFinite() || !std::isfinite(sizePixels)) return;
  points_.push_back(vertex(at, color, sizePixels));
}

void DebugGeometry::drawAabb(const Vec3& lower, const Vec3& upper, const Color& color) {
  if (!lower.allFinite() || !upper.allFinite()) return;
  drawOrientedBox(0.5 * (lower + upper), Quat::Identity(), 0.5 * (upper - lower), color);
}

void DebugGeometry::drawOrientedBox(const Vec3& centre, const Quat& orientation, const Vec3& halfExtents,
                                    const Color& color) {
  const Mat3 rotation = orientation.normalized().toRotationMatrix();
  const auto corner = [&](int bits) {
    const Vec3 local(bits & 1 ? halfExtents.x() : -halfExtents.x(), bits & 2 ? halfExtents.y() : -halfExtents.y(),
                     bits & 4 ? halfExtents.z() : -halfExtents.z());
    return Vec3(centre + rotation * local);
  };
  // Each edge joins two corners that differ in exactly one coordinate bit.
  for (int bits = 0; bits < 8; ++bits)
    for (int axisBit = 1; axisBit < 8; axisBit <<= 1)
      if (!(bits & axisBit)) drawSegment(corner(bits), corner(bits | axisBit), color);
}

}  // namespace contactlab::render
