#include "contactlab/render/renderer.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <utility>

#include "contactlab/render/bounds.h"
#include "contactlab/render/debug_geometry.h"
#include "contactlab/render/deformable_surface.h"
#include "contactlab/render/instances.h"
#include "gl_program.h"
#include "unit_meshes.h"

namespace contactlab::render {
// Named, not anonymous: Renderer::Impl holds these.
namespace renderer {

// The world-frame box of a deformable body's surface drawn this frame.
struct DeformableBounds {
  int body;  // index into World::bodies()
  Bounds bounds;
};

}  // namespace renderer
using renderer::DeformableBounds;

namespace {

// Towards the light: high, from the front left of the default view, so shadows fall back and right.
const Vec3 kLightDirection = Vec3(-0.5, -0.35, 0.8).normalized();
constexpr double kNormalOffsetTexels = 2.0;
constexpr double kDepthBiasTexels = 4.0;
// Shared by the sky and the distance fog so that far surfaces melt into the horizon (sRGB).
const Vec3 kHorizonColor(0.86, 0.88, 0.91);

enum ProgramIndex { kBodyProgram = 0, kShadowProgram, kLineProgram, kBackgroundProgram, kProgramCount };
static_assert(std::size(kShaderProgramNames) == kProgramCount);

// Instance attribute locations shared by body.vert and shadow.vert.
constexpr GLuint kModelLocation = 2;  // four vec4 columns: 2..5
constexpr GLuint kColorLocation = 6;
constexpr GLuint kStyleLocation = 7;

struct MeshBuffers {
  GLuint vertexArray = 0, vertexBuffer = 0, indexBuffer = 0, instanceBuffer = 0;
  GLuint stressScaleBuffer = 0;  // deformable surfaces only (addStressScaleBuffer)
  GLsizei indexCount = 0;
};

// Vertex, index and instance buffers for one mesh, with the attribute layout body.vert and
// shadow.vert expect (position 0, normal 1, the instance's model columns, colour and style).
MeshBuffers createBuffers(const MeshData& data) {
  MeshBuffers mesh;
  glGenVertexArrays(1, &mesh.vertexArray);
  glGenBuffers(1, &mesh.vertexBuffer);
  glGenBuffers(1, &mesh.indexBuffer);
  glGenBuffers(1, &mesh.instanceBuffer);
  glBindVertexArray(mesh.vertexArray);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vertexBuffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(float)), data.vertices.data(),
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.indices.size() * sizeof(std::uint32_t)),
               data.indices.data(), GL_STATIC_DRAW);
  mesh.indexCount = static_cast<GLsizei>(data.indices.size());

  glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceBuffer);
  constexpr GLsizei stride = sizeof(Instance);
  for (GLuint column = 0; column < 4; ++column) {
    glEnableVertexAttribArray(kModelLocation + column);
    glVertexAttribPointer(kModelLocation + column, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(Instance, model) + column * 4 * sizeof(float)));
    glVertexAttribDivisor(kModelLocation + column, 1);
  }
  glEnableVertexAttribArray(kColorLocation);
  glVertexAttribPointer(kColorLocation, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(Instance, color)));
  glVertexAttribDivisor(kColorLocation, 1);
  glEnableVertexAttribArray(kStyleLocation);
  glVertexAttribPointer(kStyleLocation, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(Instance, style)));
  glVertexAttribDivisor(kStyleLocation, 1);
  return mesh;
}

void deleteBuffers(const MeshBuffers& mesh) {
  const GLuint buffers[] = {mesh.vertexBuffer, mesh.indexBuffer, mesh.instanceBuffer, mesh.stressScaleBuffer};
  glDeleteBuffers(4, buffers);
  glDeleteVertexArrays(1, &mesh.vertexArray);
}

void uploadBatch(const MeshBuffers& mesh, const std::vector<Instance>& batch) {
  glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceBuffer);
  // Orphan and refill: the driver need not wait for last frame's draws to finish reading it.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(batch.size() * sizeof(Instance)), batch.data(), GL_STREAM_DRAW);
}

// A deformable body's surface of this frame into its buffers, with its one instance. Both change
// every step, so both are orphaned and refilled as the instances are.
void uploadDeformableSurface(MeshBuffers& mesh, const DeformableSurface& surface, const Instance& instance) {
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vertexBuffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(surface.vertices.size() * sizeof(float)), surface.vertices.data(),
               GL_STREAM_DRAW);
  // The element buffer is part of the vertex array's state: bind that first.
  glBindVertexArray(mesh.vertexArray);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(surface.indices.size() * sizeof(std::uint32_t)),
               surface.indices.data(), GL_STREAM_DRAW);
  glBindVertexArray(0);
  mesh.indexCount = static_cast<GLsizei>(surface.indices.size());
  uploadBatch(mesh, {instance});
}

void drawBatch(const MeshBuffers& mesh, std::size_t count) {
  if (count == 0) return;
  glBindVertexArray(mesh.vertexArray);
  glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr, static_cast<GLsizei>(count));
}

void setMatrix(GLint location, const Eigen::Matrix4f& matrix) {
  glUniformMatrix4fv(location, 1, GL_FALSE, matrix.data());
}

void setVector(GLint location, const Vec3& v) {
  glUniform3f(location, static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
}

// A bright box around the selected body, so the selection reads at a glance whatever its colour: in
// its own frame for a rigid body, along the world axes round the deformed surface of a deformable one.
void addSelectionOutline(const std::vector<Body>& bodies, const std::vector<DeformableBounds>& deformables,
                         int selectedBody, DebugGeometry& geometry) {
  if (selectedBody < 0 || selectedBody >= static_cast<int>(bodies.size())) return;
  const Body& body = bodies[selectedBody];
  // Slightly larger than the body so the outline is not buried in its faces.
  constexpr double kMargin = 1.04;
  const Color outline{1.0f, 0.85f, 0.2f, 1.0f};
  if (body.isDeformable()) {
    for (const DeformableBounds& d : deformables)
      if (d.body == selectedBody)
        geometry.drawOrientedBox(d.bounds.centre(), Quat::Identity(), 0.5 * kMargin * d.bounds.size(), outline);
    return;
  }
  if (!body.isDynamic()) return;
  Vec3 halfExtents;
  if (const auto* box = std::get_if<BoxShape>(&body.shape)) halfExtents = box->halfExtents;
  else if (const auto* sphere = std::get_if<SphereShape>(&body.shape)) halfExtents = Vec3::Constant(sphere->radius);
  else if (const auto* capsule = std::get_if<CapsuleShape>(&body.shape))
    halfExtents = Vec3(capsule->radius, capsule->radius, capsule->halfLength + capsule->radius);
  else if (const auto* mesh = std::get_if<MeshShape>(&body.shape))
    halfExtents = mesh->geometry->boundsLower.cwiseAbs().cwiseMax(mesh->geometry->boundsUpper.cwiseAbs());
  else return;
  geometry.drawOrientedBox(body.position, body.orientation, kMargin * halfExtents, outline);
}

// Fog starts beyond the farthest part of the scene's content, so it only softens the ground's far
// edge and the horizon, whatever the zoom.
std::pair<double, double> fogRange(const std::vector<Body>& bodies, const OrbitCamera& camera) {
  const std::optional<Bounds> content = framingBounds(bodies);
  const double reach = content ? (camera.eye() - content->centre()).norm() + 0.5 * content->size().norm()
                               : camera.state().distance;
  const double start = 1.1 * reach;
  return {start, start + std::max(2.0 * reach, 10.0)};
}

}  // namespace

// Stress colours of the deformable surfaces (RenderOptions::stressColors).
namespace renderer {

// Per vertex of a deformable surface coloured by stress: its position on the stress scale and the
// weight of the scale's colour against the instance's (body.vert). Other meshes leave the attribute
// off and read its default (0, 0): their own colour.
constexpr GLuint kStressScaleLocation = 8;
// Texels of the stress scale's 1D texture (body.frag's STRESS_SCALE_TEXELS).
constexpr int kStressScaleTexels = 256;

// The per-vertex stress scale attribute of a deformable surface's mesh, off until filled.
void addStressScaleBuffer(MeshBuffers& mesh) {
  glGenBuffers(1, &mesh.stressScaleBuffer);
  glBindVertexArray(mesh.vertexArray);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.stressScaleBuffer);
  glVertexAttribPointer(kStressScaleLocation, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glBindVertexArray(0);
}

// Two floats per vertex (scale position, weight); empty turns the attribute off: the body's own colour.
void uploadStressScale(const MeshBuffers& mesh, const std::vector<float>& scale) {
  glBindVertexArray(mesh.vertexArray);
  if (scale.empty()) {
    glDisableVertexAttribArray(kStressScaleLocation);
  } else {
    glBindBuffer(GL_ARRAY_BUFFER, mesh.stressScaleBuffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(scale.size() * sizeof(float)), scale.data(), GL_STREAM_DRAW);
    glEnableVertexAttribArray(kStressScaleLocation);
  }
  glBindVertexArray(0);
}

// stressScaleColor sampled into a 1D texture (sRGB, as the instance colours), so that body.frag maps
// the interpolated scale position of each pixel, not a blend of the vertices' colours.
GLuint createStressScaleTexture() {
  std::vector<std::uint8_t> texels(3 * kStressScaleTexels);
  for (int i = 0; i < kStressScaleTexels; ++i) {
    const Color c = stressScaleColor(static_cast<double>(i) / (kStressScaleTexels - 1));
    const float rgb[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; ++k) texels[3 * i + k] = static_cast<std::uint8_t>(std::lround(255.0f * std::clamp(rgb[k], 0.0f, 1.0f)));
  }
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_1D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of 3 bytes per texel
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB8, kStressScaleTexels, 0, GL_RGB, GL_UNSIGNED_BYTE, texels.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // GL's default, which other uploads may expect
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_1D, 0);
  return texture;
}

}  // namespace renderer
using renderer::kStressScaleTexels;

struct Renderer::Impl {
  std::string shaderDirectory;
  std::array<GlProgram, kProgramCount> programs;
  std::optional<std::string> shaderError;
  int shadowTaps = 4;  // the programs' SHADOW_TAPS

  std::array<MeshBuffers, kMeshKindCount> meshes;
  // Buffers of the mesh bodies' geometries, made on first sight and dropped when no body uses them;
  // the shared pointer keeps the key's geometry alive while its buffers exist.
  std::map<const MeshGeometry*, std::pair<std::shared_ptr<const MeshGeometry>, MeshBuffers>> geometryMeshes;
  GLuint debugVertexArray = 0, debugBuffer = 0;
  GLuint emptyVertexArray = 0;  // the background's full-screen triangle needs a bound VAO in core profile
  GLuint stressScaleTexture = 0;

  GLuint shadowFramebuffer = 0, shadowTexture = 0;
  int shadowMapSize = 0;

  // The image: drawn into the multisampled target when MSAA is on, then resolved.
  int width = 0, height = 0, samples = 0;
  GLuint multisampleFramebuffer = 0, multisampleColor = 0, multisampleDepth = 0;
  GLuint imageFramebuffer = 0, imageColor = 0, imageDepth = 0;
  GLint maxSamples = 0;
  GLint maxImageSize = 4096;  // the driver's renderbuffer and viewport limit, queried at start

  InstanceBatches instances;
  DebugGeometry debugGeometry;

  // One mesh per deformable body, refilled every frame (World::deformableBody); kept across frames
  // and worlds so that the buffers are made once, and dropped with the renderer.
  std::vector<MeshBuffers> deformableMeshes;
  std::vector<char> deformableDrawn;  // per entry of deformableMeshes: whether this frame has it (finite)
  std::vector<DeformableBounds> deformableBounds;  // of the bodies drawn this frame
  DeformableSurface deformableSurface;             // scratch, reused
  // Stress colours (RenderOptions::stressColors): per entry of deformableMeshes, each surface
  // vertex's node stress (empty: not coloured); the scale of this frame; scratch.
  std::vector<std::vector<double>> vertexStress;
  std::optional<StressRange> stressRange;
  std::vector<double> nodeStress;
  std::vector<float> stressScale;

  void createMeshes();
  void resizeShadowMap(int size);
  void resizeTargets(int newWidth, int newHeight, int newSamples);
  void deleteTargets();
  struct ShadowFrame {
    Eigen::Matrix4f lightViewProjection;
    double texelMetres;  // world size of one shadow-map texel
    double depthRange;   // metres from the light frustum's near to far plane
  };
  std::optional<ShadowFrame> drawShadowMap(const std::vector<Body>& bodies);
  void uploadInstances();
  void uploadDeformableSurfaces(const World& world, const RenderOptions& options);
  void drawInstances(GLuint program, bool includePlanes);
  void drawBackground(const Eigen::Matrix4f& viewProjection);
  void drawDebugOverlay(const World& world, const RenderOptions& options, const Eigen::Matrix4f& viewProjection);
};

void Renderer::Impl::createMeshes() {
  for (int kind = 0; kind < kMeshKindCount; ++kind) meshes[kind] = createBuffers(buildUnitMesh(static_cast<MeshKind>(kind)));

  glGenVertexArrays(1, &debugVertexArray);
  glGenBuffers(1, &debugBuffer);
  glBindVertexArray(debugVertexArray);
  glBindBuffer(GL_ARRAY_BUFFER, debugBuffer);
  constexpr GLsizei stride = sizeof(DebugVertex);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(DebugVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(DebugVertex, color)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(DebugVertex, sizePixels)));

  glGenVertexArrays(1, &emptyVertexArray);
  glBindVertexArray(0);
  stressScaleTexture = renderer::createStressScaleTexture();
}

void Renderer::Impl::resizeShadowMap(int size) {
  if (size == shadowMapSize) return;
  glDeleteFramebuffers(1, &shadowFramebuffer);
  glDeleteTextures(1, &shadowTexture);
  shadowMapSize = size;
  glGenTextures(1, &shadowTexture);
  glBindTexture(GL_TEXTURE_2D, shadowTexture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  // Linear filtering with comparison gives a bilinear 2x2 test per tap; body.frag's four taps make a 3x3 PCF.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glGenFramebuffers(1, &shadowFramebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, shadowFramebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadowTexture, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void Renderer::Impl::deleteTargets() {
  const GLuint framebuffers[] = {multisampleFramebuffer, imageFramebuffer};
  glDeleteFramebuffers(2, framebuffers);
  const GLuint renderbuffers[] = {multisampleColor, multisampleDepth, imageColor, imageDepth};
  glDeleteRenderbuffers(4, renderbuffers);
  multisampleFramebuffer = multisampleColor = multisampleDepth = 0;
  imageFramebuffer = imageColor = imageDepth = 0;
}

void Renderer::Impl::resizeTargets(int newWidth, int newHeight, int newSamples) {
  if (newWidth == width && newHeight == height && newSamples == samples && imageFramebuffer != 0) return;
  deleteTargets();
  width = newWidth;
  height = newHeight;
  samples = newSamples;
  const auto makeRenderbuffer = [&](GLenum format, int sampleCount) {
    GLuint renderbuffer = 0;
    glGenRenderbuffers(1, &renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
    if (sampleCount > 1)
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, sampleCount, format, width, height);
    else
      glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    return renderbuffer;
  };
  imageColor = makeRenderbuffer(GL_RGBA8, 1);
  imageDepth = makeRenderbuffer(GL_DEPTH_COMPONENT24, 1);
  glGenFramebuffers(1, &imageFramebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, imageFramebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, imageColor);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, imageDepth);
  if (samples > 1) {
    multisampleColor = makeRenderbuffer(GL_RGBA8, samples);
    multisampleDepth = makeRenderbuffer(GL_DEPTH_COMPONENT24, samples);
    glGenFramebuffers(1, &multisampleFramebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, multisampleFramebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, multisampleColor);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, multisampleDepth);
    // A driver that refuses this sample count still gets a picture, without MSAA.
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      glDeleteFramebuffers(1, &multisampleFramebuffer);
      const GLuint renderbuffers[] = {multisampleColor, multisampleDepth};
      glDeleteRenderbuffers(2, renderbuffers);
      multisampleFramebuffer = multisampleColor = multisampleDepth = 0;
    }
  }
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void Renderer::Impl::uploadInstances() {
  for (int kind = 0; kind < kMeshKindCount; ++kind) uploadBatch(meshes[kind], instances.byMesh[kind]);
  for (auto it = geometryMeshes.begin(); it != geometryMeshes.end();) {
    const bool used = std::any_of(instances.byGeometry.begin(), instances.byGeometry.end(),
                                  [&](const GeometryInstances& batch) { return batch.geometry.get() == it->first; });
    if (used) {
      ++it;
    } else {
      deleteBuffers(it->second.second);
      it = geometryMeshes.erase(it);
    }
  }
  for (const GeometryInstances& batch : instances.byGeometry) {
    auto [it, added] = geometryMeshes.try_emplace(batch.geometry.get());
    if (added) it->second = {batch.geometry, createBuffers(buildSurfaceMesh(batch.geometry->surface))};
    uploadBatch(it->second.second, batch.instances);
  }
}

void Renderer::Impl::uploadDeformableSurfaces(const World& world, const RenderOptions& options) {
  const int count = world.deformableBodyCount();
  while (static_cast<int>(deformableMeshes.size()) < count) {
    deformableMeshes.push_back(createBuffers(MeshData{}));
    renderer::addStressScaleBuffer(deformableMeshes.back());
  }
  deformableDrawn.assign(deformableMeshes.size(), 0);
  deformableBounds.clear();
  vertexStress.resize(deformableMeshes.size());
  stressRange.reset();
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  const std::vector<Body>& bodies = world.bodies();
  for (int i = 0; i < count; ++i) {
    vertexStress[i].clear();
    const DeformableMeshView mesh = world.deformableBody(i);
    if (!buildDeformableSurface(mesh, deformableSurface)) continue;
    const Body& body = bodies[static_cast<std::size_t>(mesh.body)];
    uploadDeformableSurface(deformableMeshes[i], deformableSurface, deformableInstance(body, mesh.body, options.selectedBody));
    deformableDrawn[i] = 1;
    deformableBounds.push_back({mesh.body, deformableSurface.bounds});
    if (!options.stressColors || !averageAroundNodes(mesh, world.deformableStress(i), nodeStress)) continue;
    for (const int node : deformableSurface.nodes) {
      const double value = nodeStress[static_cast<std::size_t>(node)];
      vertexStress[i].push_back(value);
      if (!std::isfinite(value)) continue;
      lowest = std::min(lowest, value);
      highest = std::max(highest, value);
    }
  }
  if (options.stressUpper > options.stressLower) {
    stressRange = StressRange{options.stressLower, options.stressUpper};
  } else if (lowest <= highest) {
    stressRange = StressRange{lowest, highest};
  }
  bool coloured = false;
  for (std::size_t i = 0; i < deformableMeshes.size(); ++i) {
    if (!deformableDrawn[i]) continue;
    stressScale.clear();
    if (stressRange && !vertexStress[i].empty()) {
      coloured = true;
      for (const double value : vertexStress[i]) {
        stressScale.push_back(static_cast<float>(stressRange->position(value)));
        stressScale.push_back(1.0f);
      }
    }
    renderer::uploadStressScale(deformableMeshes[i], stressScale);
  }
  if (!coloured) stressRange.reset();
}

void Renderer::Impl::drawInstances(GLuint program, bool includePlanes) {
  glUseProgram(program);
  for (int kind = 0; kind < kMeshKindCount; ++kind) {
    const std::size_t count = instances.byMesh[kind].size();
    if (!includePlanes && static_cast<MeshKind>(kind) == MeshKind::Quad) continue;
    drawBatch(meshes[kind], count);
  }
  for (const GeometryInstances& batch : instances.byGeometry)
    drawBatch(geometryMeshes.at(batch.geometry.get()).second, batch.instances.size());
  for (std::size_t i = 0; i < deformableMeshes.size(); ++i)
    if (deformableDrawn[i]) drawBatch(deformableMeshes[i], 1);
  glBindVertexArray(0);
}

std::optional<Renderer::Impl::ShadowFrame> Renderer::Impl::drawShadowMap(const std::vector<Body>& bodies) {
  // The deformed surfaces may reach past their undeformed shapes, which shadowCasterBounds sees.
  std::optional<Bounds> casters = shadowCasterBounds(bodies);
  for (const DeformableBounds& d : deformableBounds) casters ? casters->extend(d.bounds) : void(casters = d.bounds);
  if (!casters) return std::nullopt;
  // An orthographic light frustum around the casters' bounding sphere, reaching well past them
  // so the ground they stand on is inside its depth range.
  const double radius = std::max(0.55 * casters->size().norm(), 0.5);
  const Vec3 centre = casters->centre();
  const double standOff = radius + 1.0;
  const Eigen::Matrix4f lightView = lookAt(centre + standOff * kLightDirection, centre, Vec3::UnitZ());
  const double depthRange = 2.0 * standOff + 50.0;
  const Eigen::Matrix4f lightViewProjection =
      orthographic(-radius, radius, -radius, radius, 0.0, depthRange) * lightView;

  glBindFramebuffer(GL_FRAMEBUFFER, shadowFramebuffer);
  glViewport(0, 0, shadowMapSize, shadowMapSize);
  glClear(GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  // Faces turned away from the light lie behind the ones facing it: boxes, spheres and deformable
  // surfaces are closed, and a capsule's open cylinder is capped by its end spheres.
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.5f, 3.0f);
  const GLuint program = programs[kShadowProgram].id();
  glUseProgram(program);
  setMatrix(glGetUniformLocation(program, "uLightViewProjection"), lightViewProjection);
  // Planes are huge receivers; they would only waste fill rate here.
  drawInstances(program, false);
  glDisable(GL_CULL_FACE);
  glDisable(GL_POLYGON_OFFSET_FILL);
  return ShadowFrame{lightViewProjection, 2.0 * radius / shadowMapSize, depthRange};
}

void Renderer::Impl::drawBackground(const Eigen::Matrix4f& viewProjection) {
  glDisable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  const GLuint program = programs[kBackgroundProgram].id();
  glUseProgram(program);
  setMatrix(glGetUniformLocation(program, "uInverseViewProjection"), viewProjection.inverse());
  setVector(glGetUniformLocation(program, "uHorizonColor"), kHorizonColor);
  glBindVertexArray(emptyVertexArray);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
}

void Renderer::Impl::drawDebugOverlay(const World& world, const RenderOptions& options,
                                      const Eigen::Matrix4f& viewProjection) {
  debugGeometry.clear();
  if (options.debugOverlay) world.debugDraw(debugGeometry, options.debug);
  addSelectionOutline(world.bodies(), deformableBounds, options.selectedBody, debugGeometry);
  const auto& lines = debugGeometry.lineVertices();
  const auto& points = debugGeometry.pointVertices();
  if (lines.empty() && points.empty()) return;

  glBindBuffer(GL_ARRAY_BUFFER, debugBuffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>((lines.size() + points.size()) * sizeof(DebugVertex)), nullptr,
               GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(lines.size() * sizeof(DebugVertex)), lines.data());
  glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(lines.size() * sizeof(DebugVertex)),
                  static_cast<GLsizeiptr>(points.size() * sizeof(DebugVertex)), points.data());

  const GLuint program = programs[kLineProgram].id();
  glUseProgram(program);
  setMatrix(glGetUniformLocation(program, "uViewProjection"), viewProjection);
  const GLint alphaLocation = glGetUniformLocation(program, "uAlpha");
  glBindVertexArray(debugVertexArray);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glDepthMask(GL_FALSE);
  // Contacts sit between bodies, mostly hidden: draw everything faintly through the bodies, then
  // the visible parts in full. The points less faintly: a soft body's contacts all lie under it,
  // and their colours (the contact states) should still read.
  for (const bool throughBodies : {true, false}) {
    if (throughBodies) {
      glDisable(GL_DEPTH_TEST);
    } else {
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LEQUAL);
    }
    glUniform1f(alphaLocation, throughBodies ? 0.25f : 1.0f);
    if (!lines.empty()) glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(lines.size()));
    glUniform1f(alphaLocation, throughBodies ? 0.55f : 1.0f);
    if (!points.empty()) glDrawArrays(GL_POINTS, static_cast<GLint>(lines.size()), static_cast<GLsizei>(points.size()));
  }
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glDisable(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

Renderer::Renderer(std::string shaderDirectory) : impl_(std::make_unique<Impl>()) {
  impl_->shaderDirectory = std::move(shaderDirectory);
  glGetIntegerv(GL_MAX_SAMPLES, &impl_->maxSamples);
  GLint maxRenderbufferSize = 0;
  GLint maxViewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxRenderbufferSize);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, maxViewport);
  impl_->maxImageSize = std::max(1, std::min({maxRenderbufferSize, maxViewport[0], maxViewport[1]}));
  impl_->createMeshes();
  reloadShaders();
}

Renderer::~Renderer() {
  impl_->deleteTargets();
  for (const MeshBuffers& mesh : impl_->meshes) deleteBuffers(mesh);
  for (const auto& [key, geometryMesh] : impl_->geometryMeshes) deleteBuffers(geometryMesh.second);
  for (const MeshBuffers& mesh : impl_->deformableMeshes) deleteBuffers(mesh);
  glDeleteBuffers(1, &impl_->debugBuffer);
  const GLuint vertexArrays[] = {impl_->debugVertexArray, impl_->emptyVertexArray};
  glDeleteVertexArrays(2, vertexArrays);
  glDeleteFramebuffers(1, &impl_->shadowFramebuffer);
  glDeleteTextures(1, &impl_->shadowTexture);
  glDeleteTextures(1, &impl_->stressScaleTexture);
}

std::optional<std::string> Renderer::reloadShaders() {
  // All or nothing: a half-updated set could pair programs that no longer agree.
  std::array<GlProgram, kProgramCount> loaded;
  for (int i = 0; i < kProgramCount; ++i) {
    if (auto error = buildProgramFromFiles(impl_->shaderDirectory, kShaderProgramNames[i], loaded[i],
                                           "#define SHADOW_TAPS " + std::to_string(impl_->shadowTaps) +
                                               "\n#define STRESS_SCALE_TEXELS " + std::to_string(kStressScaleTexels) + "\n")) {
      impl_->shaderError = std::move(error);
      return impl_->shaderError;
    }
  }
  impl_->programs = std::move(loaded);
  impl_->shaderError.reset();
  return std::nullopt;
}

const std::optional<std::string>& Renderer::shaderError() const { return impl_->shaderError; }

const std::string& Renderer::shaderDirectory() const { return impl_->shaderDirectory; }

void Renderer::render(const World& world, const OrbitCamera& camera, const RenderOptions& options, int width,
                      int height) {
  Impl& r = *impl_;
  if (const int taps = options.shadowTaps > 1 ? 4 : 1; taps != r.shadowTaps) {
    r.shadowTaps = taps;
    reloadShaders();  // SHADOW_TAPS is a constant of body.frag: a loop over a uniform costs a software rasterizer dearly
  }
  const int requestedSamples = std::min(options.msaaSamples, static_cast<int>(r.maxSamples));
  r.resizeTargets(std::clamp(width, 1, static_cast<int>(r.maxImageSize)),
                  std::clamp(height, 1, static_cast<int>(r.maxImageSize)), requestedSamples > 1 ? requestedSamples : 0);
  const GLuint target = r.multisampleFramebuffer != 0 ? r.multisampleFramebuffer : r.imageFramebuffer;

  const bool havePrograms = static_cast<bool>(r.programs[kBodyProgram]);
  std::optional<Impl::ShadowFrame> shadow;
  if (havePrograms) {
    buildInstances(world.bodies(), options.selectedBody, r.instances);
    useSmallSpheresWhereTheyLookTheSame(r.instances, camera.eye(),
                                        r.height / (2.0 * std::tan(0.5 * OrbitCamera::kVerticalFovRadians)));
    if (const std::optional<Instance> floor = floorInstance(world.bodies())) r.instances[MeshKind::Quad].push_back(*floor);
    r.uploadInstances();
    r.uploadDeformableSurfaces(world, options);
    if (options.shadows) {
      r.resizeShadowMap(std::clamp(options.shadowMapSize, 16, static_cast<int>(r.maxImageSize)));
      shadow = r.drawShadowMap(world.bodies());
    }
  }

  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, r.width, r.height);
  glClearColor(0.80f, 0.83f, 0.87f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (havePrograms) {
    const Eigen::Matrix4f viewProjection =
        camera.projectionMatrix(static_cast<double>(r.width) / r.height) * camera.viewMatrix();
    r.drawBackground(viewProjection);
    const GLuint body = r.programs[kBodyProgram].id();
    glUseProgram(body);
    setMatrix(glGetUniformLocation(body, "uViewProjection"), viewProjection);
    setMatrix(glGetUniformLocation(body, "uLightViewProjection"),
              shadow ? shadow->lightViewProjection : Eigen::Matrix4f::Identity());
    setVector(glGetUniformLocation(body, "uLightDirection"), kLightDirection);
    setVector(glGetUniformLocation(body, "uEye"), camera.eye());
    glUniform1i(glGetUniformLocation(body, "uShadows"), shadow ? 1 : 0);
    if (shadow) {
      // A few texels: the 3x3 PCF footprint, widened by body.frag on surfaces at a grazing angle to the light.
      glUniform1f(glGetUniformLocation(body, "uShadowNormalOffset"), static_cast<float>(kNormalOffsetTexels * shadow->texelMetres));
      glUniform1f(glGetUniformLocation(body, "uShadowDepthBias"),
                  static_cast<float>(kDepthBiasTexels * shadow->texelMetres / shadow->depthRange));
      glUniform1f(glGetUniformLocation(body, "uShadowTexel"), 1.0f / r.shadowMapSize);
    }
    glUniform1i(glGetUniformLocation(body, "uGrid"), options.groundGrid ? 1 : 0);
    setVector(glGetUniformLocation(body, "uHorizonColor"), kHorizonColor);
    const auto [fogStart, fogEnd] = fogRange(world.bodies(), camera);
    glUniform2f(glGetUniformLocation(body, "uFogRange"), static_cast<float>(fogStart), static_cast<float>(fogEnd));
    glUniform1i(glGetUniformLocation(body, "uStressScale"), 1);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_1D, r.stressScaleTexture);
    glUniform1i(glGetUniformLocation(body, "uShadowMap"), 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, r.shadowTexture);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    r.drawInstances(body, true);
    glDisable(GL_CULL_FACE);

    r.drawDebugOverlay(world, options, viewProjection);
  }

  if (r.multisampleFramebuffer != 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r.multisampleFramebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r.imageFramebuffer);
    glBlitFramebuffer(0, 0, r.width, r.height, 0, 0, r.width, r.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glUseProgram(0);
}

void Renderer::presentToScreen(int framebufferWidth, int framebufferHeight) {
  if (impl_->imageFramebuffer == 0 || framebufferWidth <= 0 || framebufferHeight <= 0) return;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, impl_->imageFramebuffer);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, impl_->width, impl_->height, 0, 0, framebufferWidth, framebufferHeight, GL_COLOR_BUFFER_BIT,
                    GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void Renderer::readPixels(std::vector<std::uint8_t>& rgb) const {
  const int w = impl_->width;
  const int h = impl_->height;
  rgb.assign(static_cast<std::size_t>(w) * h * 3, 0);
  if (impl_->imageFramebuffer == 0) return;
  std::vector<std::uint8_t> bottomUp(rgb.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, impl_->imageFramebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  const std::size_t rowBytes = static_cast<std::size_t>(w) * 3;
  for (int row = 0; row < h; ++row)
    std::memcpy(rgb.data() + static_cast<std::size_t>(row) * rowBytes,
                bottomUp.data() + static_cast<std::size_t>(h - 1 - row) * rowBytes, rowBytes);
}

RenderOptions defaultRenderOptions(bool softwareRasterizer) {
  RenderOptions options;
  if (softwareRasterizer) {
    options.msaaSamples = 0;
    options.shadowMapSize = 1024;
    options.shadowTaps = 1;
  }
  return options;
}

const std::optional<StressRange>& Renderer::stressRange() const { return impl_->stressRange; }

int Renderer::width() const { return impl_->width; }

int Renderer::height() const { return impl_->height; }

}  // namespace contactlab::render
