#pragma once
// Records RGB frames to an H.264 MP4 through an ffmpeg child process fed raw video on its stdin.
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace contactlab::app {

class VideoRecorder {
 public:
  VideoRecorder() = default;
  ~VideoRecorder();  // stops a running recording
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  // The ffmpeg executable found on PATH, if any.
  static std::optional<std::string> findFfmpeg();

  // Starts ffmpeg writing `path`; width and height must be even (H.264 with 4:2:0 chroma) and fps
  // positive. Returns an error (ffmpeg missing, bad size, already recording, ...) and records nothing.
  std::optional<std::string> start(const std::string& path, int width, int height, double fps);
  // One frame of width*height RGB8 pixels, rows top to bottom. If ffmpeg has died, the recording
  // ends and its error is returned.
  std::optional<std::string> addFrame(const std::vector<std::uint8_t>& rgbTopDown);
  // Closes ffmpeg's input and waits for it; returns its error (with the tail of its log) if it failed.
  std::optional<std::string> stop();

  bool recording() const { return process_ > 0; }
  int framesWritten() const { return framesWritten_; }
  const std::string& path() const { return path_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  // Waits for ffmpeg after its input is closed and turns a failure into a message.
  std::optional<std::string> finish();

  pid_t process_ = -1;
  int input_ = -1;  // our end of ffmpeg's stdin
  std::string path_;
  std::string logPath_;
  int width_ = 0, height_ = 0;
  int framesWritten_ = 0;
};

}  // namespace contactlab::app
