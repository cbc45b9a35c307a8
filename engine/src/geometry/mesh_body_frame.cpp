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
  if (!std::isfinite(mass.volume) || !mass.inertiaAboutCentreOfMass.allFinite() || !mass.centreOfMass.allFinite())
    throw MeshError(source + ": the coordinates are too large for its volume and inertia to be finite numbers"
                             " (scale the mesh down, or give it in other units)");
  if (!(mass.volume > 0.0)) {
    std::ostringstream why;
    why << source << ": the surface encloses a volume of " << mass.volume
        << "; a closed surface must have positive volume (triangles counter-clockwise seen from outside)";
    throw MeshError(why.str());
  }
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
