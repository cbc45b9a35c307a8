#pragma once
// The plane's one contact rule, shared by the pairs that involve a plane.
#include <cstdint>

#include "collision/contact_buffer.h"
#include "contactlab/body.h"

namespace contactlab {

// Contact of the half-space (shape A) with a ball (shape B; radius 0 for a point). Scene planes
// need not have a unit normal, so it is normalized here, with the offset scaled to match.
void addPlaneBallContact(const PlaneShape& plane, const Vec3& centre, double radius, std::uint32_t feature,
                         ContactBuffer& buffer);

}  // namespace contactlab
