#include "collision/mesh_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "collision/triangle_geometry.h"
#include "geometry/shape_geometry.h"
#include "geometry/tet_mesh.h"

namespace contactlab {

namespace {

// The geometry, after shape_geometry's checks (a NaN would make the trees' split orderings compare
// inconsistently: undefined behaviour in std::sort).
const MeshGeometry& checked(const std::shared_ptr<const MeshGeometry>& geometry) {
  if (!geometry) throw std::invalid_argument("mesh collision model: no geometry");
  if (const std::string problem = meshGeometryProblem(*geometry); !problem.empty())
    throw std::invalid_argument("mesh '" + geometry->source + "': " + problem);
  return *geometry;
}

// The kDOP of each element (a triangle or a tetrahedron) over its corner vertices.
template <class Elements>
std::vector<Kdop> elementBounds(std::span<const Vec3> axes, const Elements& elements, const std::vector<Vec3>& vertices) {
  std::vector<Kdop> bounds;
  bounds.reserve(elements.size());
  for (const auto& element : elements) {
    Kdop kdop = Kdop::empty();
    for (int v : element) kdop.add(axes, vertices[v]);
    bounds.push_back(kdop);
  }
  return bounds;
}

std::vector<Kdop> pointBounds(std::span<const Vec3> axes, const std::vector<Vec3>& points) {
  std::vector<Kdop> bounds;
  bounds.reserve(points.size());
  for (const Vec3& p : points) bounds.push_back(kdopOfPoints(axes, std::span(&p, 1)));
  return bounds;
}

}  // namespace

// Each face's plane with its normal pointing away from the opposite corner; a face too small to
// have a normal never bounds anything (normal 0, offset -infinity would bound by +infinity, so
// offset +infinity: its term is -infinity and the max ignores it).
std::vector<MeshCollisionModel::FacePlanes> MeshCollisionModel::tetrahedronFacePlanes(const MeshGeometry& geometry) {
  std::vector<FacePlanes> planes;
  planes.reserve(geometry.tetrahedra.size());
  const auto& v = geometry.tetVertices;
  for (const auto& corners : geometry.tetrahedra) {
    FacePlanes faces;
    for (int opposite = 0; opposite < 4; ++opposite) {
      const Vec3& a = v[corners[(opposite + 1) % 4]];
      const Vec3& b = v[corners[(opposite + 2) % 4]];
      const Vec3& c = v[corners[(opposite + 3) % 4]];
      Vec3 normal = (b - a).cross(c - a);
      const double length = normal.norm();
      if (!(length > 0.0)) {
        faces.normal[opposite] = Vec3::Zero();
        faces.offset[opposite] = std::numeric_limits<double>::infinity();
        continue;
      }
      normal /= length;
      if (normal.dot(v[corners[opposite]] - a) > 0.0) normal = -normal;
      faces.normal[opposite] = normal;
      faces.offset[opposite] = normal.dot(a);
    }
    planes.push_back(faces);
  }
  return planes;
}

// A mesh touches others through points of its surface (mesh_contacts.h), and a coarse mesh's long
// edges have none between their ends: two long, thin parts (a simplified jack's arms had 13 cm edges
// with vertices only at the ends) can cross with no vertex of either inside the other, and then
// make no contact until a vertex is deep inside (the funnel's jacks stayed crossed 11 mm deep). So
// every edge longer than kEdgeSampleSpacing times the mesh's median edge gets evenly spaced points
// between its ends, spacing at most that. An edge crossing another body's surface at depth d is seen
// once the chord it cuts is longer than the spacing h, by d = h^2 / (8 R) at a curvature radius R.
// The points cost time (a pair tests each like a vertex); the built-in meshes are made without such
// edges (jackMesh bounds its edges), so they serve meshes read from files.
constexpr double kEdgeSampleSpacing = 6.0;
// A mesh whose edges differ by orders of magnitude (a large ground slab around a finely detailed
// object) would otherwise put thousands of points on each long edge.
constexpr int kMostPointsPerEdge = 64;

std::vector<Vec3> MeshCollisionModel::contactPointsOf(const MeshGeometry& geometry) {
  const auto& vertices = geometry.surface.vertices;
  const std::vector<std::array<int, 2>> edges = uniqueEdges(geometry.surface.triangles);
  std::vector<Vec3> points = vertices;
  if (edges.empty()) return points;
  std::vector<double> lengths;
  lengths.reserve(edges.size());
  for (const auto& [p, q] : edges) lengths.push_back((vertices[q] - vertices[p]).norm());
  std::vector<double> sorted = lengths;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double spacing = kEdgeSampleSpacing * sorted[sorted.size() / 2];
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (!(lengths[e] > spacing)) continue;
    const int pieces = static_cast<int>(std::min<double>(std::ceil(lengths[e] / spacing), kMostPointsPerEdge + 1));
    const Vec3 &from = vertices[edges[e][0]], &to = vertices[edges[e][1]];
    for (int i = 1; i < pieces; ++i) points.push_back(from + (to - from) * (static_cast<double>(i) / pieces));
  }
  return points;
}

MeshCollisionModel::MeshCollisionModel(std::shared_ptr<const MeshGeometry> geometry, int k)
    : geometry_(std::move(geometry)),
      tetrahedronBounds_(elementBounds(kdopAxes(k), checked(geometry_).tetrahedra, geometry_->tetVertices)),
      tetrahedronFaces_(tetrahedronFacePlanes(*geometry_)),
      // Far above the rounding of a projection on an axis (a few ulps of the mesh's size), far
      // below any margin.
      roundingSlack_(1e-9 * (1.0 + geometry_->boundingRadius)),
      contactPoints_(contactPointsOf(*geometry_)),
      vertexTree_(k, pointBounds(kdopAxes(k), contactPoints_)),
      // Leaves of 2 triangles for the nearest-triangle search (a branch and bound that gains from
      // tight leaves), the cheapest of 1, 2, 4 and 8 on the jacks (docs/benchmarks.md).
      triangleTree_(k, elementBounds(kdopAxes(k), geometry_->surface.triangles, geometry_->surface.vertices), 2),
      // Leaves of 16 tetrahedra: collideMeshMesh tests a vertex against a whole leaf's kDOP before
      // its tetrahedra, which is cheaper than the tandem node tests a deeper tree needs; 8 and 32
      // cost more on the jacks (docs/benchmarks.md).
      tetrahedronTree_(k, tetrahedronBounds_, 16) {
  const auto& vertices = geometry_->surface.vertices;
  triangleNormals_.reserve(geometry_->surface.triangles.size());
  for (const auto& [a, b, c] : geometry_->surface.triangles)
    triangleNormals_.push_back((vertices[b] - vertices[a]).cross(vertices[c] - vertices[a]).normalized());
}

bool MeshCollisionModel::contains(const Vec3& point) const {
  const auto& vertices = geometry_->tetVertices;
  bool inside = false;
  tetrahedronTree_.forEachNear(point, 0.0, [&](int t) {
    if (inside) return;
    // The leaves are large (16 tetrahedra) and the point lies in few of them: the face planes,
    // a lower bound of the distance (cheaper than the kDOP), reject the others. Only rejecting:
    // a flat tetrahedron's planes bound a half-space, not the tetrahedron, and a face of zero
    // area has no plane, so "inside every plane" is left to the orientation test.
    if (tetrahedronFaces_[t].distanceBound(point, Vec3::Zero()) > roundingSlack_) return;
    const auto& [a, b, c, d] = geometry_->tetrahedra[t];
    inside = tetrahedronContains(point, vertices[a], vertices[b], vertices[c], vertices[d]);
  });
  return inside;
}

std::optional<MeshCollisionModel::SurfacePoint> MeshCollisionModel::closestSurfacePoint(const Vec3& point,
                                                                                        double reach) const {
  // The nearest triangle within reach first. If there is one, it is the nearest of all (the search
  // returns the lowest index among the nearest, whatever its bound), inside or out; if not, only an
  // inside point has a contact, and then the search is repeated unbounded.
  const auto& vertices = geometry_->surface.vertices;
  const auto& triangles = geometry_->surface.triangles;
  // A triangle whose plane is farther than the best so far is farther itself (the plane's distance
  // is a lower bound of the triangle's): it is passed over without its nearest point. The slack
  // keeps rounding from passing over one that would win or tie.
  const auto distanceTo = [&](int t, double bound) {
    const auto& [a, b, c] = triangles[t];
    const double fromPlane = std::abs(triangleNormals_[t].dot(point - vertices[a]));
    if (fromPlane > bound + roundingSlack_) return std::numeric_limits<double>::infinity();
    return (closestPointOnTriangle(point, vertices[a], vertices[b], vertices[c]).point - point).norm();
  };
  KdopTree::Nearest nearest = triangleTree_.nearest(point, reach, distanceTo);
  if (nearest.primitive < 0) {
    if (!contains(point)) return std::nullopt;
    nearest = triangleTree_.nearest(point, std::numeric_limits<double>::infinity(), distanceTo);
    if (nearest.primitive < 0) return std::nullopt;
  }
  const auto& [a, b, c] = triangles[nearest.primitive];
  const TrianglePoint nearestPoint = closestPointOnTriangle(point, vertices[a], vertices[b], vertices[c]);
  const Vec3 faceNormal = triangleNormals_[nearest.primitive];

  // Inside or outside. Where the nearest surface point lies inside a face, the point is off that
  // face along its normal, and outside the solid exactly when on the normal's side: the surface is
  // closed and bounds the tetrahedra (tetgen keeps it, -Y), so a ball about an inside point that
  // touches the surface there lies in the solid, behind the face. That side is taken when it is
  // clear of rounding (beyond roundingSlack_, where the tetrahedra's orientation tests cannot
  // disagree), saving the tetrahedron search for most points; at an edge or a vertex, within the
  // slack, or with a degenerate face's normal (NaN), the tetrahedra decide (contains).
  // (A point found only by the unbounded search is inside, which contains() said.)
  const double side = nearestPoint.interior ? faceNormal.dot(point - nearestPoint.point) : 0.0;
  const bool inside = nearest.distance > reach || (side > roundingSlack_    ? false
                                                   : side < -roundingSlack_ ? true
                                                                            : contains(point));

  const Vec3 offset = inside ? Vec3(nearestPoint.point - point) : Vec3(point - nearestPoint.point);
  // Below this the direction between the points is rounding noise; the face's normal is exact.
  const double kCoincident = 1e-12 * (1.0 + geometry_->boundingRadius);
  const bool useFace = nearestPoint.interior || nearest.distance <= kCoincident;
  return SurfacePoint{nearestPoint.point, useFace ? faceNormal : Vec3(offset / nearest.distance),
                      inside ? -nearest.distance : nearest.distance};
}

MeshModelCache::MeshModelCache(int k) : k_(k) { kdopAxes(k); }

void MeshModelCache::setK(int k) {
  if (k == k_) return;
  kdopAxes(k);  // rejects an unsupported k before anything changes
  k_ = k;
  models_.clear();
}

const MeshCollisionModel& MeshModelCache::prepare(const std::shared_ptr<const MeshGeometry>& geometry) {
  const auto found = models_.find(geometry.get());
  if (found != models_.end()) return *found->second;
  auto model = std::make_unique<const MeshCollisionModel>(geometry, k_);
  return *models_.emplace(geometry.get(), std::move(model)).first->second;
}

const MeshCollisionModel& MeshModelCache::model(const MeshGeometry& geometry) const {
  const auto found = models_.find(&geometry);
  if (found == models_.end())
    throw std::logic_error("mesh '" + geometry.source + "' has no collision model: MeshModelCache::prepare first");
  return *found->second;
}

}  // namespace contactlab
