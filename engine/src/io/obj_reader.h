#pragma once
// Wavefront OBJ surfaces, read with tinyobjloader (Debian libtinyobjloader-dev).
#include <string>

#include "contactlab/mesh.h"

namespace contactlab {

// Every face of every object in the file, polygons triangulated (tinyobjloader's fan), vertices at
// exactly the same position welded into one (exporters that write a vertex per face corner would
// otherwise leave the surface open) and vertices no face uses dropped. Texture coordinates, normals
// and materials are ignored. Throws MeshError naming the file: missing or unreadable, no faces,
// a coordinate that is not a finite number, a face index out of range.
TriangleMesh readObjFile(const std::string& path);

}  // namespace contactlab
