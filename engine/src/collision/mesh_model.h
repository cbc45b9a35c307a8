#pragma once
// What the narrowphase knows of a mesh: kDOP trees over its surface vertices, surface triangles
// and tetrahedra (all in the body frame, built once since bodies are rigid), and the queries the
// mesh pairs ask of them. A World keeps one model per distinct MeshGeometry (MeshModelCache).
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>

#include "collision/kdop_tree.h"
#include "contactlab/mesh.h"

namespace contactlab {

class MeshCollisionModel {
 public:
  // Throws std::invalid_argument naming the mesh's source if it has no surface or no tetrahedra,
  // an index out of range or a vertex that is not finite.
  MeshCollisionModel(std::shared_ptr<const MeshGeometry> geometry, int k);

  const MeshGeometry& geometry() const { return *geometry_; }
  // The points by which this mesh touches others (contact_points in mesh_model.cpp): the surface's
  // vertices, then points along its long edges. Their indices are the contacts' features.
  const std::vector<Vec3>& contactPoints() const { return contactPoints_; }
  const KdopTree& vertexTree() const { return vertexTree_; }      // over contactPoints()
  const KdopTree& triangleTree() const { return triangleTree_; }  // the surface's triangles
  const KdopTree& tetrahedronTree() const { return tetrahedronTree_; }

  // A body-frame point's path point + t move, t in [0, 1] (a point alone by default), with its
  // projections on tetrahedronTree()'s axes, for the tests below: formed once per point, which is
  // then tested against a leaf's kDOP and each of its tetrahedra.
  struct PointPath {
    Vec3 point;
    Vec3 move;
    PathProjections onAxes;
  };
  PointPath pathOf(const Vec3& point, const Vec3& move = Vec3::Zero()) const {
    return {point, move, projectPathOnAxes(tetrahedronTree_.axisComponents(), point, move)};
  }

  // False when every point of the path is certainly farther than `distance` from every
  // tetrahedron that a kDOP over tetrahedronTree()'s axes holds (one tetrahedron's own, or a
  // leaf's), and then `bound` is a lower bound of the distance from each point of the path (so
  // from its start too) to each of them. The slack covers rounding, so a point on a tetrahedron's
  // boundary is never rejected.
  bool mayBeNearTetrahedra(const Kdop& bounds, const PointPath& path, double distance, double& bound) const {
    if (bounds.mayBeWithin(path.onAxes, distance + roundingSlack_, bound)) return true;
    bound -= roundingSlack_;
    return false;
  }

  // The same for tetrahedron t alone: a per-primitive test after a tree query that reports whole
  // leaves. After its kDOP, the tetrahedron's own face planes: a thin, slanted tetrahedron (a
  // funnel's wall) fills a small part of its kDOP.
  bool mayBeNearTetrahedron(int t, const PointPath& path, double distance, double& bound) const {
    if (!mayBeNearTetrahedra(tetrahedronBounds_[t], path, distance, bound)) return false;
    const double faceBound = tetrahedronFaces_[t].distanceBound(path.point, path.move);
    if (faceBound <= distance + roundingSlack_) return true;
    bound = faceBound - roundingSlack_;
    return false;
  }

  // Whether a body-frame point lies in the solid (in one of its tetrahedra, boundary included).
  bool contains(const Vec3& point) const;

  struct SurfacePoint {
    Vec3 point;          // body frame
    Vec3 outwardNormal;  // body frame, unit
    double distance;     // signed distance of the query point to the surface: negative inside
  };
  // The surface point nearest to a body-frame point that is inside the solid or within `reach`
  // of its surface; nothing for a point farther out. The normal is the nearest triangle's when
  // the nearest point is inside that face, else the direction between the two points (the
  // surface's normal in the sense of closest points at an edge or a vertex).
  std::optional<SurfacePoint> closestSurfacePoint(const Vec3& point, double reach) const;

 private:
  std::shared_ptr<const MeshGeometry> geometry_;
  // A tetrahedron's four face planes, outward unit normals: max_i (normal_i . p - offset_i) is a
  // lower bound of the distance from p to the tetrahedron (0 or less inside), as for any convex
  // polytope. distanceBound(p, d) is such a bound for every point of the path p + t d, t in [0, 1]:
  // each plane's term is linear along it, so the path's smallest is at one of its ends.
  struct FacePlanes {
    std::array<Vec3, 4> normal;
    std::array<double, 4> offset;
    double distanceBound(const Vec3& p, const Vec3& d) const {
      auto nearestEnd = [&](int i) { return normal[i].dot(p) - offset[i] + std::min(0.0, normal[i].dot(d)); };
      return std::max(std::max(nearestEnd(0), nearestEnd(1)), std::max(nearestEnd(2), nearestEnd(3)));
    }
  };
  static std::vector<FacePlanes> tetrahedronFacePlanes(const MeshGeometry& geometry);
  static std::vector<Vec3> contactPointsOf(const MeshGeometry& geometry);
  std::vector<Kdop> tetrahedronBounds_;  // each tetrahedron's own kDOP, body frame
  std::vector<FacePlanes> tetrahedronFaces_;  // body frame
  double roundingSlack_;
  std::vector<Vec3> contactPoints_;
  KdopTree vertexTree_;
  KdopTree triangleTree_;
  KdopTree tetrahedronTree_;
  std::vector<Vec3> triangleNormals_;  // unit, outward
};

// One collision model per distinct MeshGeometry (keyed by its address; the cache holds the
// geometry, so the address stays valid), built with the World's kDOP setting.
class MeshModelCache {
 public:
  explicit MeshModelCache(int k = kDefaultKdop);

  int k() const { return k_; }
  // A different k drops every model; they are rebuilt on the next prepare().
  void setK(int k);
  // Builds the geometry's model if the cache has none yet. Call for every mesh body before the
  // narrowphase, which then only reads the cache (so pairs can run in parallel).
  const MeshCollisionModel& prepare(const std::shared_ptr<const MeshGeometry>& geometry);
  // The model prepare() built; throws std::logic_error if there is none.
  const MeshCollisionModel& model(const MeshGeometry& geometry) const;

 private:
  int k_;
  std::map<const MeshGeometry*, std::unique_ptr<const MeshCollisionModel>> models_;
};

}  // namespace contactlab
