#pragma once
// Box features (vertices, faces, closest surface points) shared by the pairs that involve a box.
#include <cstdint>

#include "collision/contact_buffer.h"
#include "contactlab/body.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

// Vertex `index` (bit k set: +halfExtents[k] along body axis k, else -) in world coordinates.
Vec3 boxVertex(const BoxShape& box, const Pose& pose, int index);

// Faces are numbered 2 * axis + (outward normal along +axis ? 1 : 0).
inline int boxFaceIndex(int axis, double sign) { return 2 * axis + (sign > 0.0 ? 1 : 0); }

// Signed distance from a point in box coordinates to the box surface (negative inside).
double boxSignedDistance(const Vec3& halfExtents, const Vec3& localPoint);

// The point of the box surface nearest to a query point (inside: across the nearest face).
struct BoxSurfacePoint {
  Vec3 point;           // world
  Vec3 outwardNormal;   // world, unit: from the surface point towards the query point if outside
  double distance;      // signed distance of the query point to the box, negative inside
  // Voronoi region of the query point: per body axis 0 below, 1 within, 2 above the box
  // (base-3 digits; a point inside reports the face it is pushed out through).
  std::uint32_t region;
};
BoxSurfacePoint closestBoxSurfacePoint(const BoxShape& box, const Pose& pose, const Vec3& worldPoint);

// Contact of a ball (shape A; radius 0 for a point) with a box (shape B), given the box surface
// point nearest to the ball's centre.
void addBallBoxContact(const Vec3& centre, double radius, const BoxSurfacePoint& surface, std::uint32_t feature,
                       ContactBuffer& buffer);

}  // namespace contactlab
