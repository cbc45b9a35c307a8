#include "core/simulation_session.h"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <stdexcept>

namespace contactlab::app {
namespace {

// Shortest text that reads back to the same double, as the CLI's CSV files do.
void appendNumber(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void appendNumber(std::string& out, int value) { out += std::to_string(value); }

// ",a,b,c": the fields after the first of a CSV row.
template <typename... Values>
void appendFields(std::string& out, Values... values) {
  ((out += ',', appendNumber(out, values)), ...);
}

std::optional<std::string> writeTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return path + ": cannot open for writing: " + std::strerror(errno);
  out << text;
  out.flush();
  if (!out) return path + ": write failed: " + std::strerror(errno);
  return std::nullopt;
}

// Scene errors from a file name it; errors the world raises while checking a file's values
// (e.g. a bad dt) do not, so they get the file name in front.
std::string nameTheSource(const SceneSource& source, const std::string& message) {
  if (source.isFile() && message.find(source.filePath) == std::string::npos) return source.filePath + ": " + message;
  if (!source.isFile() && message.find(source.builtinName) == std::string::npos)
    return "scene " + source.builtinName + ": " + message;
  return message;
}

StepSample sampleOf(const World& world) {
  const StepMetrics& metrics = world.lastMetrics();
  StepSample sample;
  sample.step = world.stepCount();
  sample.time = world.time();
  sample.iterations = metrics.solve.iterations;
  sample.residual = metrics.solve.residual;
  sample.converged = metrics.solve.converged();
  sample.rollbacks = metrics.solve.rollbacks;
  sample.kinetic = metrics.kineticEnergy;
  sample.potential = metrics.potentialEnergy;
  sample.elastic = metrics.elasticEnergy;
  sample.total = metrics.kineticEnergy + metrics.potentialEnergy + metrics.elasticEnergy;
  sample.crIterations = metrics.deformable.iterations;
  sample.crRelinearizations = metrics.deformable.relinearizations;
  sample.crActiveSetChanges = metrics.deformable.activeSetChanges;
  sample.contacts = metrics.contacts;
  sample.maxPenetration = metrics.maxPenetration;
  sample.collisionMs = metrics.ms(Stage::Collision);
  sample.assemblyMs = metrics.ms(Stage::Assembly);
  sample.solveMs = metrics.ms(Stage::Solve);
  sample.integrateMs = metrics.ms(Stage::Integrate);
  sample.stabilizeMs = metrics.ms(Stage::Stabilize);
  sample.stepMs = metrics.stepMs;
  return sample;
}

}  // namespace

PlotHistory::PlotHistory(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {}

void PlotHistory::add(const StepSample& sample) {
  if (samples_.size() == capacity_) samples_.pop_front();
  samples_.push_back(sample);
}

void PlotHistory::clear() { samples_.clear(); }

std::vector<double> PlotHistory::values(double StepSample::*field) const {
  std::vector<double> out;
  out.reserve(samples_.size());
  for (const StepSample& sample : samples_) out.push_back(sample.*field);
  return out;
}

std::vector<double> PlotHistory::values(int StepSample::*field) const {
  std::vector<double> out;
  out.reserve(samples_.size());
  for (const StepSample& sample : samples_) out.push_back(sample.*field);
  return out;
}

SimulationSession::SimulationSession() = default;
SimulationSession::~SimulationSession() = default;

std::optional<std::string> SimulationSession::load(const SceneSource& source) {
  std::unique_ptr<World> loaded;
  try {
    loaded = std::make_unique<World>(source.build(), worldSettings_);
    if (dtOverride_) loaded->setDt(*dtOverride_);
    if (frictionOverride_) loaded->setFrictionDefaults(*frictionOverride_);
  } catch (const std::exception& error) {
    return nameTheSource(source, error.what());
  }
  world_ = std::move(loaded);
  source_ = source;
  history_.clear();
  accumulatedSeconds_ = 0.0;
  return std::nullopt;
}

std::optional<std::string> SimulationSession::reload() {
  if (source_.builtinName.empty() && !source_.isFile()) return "no scene loaded yet: nothing to reload";
  return load(source_);
}

std::optional<std::string> SimulationSession::step(int n) {
  if (!world_) return "no scene loaded: load a scene before stepping";
  for (int i = 0; i < n; ++i) {
    try {
      world_->step();
    } catch (const std::exception& error) {
      paused_ = true;
      return error.what();
    }
    history_.add(sampleOf(*world_));
  }
  return std::nullopt;
}

void SimulationSession::setPaused(bool paused) {
  // Time spent paused is not owed to the simulation.
  if (paused != paused_) accumulatedSeconds_ = 0.0;
  paused_ = paused;
}

int SimulationSession::stepsForFrame(double wallSeconds) {
  if (paused_ || !world_) return 0;
  if (pacing == Pacing::FixedStepsPerFrame) return std::max(stepsPerFrame, 0);
  if (std::isfinite(wallSeconds) && wallSeconds > 0.0 && std::isfinite(realTimeFactor) && realTimeFactor > 0.0)
    accumulatedSeconds_ += wallSeconds * realTimeFactor;
  const double dt = world_->dt();
  // The slack keeps 0.03 / 0.01 from flooring to 2.
  const double owed = std::floor(accumulatedSeconds_ / dt + 1e-9);
  accumulatedSeconds_ = std::max(accumulatedSeconds_ - owed * dt, 0.0);
  return static_cast<int>(std::min(owed, static_cast<double>(std::max(maxStepsPerFrame, 0))));
}

std::optional<std::string> SimulationSession::setSettings(const WorldSettings& settings) {
  try {
    if (world_) {
      world_->setSettings(settings);
    } else {
      // A world without bodies checks the settings exactly as the engine does.
      World(Scene{}, settings);
    }
  } catch (const std::exception& error) {
    return std::string("solver settings: ") + error.what();
  }
  worldSettings_ = settings;
  return std::nullopt;
}

std::optional<std::string> SimulationSession::setFrictionDefaults(const FrictionDefaults& defaults) {
  try {
    if (world_) {
      world_->setFrictionDefaults(defaults);
    } else {
      World(Scene{}).setFrictionDefaults(defaults);
    }
  } catch (const std::exception& error) {
    return std::string("friction: ") + error.what();
  }
  frictionOverride_ = defaults;
  return std::nullopt;
}

FrictionDefaults SimulationSession::frictionDefaults() const {
  if (world_) return world_->frictionDefaults();
  return frictionOverride_.value_or(FrictionDefaults{});
}

std::optional<std::string> SimulationSession::setDt(double dt) {
  if (!(std::isfinite(dt) && dt > 0.0)) return "time step: dt must be positive and finite (got " + std::to_string(dt) + ")";
  if (world_) world_->setDt(dt);
  dtOverride_ = dt;
  accumulatedSeconds_ = 0.0;
  return std::nullopt;
}

std::optional<std::string> SimulationSession::saveState(const std::string& path) const {
  if (!world_) return path + ": no scene loaded, nothing to save";
  try {
    saveSceneFile(world_->snapshot(), path);
  } catch (const std::exception& error) {
    const std::string message = error.what();
    return message.find(path) == std::string::npos ? path + ": " + message : message;
  }
  return std::nullopt;
}

const SolveReport& SimulationSession::lastSolve() const {
  static const SolveReport kNoSolve;
  return world_ ? world_->lastMetrics().solve : kNoSolve;
}

std::optional<std::string> SimulationSession::exportHistoryCsv(const std::string& path) const {
  std::string text =
      "step,time,iterations,residual,converged,rollbacks,kinetic_energy,potential_energy,total_energy,contacts,"
      "max_penetration,collision_ms,assembly_ms,solver_ms,integrate_ms,stabilize_ms,step_ms,elastic_energy,"
      "cr_iterations,cr_relinearizations,cr_active_set_changes\n";
  for (const StepSample& s : history_.samples()) {
    appendNumber(text, s.step);
    appendFields(text, s.time);
    appendFields(text, s.iterations, s.residual, s.converged ? 1 : 0, s.rollbacks);
    appendFields(text, s.kinetic, s.potential, s.total, s.contacts, s.maxPenetration);
    appendFields(text, s.collisionMs, s.assemblyMs, s.solveMs, s.integrateMs, s.stabilizeMs, s.stepMs);
    appendFields(text, s.elastic, s.crIterations, s.crRelinearizations, s.crActiveSetChanges);
    text += '\n';
  }
  return writeTextFile(path, text);
}

std::optional<std::string> SimulationSession::exportLastSolveCsv(const std::string& path) const {
  const SolveReport& solve = lastSolve();
  std::string text = "iteration,residual,r_factor_scale\n";
  for (std::size_t i = 0; i < solve.residualHistory.size(); ++i) {
    appendNumber(text, static_cast<int>(i + 1));
    appendFields(text, solve.residualHistory[i]);
    text += ',';
    // The r-factor history has one entry per sweep when the solver records it.
    if (i < solve.rFactorHistory.size()) appendNumber(text, solve.rFactorHistory[i]);
    text += '\n';
  }
  return writeTextFile(path, text);
}

}  // namespace contactlab::app
