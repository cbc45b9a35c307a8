#pragma once
// Wall-clock timing of the step's stages (Box2D's b2Profile): one accumulator per Stage.
#include <chrono>

#include "contactlab/metrics.h"

namespace contactlab {

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  double elapsedMs() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }
  double elapsedSeconds() const { return elapsedMs() * 1e-3; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Adds the time from construction to destruction to metrics.stageMs[stage].
class ScopedStageTimer {
 public:
  ScopedStageTimer(StepMetrics& metrics, Stage stage) : metrics_(metrics), stage_(stage) {}
  ~ScopedStageTimer() { metrics_.stageMs[static_cast<int>(stage_)] += watch_.elapsedMs(); }
  ScopedStageTimer(const ScopedStageTimer&) = delete;
  ScopedStageTimer& operator=(const ScopedStageTimer&) = delete;

 private:
  StepMetrics& metrics_;
  Stage stage_;
  Stopwatch watch_;
};

}  // namespace contactlab
