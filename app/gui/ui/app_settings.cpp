#include "ui/app_settings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace contactlab::app {
namespace {

using nlohmann::json;

json vec3ToJson(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

Vec3 vec3FromJson(const json& j) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error("expected an array of 3 numbers");
  return Vec3(j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>());
}

json toJson(const AppSettings& s) {
  json source;
  if (s.source.isFile()) {
    source["file"] = s.source.filePath;
  } else {
    source["builtin"] = s.source.builtinName;
    source["params"] = s.source.params;
    source["seed"] = s.source.seed;
  }
  const auto& d = s.view.debug;
  json j = {
      {"scene", source},
      {"solver",
       {{"name", s.world.solver.solver},
        {"rfactor", rFactorName(s.world.solver.prox.rFactor)},
        {"max_iterations", s.world.solver.maxIterations},
        {"tol_abs", s.world.solver.tolAbs},
        {"tol_rel", s.world.solver.tolRel},
        {"stall_window", s.world.solver.stallWindow},
        {"warm_start", s.world.warmStart},
        {"stabilize", s.world.stabilize},
        {"sleep", s.world.sleep},
        {"threads", s.world.threads},
        {"kdop", s.world.kdop},
        {"psor_omega", s.world.solver.psor.omega},
        {"pgs_sm_pgs_sweeps", s.world.solver.pgsSm.pgsSweeps},
        {"pgs_sm_subspace_steps", s.world.solver.pgsSm.subspaceSteps},
        {"modulus_alpha", s.world.solver.modulus.alpha},
        {"modulus_gamma", s.world.solver.modulus.gamma},
        {"deformable_solver", s.world.deformable.solver},
        {"deformable_tol_rel", s.world.deformable.relativeTolerance},
        {"deformable_tol_abs", s.world.deformable.absoluteTolerance},
        {"deformable_max_iterations", s.world.deformable.maxIterations},
        {"deformable_stall_iterations", s.world.deformable.stallIterations},
        {"deformable_friction", deformableFrictionName(s.world.deformable.friction)}}},
      {"view",
       {{"shadows", s.view.shadows},
        {"grid", s.view.groundGrid},
        {"debug_overlay", s.view.debugOverlay},
        {"msaa", s.msaaSamples ? json(*s.msaaSamples) : json(nullptr)},
        {"contact_points", d.contactPoints},
        {"contact_normals", d.contactNormals},
        {"contact_forces", d.contactForces},
        {"force_scale", d.forceScale},
        {"color_by_state", d.colorByState},
        {"bounding_boxes", d.boundingBoxes},
        {"broadphase_cells", d.broadphaseCells},
        {"stress_colors", s.view.stressColors},
        {"stress_lower", s.view.stressLower},
        {"stress_upper", s.view.stressUpper}}},
      {"pacing",
       {{"mode", s.pacing == Pacing::RealTime ? "real_time" : "steps_per_frame"},
        {"real_time_factor", s.realTimeFactor},
        {"steps_per_frame", s.stepsPerFrame}}},
      {"recording", {{"width", s.recording.width}, {"height", s.recording.height}, {"fps", s.recording.fps}}},
      {"window", {{"width", s.window.width}, {"height", s.window.height}, {"maximized", s.window.maximized}}},
      {"panels", s.openPanels},
  };
  if (s.camera) {
    j["camera"] = {{"target", vec3ToJson(s.camera->target)},
                   {"distance", s.camera->distance},
                   {"yaw", s.camera->yawRadians},
                   {"pitch", s.camera->pitchRadians}};
  }
  return j;
}

// Every key is optional so that a settings file from an older version still loads.
AppSettings fromJson(const json& j, AppSettings s) {
  if (!j.is_object()) throw std::runtime_error("the top level is not an object");
  if (j.contains("scene")) {
    const json& scene = j.at("scene");
    if (scene.contains("file")) {
      s.source = SceneSource::file(scene.at("file").get<std::string>());
    } else {
      s.source = SceneSource::builtin(scene.at("builtin").get<std::string>(),
                                      scene.value("params", SceneParams{}));
      s.source.seed = scene.value("seed", std::uint64_t{1});
    }
  }
  if (j.contains("solver")) {
    const json& v = j.at("solver");
    s.world.solver.solver = v.value("name", s.world.solver.solver);
    if (v.contains("rfactor") && !parseRFactor(v.at("rfactor").get<std::string>(), s.world.solver.prox.rFactor))
      throw std::runtime_error("solver.rfactor must be global, local or blocked");
    s.world.solver.maxIterations = v.value("max_iterations", s.world.solver.maxIterations);
    s.world.solver.tolAbs = v.value("tol_abs", s.world.solver.tolAbs);
    s.world.solver.tolRel = v.value("tol_rel", s.world.solver.tolRel);
    s.world.solver.stallWindow = v.value("stall_window", s.world.solver.stallWindow);
    if (s.world.solver.stallWindow < 0) throw std::runtime_error("solver.stall_window must be at least 0");
    s.world.warmStart = v.value("warm_start", s.world.warmStart);
    s.world.stabilize = v.value("stabilize", s.world.stabilize);
    s.world.sleep = v.value("sleep", s.world.sleep);
    s.world.threads = v.value("threads", s.world.threads);
    if (s.world.threads < 1) throw std::runtime_error("solver.threads must be at least 1");
    s.world.kdop = v.value("kdop", s.world.kdop);
    if (s.world.kdop != 14 && s.world.kdop != 18 && s.world.kdop != 26)
      throw std::runtime_error("solver.kdop must be 14, 18 or 26");
    s.world.solver.psor.omega = v.value("psor_omega", s.world.solver.psor.omega);
    s.world.solver.pgsSm.pgsSweeps = v.value("pgs_sm_pgs_sweeps", s.world.solver.pgsSm.pgsSweeps);
    s.world.solver.pgsSm.subspaceSteps = v.value("pgs_sm_subspace_steps", s.world.solver.pgsSm.subspaceSteps);
    s.world.solver.modulus.alpha = v.value("modulus_alpha", s.world.solver.modulus.alpha);
    s.world.solver.modulus.gamma = v.value("modulus_gamma", s.world.solver.modulus.gamma);
    s.world.deformable.solver = v.value("deformable_solver", s.world.deformable.solver);
    DeformableSolverSettings& deformable = s.world.deformable;
    deformable.relativeTolerance = v.value("deformable_tol_rel", deformable.relativeTolerance);
    deformable.absoluteTolerance = v.value("deformable_tol_abs", deformable.absoluteTolerance);
    if (!(deformable.relativeTolerance > 0.0) || !(deformable.absoluteTolerance > 0.0))
      throw std::runtime_error("solver.deformable_tol_rel and solver.deformable_tol_abs must be positive");
    deformable.maxIterations = v.value("deformable_max_iterations", deformable.maxIterations);
    if (deformable.maxIterations < 1) throw std::runtime_error("solver.deformable_max_iterations must be at least 1");
    deformable.stallIterations = v.value("deformable_stall_iterations", deformable.stallIterations);
    if (deformable.stallIterations < 0) throw std::runtime_error("solver.deformable_stall_iterations must be 0 (off) or more");
    if (v.contains("deformable_friction") &&
        !parseDeformableFriction(v.at("deformable_friction").get<std::string>(), deformable.friction))
      throw std::runtime_error("solver.deformable_friction must be cone or pyramid");
  }
  if (j.contains("view")) {
    const json& v = j.at("view");
    auto& d = s.view.debug;
    s.view.shadows = v.value("shadows", s.view.shadows);
    s.view.groundGrid = v.value("grid", s.view.groundGrid);
    s.view.debugOverlay = v.value("debug_overlay", s.view.debugOverlay);
    if (v.contains("msaa") && !v.at("msaa").is_null()) s.msaaSamples = v.at("msaa").get<int>();
    d.contactPoints = v.value("contact_points", d.contactPoints);
    d.contactNormals = v.value("contact_normals", d.contactNormals);
    d.contactForces = v.value("contact_forces", d.contactForces);
    d.forceScale = v.value("force_scale", d.forceScale);
    d.colorByState = v.value("color_by_state", d.colorByState);
    d.boundingBoxes = v.value("bounding_boxes", d.boundingBoxes);
    d.broadphaseCells = v.value("broadphase_cells", d.broadphaseCells);
    s.view.stressColors = v.value("stress_colors", s.view.stressColors);
    s.view.stressLower = v.value("stress_lower", s.view.stressLower);
    s.view.stressUpper = v.value("stress_upper", s.view.stressUpper);
  }
  if (j.contains("pacing")) {
    const json& v = j.at("pacing");
    s.pacing = v.value("mode", std::string("real_time")) == "steps_per_frame" ? Pacing::FixedStepsPerFrame
                                                                              : Pacing::RealTime;
    s.realTimeFactor = v.value("real_time_factor", s.realTimeFactor);
    s.stepsPerFrame = v.value("steps_per_frame", s.stepsPerFrame);
  }
  if (j.contains("recording")) {
    const json& v = j.at("recording");
    s.recording.width = v.value("width", s.recording.width);
    s.recording.height = v.value("height", s.recording.height);
    s.recording.fps = v.value("fps", s.recording.fps);
  }
  if (j.contains("window")) {
    const json& v = j.at("window");
    s.window.width = v.value("width", s.window.width);
    s.window.height = v.value("height", s.window.height);
    s.window.maximized = v.value("maximized", s.window.maximized);
  }
  if (j.contains("panels")) s.openPanels = j.at("panels").get<std::map<std::string, bool>>();
  if (j.contains("camera")) {
    const json& v = j.at("camera");
    s.camera = render::CameraState{vec3FromJson(v.at("target")), v.at("distance").get<double>(),
                                   v.at("yaw").get<double>(), v.at("pitch").get<double>()};
  }
  return s;
}

}  // namespace

std::string settingsDirectory() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/contactlab";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/contactlab";
  return {};
}

std::optional<std::string> loadSettings(const std::string& path, AppSettings& settings) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) return "settings " + path + ": cannot be read; using defaults";
  try {
    settings = fromJson(json::parse(in), settings);
  } catch (const std::exception& e) {
    return "settings " + path + ": " + e.what() + "; ignored, using defaults";
  }
  return std::nullopt;
}

std::optional<std::string> saveSettings(const std::string& path, const AppSettings& settings) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return "settings " + path + ": cannot create its folder (" + ec.message() + ")";
  std::ofstream out(path);
  out << toJson(settings).dump(2) << '\n';
  if (!out) return "settings " + path + ": cannot be written";
  return std::nullopt;
}

}  // namespace contactlab::app
