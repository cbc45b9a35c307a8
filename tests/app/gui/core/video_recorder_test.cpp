#include "core/video_recorder.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "support/temporary_directory.h"

namespace contactlab::app {
namespace {

std::string runCommand(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string output;
  if (!pipe) return output;
  std::array<char, 256> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe.get())) output += buffer.data();
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

// A moving gradient, so that every frame differs and the encoder has real work.
std::vector<std::uint8_t> syntheticFrame(int width, int height, int frame) {
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width * height * 3));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      std::uint8_t* pixel = &rgb[static_cast<std::size_t>((y * width + x) * 3)];
      pixel[0] = static_cast<std::uint8_t>((x + frame * 4) % 256);
      pixel[1] = static_cast<std::uint8_t>((y * 2) % 256);
      pixel[2] = static_cast<std::uint8_t>(frame * 8 % 256);
    }
  }
  return rgb;
}

// Empties PATH for one test and puts it back afterwards.
class EmptyPath {
 public:
  EmptyPath() {
    const char* path = std::getenv("PATH");
    if (path) saved_ = path;
    setenv("PATH", "", 1);
  }
  ~EmptyPath() {
    if (saved_) setenv("PATH", saved_->c_str(), 1);
    else unsetenv("PATH");
  }

 private:
  std::optional<std::string> saved_;
};

TEST(VideoRecorder, WritesExactlyTheFramesGivenAtTheGivenSize) {
  ASSERT_TRUE(VideoRecorder::findFfmpeg().has_value()) << "ffmpeg must be installed (scripts/install-deps.sh)";
  const int width = 160, height = 90, frames = 24;
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "frames.mp4").string();
  VideoRecorder recorder;
  ASSERT_EQ(recorder.start(path, width, height, 30.0), std::nullopt);
  EXPECT_TRUE(recorder.recording());
  for (int i = 0; i < frames; ++i) ASSERT_EQ(recorder.addFrame(syntheticFrame(width, height, i)), std::nullopt);
  EXPECT_EQ(recorder.framesWritten(), frames);
  ASSERT_EQ(recorder.stop(), std::nullopt);
  EXPECT_FALSE(recorder.recording());

  const std::string probe = runCommand(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height -of csv=p=0 '" +
      path + "'");
  EXPECT_EQ(probe, "160,90,24");
}

TEST(VideoRecorder, OddAndNonPositiveSizesAreRejected) {
  VideoRecorder recorder;
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "odd.mp4").string();
  const auto odd = recorder.start(path, 161, 90, 30.0);
  ASSERT_TRUE(odd.has_value());
  EXPECT_NE(odd->find("161x90"), std::string::npos) << *odd;
  EXPECT_NE(odd->find("even"), std::string::npos) << *odd;
  EXPECT_TRUE(recorder.start(path, 160, 91, 30.0).has_value());
  EXPECT_TRUE(recorder.start(path, 0, 90, 30.0).has_value());
  EXPECT_TRUE(recorder.start(path, 160, 90, 0.0).has_value());
  EXPECT_FALSE(recorder.recording());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(VideoRecorder, MissingFfmpegGivesAClearMessage) {
  const EmptyPath emptyPath;
  EXPECT_EQ(VideoRecorder::findFfmpeg(), std::nullopt);
  VideoRecorder recorder;
  const test::TemporaryDirectory scratch;
  const auto error = recorder.start((scratch.path() / "none.mp4").string(), 64, 64, 30.0);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("ffmpeg not found"), std::string::npos) << *error;
  EXPECT_FALSE(recorder.recording());
}

TEST(VideoRecorder, FrameOfTheWrongSizeIsRejected) {
  VideoRecorder recorder;
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "wrong.mp4").string();
  ASSERT_EQ(recorder.start(path, 64, 64, 30.0), std::nullopt);
  const auto error = recorder.addFrame(std::vector<std::uint8_t>(10, 0));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("64x64"), std::string::npos) << *error;
  EXPECT_TRUE(recorder.recording());
  ASSERT_EQ(recorder.addFrame(syntheticFrame(64, 64, 0)), std::nullopt);
  EXPECT_EQ(recorder.stop(), std::nullopt);
}

TEST(VideoRecorder, FfmpegFailingReportsItsLogInsteadOfKillingTheApp) {
  // ffmpeg cannot write a file with an extension it knows no muxer for; it exits early while we
  // keep sending frames, which must give an error, not SIGPIPE.
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "bad.unknown_extension").string();
  VideoRecorder recorder;
  ASSERT_EQ(recorder.start(path, 320, 240, 30.0), std::nullopt);
  std::optional<std::string> error;
  for (int i = 0; i < 200 && !error; ++i) error = recorder.addFrame(syntheticFrame(320, 240, i));
  if (!error) error = recorder.stop();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(path), std::string::npos) << *error;
  EXPECT_NE(error->find("ffmpeg"), std::string::npos) << *error;
  EXPECT_FALSE(recorder.recording());
}

TEST(VideoRecorder, MissingFolderAndDoubleStartAreErrors) {
  VideoRecorder recorder;
  const auto missing = recorder.start("/no/such/folder/out.mp4", 64, 64, 30.0);
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("/no/such/folder/out.mp4"), std::string::npos) << *missing;

  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "twice.mp4").string();
  ASSERT_EQ(recorder.start(path, 64, 64, 30.0), std::nullopt);
  EXPECT_TRUE(recorder.start(path, 64, 64, 30.0).has_value());
  EXPECT_EQ(recorder.stop(), std::nullopt);
  EXPECT_TRUE(recorder.stop().has_value());  // not recording any more
  EXPECT_TRUE(recorder.addFrame(syntheticFrame(64, 64, 0)).has_value());
}

}  // namespace
}  // namespace contactlab::app
