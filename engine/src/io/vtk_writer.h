#pragma once
// Simulation frames for ParaView: one VTK XML UnstructuredGrid (.vtu, ASCII) per frame holding every
// body, and a .pvd collection listing the frames with their times (VTK file formats, "XML File
// Formats": UnstructuredGrid and Collection).
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

// One body of a frame, in world coordinates. A deformable body gives its tetrahedra (VTK cell type
// 10) and their von Mises stress; a rigid body its surface triangles (type 5), whose stress is 0.
// Indices are into `points`. Empty velocities or stresses are written as zeros.
struct VtkBody {
  std::string name;
  std::vector<Vec3> points;
  std::vector<Vec3> velocities;  // one per point, or empty
  std::vector<std::array<int, 4>> tetrahedra;
  std::vector<double> tetStress;  // von Mises, one per tetrahedron, or empty
  std::vector<std::array<int, 3>> triangles;
};

// Writes <directory>/<baseName>_<frame>.vtu (frame numbered from 000000) and <directory>/<baseName>.pvd.
// In a frame, the bodies' points follow one another in the order given, and so do their cells (each
// body's tetrahedra, then its triangles). Point data "velocity" (3 components); cell data "stress"
// and "body" (the body's index in the list; a comment at the top of the file names them). Each file
// is written under a temporary name and renamed, and the .pvd is rewritten after every frame, so a
// run cut short leaves a valid series of the frames written so far.
class VtkSeriesWriter {
 public:
  // Creates the directory (with its parents) if missing; throws std::runtime_error naming it when it
  // cannot, and std::invalid_argument for an empty base name or one holding a '/'.
  VtkSeriesWriter(std::filesystem::path directory, std::string baseName);

  // Throws std::invalid_argument naming the body for an index out of range, a velocity or stress
  // count that matches neither zero nor its points or tetrahedra, or a time that is not finite, and
  // std::runtime_error naming the file when it cannot be written.
  void writeFrame(double time, const std::vector<VtkBody>& bodies);

  std::filesystem::path collectionPath() const { return directory_ / (baseName_ + ".pvd"); }
  // The file of frame `index` (from 0).
  std::filesystem::path framePath(std::size_t index) const;
  std::size_t frameCount() const { return times_.size(); }

 private:
  std::filesystem::path directory_;
  std::string baseName_;
  std::vector<double> times_;  // of the frames written, in order
};

}  // namespace contactlab
