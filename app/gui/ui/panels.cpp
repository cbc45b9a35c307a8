// The ImGui panels of the app: a controls column on the left, an analysis column on the right,
// and the help and error windows. The 3D view fills the window behind them.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <thread>

#include "ui/application.h"
#include "ui/plot_widget.h"

namespace contactlab::app {
namespace {

constexpr float kMargin = Application::kPanelMargin;
const ImVec4 kErrorColor(1.0f, 0.42f, 0.38f, 1.0f);

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// An integer field whose edits below `minimum` are ignored; true when `value` changed.
bool inputIntAtLeast(const char* label, int& value, int minimum, int step, int fastStep) {
  int edited = value;
  if (!ImGui::InputInt(label, &edited, step, fastStep) || edited < minimum) return false;
  value = edited;
  return true;
}

const char* const kRFactorLabels[] = {"Global", "Local", "Blocked"};
// Slider ranges of the solver-specific settings.
const double kOmegaRange[2] = {0.1, 1.95};
const double kModulusRange[2] = {0.05, 8.0};

bool usesRFactor(const std::string& solver) {
  for (const SolverDescription& description : solverNames())
    if (description.name == solver) return description.usesRFactor;
  return false;
}

std::vector<double> iota(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
  return x;
}

}  // namespace

// Helpers of the legend and the drag spring.
namespace panels {

ImU32 toImColor(const Color& c, float alpha = 1.0f) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, alpha)); }

// A filled square of the text's height in `color`, as one item, like the contact points in the view.
void colorSwatch(const Color& color) {
  const float side = ImGui::GetTextLineHeight() * 0.6f;
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const float top = cursor.y + 0.5f * (ImGui::GetTextLineHeight() - side);
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(cursor.x, top), ImVec2(cursor.x + side, top + side), toImColor(color));
  ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
}

// The stress colour scale as a horizontal bar of the given size, low on the left.
void stressScaleBar(float width, float height) {
  constexpr int kSegments = 48;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int k = 0; k < kSegments; ++k) {
    const float x0 = origin.x + width * k / kSegments, x1 = origin.x + width * (k + 1) / kSegments;
    const ImU32 left = toImColor(render::stressScaleColor(static_cast<double>(k) / kSegments));
    const ImU32 right = toImColor(render::stressScaleColor(static_cast<double>(k + 1) / kSegments));
    draw->AddRectFilledMultiColor(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height), left, right, right, left);
  }
  ImGui::Dummy(ImVec2(width, height));
}

// Window pixel of a world point seen by the camera in a window of the given size; none behind the eye.
std::optional<ImVec2> toWindow(const render::OrbitCamera& camera, const Vec3& point, const ImVec2& window) {
  if (window.x <= 0 || window.y <= 0) return std::nullopt;
  const Eigen::Vector4f clip = camera.projectionMatrix(static_cast<double>(window.x) / window.y) * camera.viewMatrix() *
                               Eigen::Vector4f(static_cast<float>(point.x()), static_cast<float>(point.y()),
                                               static_cast<float>(point.z()), 1.0f);
  if (!(clip.w() > 1e-6f)) return std::nullopt;
  return ImVec2((0.5f + 0.5f * clip.x() / clip.w()) * window.x, (0.5f - 0.5f * clip.y() / clip.w()) * window.y);
}

}  // namespace panels

bool Application::panelHeader(const char* label, const char* key, bool openAtFirst) {
  const auto remembered = settings_.openPanels.find(key);
  ImGui::SetNextItemOpen(remembered != settings_.openPanels.end() ? remembered->second : openAtFirst, ImGuiCond_Once);
  const bool open = ImGui::CollapsingHeader(label);
  settings_.openPanels[key] = open;
  return open;
}

void Application::drawUi() {
  if (!panelsShown()) return;
  drawControlsWindow();
  drawAnalysisWindow();
  drawLegendWindow();
  drawDragSpring();
  drawHelpWindow();
  drawErrorWindows();
}

void Application::drawControlsWindow() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kControlsWidth, 0), ImVec2(kControlsWidth, io.DisplaySize.y - 2 * kMargin));
  if (ImGui::Begin("contactlab", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::SmallButton("Help (F1)")) showHelp_ = !showHelp_;
    ImGui::SameLine();
    ImGui::TextDisabled("shortcuts and mouse controls");
    drawScenePanel();
    drawSimulationPanel();
    drawSolverPanel();
    drawVisualizationPanel();
    drawRecordingPanel();
    if (!statusMessage_.empty()) {
      ImGui::Separator();
      ImGui::TextWrapped("%s", statusMessage_.c_str());
    }
  }
  ImGui::End();
}

void Application::drawScenePanel() {
  if (!panelHeader("Scene", "scene", true)) return;
  ImGui::PushItemWidth(-110);
  if (session_.hasWorld())
    ImGui::Text("Running: %s (%zu bodies)", session_.source().label().c_str(), session_.world().bodies().size());
  const auto& scenes = builtinScenes();
  if (scenes.empty()) {
    ImGui::TextDisabled("no built-in scenes registered");
  } else {
    selectedBuiltin_ = std::clamp(selectedBuiltin_, 0, static_cast<int>(scenes.size()) - 1);
    if (ImGui::BeginCombo("built-in", scenes[selectedBuiltin_].name.c_str())) {
      for (std::size_t i = 0; i < scenes.size(); ++i) {
        if (ImGui::Selectable(scenes[i].name.c_str(), static_cast<int>(i) == selectedBuiltin_)) {
          selectedBuiltin_ = static_cast<int>(i);
          builtinParams_.clear();  // the new scene's defaults
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", scenes[i].description.c_str());
      }
      ImGui::EndCombo();
    }
    const SceneEntry& entry = scenes[selectedBuiltin_];
    ImGui::TextWrapped("%s", entry.description.c_str());
    // Room on the right for the longest parameter name (damping_stiffness), at least the panel's own.
    float labelRoom = 110.0f;
    for (const SceneParam& param : entry.params)
      labelRoom = std::max(labelRoom, ImGui::CalcTextSize(param.name.c_str()).x + 2.0f * ImGui::GetStyle().ItemInnerSpacing.x);
    for (const SceneParam& param : entry.params) {
      const auto it = builtinParams_.find(param.name);
      double value = it != builtinParams_.end() ? it->second : param.defaultValue;
      ImGui::SetNextItemWidth(-labelRoom);
      if (ImGui::InputDouble(param.name.c_str(), &value, 0, 0, "%g")) builtinParams_[param.name] = value;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (default %g)", param.description.c_str(), param.defaultValue);
    }
    if (ImGui::InputInt("seed", &builtinSeed_)) builtinSeed_ = std::max(builtinSeed_, 0);
    if (ImGui::Button("Load scene")) {
      SceneSource source = SceneSource::builtin(entry.name, builtinParams_);
      source.seed = static_cast<std::uint64_t>(builtinSeed_);
      if (auto error = loadScene(source)) {
        reportError(*error);
      } else {
        fitCamera();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Defaults")) builtinParams_.clear();
  }
  ImGui::Separator();
  ImGui::InputTextWithHint("scene file", "path/to/scene.json", &sceneFilePath_);
  if (ImGui::Button("Open file")) {
    if (auto error = loadScene(SceneSource::file(sceneFilePath_))) {
      reportError(*error);
    } else {
      fitCamera();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Reload (R)")) {
    resetScene();
  }
  ImGui::PopItemWidth();
}

void Application::drawSimulationPanel() {
  if (!panelHeader("Simulation", "simulation", true) || !session_.hasWorld()) return;
  ImGui::PushItemWidth(-110);
  const World& world = session_.world();
  if (ImGui::Button(session_.paused() ? "Play (Space)" : "Pause (Space)")) session_.setPaused(!session_.paused());
  ImGui::SameLine();
  if (ImGui::Button("Step (S)")) {
    session_.setPaused(true);
    advanceOneStep();
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) {
    resetScene();
  }
  ImGui::Text("t = %.3f s   step %d", world.time(), world.stepCount());

  int pacing = session_.pacing == Pacing::RealTime ? 0 : 1;
  ImGui::RadioButton("real time", &pacing, 0);
  ImGui::SameLine();
  ImGui::RadioButton("steps per frame", &pacing, 1);
  session_.pacing = pacing == 0 ? Pacing::RealTime : Pacing::FixedStepsPerFrame;
  if (session_.pacing == Pacing::RealTime) {
    float factor = static_cast<float>(session_.realTimeFactor);
    if (ImGui::SliderFloat("speed", &factor, 0.05f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic))
      session_.realTimeFactor = factor;
    helpMarker("Simulated seconds per wall-clock second. A slow machine caps the steps per frame\n"
               "and then runs slower than this.");
  } else {
    ImGui::SliderInt("steps/frame", &session_.stepsPerFrame, 1, session_.maxStepsPerFrame);
  }
  double dt = world.dt();
  if (ImGui::InputDouble("dt [s]", &dt, 0, 0, "%.5f", ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (auto error = session_.setDt(dt)) reportError(*error);
  }
  ImGui::Separator();
  ImGui::InputText("state file", &statePath_);
  if (ImGui::Button("Save state")) {
    if (auto error = session_.saveState(statePath_)) {
      reportError(*error);
    } else {
      reportStatus("state saved to " + statePath_);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Load state")) {
    if (auto error = loadScene(SceneSource::file(statePath_))) {
      reportError(*error);
    } else {
      sceneFilePath_ = statePath_;
    }
  }
  ImGui::PopItemWidth();
}

void Application::drawSolverPanel() {
  if (!panelHeader("Solver (live)", "solver", true)) return;
  ImGui::PushItemWidth(-110);
  WorldSettings world = session_.settings();
  SolverSettings& s = world.solver;
  bool changed = false;
  if (ImGui::BeginCombo("solver", s.solver.c_str())) {
    for (const auto& description : solverNames()) {
      if (ImGui::Selectable(description.name.c_str(), description.name == s.solver)) {
        s.solver = description.name;
        changed = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", description.summary.c_str());
    }
    ImGui::EndCombo();
  }
  // The r-factor strategy belongs to the PROX solvers; the other solvers have settings of their own.
  if (usesRFactor(s.solver)) {
    int rFactor = static_cast<int>(s.prox.rFactor);
    if (ImGui::Combo("r-factor", &rFactor, kRFactorLabels, 3)) {
      s.prox.rFactor = static_cast<RFactorStrategy>(rFactor);
      changed = true;
    }
  } else if (s.solver == "psor") {
    changed |= ImGui::SliderScalar("omega", ImGuiDataType_Double, &s.psor.omega, &kOmegaRange[0], &kOmegaRange[1], "%.2f");
    helpMarker("Relaxation: r_i = omega / A_ii; projected SOR converges for omega in (0, 2) on an LCP.");
  } else if (s.solver == "pgs-sm") {
    changed |= ImGui::SliderInt("k_pgs", &s.pgsSm.pgsSweeps, 1, 100);
    helpMarker("PGS sweeps before each subspace-minimization phase.");
    changed |= ImGui::SliderInt("k_sm", &s.pgsSm.subspaceSteps, 0, 20);
    helpMarker("Subspace-minimization steps (CG on the active set) per phase.");
  } else if (s.solver == "modulus-gs") {
    changed |= ImGui::SliderScalar("alpha", ImGuiDataType_Double, &s.modulus.alpha, &kModulusRange[0], &kModulusRange[1], "%.2f",
                                   ImGuiSliderFlags_Logarithmic);
    helpMarker("Omega = alpha diag(A).");
    changed |= ImGui::SliderScalar("gamma", ImGuiDataType_Double, &s.modulus.gamma, &kModulusRange[0], &kModulusRange[1], "%.2f",
                                   ImGuiSliderFlags_Logarithmic);
    helpMarker("Gamma of the modulus transformation, lambda = (2 / gamma) x+.");
  }
  changed |= inputIntAtLeast("max iterations", s.maxIterations, 1, 10, 100);  // 0 sweeps would solve nothing
  changed |= ImGui::InputDouble("tol abs", &s.tolAbs, 0, 0, "%.1e");
  changed |= ImGui::InputDouble("tol rel", &s.tolRel, 0, 0, "%.1e");
  helpMarker("A solve stops when its merit (the largest contact velocity change of a sweep) falls below tol abs, "
             "changes by less than tol rel of itself (the PROX paper's test; 0: off), or has not halved in "
             "stall window sweeps (0: off). The PROX paper's settings: 1e-3, 1e-3, 0.");
  changed |= inputIntAtLeast("stall window", s.stallWindow, 0, 10, 100);
  changed |= ImGui::Checkbox("warm start", &world.warmStart);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("stabilization", &world.stabilize);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("sleep", &world.sleep);
  helpMarker("Islands at rest sleep (drawn dimmer) until something touches them, you drag one of their bodies, "
             "or a setting changes.");
  // Up to the machine's threads (at least 1 when it cannot tell); the World rejects anything below 1.
  changed |= ImGui::SliderInt("threads", &world.threads, 1, std::max(1, static_cast<int>(std::thread::hardware_concurrency())),
                              "%d", ImGuiSliderFlags_AlwaysClamp);
  helpMarker("Threads a step runs on. The simulation is bit-identical for any count; only its speed changes.");
  static constexpr int kKdopChoices[] = {14, 18, 26};
  static const char* kKdopLabels[] = {"14", "18", "26"};
  int kdopChoice = 0;
  for (int i = 0; i < 3; ++i)
    if (world.kdop == kKdopChoices[i]) kdopChoice = i;
  if (ImGui::Combo("mesh kDOP", &kdopChoice, kKdopLabels, 3)) {
    world.kdop = kKdopChoices[kdopChoice];
    changed = true;
  }
  helpMarker("Bounding volumes of the mesh bodies' trees: k-sided discrete oriented polytopes.");
  // The deformable bodies' own solve, a conjugate-residual method of its own beside the rigid solver.
  if (session_.hasWorld() && session_.world().deformableBodyCount() > 0) {
    DeformableSolverSettings& d = world.deformable;
    if (ImGui::BeginCombo("deformable", d.solver.c_str())) {
      for (const auto& description : deformableSolverNames()) {
        if (ImGui::Selectable(description.name.c_str(), description.name == d.solver)) {
          d.solver = description.name;
          changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", description.summary.c_str());
      }
      ImGui::EndCombo();
    }
    helpMarker("Solver of the deformable bodies' contact problem (conjugate residuals), and its preconditioner.");
    int frictionChoice = static_cast<int>(d.friction);  // the labels in the enum's order
    static const char* kFrictionLabels[] = {deformableFrictionName(DeformableFriction::Cone),
                                            deformableFrictionName(DeformableFriction::Pyramid)};
    if (ImGui::Combo("CR friction", &frictionChoice, kFrictionLabels, IM_ARRAYSIZE(kFrictionLabels))) {
      d.friction = static_cast<DeformableFriction>(frictionChoice);
      changed = true;
    }
    helpMarker("Friction of the deformable contacts: the Coulomb cone, or a pyramid whose two tangent rows each "
               "stick or slide on their own (the paper's CR (Diag) comparison).");
    // Edited in place and applied once the value is in range: a half-typed zero must not reach the world.
    double relative = d.relativeTolerance, absolute = d.absoluteTolerance;
    if (ImGui::InputDouble("CR eps1", &relative, 0.0, 0.0, "%.1e") && relative > 0.0) {
      d.relativeTolerance = relative;
      changed = true;
    }
    helpMarker("Residual bound of the CR solve, relative to the step's force impulse (the paper's epsilon_1).");
    if (ImGui::InputDouble("CR eps2 [m]", &absolute, 0.0, 0.0, "%.1e") && absolute > 0.0) {
      d.absoluteTolerance = absolute;
      changed = true;
    }
    helpMarker("Largest constraint error and smallest state change the CR solve keeps (the paper's epsilon_2).");
    changed |= inputIntAtLeast("CR max iter", d.maxIterations, 1, 100, 1000);
    helpMarker("Most CR iterations per step; a solve that reaches the cap keeps the best iterate it met.");
    changed |= inputIntAtLeast("CR stall", d.stallIterations, 0, 100, 1000);
    helpMarker("A CR solve whose least error has not fallen by 1 % in this many iterations stops with its best "
               "iterate (0: never).");
  }
  if (changed) {
    if (auto error = session_.setSettings(world)) reportError(*error);
  }
  bool frictionChanged = false;
  frictionChanged |= ImGui::InputDouble("mu", &friction_.mu, 0.05, 0.25, "%.3f");
  helpMarker("Coulomb friction coefficient of every body without its own value.");
  frictionChanged |= ImGui::InputDouble("mu_tau [m]", &friction_.muTorsion, 0.001, 0.01, "%.4f");
  helpMarker("Torsional friction: the largest torsional impulse is mu_tau * lambda_n.");
  frictionChanged |= ImGui::InputDouble("restitution", &friction_.restitution, 0.05, 0.25, "%.3f");
  frictionChanged |= ImGui::InputDouble("mu_roll [m]", &friction_.muRolling, 0.0005, 0.005, "%.4f");
  helpMarker("Rolling resistance: the largest angular impulse against rolling is mu_roll * lambda_n; a ball of "
             "radius r rolling on level ground slows by 5/7 g mu_roll / r. 0: balls roll on forever.");
  if (frictionChanged) {
    if (auto error = session_.setFrictionDefaults(friction_)) {
      reportError(*error);
      friction_ = session_.frictionDefaults();
    }
  }
  ImGui::PopItemWidth();
}

void Application::drawVisualizationPanel() {
  if (!panelHeader("Visualization", "visualization", false)) return;
  auto& d = viewOptions_.debug;
  ImGui::Checkbox("contacts overlay", &viewOptions_.debugOverlay);
  ImGui::BeginDisabled(!viewOptions_.debugOverlay);
  ImGui::Indent();
  ImGui::Checkbox("points", &d.contactPoints);
  ImGui::SameLine();
  ImGui::Checkbox("normals", &d.contactNormals);
  ImGui::SameLine();
  ImGui::Checkbox("forces", &d.contactForces);
  ImGui::BeginDisabled(!d.contactForces);
  ImGui::SetNextItemWidth(-110);
  float scale = static_cast<float>(d.forceScale);
  if (ImGui::SliderFloat("m per N", &scale, 1e-5f, 1e-1f, "%.1e", ImGuiSliderFlags_Logarithmic)) d.forceScale = scale;
  ImGui::EndDisabled();
  ImGui::Checkbox("colour by state", &d.colorByState);
  helpMarker("separating grey, sticking green, sliding orange; a deformable body's constraints: inactive, static, "
             "kinetic. The legend in the view shows them.");
  ImGui::Checkbox("AABBs", &d.boundingBoxes);
  ImGui::SameLine();
  ImGui::Checkbox("broadphase cells", &d.broadphaseCells);
  ImGui::Unindent();
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!session_.hasWorld() || session_.world().deformableBodyCount() == 0);
  ImGui::Checkbox("stress colours", &viewOptions_.stressColors);
  helpMarker("Deformable bodies coloured by von Mises stress: each node takes the mean over the tetrahedra around it, "
             "blended across the faces. The legend in the view gives the scale in Pa.");
  if (viewOptions_.stressColors) {
    ImGui::Indent();
    bool hold = viewOptions_.stressUpper > viewOptions_.stressLower;
    if (ImGui::Checkbox("hold scale", &hold)) {
      const auto& shown = renderer_->stressRange();
      viewOptions_.stressLower = hold && shown ? shown->lower : 0.0;
      viewOptions_.stressUpper = hold ? std::max(shown ? shown->upper : 0.0, viewOptions_.stressLower + 1.0) : 0.0;
    }
    helpMarker("Keep the scale's ends (editable) instead of following each frame's smallest and largest node stress.");
    if (hold) {
      double ends[2] = {viewOptions_.stressLower, viewOptions_.stressUpper};
      ImGui::SetNextItemWidth(-110);
      if (ImGui::InputScalarN("min, max [Pa]", ImGuiDataType_Double, ends, 2, nullptr, nullptr, "%.4g",
                              ImGuiInputTextFlags_EnterReturnsTrue) &&
          std::isfinite(ends[0]) && std::isfinite(ends[1]) && ends[1] > ends[0]) {
        viewOptions_.stressLower = ends[0];
        viewOptions_.stressUpper = ends[1];
      }
    }
    ImGui::Unindent();
  }
  ImGui::EndDisabled();
  ImGui::Checkbox("shadows", &viewOptions_.shadows);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &viewOptions_.groundGrid);
  static constexpr int kSampleChoices[] = {0, 2, 4, 8};
  static constexpr const char* kSampleLabels[] = {"off", "2x", "4x", "8x"};
  int choice = 0;
  for (int i = 0; i < 4; ++i)
    if (viewOptions_.msaaSamples == kSampleChoices[i]) choice = i;
  ImGui::SetNextItemWidth(80);
  if (ImGui::Combo("anti-aliasing", &choice, kSampleLabels, 4)) viewOptions_.msaaSamples = kSampleChoices[choice];
  helpMarker(softwareRasterizer_ ? "MSAA; off by default here: this OpenGL is a software rasterizer, where 4x doubles the cost of a frame"
                                  : "MSAA samples of the 3D view");
  if (ImGui::Button("Reset camera (Home)")) camera_.reset();
  ImGui::SameLine();
  if (ImGui::Button("Fit (F)")) fitCamera();
}

void Application::drawRecordingPanel() {
  const bool recording = recorder_.recording();
  if (!panelHeader("Recording", "recording", recording)) return;
  ImGui::PushItemWidth(-110);
  ImGui::BeginDisabled(recording);
  ImGui::InputText("video file", &recordPath_);
  int size[2] = {settings_.recording.width, settings_.recording.height};
  if (ImGui::InputInt2("width, height", size)) {
    // H.264 with 4:2:0 chroma needs even sizes.
    settings_.recording.width = std::clamp(size[0] / 2 * 2, 16, 7680);
    settings_.recording.height = std::clamp(size[1] / 2 * 2, 16, 4320);
  }
  ImGui::InputDouble("fps", &settings_.recording.fps, 0, 0, "%.0f");
  settings_.recording.fps = std::clamp(settings_.recording.fps, 1.0, 240.0);
  ImGui::EndDisabled();
  if (ImGui::Button(recording ? "Stop (Ctrl+R)" : "Record (Ctrl+R)")) toggleRecording();
  if (recorder_.recording()) {
    ImGui::SameLine();
    ImGui::TextColored(kErrorColor, "REC %d frames, %.2f s", recorder_.framesWritten(),
                       recorder_.framesWritten() / recordFps_);
  }
  ImGui::TextDisabled("One video frame per 1/fps of simulated time.");
  ImGui::Separator();
  ImGui::InputText("screenshot", &screenshotPath_);
  if (ImGui::Button("Screenshot (F12)")) {
    if (auto error = saveViewScreenshot(screenshotPath_)) {
      reportError(*error);
    } else {
      reportStatus("3D view saved to " + screenshotPath_);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Whole window")) pendingWindowScreenshot_ = screenshotPath_;
  ImGui::PopItemWidth();
}

void Application::drawAnalysisWindow() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kAnalysisWidth - kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kAnalysisWidth, io.DisplaySize.y - 2 * kMargin), ImGuiCond_Always);
  if (ImGui::Begin("Analysis", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize)) {
    drawPlotsPanel();
    drawProfilerPanel();
  }
  ImGui::End();
  drawInspectorWindow();
}

void Application::drawPlotsPanel() {
  if (!panelHeader("Plots", "plots", true)) return;
  const PlotHistory& history = session_.history();
  const SolveReport& solve = session_.lastSolve();
  const ImU32 blue = IM_COL32(90, 160, 255, 255), orange = IM_COL32(255, 160, 60, 255),
              green = IM_COL32(110, 210, 110, 255), white = IM_COL32(230, 230, 230, 255);

  PlotOptions options;
  options.height = 100;
  options.logY = true;
  options.integerX = true;
  options.xLabel = "iteration";
  options.yLabel = "residual";
  // Contacts of sleeping bodies, and those of bodies coupled to deformable ones (the CR solve's),
  // are not in the rigid solve.
  const bool stepped = session_.hasWorld() && session_.world().stepped();
  options.emptyMessage = stepped && solve.residualHistory.empty() ? "the last step solved no rigid contacts" : nullptr;
  drawPlot("residual_last_solve",
           {PlotSeries{"last solve (" + std::to_string(solve.iterations) + " it)",
                       iota(solve.residualHistory.size()), solve.residualHistory, blue}},
           options);
  options.emptyMessage = nullptr;
  const std::vector<double> steps = history.values(&StepSample::step);
  const std::vector<double> time = history.values(&StepSample::time);
  const bool deformables = session_.hasWorld() && session_.world().deformableBodyCount() > 0;
  if (deformables) {
    const DeformableSolveReport& cr = session_.world().lastMetrics().deformable;
    options.xLabel = "CR iteration";
    options.yLabel = "||r||";
    drawPlot("cr_residual_last_step",
             {PlotSeries{"deformable, last step (" + std::to_string(cr.iterations) + " it)",
                         iota(cr.residualHistory.size()), cr.residualHistory, green}},
             options);
    // What made the CR solve work harder, step by step: re-linearizations (Alg. 1, line 27), a few
    // at most, and constraint state changes (Alg. 2), up to hundreds; each on its own scale.
    options.logY = false;
    options.height = 80;
    options.xLabel = "step";
    options.yLabel = "per step";
    drawPlot("cr_relinearizations_per_step",
             {PlotSeries{"re-linearizations", steps, history.values(&StepSample::crRelinearizations), orange}}, options);
    drawPlot("cr_active_set_changes_per_step",
             {PlotSeries{"active-set changes", steps, history.values(&StepSample::crActiveSetChanges), green}}, options);
    options.height = 100;
    options.logY = true;
    options.xLabel = "iteration";
  }

  options.logY = false;
  options.xLabel = "step";
  options.yLabel = "iterations";
  std::vector<PlotSeries> iterations = {PlotSeries{"iterations", steps, history.values(&StepSample::iterations), blue}};
  if (deformables) iterations.push_back(PlotSeries{"CR iterations", steps, history.values(&StepSample::crIterations), green});
  drawPlot("iterations_per_step", iterations, options);
  options.logY = true;
  options.yLabel = "residual";
  drawPlot("residual_per_step", {PlotSeries{"final residual", steps, history.values(&StepSample::residual), orange}},
           options);
  options.logY = false;
  options.integerX = false;
  options.xLabel = "time [s]";
  options.yLabel = "energy [J]";
  std::vector<PlotSeries> energy = {PlotSeries{"kinetic", time, history.values(&StepSample::kinetic), blue},
                                    PlotSeries{"potential", time, history.values(&StepSample::potential), orange}};
  if (deformables) energy.push_back(PlotSeries{"elastic", time, history.values(&StepSample::elastic), green});
  energy.push_back(PlotSeries{"total", time, history.values(&StepSample::total), white});
  drawPlot("energy", energy, options);
  options.yLabel = "contacts";
  drawPlot("contacts", {PlotSeries{"contacts", time, history.values(&StepSample::contacts), green}}, options);

  ImGui::PushItemWidth(-130);
  ImGui::InputText("##history_csv", &historyCsvPath_);
  ImGui::SameLine();
  if (ImGui::Button("Export history CSV")) {
    if (auto error = session_.exportHistoryCsv(historyCsvPath_)) {
      reportError(*error);
    } else {
      reportStatus("history written to " + historyCsvPath_);
    }
  }
  ImGui::InputText("##solve_csv", &solveCsvPath_);
  ImGui::SameLine();
  if (ImGui::Button("Export solve CSV")) {
    if (auto error = session_.exportLastSolveCsv(solveCsvPath_)) {
      reportError(*error);
    } else {
      reportStatus("last solve written to " + solveCsvPath_);
    }
  }
  ImGui::PopItemWidth();
}

void Application::drawProfilerPanel() {
  if (!panelHeader("Profiler", "profiler", true) || !session_.hasWorld()) return;
  const StepMetrics& m = session_.world().lastMetrics();
  if (ImGui::BeginTable("stages", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    auto row = [](const char* name, const char* format, double value) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      ImGui::Text(format, value);
    };
    row("collision", "%.3f ms", m.ms(Stage::Collision));
    row("assembly", "%.3f ms", m.ms(Stage::Assembly));
    row("solve", "%.3f ms", m.ms(Stage::Solve));
    row("integrate", "%.3f ms", m.ms(Stage::Integrate));
    row("stabilize", "%.3f ms", m.ms(Stage::Stabilize));
    row("step total", "%.3f ms", m.stepMs);
    row("render", "%.3f ms", renderMs_);
    row("frames/s", "%.1f", ImGui::GetIO().Framerate);
    row("steps/s", "%.1f", stepsPerSecond_);
    ImGui::EndTable();
  }
  // Before the first step, or without contacts, there was no solve to converge.
  const bool solved = m.contacts > 0 && m.solve.iterations > 0;
  const auto& bodies = session_.world().bodies();
  const long asleep = std::count_if(bodies.begin(), bodies.end(), [](const Body& b) { return b.asleep; });
  // Sleeping bodies make no contacts: a resting heap reads 0 contacts once it sleeps.
  const std::string sleeping = asleep > 0 ? " (" + std::to_string(asleep) + " asleep)" : "";
  ImGui::Text("%d bodies%s, %d contacts, %d iteration%s%s", m.bodies, sleeping.c_str(), m.contacts, m.solve.iterations,
              m.solve.iterations == 1 ? "" : "s", solved && !m.solve.converged() ? " (not converged)" : "");
  if (session_.world().deformableBodyCount() > 0) {
    const DeformableSolveReport& cr = m.deformable;
    // Before the first step there was no CR solve to converge.
    const bool crSolved = session_.world().stepped();
    ImGui::Text("deformable: %d constraints, %d CR iteration%s%s", m.deformableConstraints, cr.iterations,
                cr.iterations == 1 ? "" : "s",
                !crSolved || cr.converged() ? "" : cr.stalled ? " (stalled: best iterate)" : " (not converged)");
    ImGui::Text("  %d island%s (%d CR iterations in all)", cr.islands, cr.islands == 1 ? "" : "s", cr.allIterations);
    ImGui::SameLine();
    helpMarker("Bodies joined by constraints form an island, solved as its own MLCP; the CR iterations shown are "
               "those of the island that needed the most.");
    ImGui::Text("  %d active-set changes, %d re-linearizations", cr.activeSetChanges, cr.relinearizations);
    ImGui::Text("  elastic energy %.4g J", m.elasticEnergy);
  }
}

// A small window at the top left of the 3D view: the contact points' colours while they are coloured
// by state, and the stress scale while deformable bodies are coloured by stress.
void Application::drawLegendWindow() {
  if (!session_.hasWorld()) return;
  const DebugDrawOptions& d = viewOptions_.debug;
  const bool states = viewOptions_.debugOverlay && d.contactPoints && d.colorByState;
  const std::optional<render::StressRange>& stress = renderer_->stressRange();
  if (!states && !stress) return;
  ImGui::SetNextWindowPos(ImVec2(kMargin + kControlsWidth + kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.65f);
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("Legend", nullptr, flags)) {
    if (states) {
      static constexpr struct {
        ContactState state;
        const char* label;
      } kStates[] = {{ContactState::Separating, "separating (inactive)"},
                     {ContactState::Sticking, "sticking (static)"},
                     {ContactState::Sliding, "sliding (kinetic)"}};
      ImGui::TextDisabled("contact points");
      for (const auto& [state, label] : kStates) {
        panels::colorSwatch(contactStateColor(state));
        ImGui::SameLine();
        ImGui::TextUnformatted(label);
      }
    }
    if (stress) {
      if (states) ImGui::Separator();
      const bool held = viewOptions_.stressUpper > viewOptions_.stressLower;
      ImGui::TextDisabled("von Mises stress%s", held ? " (held scale)" : "");
      constexpr float kBarWidth = 200.0f;
      panels::stressScaleBar(kBarWidth, ImGui::GetTextLineHeight());
      char upper[32];
      std::snprintf(upper, sizeof upper, "%.3g Pa", stress->upper);
      ImGui::Text("%.3g Pa", stress->lower);
      ImGui::SameLine(ImGui::GetCursorStartPos().x + kBarWidth - ImGui::CalcTextSize(upper).x);
      ImGui::TextUnformatted(upper);
    }
  }
  ImGui::End();
}

void Application::drawDragSpring() {
  if (!drag_.active() || !drag_.anchor() || !session_.hasWorld()) return;
  const ImVec2 window = ImGui::GetIO().DisplaySize;
  const auto grabbed = panels::toWindow(camera_, drag_.grabPointWorld(session_.world()), window);
  const auto anchor = panels::toWindow(camera_, *drag_.anchor(), window);
  if (!grabbed || !anchor) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();  // over the 3D view, under the panels
  const ImU32 color = IM_COL32(255, 215, 60, 255);
  draw->AddLine(*grabbed, *anchor, color, 2.0f);
  draw->AddCircleFilled(*grabbed, 4.0f, color);
  draw->AddCircle(*anchor, 5.0f, color, 0, 2.0f);
}

// A small window at the bottom of the 3D view, there while a body is selected.
void Application::drawInspectorWindow() {
  if (!session_.hasWorld()) return;
  const World& world = session_.world();
  const int index = viewOptions_.selectedBody;
  if (index < 0 || index >= static_cast<int>(world.bodies().size())) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float middle = 0.5f * (kPanelMargin + kControlsWidth + io.DisplaySize.x - kPanelMargin - kAnalysisWidth);
  ImGui::SetNextWindowPos(ImVec2(middle, io.DisplaySize.y - kMargin), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  bool open = true;
  if (!ImGui::Begin("Inspector", &open, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  if (!open) viewOptions_.selectedBody = -1;
  const Body& b = world.bodies()[static_cast<std::size_t>(index)];
  int contacts = 0;
  double normalImpulse = 0;
  for (const ContactReport& c : world.contacts()) {
    if (c.bodyA != index && c.bodyB != index) continue;
    ++contacts;
    normalImpulse += c.lambda[0];
  }
  ImGui::Text("#%d %s  (%s%s)", index, b.name.empty() ? "(unnamed)" : b.name.c_str(), b.isDeformable() ? "deformable " : "",
              shapeKindName(kindOf(b.shape)));
  if (b.isDeformable()) {
    // Its pose and velocities summarize its nodes (Body::deformable); the mesh says the rest.
    const DeformableMeshView mesh = world.deformableBody(b.deformable);
    const std::vector<double> stress = world.deformableStress(b.deformable);
    const double maxStress = stress.empty() ? 0.0 : *std::max_element(stress.begin(), stress.end());
    ImGui::Text("mesh      %zu nodes, %zu tetrahedra", mesh.positions.size(), mesh.tetrahedra.size());
    ImGui::Text("stress    %.4g Pa (largest von Mises)", maxStress);
  } else {
    ImGui::Text("mass      %.4g kg", b.mass);
  }
  ImGui::Text("position  %8.3f %8.3f %8.3f m", b.position.x(), b.position.y(), b.position.z());
  ImGui::Text("velocity  %8.3f %8.3f %8.3f m/s", b.velocity.x(), b.velocity.y(), b.velocity.z());
  ImGui::Text("ang. vel. %8.3f %8.3f %8.3f rad/s", b.angularVelocity.x(), b.angularVelocity.y(),
              b.angularVelocity.z());
  ImGui::Text("contacts  %d, total normal impulse %.4g N s", contacts, normalImpulse);
  if (drag_.active() && drag_.grabsNode()) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "dragging node %d (release the mouse to let go)", drag_.node());
  } else if (drag_.active()) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "dragging (release the mouse to let go)");
  } else if (b.isDeformable()) {
    ImGui::TextDisabled("Ctrl+drag pulls its surface node nearest the mouse; Esc clears the selection.");
  } else {
    ImGui::TextDisabled("Ctrl+drag pulls it; Esc clears the selection.");
  }
  ImGui::End();
}

void Application::drawHelpWindow() {
  if (!showHelp_) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("Help", &showHelp_, ImGuiWindowFlags_AlwaysAutoResize)) {
    static const char* const kControls[][2] = {
        {"Space", "play / pause"},
        {"S or Right arrow", "single step (pauses)"},
        {"R", "reset: reload the scene"},
        {"Ctrl+R or F9", "start / stop recording"},
        {"F12 or P", "screenshot of the 3D view"},
        {"Shift+F12", "screenshot of the whole window"},
        {"Home", "reset the camera"},
        {"F", "fit the camera to the scene"},
        {"Ctrl+Shift+R", "reload shaders"},
        {"Escape", "clear the selection"},
        {"F1", "this help"},
        {"Left drag", "orbit"},
        {"Right or middle drag", "pan"},
        {"Wheel", "zoom"},
        {"Left click", "select a body (inspector)"},
        {"Ctrl or Shift + left drag", "pull the body under the mouse (a deformable one by its nearest surface node)"},
    };
    if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
      for (const auto& [key, action] : kControls) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(key);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(action);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void Application::drawErrorWindows() {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = std::min(620.0f, io.DisplaySize.x - 2 * kMargin);
  float y = kMargin;
  if (const auto& shaderError = renderer_->shaderError()) {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, y), ImGuiCond_Always, ImVec2(0.5f, 0));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
    if (ImGui::Begin("Shader error", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse)) {
      ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
      ImGui::TextWrapped("%s", shaderError->c_str());
      ImGui::PopStyleColor();
      ImGui::TextDisabled("Shaders are read from %s", shaderDirectory_.c_str());
      if (ImGui::Button("Reload shaders (Ctrl+Shift+R)")) reloadShaders();
      y += ImGui::GetWindowHeight() + kMargin;
    }
    ImGui::End();
  }
  if (errorMessage_.empty()) return;
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, y), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  if (ImGui::Begin("Error", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse)) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", errorMessage_.c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("Dismiss")) errorMessage_.clear();
  }
  ImGui::End();
}

}  // namespace contactlab::app
