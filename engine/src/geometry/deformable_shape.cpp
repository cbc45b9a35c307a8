#include "geometry/deformable_shape.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <numbers>
#include <sstream>
#include <utility>

#include "geometry/mesh_mass_properties.h"

namespace contactlab {
// This file's helpers, in a namespace of its own: a unity build compiles several files as one, and
// their file-local names must not meet.
namespace deformable_shape_impl {
namespace {

constexpr double kPi = std::numbers::pi;

std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// A count that may be too large for any integer type, in full.
std::string wholeNumber(double value) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(0) << value;
  return out.str();
}

void requirePositive(double value, const std::string& what, const std::string& source) {
  if (!(std::isfinite(value) && value > 0.0))
    throw MeshError(source + ": " + what + " must be positive and finite, got " + formatNumber(value));
}

// The sizes of a primitive, checked.
void checkSolid(const DeformableSolid& solid, const std::string& source) {
  if (const auto* sphere = std::get_if<SphereShape>(&solid)) requirePositive(sphere->radius, "the sphere's radius", source);
  if (const auto* box = std::get_if<BoxShape>(&solid))
    for (int axis = 0; axis < 3; ++axis) requirePositive(box->halfExtents[axis], "the box's half extents", source);
  if (const auto* capsule = std::get_if<CapsuleShape>(&solid)) {
    requirePositive(capsule->radius, "the capsule's radius", source);
    if (!(std::isfinite(capsule->halfLength) && capsule->halfLength >= 0.0))
      throw MeshError(source + ": the capsule's half length must be finite and not negative, got " +
                      formatNumber(capsule->halfLength));
  }
  if (const auto* surface = std::get_if<TriangleMesh>(&solid)) requireClosedOrientedSurface(*surface, source);
}

[[noreturn]] void tooManyTriangles(double count, double maxEdgeLength, const std::string& source) {
  throw MeshError(source + ": surface edges of at most " + formatNumber(maxEdgeLength) + " need about " +
                  wholeNumber(count) + " triangles, more than the " +
                  std::to_string(kMaxRefinedTriangles) + " allowed; ask for larger tetrahedra (a larger max_tet_volume)");
}

double longestEdge(const TriangleMesh& mesh) {
  double longest = 0.0;
  for (const auto& tri : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      longest = std::max(longest, (mesh.vertices[tri[k]] - mesh.vertices[tri[(k + 1) % 3]]).squaredNorm());
  return std::sqrt(longest);
}

// Both triangles of the quad a-b-c-d, counter-clockwise as given.
void addQuad(TriangleMesh& mesh, int a, int b, int c, int d) {
  mesh.triangles.push_back({a, b, c});
  mesh.triangles.push_back({a, c, d});
}

// The box [-h, h] with cells[axis] grid steps along each axis; the vertices on the box's surface
// only, shared between the faces that meet at an edge or corner.
TriangleMesh boxSurface(const Vec3& h, const std::array<int, 3>& cells) {
  TriangleMesh mesh;
  std::map<std::array<int, 3>, int> index;
  const auto vertex = [&](const std::array<int, 3>& p) {
    const auto [it, added] = index.try_emplace(p, static_cast<int>(mesh.vertices.size()));
    if (added) {
      Vec3 position;
      // h (2 i / n - 1): exactly -h and h at the ends.
      for (int axis = 0; axis < 3; ++axis) position[axis] = h[axis] * (2.0 * p[axis] / cells[axis] - 1.0);
      mesh.vertices.push_back(position);
    }
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (const int side : {-1, 1}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;  // u x v = +axis
      for (int i = 0; i < cells[u]; ++i)
        for (int j = 0; j < cells[v]; ++j) {
          std::array<int, 3> p00{};
          p00[axis] = side > 0 ? cells[axis] : 0;
          p00[u] = i;
          p00[v] = j;
          std::array<int, 3> p10 = p00, p11 = p00, p01 = p00;
          ++p10[u];
          ++p11[u], ++p11[v];
          ++p01[v];
          // Counter-clockwise seen from +axis; the -axis face the other way round.
          if (side > 0) addQuad(mesh, vertex(p00), vertex(p10), vertex(p11), vertex(p01));
          else addQuad(mesh, vertex(p00), vertex(p01), vertex(p11), vertex(p10));
        }
    }
  return mesh;
}

// The capsule of `radius` round the z segment [-halfLength, halfLength] (a sphere for halfLength
// 0): each face of the octahedron (+-x, +-y, +-z) cut into n x n triangles, its points pushed onto
// the sphere, the upper half lifted by halfLength and the lower one lowered, and `rows` rows of
// quads joining the two equators. The octahedron's equator (its edges between +-x and +-y) stays at
// z = 0 exactly, which is what lets the halves part.
TriangleMesh capsuleSurface(double radius, double halfLength, int n, int rows) {
  const std::array<Vec3, 6> corners{Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitX(), -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
  const bool split = halfLength > 0.0;
  TriangleMesh mesh;
  // A lattice point is named by its corners and integer weights (summing to n), sorted by corner, so
  // the faces sharing an edge or corner share its vertex; `half` tells the two copies of an equator
  // point apart when the halves part.
  using Key = std::pair<int, std::vector<std::pair<int, int>>>;
  std::map<Key, int> index;
  std::vector<int> equator[2];  // the vertices at z = 0 of the upper (0) and lower (1) halves
  const auto vertex = [&](int half, std::vector<std::pair<int, int>> weights) {
    std::erase_if(weights, [](const auto& w) { return w.second == 0; });
    std::sort(weights.begin(), weights.end());
    bool onEquator = true;
    for (const auto& [corner, weight] : weights) onEquator = onEquator && corner < 4;
    const auto [it, added] = index.try_emplace(Key{split && onEquator ? half : 0, weights}, static_cast<int>(mesh.vertices.size()));
    if (added) {
      Vec3 point = Vec3::Zero();
      for (const auto& [corner, weight] : weights) point += static_cast<double>(weight) * corners[corner];
      point = radius * point.normalized();
      if (!onEquator) point.z() += point.z() > 0.0 ? halfLength : -halfLength;
      else equator[half].push_back(it->second);
      mesh.vertices.push_back(point);
    }
    return it->second;
  };
  for (int half = 0; half < 2; ++half)
    for (int k = 0; k < 4; ++k) {
      // (+x, +y, +z) and its turns about z are counter-clockwise seen from outside; below, the
      // first two corners swap.
      const int a = half == 0 ? k : (k + 1) % 4, b = half == 0 ? (k + 1) % 4 : k, c = 4 + half;
      const auto at = [&](int i, int j) { return vertex(half, {{a, n - i - j}, {b, i}, {c, j}}); };
      for (int j = 0; j < n; ++j)
        for (int i = 0; i + j < n; ++i) {
          mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
          if (i + j + 1 < n) mesh.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
        }
    }
  if (!split) return mesh;

  // The cylinder: both equators in the same order round z (their points were computed alike),
  // rows - 1 rings between them, quads counter-clockwise seen from outside.
  for (auto& ring : equator)
    std::sort(ring.begin(), ring.end(), [&](int p, int q) {
      return std::atan2(mesh.vertices[p].y(), mesh.vertices[p].x()) < std::atan2(mesh.vertices[q].y(), mesh.vertices[q].x());
    });
  const std::size_t around = equator[0].size();
  std::vector<std::vector<int>> rings{equator[0]};
  for (int row = 1; row < rows; ++row) {
    std::vector<int> ring;
    for (const int p : equator[0]) {
      ring.push_back(static_cast<int>(mesh.vertices.size()));
      mesh.vertices.emplace_back(mesh.vertices[p].x(), mesh.vertices[p].y(), halfLength * (1.0 - 2.0 * row / rows));
    }
    rings.push_back(std::move(ring));
  }
  rings.push_back(equator[1]);
  for (const int p : equator[0]) mesh.vertices[p].z() = halfLength;
  for (const int p : equator[1]) mesh.vertices[p].z() = -halfLength;
  for (std::size_t row = 0; row + 1 < rings.size(); ++row)
    for (std::size_t i = 0; i < around; ++i) {
      const std::size_t next = (i + 1) % around;
      addQuad(mesh, rings[row + 1][i], rings[row + 1][next], rings[row][next], rings[row][i]);
    }
  return mesh;
}

// The smallest octahedron division n (and cylinder row count) whose capsule has no edge longer
// than maxEdgeLength. The longest edge shrinks about as 1/n: a build at a small n measures the
// constant, and the search starts just below the n it predicts.
TriangleMesh fittedCapsuleSurface(double radius, double halfLength, double maxEdgeLength, const std::string& source) {
  const auto checkCount = [&](double n, double rows) {
    const double count = 8.0 * n * n + 8.0 * n * rows;
    if (count > static_cast<double>(kMaxRefinedTriangles)) tooManyTriangles(count, maxEdgeLength, source);
  };
  constexpr int kProbe = 8;
  const double longestTimesN = kProbe * longestEdge(capsuleSurface(radius, 0.0, kProbe, 0));
  checkCount(longestTimesN / maxEdgeLength, 2.0 * halfLength / maxEdgeLength);
  for (int n = std::max(1, static_cast<int>(0.9 * longestTimesN / maxEdgeLength));; ++n) {
    checkCount(n, 0.0);
    TriangleMesh sphere = capsuleSurface(radius, 0.0, n, 0);
    if (longestEdge(sphere) > maxEdgeLength) continue;
    if (halfLength == 0.0) return sphere;
    // The equator's longest chord (between its points nearest the octahedron's edge middles);
    // the cylinder rows' diagonals must fit beside it.
    double chord = 0.0;
    for (int k = 0; k < n; ++k)
      chord = std::max(chord, radius * (Vec3(n - k, k, 0).normalized() - Vec3(n - k - 1, k + 1, 0).normalized()).norm());
    if (chord >= maxEdgeLength) continue;
    const int rows = std::max(
        1, static_cast<int>(std::ceil(2.0 * halfLength / std::sqrt(maxEdgeLength * maxEdgeLength - chord * chord))));
    checkCount(n, rows);
    TriangleMesh capsule = capsuleSurface(radius, halfLength, n, rows);
    if (longestEdge(capsule) <= maxEdgeLength) return capsule;
  }
}

// One pass of splitting: every edge longer than maxEdgeLength gets its midpoint, and every triangle
// is cut by the midpoints on its edges. Returns false when no edge was too long; throws before
// building more than kMaxRefinedTriangles.
bool splitLongEdges(TriangleMesh& mesh, double maxEdgeLength, const std::string& source) {
  std::map<std::pair<int, int>, int> midpoints;
  const double limit = maxEdgeLength * maxEdgeLength;
  for (const auto& tri : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      if (a < b && (mesh.vertices[a] - mesh.vertices[b]).squaredNorm() > limit) {
        midpoints.emplace(std::pair{a, b}, static_cast<int>(mesh.vertices.size()));
        mesh.vertices.push_back(0.5 * (mesh.vertices[a] + mesh.vertices[b]));
      }
    }
  if (midpoints.empty()) return false;
  // Each split edge adds a triangle on either side of it.
  const double count = static_cast<double>(mesh.triangles.size() + 2 * midpoints.size());
  if (count > static_cast<double>(kMaxRefinedTriangles)) tooManyTriangles(count, maxEdgeLength, source);
  const auto midpoint = [&](int a, int b) {
    const auto it = midpoints.find(std::minmax(a, b));
    return it == midpoints.end() ? -1 : it->second;
  };
  std::vector<std::array<int, 3>> finer;
  finer.reserve(4 * mesh.triangles.size());
  for (const auto& tri : mesh.triangles) {
    std::array<int, 3> m;  // m[k]: the midpoint of the edge from corner k to corner k + 1, or -1
    int splits = 0;
    for (int k = 0; k < 3; ++k) splits += (m[k] = midpoint(tri[k], tri[(k + 1) % 3])) >= 0;
    if (splits == 0) {
      finer.push_back(tri);
    } else if (splits == 3) {
      finer.push_back({tri[0], m[0], m[2]});
      finer.push_back({tri[1], m[1], m[0]});
      finer.push_back({tri[2], m[2], m[1]});
      finer.push_back({m[0], m[1], m[2]});
    } else {
      // Turn the triangle so that its edge (v0, v1) is split and, for two splits, (v1, v2) too.
      int r = 0;
      while (!(m[r] >= 0 && (splits == 1 || m[(r + 1) % 3] >= 0))) ++r;
      const int v0 = tri[r], v1 = tri[(r + 1) % 3], v2 = tri[(r + 2) % 3];
      const int m01 = m[r], m12 = m[(r + 1) % 3];
      if (splits == 1) {
        finer.push_back({v0, m01, v2});
        finer.push_back({m01, v1, v2});
      } else {
        // The corner at v1, then the quad v0, m01, m12, v2 cut along its shorter diagonal.
        finer.push_back({m01, v1, m12});
        const auto& x = mesh.vertices;
        if ((x[v0] - x[m12]).squaredNorm() <= (x[m01] - x[v2]).squaredNorm()) {
          finer.push_back({v0, m01, m12});
          finer.push_back({v0, m12, v2});
        } else {
          finer.push_back({v0, m01, v2});
          finer.push_back({m01, m12, v2});
        }
      }
    }
  }
  mesh.triangles = std::move(finer);
  return true;
}

TriangleMesh refinedMeshSurface(TriangleMesh mesh, double maxEdgeLength, const std::string& source) {
  // No triangle with edges up to maxEdgeLength is larger than the equilateral one: the surface's
  // area over that one's is a least count, known before any work.
  double area = 0.0;
  for (const auto& [a, b, c] : mesh.triangles)
    area += 0.5 * (mesh.vertices[b] - mesh.vertices[a]).cross(mesh.vertices[c] - mesh.vertices[a]).norm();
  if (const double least = area / (std::sqrt(3.0) / 4.0 * maxEdgeLength * maxEdgeLength);
      least > static_cast<double>(kMaxRefinedTriangles))
    tooManyTriangles(least, maxEdgeLength, source);
  // A pass halves every long edge, and the edges it adds (medians, half edges, a quad's diagonal)
  // are shorter than the longest edge of the triangle they cut, by a factor of at most about 0.87
  // once they exceed maxEdgeLength, so the loop ends. The triangle limit stops a length far below
  // the mesh's size.
  while (splitLongEdges(mesh, maxEdgeLength, source)) {
  }
  return mesh;
}

}  // namespace
}  // namespace deformable_shape_impl

double regularTetrahedronEdge(double volume) { return std::cbrt(6.0 * std::numbers::sqrt2 * volume); }

double solidVolume(const DeformableSolid& solid, const std::string& source) {
  deformable_shape_impl::checkSolid(solid, source);
  if (const auto* sphere = std::get_if<SphereShape>(&solid)) return 4.0 / 3.0 * deformable_shape_impl::kPi * std::pow(sphere->radius, 3);
  if (const auto* box = std::get_if<BoxShape>(&solid)) return 8.0 * box->halfExtents.prod();
  if (const auto* capsule = std::get_if<CapsuleShape>(&solid)) {
    const double r = capsule->radius;
    return deformable_shape_impl::kPi * r * r * (2.0 * capsule->halfLength + 4.0 / 3.0 * r);
  }
  return integrateMassProperties(std::get<TriangleMesh>(solid)).volume;
}

TriangleMesh refinedSurface(const DeformableSolid& solid, double maxEdgeLength, const std::string& source) {
  deformable_shape_impl::checkSolid(solid, source);
  deformable_shape_impl::requirePositive(maxEdgeLength, "the longest surface edge", source);
  if (const auto* sphere = std::get_if<SphereShape>(&solid))
    return deformable_shape_impl::fittedCapsuleSurface(sphere->radius, 0.0, maxEdgeLength, source);
  if (const auto* capsule = std::get_if<CapsuleShape>(&solid))
    return deformable_shape_impl::fittedCapsuleSurface(capsule->radius, capsule->halfLength, maxEdgeLength, source);
  if (const auto* box = std::get_if<BoxShape>(&solid)) {
    // A spacing of maxEdgeLength / sqrt(2) along each axis keeps each cell's diagonal within it.
    std::array<int, 3> cells;
    double count = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
      const double steps = std::ceil(2.0 * box->halfExtents[axis] * std::numbers::sqrt2 / maxEdgeLength);
      count += 4.0 * steps * std::ceil(2.0 * box->halfExtents[(axis + 1) % 3] * std::numbers::sqrt2 / maxEdgeLength);
      if (steps > static_cast<double>(kMaxRefinedTriangles)) deformable_shape_impl::tooManyTriangles(steps * steps, maxEdgeLength, source);
      cells[axis] = std::max(1, static_cast<int>(steps));
    }
    if (count > static_cast<double>(kMaxRefinedTriangles)) deformable_shape_impl::tooManyTriangles(count, maxEdgeLength, source);
    return deformable_shape_impl::boxSurface(box->halfExtents, cells);
  }
  return deformable_shape_impl::refinedMeshSurface(std::get<TriangleMesh>(solid), maxEdgeLength, source);
}

TetMesh tetrahedralizeShape(const DeformableSolid& solid, double maxTetVolume, const std::string& source,
                            const TetgenSettings& settings) {
  deformable_shape_impl::requirePositive(maxTetVolume, "the maximum tetrahedron volume", source);
  const TriangleMesh surface = refinedSurface(solid, regularTetrahedronEdge(maxTetVolume), source);
  TetgenSettings limited = settings;
  limited.maxVolume = maxTetVolume;
  Tetrahedralization tets = tetrahedralize(surface, limited, source);
  return {std::move(tets.vertices), std::move(tets.tetrahedra)};
}

double defaultMaxTetVolume(double solidVolume) { return solidVolume / kDefaultTetsPerSolid; }

}  // namespace contactlab
