#pragma once
// Draws a World with OpenGL 3.3 core (through libepoxy) into an offscreen framebuffer: lit,
// instanced bodies with a directional-light shadow map, a grid on static surfaces, and the engine's
// debug overlay. The GL objects live behind a pointer so this header pulls in no GL headers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contactlab/render/camera.h"
#include "contactlab/render/stress_colors.h"
#include "contactlab/world.h"

namespace contactlab::render {

struct RenderOptions {
  bool shadows = true;
  bool groundGrid = true;              // 1 m grid lines on static bodies and planes
  bool debugOverlay = true;            // draw World::debugDraw output (contacts etc.) with `debug`
  contactlab::DebugDrawOptions debug;
  int selectedBody = -1;               // drawn highlighted, with an outline box (even without the overlay)
  // Deformable bodies coloured by von Mises stress (stress_colors.h) instead of their own colour,
  // on a scale from stressLower to stressUpper Pa; with stressUpper <= stressLower the scale spans
  // the frame's smallest to largest node value over the drawn surfaces.
  bool stressColors = false;
  double stressLower = 0.0;
  double stressUpper = 0.0;
  int msaaSamples = 4;                 // clamped to what the driver offers; 0 or 1 turns it off
  int shadowMapSize = 2048;            // texels per side of the light's depth map
  int shadowTaps = 4;                  // per shaded pixel: 4, a 3x3 PCF; 1, one bilinear 2x2 comparison
};

// The defaults for this OpenGL: RenderOptions{} on a GPU. A software rasterizer (llvmpipe) gets no
// MSAA, which is costly there, and cheaper shadows: a 1024-texel map (a quarter of the depth pass)
// and one shadow-map tap instead of the 3x3 PCF's four (docs/app-performance.md).
RenderOptions defaultRenderOptions(bool softwareRasterizer);

// Names of the programs the renderer loads from <shaderDirectory>/<name>.vert and .frag.
inline constexpr const char* kShaderProgramNames[] = {"body", "shadow", "line", "background"};

class Renderer {
 public:
  // Needs a current OpenGL 3.3 core context. Loads the GLSL files from shaderDirectory; never throws
  // (a failed load is kept in shaderError()).
  explicit Renderer(std::string shaderDirectory);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // (Re)loads every shader file. On failure returns the message (file path + GL compiler/linker
  // log) and keeps the previous programs, if any. Without programs render() only clears.
  std::optional<std::string> reloadShaders();
  const std::optional<std::string>& shaderError() const;
  const std::string& shaderDirectory() const;

  // Draws the world into an offscreen framebuffer of width x height (recreated when the size
  // changes; each side is clamped to [1, the driver's largest renderbuffer]).
  void render(const World& world, const OrbitCamera& camera, const RenderOptions& options, int width, int height);
  // Copies the last image to the default framebuffer, filling a viewport of that size.
  void presentToScreen(int framebufferWidth, int framebufferHeight);
  // The last image as RGB8, rows top to bottom (ready for PNG / ffmpeg).
  void readPixels(std::vector<std::uint8_t>& rgb) const;
  // The stress scale of the last image (RenderOptions::stressColors), for a legend; nullopt when it
  // coloured no body by stress.
  const std::optional<StressRange>& stressRange() const;
  int width() const;
  int height() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactlab::render
