#pragma once
// The app's state without any window: the world being simulated, where it came from, the live
// solver settings, the pacing of steps per frame and the per-step history the plots draw.
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contactlab/world.h"
#include "core/scene_source.h"

namespace contactlab::app {

// What one step reports, as plotted and exported.
struct StepSample {
  int step = 0;
  double time = 0.0;
  int iterations = 0;          // the rigid solve's
  double residual = 0.0;
  bool converged = false;
  int rollbacks = 0;
  double kinetic = 0.0, potential = 0.0, total = 0.0;  // total: kinetic + potential + elastic
  int contacts = 0;
  double maxPenetration = 0.0;
  double collisionMs = 0.0, assemblyMs = 0.0, solveMs = 0.0, integrateMs = 0.0, stabilizeMs = 0.0, stepMs = 0.0;
  double elastic = 0.0;    // of the deformable bodies (0 without them)
  int crIterations = 0;    // the deformable bodies' CR solve (StepMetrics::deformable)
  int crRelinearizations = 0;  // of the same solve: re-linearizations that changed a constraint
  int crActiveSetChanges = 0;  // and constraint state changes kept
};

// Per-step samples; the most recent `capacity` are kept.
class PlotHistory {
 public:
  explicit PlotHistory(std::size_t capacity = 20000);
  void add(const StepSample& sample);
  void clear();
  const std::deque<StepSample>& samples() const { return samples_; }
  std::size_t capacity() const { return capacity_; }
  // One field of every sample, oldest first: a plot series (e.g. values(&StepSample::kinetic)).
  std::vector<double> values(double StepSample::*field) const;
  std::vector<double> values(int StepSample::*field) const;

 private:
  std::size_t capacity_;
  std::deque<StepSample> samples_;
};

enum class Pacing { RealTime, FixedStepsPerFrame };

class SimulationSession {
 public:
  SimulationSession();
  ~SimulationSession();

  // Builds the world from a source. On failure the current world (if any) stays and the message is
  // returned (it names the file or scene and the key, value or body at fault). Solver settings, and
  // the time step and friction when they were set here, are kept. Clears the history.
  std::optional<std::string> load(const SceneSource& source);
  // The current source again (re-reads a file): also "reset".
  std::optional<std::string> reload();
  bool hasWorld() const { return world_ != nullptr; }
  // Only with hasWorld().
  const World& world() const { return *world_; }
  World& world() { return *world_; }
  const SceneSource& source() const { return source_; }

  // n steps; samples go into history(). An engine error (non-finite state) pauses the session and
  // returns the message; so does stepping without a world.
  std::optional<std::string> step(int n = 1);
  bool paused() const { return paused_; }
  void setPaused(bool paused);

  Pacing pacing = Pacing::RealTime;
  double realTimeFactor = 1.0;
  int stepsPerFrame = 1;
  int maxStepsPerFrame = 50;
  // Steps to take for a frame that took wallSeconds (0 while paused or without a world): RealTime
  // accumulates wallSeconds*realTimeFactor and takes floor(acc/dt) steps, at most maxStepsPerFrame
  // (the excess is dropped, so a slow machine runs slower than real time instead of spiralling);
  // FixedStepsPerFrame takes stepsPerFrame.
  int stepsForFrame(double wallSeconds);

  // Live settings: applied to the world now, effective on its next step; kept across loads.
  // Each returns the error text for invalid values and then changes nothing.
  std::optional<std::string> setSettings(const WorldSettings& settings);
  const WorldSettings& settings() const { return worldSettings_; }
  std::optional<std::string> setFrictionDefaults(const FrictionDefaults& defaults);
  // The world's friction defaults (the scene's unless set here).
  FrictionDefaults frictionDefaults() const;
  std::optional<std::string> setDt(double dt);
  // The time step set with setDt, which replaces every loaded scene's own; nullopt: the scene's.
  const std::optional<double>& dtOverride() const { return dtOverride_; }
  // Forget setDt: the next load uses the scene's time step.
  void useSceneDt() { dtOverride_.reset(); }

  // The current state as a scene file (World::snapshot) that load() runs on from.
  std::optional<std::string> saveState(const std::string& path) const;

  const PlotHistory& history() const { return history_; }
  // Residual per iteration of the last solve, r-factors, rollbacks; empty before the first step.
  const SolveReport& lastSolve() const;

  // CSV (header row first) of every plotted series: the per-step history, and the last solve's
  // residual curve (iteration,residual,r_factor_scale).
  std::optional<std::string> exportHistoryCsv(const std::string& path) const;
  std::optional<std::string> exportLastSolveCsv(const std::string& path) const;

 private:
  std::unique_ptr<World> world_;
  SceneSource source_;
  WorldSettings worldSettings_;
  std::optional<FrictionDefaults> frictionOverride_;
  std::optional<double> dtOverride_;
  PlotHistory history_;
  bool paused_ = false;
  double accumulatedSeconds_ = 0.0;  // simulated time owed to the wall clock (RealTime pacing)
};

}  // namespace contactlab::app
