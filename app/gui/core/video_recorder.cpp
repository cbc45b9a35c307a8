#include "core/video_recorder.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace contactlab::app {
namespace {

constexpr std::size_t kLogTailBytes = 1500;

std::string logTail(const std::string& logPath) {
  std::ifstream in(logPath, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string tail = text.size() > kLogTailBytes ? "..." + text.substr(text.size() - kLogTailBytes) : text;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return tail.empty() ? "(ffmpeg printed nothing)" : tail;
}

std::string uniqueLogPath() {
  static std::atomic<int> counter{0};
  std::error_code ec;
  std::filesystem::path directory = std::filesystem::temp_directory_path(ec);
  if (ec) directory = "/tmp";
  return (directory / ("contactlab-ffmpeg-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".log"))
      .string();
}

bool isExecutableFile(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

VideoRecorder::~VideoRecorder() {
  if (recording()) stop();
}

std::optional<std::string> VideoRecorder::findFfmpeg() {
  const char* pathVariable = std::getenv("PATH");
  if (!pathVariable) return std::nullopt;
  std::stringstream directories(pathVariable);
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (directory.empty()) continue;  // an empty entry would mean the working directory; not trusted
    const std::string candidate = directory + "/ffmpeg";
    if (isExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> VideoRecorder::start(const std::string& path, int width, int height, double fps) {
  if (recording()) return path + ": already recording " + path_ + "; stop that recording first";
  if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0)
    return path + ": video size " + std::to_string(width) + "x" + std::to_string(height) +
           " must be positive and even (H.264 4:2:0)";
  if (!(std::isfinite(fps) && fps > 0.0)) return path + ": frame rate must be positive (got " + std::to_string(fps) + ")";
  const std::filesystem::path parent = std::filesystem::absolute(path).parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec)) return path + ": cannot record, folder " + parent.string() + " does not exist";
  const std::optional<std::string> ffmpeg = findFfmpeg();
  if (!ffmpeg) return path + ": cannot record video: ffmpeg not found on PATH (install it: apt-get install ffmpeg)";

  // A socket rather than a pipe: send() with MSG_NOSIGNAL reports a dead ffmpeg as EPIPE instead
  // of killing the app with SIGPIPE, without touching the process's signal handlers.
  int sockets[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
    return path + ": cannot create ffmpeg's input: " + std::strerror(errno);
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%g", fps);
  const std::vector<std::string> arguments = {
      *ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size,
      "-r", rate, "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p",
      "-movflags", "+faststart", path};
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);

  const std::string logPath = uniqueLogPath();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t child = -1;
  const int spawnError = posix_spawn(&child, ffmpeg->c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(sockets[1]);
  if (spawnError != 0) {
    close(sockets[0]);
    std::remove(logPath.c_str());
    return path + ": cannot start " + *ffmpeg + ": " + std::strerror(spawnError);
  }
  process_ = child;
  input_ = sockets[0];
  path_ = path;
  logPath_ = logPath;
  width_ = width;
  height_ = height;
  framesWritten_ = 0;
  return std::nullopt;
}

std::optional<std::string> VideoRecorder::addFrame(const std::vector<std::uint8_t>& rgbTopDown) {
  if (!recording()) return std::string("cannot add a video frame: not recording");
  const std::size_t expected = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 3;
  if (rgbTopDown.size() != expected)
    return path_ + ": frame has " + std::to_string(rgbTopDown.size()) + " bytes, expected " + std::to_string(expected) +
           " (" + std::to_string(width_) + "x" + std::to_string(height_) + " RGB)";
  std::size_t sent = 0;
  while (sent < expected) {
    const ssize_t n = send(input_, rgbTopDown.data() + sent, expected - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = std::strerror(errno);
      const std::optional<std::string> failure = finish();
      return failure ? *failure : path_ + ": ffmpeg stopped reading frames (" + reason + ")";
    }
    sent += static_cast<std::size_t>(n);
  }
  ++framesWritten_;
  return std::nullopt;
}

std::optional<std::string> VideoRecorder::stop() {
  if (!recording()) return std::string("cannot stop recording: not recording");
  return finish();
}

std::optional<std::string> VideoRecorder::finish() {
  close(input_);
  input_ = -1;
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(process_, &status, 0);
  } while (waited < 0 && errno == EINTR);
  process_ = -1;
  std::optional<std::string> error;
  if (waited < 0) {
    error = path_ + ": lost track of ffmpeg: " + std::strerror(errno);
  } else if (WIFSIGNALED(status)) {
    error = path_ + ": ffmpeg was killed by signal " + std::to_string(WTERMSIG(status)) + ": " + logTail(logPath_);
  } else if (WEXITSTATUS(status) != 0) {
    error = path_ + ": ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + "): " + logTail(logPath_);
  }
  std::remove(logPath_.c_str());
  return error;
}

}  // namespace contactlab::app
