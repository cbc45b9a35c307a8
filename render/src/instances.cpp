#include "contactlab/render/instances.h"

#include <algorithm>
#include <cmath>

#include "contactlab/render/bounds.h"

namespace contactlab::render {
namespace {

Color hsvToRgb(double hue, double saturation, double value) {
  const double h6 = 6.0 * (hue - std::floor(hue));
  const int sector = static_cast<int>(h6) % 6;
  const double f = h6 - std::floor(h6);
  const auto p = static_cast<float>(value * (1.0 - saturation));
  const auto q = static_cast<float>(value * (1.0 - saturation * f));
  const auto t = static_cast<float>(value * (1.0 - saturation * (1.0 - f)));
  const auto v = static_cast<float>(value);
  switch (sector) {
    case 0: return {v, t, p, 1.0f};
    case 1: return {q, v, p, 1.0f};
    case 2: return {p, v, t, 1.0f};
    case 3: return {p, q, v, 1.0f};
    case 4: return {t, p, v, 1.0f};
    default: return {v, p, q, 1.0f};
  }
}

Instance makeInstance(const Eigen::Affine3d& transform, const Color& color, SurfaceStyle style) {
  Instance instance;
  const Eigen::Matrix4f matrix = transform.matrix().cast<float>();
  std::copy(matrix.data(), matrix.data() + 16, instance.model.begin());  // Eigen is column-major, as GL wants
  instance.color = {color.r, color.g, color.b, color.a};
  instance.style = static_cast<float>(style);
  return instance;
}

// Rotation taking +z to the unit vector n.
Quat rotationFromZ(const Vec3& n) { return Quat::FromTwoVectors(Vec3::UnitZ(), n); }

}  // namespace

void InstanceBatches::clear() {
  for (auto& batch : byMesh) batch.clear();
  byGeometry.clear();
}

Color bodyColor(int bodyIndex, MotionType motion) {
  if (motion == MotionType::Static) return {0.72f, 0.72f, 0.71f, 1.0f};
  if (motion == MotionType::Kinematic) return {0.45f, 0.52f, 0.68f, 1.0f};
  constexpr double kGoldenRatioConjugate = 0.6180339887498949;
  return hsvToRgb(0.08 + kGoldenRatioConjugate * bodyIndex, 0.55, 0.92);
}

Color sleepingColor(const Color& awake) {
  // Halfway to a mid grey and darker: the hue stays recognisable, the body reads as resting.
  constexpr float kKeep = 0.45f, kGrey = 0.3f;
  return {kKeep * awake.r + (1.0f - kKeep) * kGrey, kKeep * awake.g + (1.0f - kKeep) * kGrey,
          kKeep * awake.b + (1.0f - kKeep) * kGrey, awake.a};
}

void buildInstances(const std::vector<Body>& bodies, int selectedBody, InstanceBatches& batches) {
  batches.clear();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& body = bodies[i];
    if (body.isDeformable()) continue;
    if (!body.position.allFinite() || !body.orientation.coeffs().allFinite()) continue;
    const Color color = body.asleep ? sleepingColor(bodyColor(static_cast<int>(i), body.motion))
                                    : bodyColor(static_cast<int>(i), body.motion);
    const SurfaceStyle style = static_cast<int>(i) == selectedBody && body.isDynamic() ? SurfaceStyle::Selected
                               : body.motion == MotionType::Static                     ? SurfaceStyle::Static
                                                                                       : SurfaceStyle::Dynamic;
    Eigen::Affine3d pose = Eigen::Affine3d::Identity();
    pose.translate(body.position).rotate(body.orientation.normalized());
    if (const auto* sphere = std::get_if<SphereShape>(&body.shape)) {
      batches[MeshKind::Sphere].push_back(makeInstance(pose * Eigen::Scaling(sphere->radius), color, style));
    } else if (const auto* box = std::get_if<BoxShape>(&body.shape)) {
      batches[MeshKind::Box].push_back(makeInstance(pose * Eigen::Scaling(box->halfExtents), color, style));
    } else if (const auto* capsule = std::get_if<CapsuleShape>(&body.shape)) {
      const double r = capsule->radius;
      batches[MeshKind::Cylinder].push_back(
          makeInstance(pose * Eigen::Scaling(Vec3(r, r, capsule->halfLength)), color, style));
      for (const double end : {-capsule->halfLength, capsule->halfLength})
        batches[MeshKind::Sphere].push_back(
            makeInstance(pose * Eigen::Translation3d(0, 0, end) * Eigen::Scaling(r), color, style));
    } else if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) {
      auto batch = std::find_if(batches.byGeometry.begin(), batches.byGeometry.end(),
                                [&](const GeometryInstances& b) { return b.geometry == mesh->geometry; });
      if (batch == batches.byGeometry.end()) batch = batches.byGeometry.insert(batch, {mesh->geometry, {}});
      batch->instances.push_back(makeInstance(pose, color, style));
    } else if (const auto* plane = std::get_if<PlaneShape>(&body.shape)) {
      const Vec3 normal = plane->normal.normalized();
      if (!normal.allFinite() || !std::isfinite(plane->offset)) continue;
      Eigen::Affine3d placement = Eigen::Affine3d::Identity();
      placement.translate(plane->offset * normal).rotate(rotationFromZ(normal));
      batches[MeshKind::Quad].push_back(
          makeInstance(placement * Eigen::Scaling(Vec3(kPlaneHalfSize, kPlaneHalfSize, 1.0)), color, style));
    }
  }
}

Instance deformableInstance(const Body& body, int bodyIndex, int selectedBody) {
  const Color color = bodyColor(bodyIndex, MotionType::Dynamic);
  return makeInstance(Eigen::Affine3d::Identity(), body.asleep ? sleepingColor(color) : color,
                      bodyIndex == selectedBody ? SurfaceStyle::Selected : SurfaceStyle::Dynamic);
}

std::optional<Instance> floorInstance(const std::vector<Body>& bodies) {
  std::optional<Bounds> widest;
  const auto area = [](const Bounds& b) { return b.size().x() * b.size().y(); };
  for (const Body& body : bodies) {
    if (!body.position.allFinite() || !body.orientation.coeffs().allFinite()) continue;
    if (std::holds_alternative<PlaneShape>(body.shape)) return std::nullopt;
    if (body.motion != MotionType::Static || body.isDeformable() || !std::holds_alternative<BoxShape>(body.shape))
      continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!widest || area(*bounds) > area(*widest)) widest = bounds;
  }
  if (!widest || widest->size().head<2>().minCoeff() < kMinGroundSide) return std::nullopt;
  Eigen::Affine3d placement = Eigen::Affine3d::Identity();
  // A millimetre below the ground's top so the two never fight over depth.
  placement.translate(Vec3(widest->centre().x(), widest->centre().y(), widest->upper.z() - 1e-3));
  return makeInstance(placement * Eigen::Scaling(Vec3(kPlaneHalfSize, kPlaneHalfSize, 1.0)),
                      bodyColor(0, MotionType::Static), SurfaceStyle::Static);
}

void useSmallSpheresWhereTheyLookTheSame(InstanceBatches& batches, const Vec3& eye, double focalPixels,
                                         double maxRadiusPixels) {
  std::vector<Instance>& spheres = batches[MeshKind::Sphere];
  std::vector<Instance>& small = batches[MeshKind::SmallSphere];
  const auto looksSmall = [&](const Instance& instance) {
    // A unit sphere scaled by its radius: the first column's length is the radius, the last column
    // the centre.
    const Vec3 axis(instance.model[0], instance.model[1], instance.model[2]);
    const Vec3 centre(instance.model[12], instance.model[13], instance.model[14]);
    const double radius = axis.norm();
    const double distance = (centre - eye).norm() - radius;  // to its nearest point
    return distance > 0.0 && radius * focalPixels < maxRadiusPixels * distance;
  };
  const auto firstSmall = std::stable_partition(spheres.begin(), spheres.end(),
                                                [&](const Instance& instance) { return !looksSmall(instance); });
  small.insert(small.end(), firstSmall, spheres.end());
  spheres.erase(firstSmall, spheres.end());
}

}  // namespace contactlab::render
