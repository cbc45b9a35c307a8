// End-to-end: the `contactlab` app run headless under xvfb-run, as the README and CI use it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/png_image.h"

namespace {

namespace fs = std::filesystem;

struct RunResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr
};

bool onPath(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh working directory that is also HOME and XDG_CONFIG_HOME, so no user settings leak in.
class HeadlessAppTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "contactlab-app-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Runs the app with `arguments` (or, given `program`, that shell command instead of the app).
  // Under xvfb-run the exit code is the command's own, written to a file by the wrapper script:
  // xvfb-run's status also reports its own troubles (two xvfb-runs started at once by a parallel
  // ctest can race for a display number, or fail to remove their temporary folder, exit 5), which
  // say nothing about the app. When the command did not run at all, xvfb-run is tried again.
  RunResult run(const std::string& arguments, bool underXvfb = true, const std::string& program = "") const {
    const fs::path log = dir_ / "app-output.txt";
    const fs::path exitStatus = dir_ / "exit-status.txt";
    const std::string commandLine = program.empty() ? "'" CONTACTLAB_APP_PATH "' " + arguments : program;
    const std::string environment =
        "cd '" + dir_.string() + "' && HOME='" + dir_.string() + "' XDG_CONFIG_HOME='" + (dir_ / "config").string() + "' ";
    RunResult result;
    if (!underXvfb) {
      const int status = std::system((environment + commandLine + " >'" + log.string() + "' 2>&1").c_str());
      result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      result.output = readFile(log);
      return result;
    }
    const fs::path wrapper = dir_ / "under-xvfb.sh";
    {
      std::ofstream out(wrapper);
      out << commandLine << "\necho $? >'" << exitStatus.string() << "'\n";
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
      fs::remove(exitStatus);
      const int status = std::system((environment + "xvfb-run -a -s \"-screen 0 1280x720x24\" sh '" + wrapper.string() +
                                      "' >'" + log.string() + "' 2>&1").c_str());
      result.output = readFile(log);
      if (fs::exists(exitStatus)) {
        result.exitCode = std::stoi(readFile(exitStatus));
        return result;
      }
      result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;  // the command never ran
    }
    return result;
  }

  // Starts the interactive app (no --exit) in a virtual display, lets it run for `seconds`, then
  // asks it to quit with SIGTERM. `alive` says whether it was still running when asked.
  struct InteractiveRun {
    bool alive = false;
    int exitCode = -1;
    std::string output;
  };
  InteractiveRun runInteractively(const std::string& arguments, int seconds) const {
    const fs::path script = dir_ / "interactive.sh";
    {
      std::ofstream out(script);
      out << "'" CONTACTLAB_APP_PATH "' " << arguments << " &\n"
          << "app=$!\n"
          << "sleep " << seconds << "\n"
          << "if kill -0 $app 2>/dev/null; then echo STILL-RUNNING; kill -TERM $app; fi\n"
          << "wait $app\n";
    }
    const RunResult result = run("", /*underXvfb=*/true, "sh '" + script.string() + "'");
    InteractiveRun outcome;
    outcome.alive = result.output.find("STILL-RUNNING") != std::string::npos;
    outcome.exitCode = result.exitCode;
    outcome.output = result.output;
    return outcome;
  }

  // A copy of the shader folder in which `file` does not compile.
  fs::path copyShadersBreaking(const std::string& file) const {
    const fs::path shaders = dir_ / "shaders";
    fs::copy(CONTACTLAB_SHADER_DIR, shaders, fs::copy_options::recursive);
    std::ofstream broken(shaders / file, std::ios::app);
    broken << "\nthis line is not GLSL;\n";
    return shaders;
  }

  fs::path dir_;
};

#define SKIP_WITHOUT_XVFB() \
  if (!onPath("xvfb-run")) GTEST_SKIP() << "xvfb-run is not installed (apt-get install xvfb xauth)"

TEST_F(HeadlessAppTest, TowerRecordsTwoSecondsAndAScreenshotThatShowsTheScene) {
  SKIP_WITHOUT_XVFB();
  const RunResult result = run("--no-settings --scene tower --frames 120 --record tower.mp4 --screenshot tower.png --exit");
  ASSERT_EQ(result.exitCode, 0) << result.output;

  ASSERT_TRUE(onPath("ffprobe")) << "ffprobe (package ffmpeg) is needed to check the video";
  const std::string probe = "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
                            "stream=codec_name,width,height,nb_read_frames:format=duration -of default=noprint_wrappers=1 '" +
                            (dir_ / "tower.mp4").string() + "' >'" + (dir_ / "probe.txt").string() + "' 2>&1";
  ASSERT_EQ(std::system(probe.c_str()), 0) << readFile(dir_ / "probe.txt");
  // Whole lines, so that 1200 frames or a width of 12800 do not pass for 120 and 1280.
  const std::string streamInfo = "\n" + readFile(dir_ / "probe.txt");
  EXPECT_NE(streamInfo.find("\ncodec_name=h264\n"), std::string::npos) << streamInfo;
  EXPECT_NE(streamInfo.find("\nwidth=1280\n"), std::string::npos) << streamInfo;
  EXPECT_NE(streamInfo.find("\nheight=720\n"), std::string::npos) << streamInfo;
  EXPECT_NE(streamInfo.find("\nnb_read_frames=120\n"), std::string::npos) << streamInfo;
  EXPECT_NE(streamInfo.find("\nduration=2.0"), std::string::npos) << streamInfo;  // 120 frames at 60 fps

  const contactlab::test::PngImage image = contactlab::test::readPng((dir_ / "tower.png").string());
  ASSERT_EQ(image.width, 1280);
  ASSERT_EQ(image.height, 720);
  const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
  double sum = 0, sumSquares = 0;
  std::size_t saturated = 0, grey = 0;
  for (std::size_t i = 0; i < pixels; ++i) {
    const int r = image.rgb[3 * i], g = image.rgb[3 * i + 1], b = image.rgb[3 * i + 2];
    const double luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += luminance;
    sumSquares += luminance * luminance;
    const int high = std::max({r, g, b}), low = std::min({r, g, b});
    const double saturation = high > 0 ? double(high - low) / high : 0.0;
    if (saturation > 0.35 && high > 60) ++saturated;  // coloured bodies
    if (saturation < 0.15) ++grey;                     // ground, grid and sky are near-neutral
  }
  const double mean = sum / pixels;
  const double variance = sumSquares / pixels - mean * mean;
  EXPECT_GT(variance, 100.0) << "the screenshot is nearly uniform (mean luminance " << mean << ")";
  EXPECT_GT(saturated, pixels / 100) << "too few body-coloured pixels: " << saturated << " of " << pixels;
  EXPECT_GT(grey, pixels / 5) << "too few ground/background pixels: " << grey << " of " << pixels;
}

// --stress-colors: the block resting on the ground is drawn on the stress scale, low (blue) at the
// top and high (red) at the bottom; in its own colour (a violet) without the flag.
TEST_F(HeadlessAppTest, StressColoursShowTheRestingBlockBlueOnTopAndRedBelow) {
  SKIP_WITHOUT_XVFB();
  const auto redAndBluePixels = [](const contactlab::test::PngImage& image) {
    std::pair<std::size_t, std::size_t> counts{0, 0};
    for (std::size_t i = 0; i < image.rgb.size() / 3; ++i) {
      const int r = image.rgb[3 * i], g = image.rgb[3 * i + 1], b = image.rgb[3 * i + 2];
      if (r > b + 80 && r > g + 40) ++counts.first;
      if (b > r + 80 && b > g) ++counts.second;
    }
    return counts;
  };
  for (const bool stress : {false, true}) {
    const RunResult result = run(std::string("--no-settings --scene soft-block --frames 30 --size 640x360 ") +
                                 (stress ? "--stress-colors " : "") + "--screenshot block.png --exit");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const contactlab::test::PngImage image = contactlab::test::readPng((dir_ / "block.png").string());
    const auto [red, blue] = redAndBluePixels(image);
    const std::size_t pixels = image.rgb.size() / 3;
    if (stress) {
      EXPECT_GT(red, pixels / 200) << "the bottom of the block is not red";
      EXPECT_GT(blue, pixels / 200) << "the top of the block is not blue";
    } else {
      EXPECT_LT(red, pixels / 2000) << "red without stress colours";
    }
  }
}

TEST_F(HeadlessAppTest, BrokenSceneFileExitsOneNamingTheFile) {
  SKIP_WITHOUT_XVFB();
  const std::string scene = std::string(CONTACTLAB_TEST_DATA) + "/bad_scenes/unknown_key.json";
  const RunResult result = run("--no-settings --scene '" + scene + "' --frames 2 --exit");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("unknown_key.json"), std::string::npos) << result.output;
}

TEST_F(HeadlessAppTest, BrokenShaderExitsOneNamingTheShaderFile) {
  SKIP_WITHOUT_XVFB();
  const fs::path shaders = copyShadersBreaking("body.frag");
  const RunResult result = run("--no-settings --shaders '" + shaders.string() + "' --frames 2 --exit");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("body.frag"), std::string::npos) << result.output;
}

// In the interactive app a broken scene and a broken shader are shown as errors (and logged); the
// app keeps running on the default scene and quits cleanly, saving its settings, when asked to.
TEST_F(HeadlessAppTest, InteractiveAppSurvivesABrokenSceneAndABrokenShader) {
  SKIP_WITHOUT_XVFB();
  const fs::path shaders = copyShadersBreaking("line.frag");
  const std::string scene = std::string(CONTACTLAB_TEST_DATA) + "/bad_scenes/unknown_key.json";
  const InteractiveRun result =
      runInteractively("--scene '" + scene + "' --shaders '" + shaders.string() + "'", /*seconds=*/6);
  EXPECT_TRUE(result.alive) << result.output;
  EXPECT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("unknown_key.json"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("line.frag"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(dir_ / "config" / "contactlab" / "settings.json"));
}

// The window opens at its remembered size and the panels as they were left; both are saved again.
TEST_F(HeadlessAppTest, InteractiveAppRemembersItsWindowSizeAndOpenPanels) {
  SKIP_WITHOUT_XVFB();
  const fs::path settings = dir_ / "config" / "contactlab" / "settings.json";
  fs::create_directories(settings.parent_path());
  {
    std::ofstream out(settings);
    out << R"({ "scene": { "builtin": "bounce" }, "window": { "width": 1000, "height": 640, "maximized": false },
                "panels": { "visualization": true, "solver": false } })";
  }
  const InteractiveRun result = runInteractively("", /*seconds=*/4);
  EXPECT_TRUE(result.alive) << result.output;
  EXPECT_EQ(result.exitCode, 0) << result.output;
  std::string saved = readFile(settings);
  saved.erase(std::remove_if(saved.begin(), saved.end(), ::isspace), saved.end());
  EXPECT_NE(saved.find(R"("window":{"height":640,"maximized":false,"width":1000})"), std::string::npos) << saved;
  EXPECT_NE(saved.find(R"("solver":false)"), std::string::npos) << saved;
  EXPECT_NE(saved.find(R"("visualization":true)"), std::string::npos) << saved;
  EXPECT_NE(saved.find(R"("plots":true)"), std::string::npos) << saved;  // not in the file: its default
  EXPECT_NE(saved.find(R"("builtin":"bounce")"), std::string::npos) << saved;
}

TEST_F(HeadlessAppTest, NoDisplayExitsOneWithOneLine) {
  const RunResult result =
      run("", /*underXvfb=*/false, "env -u DISPLAY -u WAYLAND_DISPLAY '" CONTACTLAB_APP_PATH "' --no-settings --frames 1 --exit");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;
  EXPECT_NE(result.output.find("xvfb-run"), std::string::npos) << result.output;
}

TEST_F(HeadlessAppTest, BadFlagsExitTwoWithOneLine) {
  for (const std::string& arguments : {"--bogus", "--frames zero", "--size 1279x720", "--rfactor sideways", "--scene pile --param colour=3"}) {
    const RunResult result = run(arguments, /*underXvfb=*/false);
    EXPECT_EQ(result.exitCode, 2) << arguments << ": " << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << arguments << ": " << result.output;
  }
}

}  // namespace
