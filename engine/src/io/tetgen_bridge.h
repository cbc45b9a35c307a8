#pragma once
// Tetrahedralizing a closed surface with the tetgen program (Debian package tetgen, TetGen 1.5),
// run as a subprocess on a temporary .smesh file; results are cached on disk.
#include <array>
#include <string>
#include <vector>

#include "contactlab/mesh.h"

namespace contactlab {

struct TetgenSettings {
  // -q: largest radius-edge ratio of a tetrahedron; tetgen adds interior points until every one
  // satisfies it (2.0 is tetgen's own default for -q; smaller is rounder and more tetrahedra).
  double radiusEdgeRatio = 2.0;
  double maxVolume = 0.0;  // -a: largest tetrahedron volume, 0 for no limit
  std::string executable = "/usr/bin/tetgen";
  // Where results are cached; empty: defaultMeshCacheDirectory().
  std::string cacheDirectory;
};

struct Tetrahedralization {
  std::vector<Vec3> vertices;  // starts with the surface's vertices, in order; interior points follow
  std::vector<std::array<int, 4>> tetrahedra;  // positively oriented
  bool fromCache = false;
};

// Runs `tetgen -pYzQ -q<ratio> [-a<volume>]` on the surface (-Y: the surface's triangles are kept,
// so no point is added on it). Throws MeshError naming `source` when the surface is not closed and
// oriented, tetgen is missing (naming its path), or tetgen fails (with its output, e.g. the
// self-intersection it found). A cached result for the same surface, settings and tetgen build is
// returned without running tetgen; an unreadable or inconsistent cache entry is rebuilt.
Tetrahedralization tetrahedralize(const TriangleMesh& surface, const TetgenSettings& settings, const std::string& source);

// $CONTACTLAB_CACHE_DIR if set, else $XDG_CACHE_HOME/contactlab, else ~/.cache/contactlab; empty
// when none of these can be formed (no caching then).
std::string defaultMeshCacheDirectory();

}  // namespace contactlab
