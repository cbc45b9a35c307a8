#include "run_outputs.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "dynamics/world_problem.h"
#include "geometry/procedural_meshes.h"
#include "io/fc3d_file.h"
#include "problem/delassus_problem.h"

namespace contactlab::cli {
namespace {

std::optional<CsvWriter> openIfNamed(const std::string& path, const std::vector<std::string_view>& header) {
  if (path.empty()) return std::nullopt;
  return std::optional<CsvWriter>(std::in_place, path, header);
}

void writeVec3(CsvWriter& csv, const Vec3& v) { csv.field(v.x()).field(v.y()).field(v.z()); }

}  // namespace

RunOutputs::RunOutputs(const OutputPaths& paths)
    : trace_(openIfNamed(paths.trace, {"step", "time", "body", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy",
                                       "vz", "wx", "wy", "wz"})),
      metrics_(openIfNamed(paths.metrics, {"step", "time", "bodies", "contacts", "iterations", "residual",
                                           "converged", "rollbacks", "kinetic_energy", "potential_energy",
                                           "max_penetration", "collision_ms", "assembly_ms", "solver_ms",
                                           "integrate_ms", "step_ms", "elastic_energy", "cr_iterations",
                                           "cr_all_iterations", "cr_islands", "cr_constraints",
                                           "cr_active_constraints", "cr_stalled"})),
      residuals_(openIfNamed(paths.residuals, {"step", "iteration", "residual", "solve"})),
      contacts_(openIfNamed(paths.contacts, {"step", "body_a", "body_b", "px", "py", "pz", "nx", "ny", "nz", "gap",
                                             "lambda_n", "lambda_t", "lambda_s", "lambda_tau", "state"})),
      dumpDirectory_(paths.dumpProblems),
      vtkEvery_(paths.vtkEvery) {
  if (!paths.vtk.empty()) vtk_.emplace(paths.vtk, "frames");
  if (dumpDirectory_.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(dumpDirectory_, error);
  if (error || !std::filesystem::is_directory(dumpDirectory_))
    throw std::runtime_error(dumpDirectory_ + ": cannot create the directory for --dump-problems" +
                             (error ? " (" + error.message() + ")" : std::string()));
}

// The step's problem as a Siconos FC3D file (force rows only, io/fc3d_file.h), for steps with contacts.
void RunOutputs::dumpProblem(const World& world, int step) {
  const ContactProblem& problem = lastContactProblem(world);
  if (problem.numContacts() == 0) return;
  char name[32];
  std::snprintf(name, sizeof name, "step-%06d.dat", step);
  writeFc3dFile(toDelassus(problem), (std::filesystem::path(dumpDirectory_) / name).string());
}

void RunOutputs::recordStart(const World& world) {
  if (vtk_) recordVtk(world, world.time());
}

void RunOutputs::record(const World& world, double stepMs) {
  const int step = world.stepCount();
  // The world's clock: step * dt from the scene's start, or on from a saved state's time.
  const double time = world.time();
  if (trace_) recordTrace(world, step, time);
  if (metrics_) recordMetrics(world, step, time, stepMs);
  if (residuals_) recordResiduals(world, step);
  if (contacts_) recordContacts(world, step);
  if (!dumpDirectory_.empty()) dumpProblem(world, step);
  if (vtk_ && step % vtkEvery_ == 0) recordVtk(world, time);
}

// Every body of the step: deformable ones as their tetrahedra with node velocities and element
// stress, rigid ones as their surfaces placed at their poses.
void RunOutputs::recordVtk(const World& world, double time) {
  std::vector<VtkBody> frame;
  const std::vector<Body>& bodies = world.bodies();
  for (const Body& body : bodies) {
    if (body.isDeformable()) continue;
    constexpr double kPlaneHalfSize = 10.0;  // metres of a plane shown
    const TriangleMesh surface = shapeSurface(body.shape, kPlaneHalfSize);
    VtkBody out;
    out.name = body.name;
    const Mat3 rotation = body.rotation();
    for (const Vec3& p : surface.vertices) {
      const Vec3 x = body.position + rotation * p;
      out.points.push_back(x);
      out.velocities.push_back(body.velocity + body.angularVelocity.cross(x - body.position));
    }
    out.triangles = surface.triangles;
    frame.push_back(std::move(out));
  }
  for (int i = 0; i < world.deformableBodyCount(); ++i) {
    const DeformableMeshView mesh = world.deformableBody(i);
    VtkBody out;
    out.name = bodies[mesh.body].name;
    out.points.assign(mesh.positions.begin(), mesh.positions.end());
    out.velocities.assign(mesh.velocities.begin(), mesh.velocities.end());
    out.tetrahedra.assign(mesh.tetrahedra.begin(), mesh.tetrahedra.end());
    out.tetStress = world.deformableStress(i);
    frame.push_back(std::move(out));
  }
  vtk_->writeFrame(time, frame);
}

void RunOutputs::recordTrace(const World& world, int step, double time) {
  const std::vector<Body>& bodies = world.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& body = bodies[i];
    if (!body.isDynamic() && !body.isDeformable()) continue;
    trace_->field(step).field(time).field(i);
    writeVec3(*trace_, body.position);
    const Quat& q = body.orientation;
    trace_->field(q.w()).field(q.x()).field(q.y()).field(q.z());
    writeVec3(*trace_, body.velocity);
    writeVec3(*trace_, body.angularVelocity);
    trace_->endRow();
  }
}

void RunOutputs::recordMetrics(const World& world, int step, double time, double stepMs) {
  const StepMetrics& m = world.lastMetrics();
  metrics_->field(step).field(time).field(m.bodies).field(m.contacts);
  metrics_->field(m.iterations()).field(m.solve.residual).field(int{m.solve.converged()}).field(m.solve.rollbacks);
  metrics_->field(m.kineticEnergy).field(m.potentialEnergy).field(m.maxPenetration);
  metrics_->field(m.ms(Stage::Collision)).field(m.ms(Stage::Assembly)).field(m.ms(Stage::Solve));
  metrics_->field(m.ms(Stage::Integrate)).field(stepMs).field(m.elasticEnergy);
  const bool deformable = world.deformableBodyCount() > 0;
  metrics_->field(m.deformable.iterations).field(m.deformable.allIterations).field(deformable ? m.deformable.islands : 0);
  metrics_->field(world.deformableConstraintCount()).field(m.deformableConstraints).field(int{m.deformable.stalled});
  metrics_->endRow();
}

void RunOutputs::recordResiduals(const World& world, int step) {
  const std::vector<double>& history = world.lastMetrics().solve.residualHistory;
  for (std::size_t i = 0; i < history.size(); ++i)
    residuals_->field(step).field(i + 1).field(history[i]).field("rigid").endRow();
  // The CR solve's ||r|| (cr_solver.h) of every iteration.
  const std::vector<double>& cr = world.lastMetrics().deformable.residualHistory;
  for (std::size_t i = 0; i < cr.size(); ++i) residuals_->field(step).field(i + 1).field(cr[i]).field("deformable").endRow();
}

void RunOutputs::recordContacts(const World& world, int step) {
  for (const ContactReport& c : world.contacts()) {
    contacts_->field(step).field(c.bodyA).field(c.bodyB);
    writeVec3(*contacts_, c.point);
    writeVec3(*contacts_, c.normal);
    contacts_->field(c.gap).field(c.lambda[0]).field(c.lambda[1]).field(c.lambda[2]).field(c.lambda[3]);
    contacts_->field(contactStateName(c.state)).endRow();
  }
}

void RunOutputs::close() {
  for (std::optional<CsvWriter>* file : {&trace_, &metrics_, &residuals_, &contacts_})
    if (*file) (*file)->close();
}

}  // namespace contactlab::cli
