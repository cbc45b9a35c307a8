#include "geometry/mesh_mass_properties.h"

#include <map>
#include <sstream>
#include <utility>

#include <Eigen/Eigenvalues>

namespace contactlab {

void requireClosedOrientedSurface(const TriangleMesh& mesh, const std::string& source) {
  const auto fail = [&](const std::string& what) { throw MeshError(source + ": " + what); };
  if (mesh.triangles.empty()) fail("the mesh has no triangles");
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (!mesh.vertices[v].allFinite()) fail("vertex " + std::to_string(v + 1) + " (counted from 1) is not finite");
  const int vertexCount = static_cast<int>(mesh.vertices.size());
  // Triangles are counted from 1, as an OBJ file counts its faces (a file of triangles: face N is
  // triangle N); vertices are named by position, since an OBJ's are renumbered when welded.
  const auto triangleName = [](std::size_t t) { return "triangle " + std::to_string(t + 1); };
  const auto at = [&](int v) {
    std::ostringstream text;
    text << "(" << mesh.vertices[v].x() << ", " << mesh.vertices[v].y() << ", " << mesh.vertices[v].z() << ")";
    return text.str();
  };
  // Directed edge -> the triangle using it.
  std::map<std::pair<int, int>, std::size_t> edgeOwner;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int corner = 0; corner < 3; ++corner)
      if (tri[corner] < 0 || tri[corner] >= vertexCount)
        fail(triangleName(t) + " uses vertex index " + std::to_string(tri[corner]) + ", out of range [0, " +
             std::to_string(vertexCount) + ")");
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0])
      fail(triangleName(t) + " repeats a vertex (two of its corners are one point)");
    for (int corner = 0; corner < 3; ++corner) {
      const std::pair edge{tri[corner], tri[(corner + 1) % 3]};
      if (const auto [it, inserted] = edgeOwner.emplace(edge, t); !inserted)
        fail(triangleName(it->second) + " and " + triangleName(t) + " both run along the edge from " + at(edge.first) +
             " to " + at(edge.second) + " (inconsistent orientation, or more than two triangles on one edge)");
    }
  }
  for (const auto& [edge, triangle] : edgeOwner)
    if (!edgeOwner.contains({edge.second, edge.first}))
      fail("the surface is open: the edge from " + at(edge.first) + " to " + at(edge.second) + " of " + triangleName(triangle) +
           " has no neighbour");
}

MeshMassProperties integrateMassProperties(const TriangleMesh& mesh) {
  // Integrating about the vertex centroid instead of the origin keeps the sums small for a mesh far
  // from its origin (no cancellation in the parallel-axis shift below).
  Vec3 reference = Vec3::Zero();
  for (const Vec3& v : mesh.vertices) reference += v;
  reference /= static_cast<double>(mesh.vertices.size());

  double volume = 0.0;
  Vec3 firstMoment = Vec3::Zero();   // integral of x dV
  Mat3 secondMoment = Mat3::Zero();  // integral of x x^T dV (the covariance matrix)
  for (const auto& tri : mesh.triangles) {
    const Vec3 a = mesh.vertices[tri[0]] - reference;
    const Vec3 b = mesh.vertices[tri[1]] - reference;
    const Vec3 c = mesh.vertices[tri[2]] - reference;
    const double det = a.dot(b.cross(c));  // 6 x the signed volume of the tetrahedron (0, a, b, c)
    const Vec3 sum = a + b + c;
    volume += det / 6.0;
    firstMoment += det / 24.0 * sum;  // volume x centroid, the centroid being (0 + a + b + c) / 4
    // Tonon's covariance of a tetrahedron with one vertex at the origin:
    // det/120 (a a^T + b b^T + c c^T + (a + b + c)(a + b + c)^T).
    secondMoment += det / 120.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
  }
  MeshMassProperties out;
  out.volume = volume;
  const Vec3 centre = firstMoment / volume;
  out.centreOfMass = reference + centre;
  // Parallel axis theorem on the covariance, then I = tr(C) 1 - C.
  const Mat3 covariance = secondMoment - volume * centre * centre.transpose();
  out.inertiaAboutCentreOfMass = covariance.trace() * Mat3::Identity() - covariance;
  return out;
}

PrincipalAxes principalAxes(const Mat3& inertia) {
  const Mat3 symmetric = 0.5 * (inertia + inertia.transpose());
  const Mat3 offDiagonal = symmetric - Mat3(symmetric.diagonal().asDiagonal());
  if (offDiagonal.cwiseAbs().maxCoeff() <= kNearlyDiagonal * symmetric.trace())
    return {Mat3::Identity(), symmetric.diagonal()};
  const Eigen::SelfAdjointEigenSolver<Mat3> solver(symmetric);
  PrincipalAxes out{solver.eigenvectors(), solver.eigenvalues()};
  if (out.axes.determinant() < 0.0) out.axes.col(2) = -out.axes.col(2);  // a rotation, not a reflection
  return out;
}

}  // namespace contactlab
