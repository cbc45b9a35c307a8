#pragma once
// An OpenGL 3.3 core context without a window or X display: Mesa's surfaceless EGL platform
// (llvmpipe), so the renderer's GL code runs in plain unit tests and in CI.
#include <string>

#include <epoxy/egl.h>

namespace contactlab::render::testing {

class HeadlessGlContext {
 public:
  HeadlessGlContext();
  ~HeadlessGlContext();
  HeadlessGlContext(const HeadlessGlContext&) = delete;
  HeadlessGlContext& operator=(const HeadlessGlContext&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }  // which EGL step failed

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  std::string error_;
};

}  // namespace contactlab::render::testing
