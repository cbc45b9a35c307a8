#include "geometry/mesh_body_frame.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "geometry/mesh_mass_properties.h"

namespace contactlab {

MeshInBodyFrame meshInBodyFrame(const TriangleMesh& input, const std::string& source) {
  requireClosedOrientedSurface(input, source);
  const MeshMassProperties mass = integrateMassProperties(input);
  // Coordinates so large that the volume or the second moments overflow (the sums turn infinite,
  // then NaN) are a scale problem, not an orientation one: say so.
  const auto tooLarge = [&] {
    throw MeshError(source + ": the coordinates are too large for its volume and inertia to be finite numbers"
                             " (scale the mesh down, or give it in other units)");
  };
  if (!std::isfinite(mass.volume)) tooLarge();
  // A flat surface (all vertices in one plane, up to rounding) encloses no volume, and its centre
  // of mass (the first moment over the volume) is then 0/0: that is its fault, not its scale.
  Vec3 lower = Vec3::Constant(std::numeric_limits<double>::infinity()), upper = -lower;
  for (const Vec3& v : input.vertices) lower = lower.cwiseMin(v), upper = upper.cwiseMax(v);
  const double extent = (upper - lower).norm();
  if (std::abs(mass.volume) <= 1e-12 * extent * extent * extent) {
    std::ostringstream why;
    why << source << ": the surface encloses no volume (" << mass.volume << " for a bounding box " << extent
        << " across): its vertices lie in one plane";
    throw MeshError(why.str());
  }
  if (!(mass.volume > 0.0)) {
    std::ostringstream why;
    why << source << ": the surface encloses a volume of " << mass.volume
        << "; a closed surface must have positive volume (triangles counter-clockwise seen from outside)";
    throw MeshError(why.str());
  }
  if (!mass.inertiaAboutCentreOfMass.allFinite() || !mass.centreOfMass.allFinite()) tooLarge();
  const PrincipalAxes principal = principalAxes(mass.inertiaAboutCentreOfMass);

  MeshInBodyFrame out;
  out.bodyToInput = Pose{mass.centreOfMass, principal.axes};
  MeshGeometry& g = out.geometry;
  g.surface.triangles = input.triangles;
  g.surface.vertices.reserve(input.vertices.size());
  g.boundsLower = Vec3::Constant(std::numeric_limits<double>::infinity());
  g.boundsUpper = -g.boundsLower;
  for (const Vec3& v : input.vertices) {
    const Vec3 body = principal.axes.transpose() * (v - mass.centreOfMass);  // the inverse of bodyToInput
    g.surface.vertices.push_back(body);
    g.boundsLower = g.boundsLower.cwiseMin(body);
    g.boundsUpper = g.boundsUpper.cwiseMax(body);
    g.boundingRadius = std::max(g.boundingRadius, body.norm());
  }
  g.volume = mass.volume;
  g.principalInertiaPerUnitDensity = principal.moments;
  return out;
}

}  // namespace contactlab
