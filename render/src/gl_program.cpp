#include "gl_program.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "contactlab/render/shader_source.h"

namespace contactlab::render {
namespace {

std::string trimmedLog(std::string log) {
  while (!log.empty() && (log.back() == '\n' || log.back() == '\0' || log.back() == ' ')) log.pop_back();
  return log.empty() ? "(the driver gave no log)" : log;
}

std::string shaderLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return trimmedLog(std::move(log));
}

std::string programLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return trimmedLog(std::move(log));
}

// Returns the shader object, or 0 with error set.
GLuint compileFile(const std::string& path, GLenum stage, const std::string& defines, std::string& error) {
  std::string source;
  if (auto readError = readShaderSource(path, source)) {
    error = *readError;
    return 0;
  }
  source = withDefines(source, defines);
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (compiled != GL_TRUE) {
    error = path + ": compile error: " + shaderLog(shader);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

GlProgram::~GlProgram() {
  if (id_ != 0) glDeleteProgram(id_);
}

GlProgram::GlProgram(GlProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
  if (this != &other) {
    if (id_ != 0) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

std::optional<std::string> buildProgramFromFiles(const std::string& directory, const std::string& name,
                                                 GlProgram& program, const std::string& defines) {
  const std::string vertexPath = directory + "/" + name + ".vert";
  const std::string fragmentPath = directory + "/" + name + ".frag";
  std::string error;
  const GLuint vertex = compileFile(vertexPath, GL_VERTEX_SHADER, defines, error);
  if (vertex == 0) return error;
  const GLuint fragment = compileFile(fragmentPath, GL_FRAGMENT_SHADER, defines, error);
  if (fragment == 0) {
    glDeleteShader(vertex);
    return error;
  }
  GlProgram linked(glCreateProgram());
  glAttachShader(linked.id(), vertex);
  glAttachShader(linked.id(), fragment);
  glLinkProgram(linked.id());
  glDeleteShader(vertex);  // flagged for deletion; freed with the program
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(linked.id(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) return vertexPath + " + " + fragmentPath + ": link error: " + programLog(linked.id());
  program = std::move(linked);
  return std::nullopt;
}

}  // namespace contactlab::render
