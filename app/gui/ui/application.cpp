#include "ui/application.h"

#include <epoxy/gl.h>
// GLFW after epoxy, which must provide the GL declarations.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "contactlab/render/bounds.h"
#include "contactlab/render/picking.h"
#include "core/png_writer.h"

namespace contactlab::app {
namespace {

// "contactlab-20261122-131955.mp4": default output names that do not overwrite earlier ones.
std::string timestampedName(const std::string& stem, const std::string& extension) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return stem + "-" + stamp + extension;
}

// Whole video-frame periods of simulation time since `start`; the small slack absorbs rounding of
// time sums so that a step landing exactly on a period boundary counts.
int periodsSince(double start, double time, double fps) {
  return static_cast<int>(std::floor((time - start) * fps + 1e-6));
}

// CPU time of the whole process, every thread (a software rasterizer's too), in milliseconds.
double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

// Ctrl+C or a polite kill closes the window normally, so the settings are still saved.
std::atomic<bool> stopRequested{false};
void requestStop(int) { stopRequested = true; }

// GLFW's errors are printed as they come, except while glfwInit runs: its failure is reported in
// one line, with GLFW's reason.
bool glfwInitialized = false;
std::string glfwInitError;
void printGlfwError(int code, const char* description) {
  if (!glfwInitialized) {
    glfwInitError = description;
    return;
  }
  std::cerr << "contactlab: GLFW error " << code << ": " << description << '\n';
}

}  // namespace

Application::Application(CommandLine commandLine) : commandLine_(std::move(commandLine)) {
  recordPath_ = commandLine_.recordPath.empty() ? timestampedName("contactlab", ".mp4") : commandLine_.recordPath;
  screenshotPath_ = timestampedName("contactlab", ".png");
  statePath_ = timestampedName("contactlab-state", ".json");
  historyCsvPath_ = timestampedName("contactlab-history", ".csv");
  solveCsvPath_ = timestampedName("contactlab-solve", ".csv");
}

Application::~Application() {
  if (recorder_.recording()) recorder_.stop();
  captureRenderer_.reset();
  renderer_.reset();  // GL objects go while the context is still alive
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

namespace {
// Mesa's CPU rasterizers: llvmpipe, softpipe, and the "swrast" name older drivers report.
bool currentContextIsSoftwareRasterizer() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (!renderer) return false;
  const std::string name = renderer;
  return name.find("llvmpipe") != std::string::npos || name.find("softpipe") != std::string::npos ||
         name.find("swrast") != std::string::npos;
}
}  // namespace

std::string Application::chooseShaderDirectory() const {
  if (commandLine_.shaderDirectory) return *commandLine_.shaderDirectory;
  std::error_code ec;
  if (std::filesystem::is_directory(CONTACTLAB_SHADER_DIR, ec)) return CONTACTLAB_SHADER_DIR;
  // An installed copy: <prefix>/bin/contactlab next to <prefix>/share/contactlab/shaders.
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto installed = exe.parent_path().parent_path() / "share" / "contactlab" / "shaders";
  if (!ec && std::filesystem::is_directory(installed, ec)) return installed.string();
  return CONTACTLAB_SHADER_DIR;
}

std::optional<std::string> Application::createWindow() {
  glfwSetErrorCallback(printGlfwError);
  if (!glfwInit()) {
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display) return std::string("cannot open a window: DISPLAY is not set (run under xvfb-run for headless use)");
    return "cannot open a window on DISPLAY=" + std::string(display) +
           (glfwInitError.empty() ? std::string() : " (" + glfwInitError + ")");
  }
  glfwInitialized = true;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  // Headless runs draw at exactly the requested size; the interactive window opens as it was last
  // closed (1600x900 the first time).
  const int width = headless() ? commandLine_.width : std::clamp(settings_.window.width, 400, 16384);
  const int height = headless() ? commandLine_.height : std::clamp(settings_.window.height, 300, 16384);
  if (!headless() && settings_.window.maximized) glfwWindowHint(GLFW_MAXIMIZED, GLFW_TRUE);
  window_ = glfwCreateWindow(width, height, "contactlab", nullptr, nullptr);
  if (!window_) return "cannot create an OpenGL 3.3 core window (does the driver support OpenGL 3.3?)";
  glfwMakeContextCurrent(window_);
  softwareRasterizer_ = currentContextIsSoftwareRasterizer();
  glfwSwapInterval(headless() ? 0 : 1);
  // Shortcuts come from a queue of key presses rather than ImGui 1.86's per-frame key state, which
  // misses a key pressed and released within one (slow) frame. Installed before the ImGui backend,
  // which chains to it.
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, [](GLFWwindow* window, int key, int, int action, int mods) {
    // Held keys repeat only for single steps.
    const bool steps = key == GLFW_KEY_S || key == GLFW_KEY_RIGHT;
    if (action == GLFW_PRESS || (action == GLFW_REPEAT && steps))
      static_cast<Application*>(glfwGetWindowUserPointer(window))->pressedKeys_.push_back({key, mods});
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = imguiIniPath_.empty() ? nullptr : imguiIniPath_.c_str();
  // Headless runs take no input: the X server's pointer (at the screen's centre under xvfb-run)
  // would otherwise hover over a panel and put its tooltip into the screenshot.
  if (headless()) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  // A system font reads better than ImGui's built-in bitmap font; the latter is the fallback.
  const char* dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  std::error_code ec;
  if (std::filesystem::exists(dejaVu, ec)) io.Fonts->AddFontFromFileTTF(dejaVu, 15.0f);
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.88f;  // the scene shows faintly through the panels
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;
  return std::nullopt;
}

void Application::reportError(std::string message) {
  // The window shows a quoted log (tetgen's, a JSON parser's) as it is; the terminal gets one line.
  std::string line = message;
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::cerr << "contactlab: " << line << '\n';
  if (headless() && !headlessError_) headlessError_ = message;
  errorMessage_ = std::move(message);
}

void Application::reportStatus(std::string message) { statusMessage_ = std::move(message); }

void Application::restartStepRate() {
  stepRateStart_ = std::chrono::steady_clock::now();
  stepsThisSecond_ = 0;
  stepRateMeasured_ = false;
}

std::optional<std::string> Application::loadScene(const SceneSource& source) {
  if (auto error = session_.load(source)) return error;
  onSceneLoaded();
  return std::nullopt;
}

void Application::resetScene() {
  if (auto error = session_.reload()) {
    reportError(*error);
  } else {
    onSceneLoaded();
  }
}

void Application::onSceneLoaded() {
  drag_.end();
  viewOptions_.selectedBody = -1;
  settings_.source = session_.source();
  friction_ = session_.frictionDefaults();
  // A recording goes on across a load: its clock restarts at the new world's time.
  if (recorder_.recording())
    recordStartTime_ = session_.world().time() - recorder_.framesWritten() / recordFps_;
}

void Application::fitCamera() {
  if (!session_.hasWorld()) return;
  const auto bounds = render::framingBounds(session_.world().bodies());
  if (!bounds) return;
  camera_.fit(bounds->lower, bounds->upper);
  // Into a container from above its walls, not at its front wall.
  if (const std::optional<double> pitch = render::wallClearingPitch(session_.world().bodies(), *bounds)) {
    render::CameraState state = camera_.state();
    state.pitchRadians = std::max(state.pitchRadians, *pitch);
    camera_.setState(state);
  }
  if (!panelsShown()) return;
  // The panels cover both sides of the view: frame the scene in the free middle instead.
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  if (width <= 0 || height <= 0) return;
  const double left = kPanelMargin + kControlsWidth, right = kPanelMargin + kAnalysisWidth;
  const double freeWidth = width - left - right;
  if (freeWidth < 0.2 * width) return;
  const double shrink = std::min(1.0, freeWidth / (0.9 * height));  // fit() frames the box by the height
  if (shrink < 1.0) camera_.zoom(std::log(shrink) / std::log(1.0 / render::OrbitCamera::kZoomFactorPerStep));
  camera_.pan((left - right) / 2.0, 0.0, height);
}

void Application::applyStartupSettings() {
  SceneSource source = settings_.source;
  bool explicitScene = false;
  if (commandLine_.scene) {
    explicitScene = true;
    source = looksLikeSceneFile(*commandLine_.scene) ? SceneSource::file(*commandLine_.scene)
                                                     : SceneSource::builtin(*commandLine_.scene);
  }
  if (!source.isFile()) {
    for (const auto& [key, value] : commandLine_.params) source.params[key] = value;
    if (commandLine_.seed) source.seed = *commandLine_.seed;
  } else if (!commandLine_.params.empty() || commandLine_.seed) {
    reportError("--param and --seed apply to built-in scenes only, not to " + source.filePath);
    return;
  }

  WorldSettings world = settings_.world;
  if (commandLine_.solver) world.solver.solver = *commandLine_.solver;
  if (commandLine_.rFactor) world.solver.prox.rFactor = *commandLine_.rFactor;
  if (auto error = session_.setSettings(world)) {
    reportError(*error + " (from " + (commandLine_.solver ? "--solver" : "settings " + settingsPath_) +
                "); using the default solver settings");
    session_.setSettings(WorldSettings{});
  }
  session_.pacing = settings_.pacing;
  session_.realTimeFactor = settings_.realTimeFactor;
  session_.stepsPerFrame = settings_.stepsPerFrame;
  viewOptions_ = settings_.view;
  const render::RenderOptions defaults = render::defaultRenderOptions(softwareRasterizer_);
  viewOptions_.msaaSamples = settings_.msaaSamples.value_or(defaults.msaaSamples);
  viewOptions_.shadowMapSize = defaults.shadowMapSize;
  viewOptions_.shadowTaps = defaults.shadowTaps;
  if (commandLine_.stressColors) viewOptions_.stressColors = true;
  if (commandLine_.sizeGiven) {
    settings_.recording.width = commandLine_.width;
    settings_.recording.height = commandLine_.height;
  }
  if (commandLine_.fps != 60.0 || headless()) settings_.recording.fps = commandLine_.fps;

  if (auto error = loadScene(source)) {
    reportError(*error);
    // A remembered scene that no longer loads must not leave an interactive user with nothing.
    if (!headless() && !session_.hasWorld()) loadScene(SceneSource::builtin("tower"));
  }
  if (!explicitScene && settings_.camera && !headless()) {
    camera_.setState(*settings_.camera);
  } else {
    fitCamera();
  }
  if (session_.hasWorld() && !session_.source().isFile()) {
    const auto& scenes = builtinScenes();
    for (std::size_t i = 0; i < scenes.size(); ++i)
      if (scenes[i].name == session_.source().builtinName) selectedBuiltin_ = static_cast<int>(i);
    builtinParams_ = session_.source().params;
    builtinSeed_ = static_cast<int>(session_.source().seed);
  }
  if (session_.source().isFile()) sceneFilePath_ = session_.source().filePath;
}

void Application::rememberSettings() {
  if (settingsPath_.empty() || headless()) return;
  settings_.world = session_.settings();
  settings_.view = viewOptions_;
  if (settings_.msaaSamples || viewOptions_.msaaSamples != render::defaultRenderOptions(softwareRasterizer_).msaaSamples)
    settings_.msaaSamples = viewOptions_.msaaSamples;
  settings_.view.selectedBody = -1;
  settings_.camera = camera_.state();
  settings_.pacing = session_.pacing;
  settings_.realTimeFactor = session_.realTimeFactor;
  settings_.stepsPerFrame = session_.stepsPerFrame;
  settings_.window.maximized = glfwGetWindowAttrib(window_, GLFW_MAXIMIZED) == GLFW_TRUE;
  if (!settings_.window.maximized) glfwGetWindowSize(window_, &settings_.window.width, &settings_.window.height);
  if (auto error = saveSettings(settingsPath_, settings_)) std::cerr << "contactlab: " << *error << '\n';
}

int Application::run() {
  if (commandLine_.useSettings && !headless()) {
    const std::string dir = settingsDirectory();
    if (!dir.empty()) {
      settingsPath_ = dir + "/settings.json";
      imguiIniPath_ = dir + "/imgui.ini";
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      // Read before the window opens: it takes its remembered size.
      if (auto error = loadSettings(settingsPath_, settings_)) reportError(*error);
    }
  }
  if (auto error = createWindow()) {
    std::cerr << "contactlab: " << *error << '\n';
    return 1;
  }
  shaderDirectory_ = chooseShaderDirectory();
  renderer_ = std::make_unique<render::Renderer>(shaderDirectory_);
  if (const auto& error = renderer_->shaderError()) reportError(*error);
  applyStartupSettings();
  if (headless() && headlessError_) return 1;

  if (headless()) {
    if (!commandLine_.recordPath.empty()) {
      if (auto error = startRecording(commandLine_.recordPath, commandLine_.width, commandLine_.height,
                                      commandLine_.fps)) {
        std::cerr << "contactlab: " << *error << '\n';
        return 1;
      }
    }
    restartStepRate();
    const double start = session_.world().time();
    for (int frameIndex = 1; frameIndex <= *commandLine_.frames && !headlessError_; ++frameIndex) {
      while (!headlessError_ && periodsSince(start, session_.world().time(), commandLine_.fps) < frameIndex) {
        if (!advanceOneStep()) break;
      }
      if (glfwWindowShouldClose(window_)) break;
      frame(0.0);
    }
    // The window's screenshot from one more frame of the same state: a panel that sizes itself to
    // its contents is laid out in its first frame and drawn from its second, so a one-frame run
    // would lack it.
    if (!commandLine_.uiScreenshotPath.empty() && !headlessError_) {
      finalHeadlessFrame_ = true;
      frame(0.0);
    }
    if (!headlessError_) {
      if (auto error = writeHeadlessOutputs()) reportError(*error);
    }
    return headlessError_ ? 1 : 0;
  }

  std::signal(SIGINT, requestStop);
  std::signal(SIGTERM, requestStop);
  restartStepRate();
  auto last = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window_) && !stopRequested) {
    const auto now = std::chrono::steady_clock::now();
    const double wallSeconds = std::chrono::duration<double>(now - last).count();
    last = now;
    frame(wallSeconds);
  }
  if (recorder_.recording()) {
    if (auto error = stopRecording()) std::cerr << "contactlab: " << *error << '\n';
  }
  rememberSettings();
  return 0;
}

std::optional<std::string> Application::writeHeadlessOutputs() {
  if (recorder_.recording()) {
    if (auto error = stopRecording()) return error;
  }
  if (!commandLine_.screenshotPath.empty()) {
    if (auto error = saveViewScreenshot(commandLine_.screenshotPath)) return error;
  }
  if (!commandLine_.profilePath.empty()) {
    std::ofstream csv(commandLine_.profilePath);
    csv << "frame,render_ms,render_cpu_ms\n";
    for (std::size_t i = 0; i < headlessRenderMs_.size(); ++i)
      csv << i + 1 << ',' << headlessRenderMs_[i].first << ',' << headlessRenderMs_[i].second << '\n';
    if (!csv) return "cannot write " + commandLine_.profilePath;
  }
  return std::nullopt;
}

void Application::frame(double wallSeconds) {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();

  if (!headless()) {
    handleShortcuts();
    handleMouse();
    const int steps = session_.paused() ? 0 : session_.stepsForFrame(wallSeconds);
    for (int i = 0; i < steps; ++i)
      if (!advanceOneStep()) break;
  }
  const auto now = std::chrono::steady_clock::now();
  const double rateSeconds = std::chrono::duration<double>(now - stepRateStart_).count();
  if (rateSeconds >= 1.0) {
    stepsPerSecond_ = stepsThisSecond_ / rateSeconds;
    stepsThisSecond_ = 0;
    stepRateStart_ = now;
    stepRateMeasured_ = true;
  } else if (!stepRateMeasured_ && rateSeconds > 0.0) {
    // Before the first whole second (a short headless run), the rate so far.
    stepsPerSecond_ = stepsThisSecond_ / rateSeconds;
  }

  // The view first: the panels' legend reads the stress scale it was drawn with.
  renderView();
  drawUi();
  if (headless()) captureDueVideoFrames();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  // The last headless frame, panels included, for the README and for checking the layout.
  if (finalHeadlessFrame_ && !commandLine_.uiScreenshotPath.empty() && !headlessError_) {
    if (auto error = saveWindowScreenshot(commandLine_.uiScreenshotPath)) reportError(*error);
  }
  if (!pendingWindowScreenshot_.empty()) {
    if (auto error = saveWindowScreenshot(pendingWindowScreenshot_)) {
      reportError(*error);
    } else {
      reportStatus("window saved to " + pendingWindowScreenshot_);
    }
    pendingWindowScreenshot_.clear();
  }
  glfwSwapBuffers(window_);
}

bool Application::advanceOneStep() {
  if (!session_.hasWorld()) return false;
  World& world = session_.world();
  // The mouse spring's force on a deformable node holds for one step: set again while dragging.
  world.clearDeformableNodeForces();
  if (drag_.active()) {
    try {
      if (drag_.grabsNode()) {
        world.setDeformableNodeForce(drag_.deformable(), drag_.node(), drag_.nodeForce(world));
      } else if (const Vec3 impulse = drag_.impulse(world); impulse.squaredNorm() > 0) {
        world.applyImpulse(drag_.body(), impulse, drag_.grabPointWorld(world));
      }
    } catch (const std::exception& e) {
      drag_.end();
      reportError(std::string("drag: ") + e.what());
    }
  }
  if (auto error = session_.step(1)) {
    reportError(*error);
    drag_.end();
    return false;
  }
  ++stepsThisSecond_;
  if (!headless()) captureDueVideoFrames();  // headless captures the view after each frame's render
  return true;
}

void Application::captureDueVideoFrames() {
  if (!recorder_.recording()) return;
  const int due = periodsSince(recordStartTime_, session_.world().time(), recordFps_);
  if (recorder_.framesWritten() >= due) return;
  if (captureRenderer_) {
    captureRenderer_->render(session_.world(), camera_, viewOptions_, recordWidth_, recordHeight_);
    captureRenderer_->readPixels(pixels_);
  } else {
    renderer_->readPixels(pixels_);  // headless: the view was just drawn at the recording's size
  }
  // A step longer than a video frame repeats the image, so the video still plays at real speed.
  while (recorder_.framesWritten() < due) {
    if (auto error = recorder_.addFrame(pixels_)) {
      reportError("recording " + recordPath_ + ": " + *error);
      if (recorder_.recording()) recorder_.stop();  // addFrame ends the recording when ffmpeg died
      captureRenderer_.reset();
      return;
    }
  }
}

void Application::renderView() {
  int framebufferWidth = 0, framebufferHeight = 0;
  glfwGetFramebufferSize(window_, &framebufferWidth, &framebufferHeight);
  if (framebufferWidth <= 0 || framebufferHeight <= 0) return;  // minimised
  const int width = headless() ? commandLine_.width : framebufferWidth;
  const int height = headless() ? commandLine_.height : framebufferHeight;
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = processCpuMs();
  if (session_.hasWorld()) {
    renderer_->render(session_.world(), camera_, viewOptions_, width, height);
    glFinish();  // so the profiler shows the drawing's cost, not just its submission
  }
  renderMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // One row per frame of --frames (the screenshot's extra frame is not one of them).
  if (headless() && !finalHeadlessFrame_) headlessRenderMs_.emplace_back(renderMs_, processCpuMs() - cpuStart);
  renderer_->presentToScreen(framebufferWidth, framebufferHeight);
}

void Application::handleShortcuts() {
  std::vector<KeyPress> keys;
  keys.swap(pressedKeys_);
  if (ImGui::GetIO().WantCaptureKeyboard) return;  // typing in a text field
  for (const KeyPress& press : keys) handleKey(press.key, press.mods);
}

void Application::handleKey(int key, int mods) {
  const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
  if (key == GLFW_KEY_F1) showHelp_ = !showHelp_;
  if (key == GLFW_KEY_SPACE) session_.setPaused(!session_.paused());
  if (key == GLFW_KEY_S || key == GLFW_KEY_RIGHT) {
    session_.setPaused(true);
    advanceOneStep();
  }
  if (key == GLFW_KEY_R) {
    if (ctrl && shift) {
      reloadShaders();
    } else if (ctrl) {
      toggleRecording();
    } else {
      resetScene();
    }
  }
  if (key == GLFW_KEY_F9) toggleRecording();
  if (key == GLFW_KEY_HOME) camera_.reset();
  if (key == GLFW_KEY_F) fitCamera();
  if (key == GLFW_KEY_ESCAPE) {
    viewOptions_.selectedBody = -1;
    drag_.end();
  }
  if (key == GLFW_KEY_F12 || (key == GLFW_KEY_P && !ctrl)) {
    if (shift) {
      pendingWindowScreenshot_ = screenshotPath_;
    } else if (auto error = saveViewScreenshot(screenshotPath_)) {
      reportError(*error);
    } else {
      reportStatus("3D view saved to " + screenshotPath_);
    }
    if (errorMessage_.empty() || shift) screenshotPath_ = timestampedName("contactlab", ".png");
  }
}

void Application::handleMouse() {
  const ImGuiIO& io = ImGui::GetIO();
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  if (width <= 0 || height <= 0 || !session_.hasWorld()) return;
  const double mx = io.MousePos.x, my = io.MousePos.y;
  const World& world = session_.world();

  if (drag_.active()) {
    drag_.setMouseRay(camera_.rayThroughPixel(mx, my, width, height));
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) drag_.end();
    return;
  }
  const bool overPanels = io.WantCaptureMouse;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && !overPanels) {
    if (io.KeyCtrl || io.KeyShift) {
      const auto hit = render::pickBody(world, camera_.rayThroughPixel(mx, my, width, height));
      if (hit) {
        viewOptions_.selectedBody = hit->body;
        drag_.begin(world, hit->body, hit->point, camera_.eye());
      }
      return;
    }
    leftPressInView_ = true;
    leftDragged_ = false;
    pressX_ = mx;
    pressY_ = my;
  }
  if (leftPressInView_) {
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      if (std::hypot(mx - pressX_, my - pressY_) > 3.0) leftDragged_ = true;
      if (leftDragged_) camera_.orbit(io.MouseDelta.x, io.MouseDelta.y);
    } else {
      if (!leftDragged_) {
        const auto hit = render::pickBody(world, camera_.rayThroughPixel(mx, my, width, height));
        viewOptions_.selectedBody = hit ? hit->body : -1;
      }
      leftPressInView_ = false;
    }
  }
  if (overPanels) return;
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0.0f) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f))
    camera_.pan(io.MouseDelta.x, io.MouseDelta.y, height);
  if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
}

std::optional<std::string> Application::startRecording(const std::string& path, int width, int height, double fps) {
  if (!session_.hasWorld()) return std::string("no scene to record");
  // The window's view changes size with the window; the video keeps its own, so it gets its own
  // renderer. Headless, the view is drawn at the video's size and serves both.
  std::unique_ptr<render::Renderer> capture;
  if (!headless()) {
    capture = std::make_unique<render::Renderer>(shaderDirectory_);
    if (const auto& error = capture->shaderError()) return "cannot record: " + *error;
  }
  if (auto error = recorder_.start(path, width, height, fps)) return error;
  captureRenderer_ = std::move(capture);
  recordPath_ = path;
  recordWidth_ = width;
  recordHeight_ = height;
  recordFps_ = fps;
  recordStartTime_ = session_.world().time();
  return std::nullopt;
}

std::optional<std::string> Application::stopRecording() {
  const int frames = recorder_.framesWritten();
  auto error = recorder_.stop();
  captureRenderer_.reset();
  if (!error) {
    reportStatus("recorded " + std::to_string(frames) + " frames to " + recordPath_);
    if (!headless()) recordPath_ = timestampedName("contactlab", ".mp4");
  }
  return error;
}

void Application::toggleRecording() {
  const auto error = recorder_.recording()
                         ? stopRecording()
                         : startRecording(recordPath_, settings_.recording.width, settings_.recording.height,
                                          settings_.recording.fps);
  if (error) reportError(*error);
}

std::optional<std::string> Application::saveViewScreenshot(const std::string& path) {
  if (renderer_->width() <= 0 || renderer_->height() <= 0) return "screenshot " + path + ": nothing drawn yet";
  renderer_->readPixels(pixels_);
  return writePng(path, renderer_->width(), renderer_->height(), pixels_);
}

std::optional<std::string> Application::saveWindowScreenshot(const std::string& path) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  std::vector<std::uint8_t> bottomUp(static_cast<std::size_t>(width) * height * 3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<std::uint8_t> topDown(bottomUp.size());
  for (int y = 0; y < height; ++y)
    std::copy_n(bottomUp.begin() + static_cast<std::ptrdiff_t>((height - 1 - y) * row), row,
                topDown.begin() + static_cast<std::ptrdiff_t>(y * row));
  return writePng(path, width, height, topDown);
}

void Application::reloadShaders() {
  if (auto error = renderer_->reloadShaders()) {
    std::cerr << "contactlab: " << *error << '\n';
    return;  // shown by the shader error window
  }
  if (captureRenderer_) captureRenderer_->reloadShaders();
  reportStatus("shaders reloaded from " + shaderDirectory_);
}

}  // namespace contactlab::app
