#pragma once
// World-space axis-aligned bounds of bodies: for framing the camera and fitting the shadow map.
#include <optional>
#include <vector>

#include "contactlab/body.h"

namespace contactlab::render {

struct Bounds {
  Vec3 lower;
  Vec3 upper;
  void extend(const Bounds& other);
  Vec3 centre() const { return 0.5 * (lower + upper); }
  Vec3 size() const { return upper - lower; }
};

// Bounds of a shape placed at position/orientation; none for planes (unbounded).
std::optional<Bounds> shapeBounds(const Shape& shape, const Vec3& position, const Quat& orientation);

// What "fit to scene" frames: the moving bodies (dynamic or deformable, movesInScene) down to the
// static surface under them (z up: the ground or floor they will fall onto), or every bounded body
// when there is none; none when nothing is bounded. Bodies with a non-finite state are skipped. A
// deformable body counts by its undeformed shape at its summary pose (Body::deformable), close
// enough to frame it.
std::optional<Bounds> framingBounds(const std::vector<Body>& bodies);

// The pitch (radians above the horizontal) from which a camera looking at `framed` sees its floor
// over the static walls round it (a container's), from any side: for each non-moving bounded body
// that rises above the framed box's bottom beside its centre (its x-y box not holding the centre,
// and within 3/4 of the framed box's larger x-y size of it),
// the pitch of the line from its top edge down to the floor a quarter of the way from it to the
// centre, atan(h / (d / 4)) with h its height over the floor and d its x-y distance from the
// centre; the steepest of those, at most kMostWallClearingPitch. None without such walls.
inline constexpr double kMostWallClearingPitch = 1.35;
std::optional<double> wallClearingPitch(const std::vector<Body>& bodies, const Bounds& framed);

// What the shadow map covers: every moving body, and the static bodies no larger than
// maxStaticExtent on any axis (walls, ramps), so a ground (40 m in the built-in scenes) does not
// spread the map's texels thin; it still receives shadows near the bodies.
std::optional<Bounds> shadowCasterBounds(const std::vector<Body>& bodies, double maxStaticExtent = 20.0);

}  // namespace contactlab::render
