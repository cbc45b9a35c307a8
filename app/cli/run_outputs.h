#pragma once
// The CSV files `run` writes after every step (formats in README.md, "CSV outputs").
#include <optional>

#include "args.h"
#include "contactlab/world.h"
#include "io/csv_writer.h"
#include "io/vtk_writer.h"

namespace contactlab::cli {

class RunOutputs {
 public:
  // Opens the files named in `paths` (empty names are skipped); throws naming a file it cannot open.
  explicit RunOutputs(const OutputPaths& paths);
  // What comes before the first step: the VTK series' first frame, the state the run starts from.
  void recordStart(const World& world);
  // One step's rows; `stepMs` is the wall time of World::step alone.
  void record(const World& world, double stepMs);
  // Flushes every file, throwing if one could not be written.
  void close();

 private:
  void recordTrace(const World& world, int step, double time);
  void recordMetrics(const World& world, int step, double time, double stepMs);
  void recordResiduals(const World& world, int step);
  void recordContacts(const World& world, int step);

  void dumpProblem(const World& world, int step);
  void recordVtk(const World& world, double time);

  std::optional<CsvWriter> trace_, metrics_, residuals_, contacts_;
  std::string dumpDirectory_;  // empty: no problem files
  std::optional<VtkSeriesWriter> vtk_;
  int vtkEvery_ = 1;
};

}  // namespace contactlab::cli
