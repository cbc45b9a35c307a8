// A body's description checked when the World is built (engine/src/dynamics/body_setup.cpp).
#include "dynamics/body_setup.h"

#include <gtest/gtest.h>

#include <string>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

std::string errorOf(const BodyDesc& desc) {
  try {
    makeBody(desc, FrictionDefaults{}, 3);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

// A box of 1e-300 m has a mass of 1e-897 kg, which is 0 in double precision, and one of 1e200 m
// an infinite mass: both are refused when built, naming the body, instead of stepping into a
// non-finite state.
TEST(BodySetup, SizesWhoseMassUnderflowsOrOverflowsAreRefused) {
  for (const double size : {1e-300, 1e200}) {
    BodyDesc box = test::box(Vec3::Constant(size), Vec3::Zero());
    box.name = "speck";
    const std::string message = errorOf(box);
    EXPECT_EQ(message.rfind("body 3 (\"speck\"): its size and density give a mass of ", 0), 0u) << size << ": " << message;
  }
  EXPECT_EQ(errorOf(test::box(Vec3::Constant(1e-3), Vec3::Zero())), "") << "a millimetre box is fine";
  BodyDesc ground = test::box(Vec3::Constant(1e200), Vec3::Zero());
  ground.motion = MotionType::Static;
  EXPECT_EQ(errorOf(ground), "") << "a static body has no mass to simulate";
}

}  // namespace
}  // namespace contactlab
