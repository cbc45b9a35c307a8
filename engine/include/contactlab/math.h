#pragma once
// Eigen aliases used throughout the public API. SI units, z up by default.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace contactlab {

using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
// Unit Hamilton quaternion rotating body coordinates into world coordinates
// (the PROX paper's eq. 65 convention); serialized as [w, x, y, z].
using Quat = Eigen::Quaterniond;

}  // namespace contactlab
