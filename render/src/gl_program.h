#pragma once
// Compiling and linking GLSL programs from files, with errors that name the file and carry the
// driver's log. Needs a current GL context.
#include <epoxy/gl.h>

#include <optional>
#include <string>

namespace contactlab::render {

// An owned GL program object (0 when empty).
class GlProgram {
 public:
  GlProgram() = default;
  explicit GlProgram(GLuint id) : id_(id) {}
  ~GlProgram();
  GlProgram(GlProgram&& other) noexcept;
  GlProgram& operator=(GlProgram&& other) noexcept;
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  GLuint id_ = 0;
};

// Builds <directory>/<name>.vert + <directory>/<name>.frag into program, with `defines` (lines such
// as "#define SHADOW_TAPS 1\n") after each file's #version line. Returns the error instead:
// "<path>: cannot open file", "<path>: compile error: <log>" or "<vert> + <frag>: link error: <log>".
std::optional<std::string> buildProgramFromFiles(const std::string& directory, const std::string& name,
                                                 GlProgram& program, const std::string& defines = {});

}  // namespace contactlab::render
