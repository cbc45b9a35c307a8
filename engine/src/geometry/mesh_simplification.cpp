#include "geometry/mesh_simplification.h"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <queue>
#include <vector>

namespace contactlab {
namespace {

using Quadric = Eigen::Matrix4d;

// Cost of putting a vertex at x under quadric q: the summed squared distances to its planes.
double quadricError(const Quadric& q, const Vec3& x) {
  const Eigen::Vector4d h(x.x(), x.y(), x.z(), 1.0);
  return h.dot(q * h);
}

struct Candidate {
  double cost;
  int keep, remove;
  int keepStamp, removeStamp;  // the vertices' versions when costed; a later change makes this stale
  Vec3 position;
  bool operator>(const Candidate& other) const { return cost > other.cost; }
};

class Simplifier {
 public:
  Simplifier(const TriangleMesh& mesh, double maxEdgeLength)
      : maxEdgeLength_(maxEdgeLength), positions_(mesh.vertices), triangles_(mesh.triangles), triangleAlive_(mesh.triangles.size(), true),
        trianglesAt_(mesh.vertices.size()), quadrics_(mesh.vertices.size(), Quadric::Zero()),
        stamps_(mesh.vertices.size(), 0), aliveTriangles_(static_cast<int>(mesh.triangles.size())),
        aliveVertices_(static_cast<int>(mesh.vertices.size())) {
    for (std::size_t t = 0; t < triangles_.size(); ++t) {
      const auto& tri = triangles_[t];
      const Vec3 n = (positions_[tri[1]] - positions_[tri[0]]).cross(positions_[tri[2]] - positions_[tri[0]]);
      const double doubleArea = n.norm();
      if (doubleArea > 0.0) {
        const Vec3 unit = n / doubleArea;
        const Eigen::Vector4d plane(unit.x(), unit.y(), unit.z(), -unit.dot(positions_[tri[0]]));
        // Area weighting: large flat faces hold their plane more firmly than slivers do.
        const Quadric q = 0.5 * doubleArea * plane * plane.transpose();
        for (const int v : tri) quadrics_[v] += q;
      }
      for (const int v : tri) trianglesAt_[v].push_back(static_cast<int>(t));
    }
    for (int v = 0; v < static_cast<int>(positions_.size()); ++v)
      for (const int w : neighbours(v))
        if (v < w) push(v, w);
  }

  void run(int targetTriangles) {
    while (aliveTriangles_ > targetTriangles && !heap_.empty()) {
      const Candidate c = heap_.top();
      heap_.pop();
      if (stamps_[c.keep] != c.keepStamp || stamps_[c.remove] != c.removeStamp) continue;
      collapse(c);
    }
  }

  TriangleMesh result() const {
    TriangleMesh out;
    std::vector<int> index(positions_.size(), -1);
    for (std::size_t t = 0; t < triangles_.size(); ++t) {
      if (!triangleAlive_[t]) continue;
      std::array<int, 3> tri;
      for (int k = 0; k < 3; ++k) {
        int& i = index[triangles_[t][k]];
        if (i < 0) {
          i = static_cast<int>(out.vertices.size());
          out.vertices.push_back(positions_[triangles_[t][k]]);
        }
        tri[k] = i;
      }
      out.triangles.push_back(tri);
    }
    return out;
  }

 private:
  std::vector<int> neighbours(int v) const {
    std::vector<int> out;
    for (const int t : trianglesAt_[v])
      for (const int w : triangles_[t])
        if (w != v) out.push_back(w);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // The best place for the merged vertex: the quadric's minimum when it is well defined, else the
  // best of the two ends and the midpoint.
  void push(int a, int b) {
    const Quadric q = quadrics_[a] + quadrics_[b];
    std::vector<Vec3> options = {positions_[a], positions_[b], 0.5 * (positions_[a] + positions_[b])};
    const Mat3 system = q.topLeftCorner<3, 3>();
    const Eigen::FullPivLU<Mat3> lu(system);
    if (lu.rank() == 3 && std::abs(system.determinant()) > 1e-12 * std::pow(system.norm(), 3)) {
      const Vec3 optimum = lu.solve(-q.topRightCorner<3, 1>());
      // Only near the edge: far away, an ill-conditioned quadric could throw the vertex off the surface.
      if ((optimum - options[2]).norm() <= (positions_[a] - positions_[b]).norm()) options.push_back(optimum);
    }
    Candidate best{std::numeric_limits<double>::infinity(), a, b, stamps_[a], stamps_[b], Vec3::Zero()};
    for (const Vec3& x : options)
      if (const double cost = quadricError(q, x); cost < best.cost) {
        best.cost = cost;
        best.position = x;
      }
    heap_.push(best);
  }

  bool collapseKeepsSurfaceValid(int keep, int remove, const Vec3& position) const {
    if (aliveVertices_ <= 4) return false;  // a tetrahedron is the smallest closed surface
    // Link condition: the ends' common neighbours are exactly the two vertices across the edge.
    const std::vector<int> a = neighbours(keep), b = neighbours(remove);
    std::vector<int> common;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
    if (common.size() != 2) return false;
    // The merged vertex's edges: to every neighbour of either end.
    for (const std::vector<int>* around : {&a, &b})
      for (const int w : *around)
        if (w != keep && w != remove && (positions_[w] - position).norm() > maxEdgeLength_) return false;
    // No remaining triangle may turn over or degenerate.
    for (const int end : {keep, remove})
      for (const int t : trianglesAt_[end]) {
        const auto& tri = triangles_[t];
        if (std::find(tri.begin(), tri.end(), keep) != tri.end() && std::find(tri.begin(), tri.end(), remove) != tri.end())
          continue;  // disappears
        std::array<Vec3, 3> before, after;
        for (int k = 0; k < 3; ++k) {
          before[k] = positions_[tri[k]];
          after[k] = tri[k] == end ? position : before[k];
        }
        const Vec3 oldNormal = (before[1] - before[0]).cross(before[2] - before[0]);
        const Vec3 newNormal = (after[1] - after[0]).cross(after[2] - after[0]);
        const double longestSquared = std::max({(after[1] - after[0]).squaredNorm(), (after[2] - after[1]).squaredNorm(),
                                                (after[0] - after[2]).squaredNorm()});
        if (newNormal.norm() <= 1e-12 * longestSquared) return false;  // would degenerate
        // A sliver (marching tetrahedra leaves some, where the surface passes near a grid point) has
        // no direction to keep; any other triangle must not turn by more than about 78 degrees.
        const bool sliver = oldNormal.norm() <= 1e-12 * longestSquared;
        if (!sliver && newNormal.dot(oldNormal) <= 0.2 * newNormal.norm() * oldNormal.norm()) return false;
      }
    return true;
  }

  void collapse(const Candidate& c) {
    if (!collapseKeepsSurfaceValid(c.keep, c.remove, c.position)) return;
    for (const int t : trianglesAt_[c.remove]) {
      auto& tri = triangles_[t];
      if (std::find(tri.begin(), tri.end(), c.keep) != tri.end()) {
        triangleAlive_[t] = false;
        --aliveTriangles_;
        for (const int v : tri)
          if (v != c.keep && v != c.remove) std::erase(trianglesAt_[v], t);
        std::erase(trianglesAt_[c.keep], t);
      } else {
        std::replace(tri.begin(), tri.end(), c.remove, c.keep);
        trianglesAt_[c.keep].push_back(t);
      }
    }
    trianglesAt_[c.remove].clear();
    --aliveVertices_;
    positions_[c.keep] = c.position;
    quadrics_[c.keep] += quadrics_[c.remove];
    // Every queued collapse of either end is now stale; only the kept vertex's edges changed cost
    // (no other quadric changed), so only they are queued again.
    ++stamps_[c.keep];
    ++stamps_[c.remove];
    for (const int w : neighbours(c.keep)) push(c.keep, w);
  }

  double maxEdgeLength_;
  std::vector<Vec3> positions_;
  std::vector<std::array<int, 3>> triangles_;
  std::vector<bool> triangleAlive_;
  std::vector<std::vector<int>> trianglesAt_;
  std::vector<Quadric> quadrics_;
  std::vector<int> stamps_;
  int aliveTriangles_, aliveVertices_;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap_;
};

}  // namespace

TriangleMesh simplifyMesh(const TriangleMesh& mesh, int targetTriangles, double maxEdgeLength) {
  Simplifier simplifier(mesh, maxEdgeLength);
  simplifier.run(targetTriangles);
  return simplifier.result();
}

}  // namespace contactlab
