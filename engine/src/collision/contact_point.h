#pragma once
// The narrowphase's output for one pair of shapes.
#include <cstdint>
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

struct ContactPoint {
  Vec3 point = Vec3::Zero();   // midway between the two surfaces
  Vec3 normal = Vec3::Zero();  // unit, pointing from shape A towards shape B
  double gap = 0.0;            // signed distance along the normal; negative is penetration
  // Names the pair of features in touch (a box vertex, a face, an edge pair, ...). Stable from step
  // to step while the same features touch, so warm starting can match impulses across steps.
  std::uint32_t feature = 0;
};

using ContactManifold = std::vector<ContactPoint>;

}  // namespace contactlab
