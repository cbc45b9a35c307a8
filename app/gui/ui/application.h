#pragma once
// The desktop app: a GLFW window with the 3D view behind Dear ImGui panels, driving a
// SimulationSession. The same loop runs headless (--exit) for scripts and tests.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contactlab/render/camera.h"
#include "contactlab/render/renderer.h"
#include "core/simulation_session.h"
#include "core/video_recorder.h"
#include "ui/app_settings.h"
#include "ui/body_drag.h"
#include "ui/command_line.h"

struct GLFWwindow;

namespace contactlab::app {

class Application {
 public:
  // The panel columns on the left and right of the 3D view, in window pixels.
  static constexpr float kPanelMargin = 8.0f;
  static constexpr float kControlsWidth = 320.0f;
  static constexpr float kAnalysisWidth = 400.0f;

  explicit Application(CommandLine commandLine);
  ~Application();
  Application(const Application&) = delete;
  Application& operator=(const Application&) = delete;

  // Runs until the window closes (or, headless, until --frames frames are done). Returns the exit
  // code: 0, or 1 after an error in headless mode (printed on stderr).
  int run();

 private:
  bool headless() const { return commandLine_.exitWhenDone; }

  // Headless runs draw the panels only for --screenshot-ui.
  bool panelsShown() const { return !headless() || !commandLine_.uiScreenshotPath.empty(); }
  std::optional<std::string> createWindow();
  std::string chooseShaderDirectory() const;
  void applyStartupSettings();
  std::optional<std::string> loadScene(const SceneSource& source);
  void resetScene();  // the current source again (R); errors are reported
  void onSceneLoaded();
  void fitCamera();

  // Main loop pieces.
  void frame(double wallSeconds);
  void handleShortcuts();
  void handleKey(int key, int mods);
  void handleMouse();
  bool advanceOneStep();  // false if the step failed (the session pauses itself)
  void captureDueVideoFrames();
  void renderView();
  std::optional<std::string> runHeadlessFrame(int frameIndex);
  std::optional<std::string> writeHeadlessOutputs();

  // Recording and screenshots.
  std::optional<std::string> startRecording(const std::string& path, int width, int height, double fps);
  std::optional<std::string> stopRecording();
  void toggleRecording();
  std::optional<std::string> saveViewScreenshot(const std::string& path);
  std::optional<std::string> saveWindowScreenshot(const std::string& path);
  void reloadShaders();

  // Panels (panels.cpp).
  // A collapsing header whose open state is remembered in the settings under `key`.
  bool panelHeader(const char* label, const char* key, bool openAtFirst);
  void drawUi();
  void drawControlsWindow();
  void drawScenePanel();
  void drawSimulationPanel();
  void drawSolverPanel();
  void drawVisualizationPanel();
  void drawRecordingPanel();
  void drawAnalysisWindow();
  void drawPlotsPanel();
  void drawProfilerPanel();
  void drawInspectorWindow();
  void drawLegendWindow();  // contact states and the stress scale, over the 3D view
  void drawDragSpring();    // the mouse spring, from the grabbed point to the mouse
  void drawHelpWindow();
  void drawErrorWindows();

  void reportError(std::string message);
  void reportStatus(std::string message);
  // steps/s is measured from here: the frame loop's start, not the window's and scene's set-up.
  void restartStepRate();
  void rememberSettings();

  CommandLine commandLine_;
  AppSettings settings_;
  std::string settingsPath_;
  std::string imguiIniPath_;

  GLFWwindow* window_ = nullptr;
  bool imguiReady_ = false;
  std::string shaderDirectory_;
  std::unique_ptr<render::Renderer> renderer_;
  std::unique_ptr<render::Renderer> captureRenderer_;  // the recording's fixed resolution
  render::OrbitCamera camera_;
  render::RenderOptions viewOptions_;
  bool softwareRasterizer_ = false;  // llvmpipe & co.: no anti-aliasing and cheaper shadows by default
  SimulationSession session_;
  BodyDrag drag_;

  struct KeyPress {
    int key, mods;
  };
  std::vector<KeyPress> pressedKeys_;  // since the last frame, filled by the GLFW key callback

  // Mouse state of a press in the 3D view: a click (no drag) picks.
  bool leftPressInView_ = false;
  bool leftDragged_ = false;
  double pressX_ = 0, pressY_ = 0;

  // Recording in simulation time: video frame k is due once time >= recordStartTime_ + k / fps.
  VideoRecorder recorder_;
  double recordStartTime_ = 0;
  double recordFps_ = 60;
  int recordWidth_ = 1280, recordHeight_ = 720;
  std::vector<std::uint8_t> pixels_;

  // Editable output paths (default names carry a timestamp) and scene-browser inputs.
  std::string recordPath_, screenshotPath_, statePath_, historyCsvPath_, solveCsvPath_;
  std::string sceneFilePath_;
  int selectedBuiltin_ = 0;
  SceneParams builtinParams_;
  int builtinSeed_ = 1;
  FrictionDefaults friction_;

  // Profiler.
  double renderMs_ = 0;
  // Each headless frame's renderMs_ and the process CPU milliseconds of the same span (the
  // software rasterizer's threads included; steadier than wall time on a loaded machine), for --profile-out.
  std::vector<std::pair<double, double>> headlessRenderMs_;
  int stepsThisSecond_ = 0;
  double stepsPerSecond_ = 0;
  bool stepRateMeasured_ = false;  // a whole second has passed since restartStepRate
  std::chrono::steady_clock::time_point stepRateStart_;

  std::string pendingWindowScreenshot_;  // written after this frame's panels are drawn
  bool finalHeadlessFrame_ = false;      // the frame drawn after --frames: --screenshot-ui is taken then
  bool showHelp_ = false;
  std::string errorMessage_;  // shown in red until dismissed
  std::string statusMessage_;
  std::optional<std::string> headlessError_;
};

}  // namespace contactlab::app
