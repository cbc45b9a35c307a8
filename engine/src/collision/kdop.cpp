#include "collision/kdop.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace contactlab {

namespace {

const double kDiagonal = 1.0 / std::sqrt(3.0);
const double kEdge = 1.0 / std::sqrt(2.0);

// The box axes, then the four corner diagonals (k = 14) and / or the six edge diagonals (k = 18).
const std::array<Vec3, 7> kAxes14 = {Vec3::UnitX(),
                                     Vec3::UnitY(),
                                     Vec3::UnitZ(),
                                     Vec3(kDiagonal, kDiagonal, kDiagonal),
                                     Vec3(kDiagonal, kDiagonal, -kDiagonal),
                                     Vec3(kDiagonal, -kDiagonal, kDiagonal),
                                     Vec3(-kDiagonal, kDiagonal, kDiagonal)};
const std::array<Vec3, 9> kAxes18 = {Vec3::UnitX(),          Vec3::UnitY(),          Vec3::UnitZ(),
                                     Vec3(kEdge, kEdge, 0),  Vec3(kEdge, -kEdge, 0), Vec3(kEdge, 0, kEdge),
                                     Vec3(kEdge, 0, -kEdge), Vec3(0, kEdge, kEdge),  Vec3(0, kEdge, -kEdge)};
const std::array<Vec3, 13> kAxes26 = {kAxes14[0], kAxes14[1], kAxes14[2], kAxes14[3], kAxes14[4],
                                      kAxes14[5], kAxes14[6], kAxes18[3], kAxes18[4], kAxes18[5],
                                      kAxes18[6], kAxes18[7], kAxes18[8]};

}  // namespace

bool isSupportedKdop(int k) { return k == 14 || k == 18 || k == 26; }

std::span<const Vec3> kdopAxes(int k) {
  switch (k) {
    case 14: return kAxes14;
    case 18: return kAxes18;
    case 26: return kAxes26;
    default: throw std::invalid_argument("kDOP k must be 14, 18 or 26, got " + std::to_string(k));
  }
}

Kdop Kdop::empty() {
  Kdop kdop;
  kdop.lower.fill(std::numeric_limits<double>::infinity());
  kdop.upper.fill(-std::numeric_limits<double>::infinity());
  return kdop;
}

void Kdop::add(std::span<const Vec3> axes, const Vec3& point) {
  for (size_t i = 0; i < axes.size(); ++i) {
    const double projection = axes[i].dot(point);
    lower[i] = std::min(lower[i], projection);
    upper[i] = std::max(upper[i], projection);
  }
}

Kdop Kdop::inflated(double distance, int axisCount) const {
  Kdop wider = *this;
  for (int i = 0; i < axisCount; ++i) {
    wider.lower[i] -= distance;
    wider.upper[i] += distance;
  }
  return wider;
}

void Kdop::merge(const Kdop& other, int axisCount) {
  for (int i = 0; i < axisCount; ++i) {
    lower[i] = std::min(lower[i], other.lower[i]);
    upper[i] = std::max(upper[i], other.upper[i]);
  }
}

AxisProjections projectOnAxes(std::span<const Vec3> axes, const Vec3& point) {
  AxisProjections projections;
  projections.count = static_cast<int>(axes.size());
  for (int i = 0; i < projections.count; ++i) projections.along[i] = axes[i].dot(point);
  return projections;
}

AxisComponents::AxisComponents(std::span<const Vec3> axes) : count(static_cast<int>(axes.size())) {
  if (count < 1 || count > kMaxKdopAxes)
    throw std::invalid_argument("a kDOP has 1 to " + std::to_string(kMaxKdopAxes) + " axes, got " +
                                std::to_string(count));
  for (int i = 0; i <= count; ++i) {
    const Vec3& axis = axes[std::min(i, count - 1)];
    x[i] = axis.x(), y[i] = axis.y(), z[i] = axis.z();
  }
}

PathProjections projectPathOnAxes(const AxisComponents& axes, const Vec3& point, const Vec3& move) {
  // Two axes at a time, each projection summed in the order of Vec3::dot, so the intervals are
  // bitwise those of projecting axis by axis.
  const SlabPair px = {point.x(), point.x()}, py = {point.y(), point.y()}, pz = {point.z(), point.z()};
  const SlabPair mx = {move.x(), move.x()}, my = {move.y(), move.y()}, mz = {move.z(), move.z()};
  const SlabPair zero = {0.0, 0.0};
  PathProjections path;
  path.count = axes.count;
  for (int i = 0; i < axes.count; i += 2) {
    const SlabPair ax = loadSlabPair(axes.x, i), ay = loadSlabPair(axes.y, i), az = loadSlabPair(axes.z, i);
    const SlabPair projection = (ax * px + ay * py) + az * pz;
    const SlabPair along = (ax * mx + ay * my) + az * mz;
    const SlabPair low = projection + (along < zero ? along : zero);
    const SlabPair high = projection + (along > zero ? along : zero);
    path.low[i] = low[0], path.low[i + 1] = low[1];
    path.high[i] = high[0], path.high[i + 1] = high[1];
  }
  return path;
}

Kdop kdopOfPoints(std::span<const Vec3> axes, std::span<const Vec3> points) {
  Kdop kdop = Kdop::empty();
  for (const Vec3& p : points) kdop.add(axes, p);
  return kdop;
}

OrientedBoxTest::OrientedBoxTest(std::span<const Vec3> axes, const Pose& otherInThis, double margin,
                                 const LinearMotion& motion)
    : axisCount_(static_cast<int>(axes.size())), margin_(margin), turning_(motion.turn != Vec3::Zero()) {
  const Vec3 originMove = motion.of(otherInThis.position);
  for (int i = 0; i < axisCount_; ++i) {
    const Vec3 axisInOther = otherInThis.rotation.transpose() * axes[i];
    x_[i] = axisInOther.x(), y_[i] = axisInOther.y(), z_[i] = axisInOther.z();
    absX_[i] = std::abs(x_[i]), absY_[i] = std::abs(y_[i]), absZ_[i] = std::abs(z_[i]);
    // The path of the other frame's origin spans [min(0, along), max(0, along)] beyond its start's
    // projection.
    const double along = axes[i].dot(originMove);
    offset_[i] = axes[i].dot(otherInThis.position) + 0.5 * along;
    sweepRadius_[i] = 0.5 * std::abs(along);
    alongAtOrigin_[i] = along;
    if (!turning_) continue;  // the turn's values are read only with a turn
    const Vec3 turnInOther = otherInThis.rotation.transpose() * axes[i].cross(motion.turn);
    turnX_[i] = turnInOther.x(), turnY_[i] = turnInOther.y(), turnZ_[i] = turnInOther.z();
    absTurnX_[i] = std::abs(turnX_[i]), absTurnY_[i] = std::abs(turnY_[i]), absTurnZ_[i] = std::abs(turnZ_[i]);
  }
  for (Values* values : {&x_, &y_, &z_, &absX_, &absY_, &absZ_, &offset_, &sweepRadius_, &alongAtOrigin_})
    (*values)[axisCount_] = (*values)[axisCount_ - 1];
  if (turning_)
    for (Values* values : {&turnX_, &turnY_, &turnZ_, &absTurnX_, &absTurnY_, &absTurnZ_})
      (*values)[axisCount_] = (*values)[axisCount_ - 1];
}

}  // namespace contactlab
