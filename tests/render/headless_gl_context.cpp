#include "render/headless_gl_context.h"

#include <cstring>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace contactlab::render::testing {

HeadlessGlContext::HeadlessGlContext() {
#if defined(__SANITIZE_ADDRESS__)
  // llvmpipe's JIT-compiled code keeps allocations LeakSanitizer cannot attribute (no symbols to
  // suppress by), so allocations made while a context lives are not leak-checked; ASan still
  // checks every access.
  __lsan_disable();
#endif
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (clientExtensions == nullptr || std::strstr(clientExtensions, "EGL_MESA_platform_surfaceless") == nullptr) {
    error_ = "EGL has no EGL_MESA_platform_surfaceless (is Mesa's libegl-mesa0 installed?)";
    return;
  }
  display_ = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display_ == EGL_NO_DISPLAY || eglInitialize(display_, nullptr, nullptr) != EGL_TRUE) {
    error_ = "eglInitialize failed on the surfaceless platform";
    return;
  }
  if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
    error_ = "eglBindAPI(EGL_OPENGL_API) failed";
    return;
  }
  // The default surface type (window) does not exist on this platform; pbuffer configs do.
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configCount = 0;
  if (eglChooseConfig(display_, configAttributes, &config, 1, &configCount) != EGL_TRUE || configCount < 1) {
    error_ = "no EGL config with desktop OpenGL";
    return;
  }
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, contextAttributes);
  if (context_ == EGL_NO_CONTEXT) {
    error_ = "eglCreateContext(OpenGL 3.3 core) failed";
    return;
  }
  if (eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) != EGL_TRUE) error_ = "eglMakeCurrent failed";
}

HeadlessGlContext::~HeadlessGlContext() {
  if (display_ != EGL_NO_DISPLAY) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
#if defined(__SANITIZE_ADDRESS__)
  __lsan_enable();
#endif
}

}  // namespace contactlab::render::testing
