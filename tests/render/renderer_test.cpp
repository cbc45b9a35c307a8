#include "contactlab/render/renderer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "contactlab/render/bounds.h"
#include "support/test_scenes.h"
#include "render/headless_gl_context.h"

namespace contactlab::render {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 320;
constexpr int kHeight = 180;

class RendererTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(context_.ok()) << context_.error(); }
  void TearDown() override {
    for (const fs::path& directory : scratchDirectories_) fs::remove_all(directory);
  }

  static World settledTower() {
    World world(buildBuiltinScene("tower", {}, 1));
    for (int i = 0; i < 5; ++i) world.step();
    return world;
  }

  static OrbitCamera framing(const World& world) {
    OrbitCamera camera;
    const auto bounds = framingBounds(world.bodies());
    camera.fit(bounds->lower, bounds->upper);
    return camera;
  }

  static std::vector<std::uint8_t> draw(Renderer& renderer, const World& world, const RenderOptions& options = {}) {
    renderer.render(world, framing(world), options, kWidth, kHeight);
    std::vector<std::uint8_t> rgb;
    renderer.readPixels(rgb);
    return rgb;
  }

  // A copy of the shipped shaders that a test may break.
  fs::path copyOfShaders(const std::string& name) {
    // Per process: another build's test binary may be running the same test right now.
    const fs::path directory = fs::temp_directory_path() / ("contactlab_shaders_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(directory);
    fs::copy(CONTACTLAB_SHADER_DIR, directory);
    scratchDirectories_.push_back(directory);
    return directory;
  }

  testing::HeadlessGlContext context_;
  std::vector<fs::path> scratchDirectories_;
};

double luminanceVariance(const std::vector<std::uint8_t>& rgb) {
  double sum = 0.0, squares = 0.0;
  const std::size_t pixels = rgb.size() / 3;
  for (std::size_t i = 0; i < pixels; ++i) {
    const double y = 0.2126 * rgb[3 * i] + 0.7152 * rgb[3 * i + 1] + 0.0722 * rgb[3 * i + 2];
    sum += y;
    squares += y * y;
  }
  const double mean = sum / pixels;
  return squares / pixels - mean * mean;
}

std::array<int, 3> pixelAt(const std::vector<std::uint8_t>& rgb, int x, int y) {
  const std::size_t i = 3 * (static_cast<std::size_t>(y) * kWidth + x);
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

TEST_F(RendererTest, ShippedShadersLoadAndTheTowerIsDrawnOverSkyAndGround) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  ASSERT_FALSE(renderer.shaderError()) << *renderer.shaderError();
  const World world = settledTower();
  const auto rgb = draw(renderer, world);
  ASSERT_EQ(rgb.size(), static_cast<std::size_t>(kWidth * kHeight * 3));
  EXPECT_EQ(renderer.width(), kWidth);
  EXPECT_EQ(renderer.height(), kHeight);
  EXPECT_GT(luminanceVariance(rgb), 100.0);
  // Rows run top to bottom: the top row is sky (bluish grey), the bottom row ground (neutral), and
  // the centre a coloured brick, unlike either.
  const auto sky = pixelAt(rgb, 5, 0);
  const auto ground = pixelAt(rgb, 5, kHeight - 1);
  const auto centre = pixelAt(rgb, kWidth / 2, kHeight / 2);
  EXPECT_GT(sky[2], sky[0]) << "sky should be bluish";
  EXPECT_NE(sky, ground);
  const auto spread = [](const std::array<int, 3>& c) { return std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}); };
  EXPECT_GT(spread(centre), 40) << "the tower's bricks are saturated colours";
  EXPECT_LT(spread(ground), 20) << "the ground is grey";
}

// The soft block of the app's checks: a deformable cube dropped onto a static slab.
World softBlockOnGround() {
  const Scene scene = contactlab::test::softBoxOnSlab(Vec3(0.1, 0.1, 0.1), Vec3(0, 0, 0.15));
  World world(scene);
  for (int i = 0; i < 5; ++i) world.step();
  return world;
}

TEST_F(RendererTest, ADeformableBodyIsDrawnByItsSurfaceInADynamicBodysColour) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  const World world = softBlockOnGround();
  RenderOptions plain;
  plain.debugOverlay = false;
  const auto rgb = draw(renderer, world, plain);
  const auto spread = [](const std::array<int, 3>& c) { return std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}); };
  // Framed on the block: its colour (not the grey of static bodies, as its Static motion would give
  // a rigid body) fills the middle of the picture.
  EXPECT_GT(spread(pixelAt(rgb, kWidth / 2, kHeight / 2)), 40);
  RenderOptions selected = plain;
  selected.selectedBody = 1;
  EXPECT_NE(draw(renderer, world, selected), rgb) << "a deformable body can be shown selected";
  EXPECT_EQ(draw(renderer, world, plain), rgb) << "rendering is deterministic";
}

TEST_F(RendererTest, StressColoursFollowTheScaleAndReportIt) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  const World world = softBlockOnGround();
  RenderOptions plain;
  plain.debugOverlay = false;
  const auto own = draw(renderer, world, plain);
  EXPECT_FALSE(renderer.stressRange()) << "no scale without stress colours";

  RenderOptions stress = plain;
  stress.stressColors = true;
  const auto coloured = draw(renderer, world, stress);
  EXPECT_NE(coloured, own);
  ASSERT_TRUE(renderer.stressRange());
  EXPECT_GE(renderer.stressRange()->lower, 0.0) << "von Mises stress";
  EXPECT_GT(renderer.stressRange()->upper, renderer.stressRange()->lower) << "the landing block is stressed unevenly";

  // A held scale far above every node's stress draws the block in the scale's low end (blue), one
  // far below it in the high end (red).
  const auto centre = [&](const std::vector<std::uint8_t>& rgb) { return pixelAt(rgb, kWidth / 2, kHeight / 2); };
  RenderOptions low = stress;
  low.stressLower = 1e9;
  low.stressUpper = 2e9;
  const auto blue = centre(draw(renderer, world, low));
  EXPECT_GT(blue[2], blue[0] + 40);
  EXPECT_EQ(renderer.stressRange()->lower, 1e9);
  EXPECT_EQ(renderer.stressRange()->upper, 2e9);
  RenderOptions high = stress;
  high.stressLower = -2.0;
  high.stressUpper = -1.0;
  const auto red = centre(draw(renderer, world, high));
  EXPECT_GT(red[0], red[2] + 40);

  // Off again: the body's own colour, exactly.
  EXPECT_EQ(draw(renderer, world, plain), own);
  EXPECT_FALSE(renderer.stressRange());
}

TEST_F(RendererTest, OptionsChangeThePicture) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  const World world = settledTower();
  RenderOptions plain;
  plain.debugOverlay = false;
  const auto base = draw(renderer, world, plain);
  RenderOptions overlay = plain;
  overlay.debugOverlay = true;
  overlay.debug.boundingBoxes = true;
  EXPECT_NE(draw(renderer, world, overlay), base);
  RenderOptions selected = plain;
  selected.selectedBody = 40;
  EXPECT_NE(draw(renderer, world, selected), base);
  RenderOptions noShadows = plain;
  noShadows.shadows = false;
  EXPECT_NE(draw(renderer, world, noShadows), base);
  RenderOptions noGrid = plain;
  noGrid.groundGrid = false;
  EXPECT_NE(draw(renderer, world, noGrid), base);
  EXPECT_EQ(draw(renderer, world, plain), base) << "rendering is deterministic";
}

TEST(RenderDefaults, AGpuKeepsTheFullSettingsASoftwareRasterizerGetsCheaperOnes) {
  const RenderOptions gpu = defaultRenderOptions(false);
  EXPECT_EQ(gpu.msaaSamples, 4);
  EXPECT_EQ(gpu.shadowMapSize, 2048);
  EXPECT_EQ(gpu.shadowTaps, 4);
  const RenderOptions software = defaultRenderOptions(true);
  EXPECT_EQ(software.msaaSamples, 0);
  EXPECT_EQ(software.shadowMapSize, 1024);
  EXPECT_EQ(software.shadowTaps, 1);
  EXPECT_TRUE(software.shadows) << "cheaper shadows, not none";
}

TEST_F(RendererTest, SoftwareShadowsStillDarkenTheGroundLikeTheFullOnes) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  const World world = settledTower();
  RenderOptions full;
  full.debugOverlay = false;
  RenderOptions software = defaultRenderOptions(true);
  software.debugOverlay = false;
  software.msaaSamples = full.msaaSamples;  // only the shadows differ
  RenderOptions none = full;
  none.shadows = false;
  const auto fullImage = draw(renderer, world, full);
  const auto softwareImage = draw(renderer, world, software);
  ASSERT_FALSE(renderer.shaderError()) << *renderer.shaderError();
  const auto noShadowImage = draw(renderer, world, none);
  const auto meanDifference = [](const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
    return sum / static_cast<double>(a.size());
  };
  const double shadowEffect = meanDifference(fullImage, noShadowImage);
  EXPECT_GT(shadowEffect, 0.5) << "the tower casts a visible shadow";
  // The same shadows, only with softer-or-harder edges: far closer to the full ones than to none.
  EXPECT_LT(meanDifference(softwareImage, fullImage), 0.25 * shadowEffect);
  EXPECT_EQ(draw(renderer, world, full), fullImage) << "switching back rebuilds the 4-tap shaders";
}

TEST_F(RendererTest, ResizesItsImageOnDemand) {
  Renderer renderer(CONTACTLAB_SHADER_DIR);
  const World world = settledTower();
  renderer.render(world, OrbitCamera(), {}, 64, 48);
  std::vector<std::uint8_t> rgb;
  renderer.readPixels(rgb);
  EXPECT_EQ(rgb.size(), 64u * 48u * 3u);
  renderer.render(world, OrbitCamera(), {}, 0, -5);
  EXPECT_EQ(renderer.width(), 1);
  EXPECT_EQ(renderer.height(), 1);
  renderer.render(world, OrbitCamera(), {}, 64, 1 << 30);
  EXPECT_EQ(renderer.width(), 64);
  EXPECT_GE(renderer.height(), 1024) << "clamped to the driver's limit, not to something tiny";
  EXPECT_LT(renderer.height(), 1 << 30);
}

TEST_F(RendererTest, BrokenShaderReportsFileAndLogAndKeepsThePreviousPrograms) {
  const fs::path shaders = copyOfShaders("broken");
  Renderer renderer(shaders.string());
  ASSERT_FALSE(renderer.shaderError());
  const World world = settledTower();
  const auto before = draw(renderer, world);

  const std::string fragment = (shaders / "body.frag").string();
  std::ofstream(fragment) << "#version 330 core\nout vec4 c;\nvoid main() { c = undefinedThing; }\n";
  const auto error = renderer.reloadShaders();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind(fragment + ": compile error: ", 0), 0u) << *error;
  EXPECT_NE(error->find("undefinedThing"), std::string::npos) << "the driver's log names the culprit: " << *error;
  // Mesa's log says "0:LINE(COLUMN)": the line of the file as written, though the renderer inserts
  // its #defines (SHADOW_TAPS) after the #version line.
  EXPECT_NE(error->find("0:3("), std::string::npos) << "the error is on the file's line 3: " << *error;
  EXPECT_EQ(renderer.shaderError(), error);
  EXPECT_EQ(draw(renderer, world), before) << "the previous programs stay in use";

  fs::remove(shaders / "body.vert");
  const auto missing = renderer.reloadShaders();
  ASSERT_TRUE(missing);
  EXPECT_EQ(*missing, (shaders / "body.vert").string() + ": cannot open file");

  fs::copy(fs::path(CONTACTLAB_SHADER_DIR) / "body.vert", shaders / "body.vert");
  fs::copy(fs::path(CONTACTLAB_SHADER_DIR) / "body.frag", shaders / "body.frag", fs::copy_options::overwrite_existing);
  EXPECT_FALSE(renderer.reloadShaders());
  EXPECT_FALSE(renderer.shaderError());
}

TEST_F(RendererTest, LinkErrorNamesBothFiles) {
  const fs::path shaders = copyOfShaders("link");
  // Compiles, but a program needs a main() in every stage.
  std::ofstream(shaders / "line.frag") << "#version 330 core\nout vec4 c;\nvoid helper() { c = vec4(1.0); }\n";
  Renderer renderer(shaders.string());
  ASSERT_TRUE(renderer.shaderError());
  EXPECT_NE(renderer.shaderError()->find("line.vert + "), std::string::npos) << *renderer.shaderError();
  EXPECT_NE(renderer.shaderError()->find("line.frag: link error: "), std::string::npos) << *renderer.shaderError();
}

TEST_F(RendererTest, WithoutShadersItOnlyClears) {
  Renderer renderer((fs::temp_directory_path() / "contactlab_no_such_shader_dir").string());
  ASSERT_TRUE(renderer.shaderError());
  EXPECT_NE(renderer.shaderError()->find("body.vert: cannot open file"), std::string::npos);
  const auto rgb = draw(renderer, settledTower());
  for (int y = 0; y < kHeight; y += 7)
    for (int x = 0; x < kWidth; x += 7) ASSERT_EQ(pixelAt(rgb, x, y), pixelAt(rgb, 0, 0)) << "at " << x << ", " << y;
}

}  // namespace
}  // namespace contactlab::render
