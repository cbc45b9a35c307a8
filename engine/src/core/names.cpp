// Display names of the public enums, shared by the CLI, the CSV writers and the GUI.
#include "contactlab/body.h"
#include "contactlab/metrics.h"
#include "contactlab/solver_settings.h"
#include "contactlab/world.h"

namespace contactlab {

const char* stageName(Stage s) {
  switch (s) {
    case Stage::Collision: return "collision";
    case Stage::Assembly: return "assembly";
    case Stage::Solve: return "solve";
    case Stage::Integrate: return "integrate";
    case Stage::Stabilize: return "stabilize";
    case Stage::Sleep: return "sleep";
    case Stage::Count: break;
  }
  return "unknown";
}

const char* deformableModelName(DeformableModel model) {
  switch (model) {
    case DeformableModel::Corotational: return "corotational";
    case DeformableModel::NeoHookean: return "neo-hookean";
  }
  return "unknown";
}

const char* convergenceName(Convergence c) {
  switch (c) {
    case Convergence::None: return "none";
    case Convergence::Absolute: return "absolute";
    case Convergence::Relative: return "relative";
    case Convergence::Stalled: return "stalled";
  }
  return "unknown";
}

const char* rFactorName(RFactorStrategy s) {
  switch (s) {
    case RFactorStrategy::Global: return "global";
    case RFactorStrategy::Local: return "local";
    case RFactorStrategy::Blocked: return "blocked";
  }
  return "unknown";
}

bool parseRFactor(std::string_view text, RFactorStrategy& out) {
  for (RFactorStrategy s : {RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked}) {
    if (text == rFactorName(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

const char* deformableFrictionName(DeformableFriction friction) {
  switch (friction) {
    case DeformableFriction::Cone: return "cone";
    case DeformableFriction::Pyramid: return "pyramid";
  }
  return "unknown";
}

bool parseDeformableFriction(std::string_view text, DeformableFriction& out) {
  for (DeformableFriction f : {DeformableFriction::Cone, DeformableFriction::Pyramid}) {
    if (text == deformableFrictionName(f)) {
      out = f;
      return true;
    }
  }
  return false;
}

const char* contactStateName(ContactState s) {
  switch (s) {
    case ContactState::Separating: return "separating";
    case ContactState::Sticking: return "sticking";
    case ContactState::Sliding: return "sliding";
  }
  return "unknown";
}

}  // namespace contactlab
