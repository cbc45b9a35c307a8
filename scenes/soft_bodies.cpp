// Single deformable (FEM) bodies against static rigid scenery, at the Verschoor & Jalba paper's
// time step: a soft cube landing on the ground, a cantilever and a hanging bar sagging under their
// own weight (beam theory's answers), and a soft block sticking or sliding on a slope; two soft
// cubes colliding; and dynamic rigid bodies solved with a soft one (mixed islands): boxes stacked on
// a soft slab, a ball rolling over a soft mat.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "scene_building.h"

// Named after the file, not anonymous: the scenes are compiled in unity batches.
namespace contactlab::scenes::soft_bodies {

constexpr double kDt = 1e-3;  // s, the deformable paper's step

// A dynamic box made an FEM body: co-rotational, density 1000, with the scene's "youngs_modulus" and
// at least its "tets" tetrahedra (the largest tetrahedron volume is the box's volume / tets; the
// engine's default is 150, which gives a few hundred).
BodyDesc softBox(const ParamReader& read, const std::string& name, const Vec3& size, const Vec3& position,
                 double poissonRatio, const Quat& orientation = Quat::Identity()) {
  BodyDesc body = dynamicBox(name, size, position, orientation);
  body.deformable = DeformableDesc{};
  body.deformable->youngsModulus = read.positive("youngs_modulus");
  body.deformable->poissonRatio = poissonRatio;
  body.deformable->maxTetVolume = size.prod() / read.inRange("tets", 1.0, 1e6);
  return body;
}

// The parameter every scene here shares (a function, not a global: builtinScenes() may run during
// another file's static initialization).
SceneParam tetsParam() { return {"tets", 150, "fewest tetrahedra: the largest one's volume is the body's / tets"}; }

// The paper's soft material (E = 5e5 Pa, nu = 0.2). The blocks take stiffness-proportional damping
// beta, which damps their vibrations without braking their rigid motion (mass-proportional damping
// would act as a drag on a falling or sliding block).
constexpr double kSoftPoisson = 0.2;

// A soft cube dropped flat onto the ground: it lands without passing into it, squashes and bulges
// on impact, and settles with its centre about half its size above the ground (a resting contact
// carries its weight, m g dt per step).
Scene buildSoftBlock(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("soft-block", params);
  const double size = read.positive("size");
  Scene scene;
  scene.dt = kDt;
  scene.bodies.push_back(groundBox());
  BodyDesc block = softBox(read, "block", Vec3::Constant(size), Vec3(0, 0, read.nonNegative("height") + 0.5 * size),
                           kSoftPoisson);
  block.deformable->dampingStiffness = read.nonNegative("damping_stiffness");
  scene.bodies.push_back(block);
  return scene;
}

// A square beam along x, pinned over its end face at x = -length / 2 (the pinned box reaches a
// hundredth of the thickness beyond the face on each side so the face's nodes are inside it),
// bending under its own weight. nu = 0 as in Euler-Bernoulli's tip deflection q L^4 / (8 E I).
// At the default E = 1e6 Pa that is 1.5 m, more than the beam's length: the beam droops far, with
// the large rotations the co-rotational model is for; E = 1e7 gives a small bend. Linear tetrahedra
// are too stiff in bending: at tets = 150 the small bend is about half the analytic one, at 1000
// about 83 % (at four to five times the cost per step). Its axis sits higher above the ground than
// the beam is long, so even a beam soft enough to hang straight down stays clear of it.
Scene buildCantilever(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("cantilever", params);
  const double length = read.positive("length"), thickness = read.positive("thickness");
  const Vec3 centre(0, 0, length + thickness);
  Scene scene;
  scene.dt = kDt;
  scene.bodies.push_back(groundBox());
  BodyDesc beam = softBox(read, "beam", Vec3(length, thickness, thickness), centre, 0.0);
  // Mass-proportional damping: the first bending mode is slow, and stiffness-proportional damping
  // (ratio beta omega / 2) would hardly touch it; alpha damps it at ratio alpha / (2 omega).
  beam.deformable->dampingMass = read.nonNegative("damping_mass");
  const double margin = 0.01 * thickness;
  const Vec3 endFace = centre - Vec3(0.5 * length, 0, 0);
  const Vec3 reach(margin, 0.5 * thickness + margin, 0.5 * thickness + margin);
  beam.deformable->pinned = DeformableDesc::Box{endFace - reach, endFace + reach};
  scene.bodies.push_back(beam);
  return scene;
}

// A 0.1 m square bar hanging from its pinned top face, its bottom 0.5 m above the ground, stretching
// under its own weight. nu = 0:
// the analytic lengthening rho g L^2 / (2 E) is for uniaxial stress, and with nu = 0 the pinned face
// holds back no lateral contraction (the centre of mass drops by rho g L^2 / (3 E)).
constexpr double kBarThickness = 0.1;
constexpr double kBarClearance = 0.5;

Scene buildHangingBar(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("hanging-bar", params);
  const double length = read.positive("length");
  const Vec3 centre(0, 0, kBarClearance + 0.5 * length);
  Scene scene;
  scene.dt = kDt;
  scene.bodies.push_back(groundBox());
  BodyDesc bar = softBox(read, "bar", Vec3(kBarThickness, kBarThickness, length), centre, 0.0);
  // The axial period 4 L sqrt(rho / E) is short (0.13 s at the defaults): stiffness damping suits it.
  bar.deformable->dampingStiffness = read.nonNegative("damping_stiffness");
  const double margin = 0.01 * kBarThickness, half = 0.5 * kBarThickness + margin;
  const Vec3 topFace = centre + Vec3(0, 0, 0.5 * length);
  bar.deformable->pinned = DeformableDesc::Box{topFace - Vec3(half, half, margin), topFace + Vec3(half, half, margin)};
  scene.bodies.push_back(bar);
  return scene;
}

// The slope is the rigid incline scene's in units of the block: 20 blocks long (along its local x,
// downhill once tilted), 6 wide, 1 thick; the block starts 6 block sizes uphill of its centre.
const Vec3 kSlopeBlocks(20.0, 6.0, 1.0);
constexpr double kStartUphillBlocks = 6.0;

// A soft cube resting on a tilted static slope, faces aligned with it: with mu above tan(angle) it
// sticks (after shearing a little), below it slides at g (sin - mu cos) of the angle.
Scene buildSoftIncline(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("soft-incline", params);
  const double angle = read.inRange("angle_deg", 0.0, 90.0) * std::numbers::pi / 180.0;
  const double size = read.positive("size");
  Scene scene;
  scene.dt = kDt;
  // Slope and block take the scene's mu, so their pair's sqrt(mu * mu) is mu itself.
  scene.friction.mu = read.nonNegative("mu");
  const Vec3 slopeSize = size * kSlopeBlocks;
  scene.bodies.push_back(groundBox(std::max(40.0, 2.0 * slopeSize.x())));
  // A turn about +y tips local x down towards -z: the surface descends along +x.
  const Quat tilt(Eigen::AngleAxisd(angle, Vec3::UnitY()));
  const Vec3 downhill = tilt * Vec3::UnitX(), normal = tilt * Vec3::UnitZ();
  // Centre high enough that the slope's lowest edge just meets the ground.
  const Vec3 slopeCentre(0, 0, 0.5 * slopeSize.x() * std::sin(angle) + 0.5 * slopeSize.z() * std::cos(angle));
  scene.bodies.push_back(staticBox("slope", slopeSize, slopeCentre, tilt));
  const Vec3 blockCentre =
      slopeCentre + normal * 0.5 * (slopeSize.z() + size) - downhill * kStartUphillBlocks * size;
  BodyDesc block = softBox(read, "block", Vec3::Constant(size), blockCentre, kSoftPoisson, tilt);
  block.deformable->dampingStiffness = read.nonNegative("damping_stiffness");
  scene.bodies.push_back(block);
  return scene;
}

// Two soft cubes flying at each other without gravity or friction, the second turned so that its
// edges cross the first's faces: momentum is kept through the contact, and they bounce apart.
Scene buildSoftCubes(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("soft-cubes", params);
  const double size = read.positive("size"), speed = read.nonNegative("speed");
  Scene scene;
  scene.dt = kDt;
  scene.gravity = Vec3::Zero();
  scene.friction.mu = read.nonNegative("mu");
  for (const int side : {-1, 1}) {
    const Quat turn = side < 0 ? Quat::Identity()
                               : Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitY()));
    BodyDesc cube = softBox(read, side < 0 ? "left" : "right", Vec3::Constant(size),
                            Vec3(side * 0.5 * (size + read.nonNegative("gap")), 0, size), kSoftPoisson, turn);
    cube.velocity = Vec3(-side * speed, 0, 0);
    scene.bodies.push_back(cube);
  }
  return scene;
}

// Rigid boxes stacked on a soft slab lying on the ground, each turned a little about z and set off
// centre: the slab dents under the stack (by about (M g / A + rho g h / 2) h / E under the
// footprint A) and the stack stands on it. Boxes and slab are solved in one system.
Scene buildSoftSlabBoxes(const SceneParams& params, std::uint64_t seed) {
  const ParamReader read("soft-slab-boxes", params);
  const int count = read.count("count");
  const double size = read.positive("box_size"), thickness = read.positive("thickness");
  const double slabSide = read.positive("slab_size");
  Scene scene;
  scene.dt = kDt;
  scene.friction.mu = read.nonNegative("mu");
  scene.bodies.push_back(groundBox());
  BodyDesc slab = softBox(read, "slab", Vec3(slabSide, slabSide, thickness), Vec3(0, 0, 0.5 * thickness), kSoftPoisson);
  slab.deformable->dampingStiffness = read.nonNegative("damping_stiffness");
  scene.bodies.push_back(slab);
  SceneRandom random(seed);
  for (int i = 0; i < count; ++i) {
    const Vec3 offset(0.05 * size * random.uniform(-1, 1), 0.05 * size * random.uniform(-1, 1), 0.0);
    const Quat turn(Eigen::AngleAxisd(0.1 * random.uniform(-1, 1), Vec3::UnitZ()));
    scene.bodies.push_back(dynamicBox("box_" + std::to_string(i), Vec3::Constant(size),
                                      offset + Vec3(0, 0, thickness + (i + 0.5) * size), turn));
  }
  return scene;
}

// A rigid ball rolling along a soft mat on the ground, started rolling at `speed`: it dents the mat
// as it goes (the mat's surface meets the ball between its vertices, not only at them) and slows by
// the mat's rolling resistance.
Scene buildBallOnMat(const SceneParams& params, std::uint64_t /*seed*/) {
  const ParamReader read("ball-on-mat", params);
  const double radius = read.positive("radius"), speed = read.nonNegative("speed");
  const double length = read.positive("length"), thickness = read.positive("thickness");
  Scene scene;
  scene.dt = kDt;
  scene.friction.mu = read.nonNegative("mu");
  scene.bodies.push_back(groundBox());
  BodyDesc mat = softBox(read, "mat", Vec3(length, 0.3 * length, thickness), Vec3(0, 0, 0.5 * thickness), kSoftPoisson);
  mat.deformable->dampingStiffness = read.nonNegative("damping_stiffness");
  scene.bodies.push_back(mat);
  BodyDesc ball = dynamicSphere("ball", radius, Vec3(-0.4 * length, 0, thickness + radius));
  ball.velocity = Vec3(speed, 0, 0);
  ball.angularVelocity = Vec3(0, speed / radius, 0);  // rolling: v + w x (-r z) = 0
  scene.bodies.push_back(ball);
  return scene;
}

}  // namespace contactlab::scenes::soft_bodies

namespace contactlab::scenes {

SceneEntry softBlockScene() {
  return {"soft-block",
          "soft FEM cube (nu 0.2, density 1000) dropped onto the ground; it lands, bulges and settles",
          {{"size", 0.2, "edge of the cube, m"},
           {"height", 0.1, "drop height of the cube's bottom face above the ground, m"},
           {"youngs_modulus", 5e5, "Young's modulus, Pa"},
           {"damping_stiffness", 0.01, "Rayleigh stiffness damping beta, s"},
           soft_bodies::tetsParam()},
          soft_bodies::buildSoftBlock};
}

SceneEntry cantileverScene() {
  return {"cantilever",
          "FEM beam pinned over one end face, bending under its own weight (nu 0, density 1000)",
          {{"length", 1, "beam length along x, m"},
           {"thickness", 0.1, "side of the beam's square section, m"},
           {"youngs_modulus", 1e6, "Young's modulus, Pa"},
           {"damping_mass", 2, "Rayleigh mass damping alpha, 1/s"},
           soft_bodies::tetsParam()},
          soft_bodies::buildCantilever};
}

SceneEntry hangingBarScene() {
  return {"hanging-bar",
          "0.1 m square FEM bar hanging from its pinned top face, stretching by rho g L^2 / (2 E) (nu 0)",
          {{"length", 1, "bar length, m"},
           {"youngs_modulus", 1e6, "Young's modulus, Pa"},
           {"damping_stiffness", 0.01, "Rayleigh stiffness damping beta, s"},
           soft_bodies::tetsParam()},
          soft_bodies::buildHangingBar};
}

SceneEntry softCubesScene() {
  return {"soft-cubes",
          "two soft FEM cubes (nu 0.2) colliding in zero gravity, one turned: they bounce apart",
          {{"size", 0.2, "edge of each cube, m"},
           {"gap", 0.05, "distance between them at the start, m"},
           {"speed", 1, "speed of each towards the other, m/s"},
           {"mu", 0, "friction coefficient"},
           {"youngs_modulus", 5e5, "Young's modulus, Pa"},
           soft_bodies::tetsParam()},
          soft_bodies::buildSoftCubes};
}

SceneEntry softSlabBoxesScene() {
  return {"soft-slab-boxes",
          "rigid boxes stacked on a soft FEM slab (nu 0.2) on the ground, solved in one system with it",
          {{"count", 3, "boxes in the stack"},
           {"box_size", 0.2, "edge of each box, m"},
           {"slab_size", 1, "side of the square slab, m"},
           {"thickness", 0.1, "thickness of the slab, m"},
           {"mu", 0.5, "friction coefficient"},
           {"youngs_modulus", 1e5, "Young's modulus of the slab, Pa"},
           {"damping_stiffness", 0.01, "Rayleigh stiffness damping beta of the slab, s"},
           {"tets", 600, "fewest tetrahedra: the largest one's volume is the slab's / tets"}},
          soft_bodies::buildSoftSlabBoxes};
}

SceneEntry ballOnMatScene() {
  return {"ball-on-mat",
          "rigid ball rolling along a soft FEM mat (nu 0.2) on the ground, denting it as it goes",
          {{"radius", 0.1, "radius of the ball, m"},
           {"speed", 1, "starting speed of the ball, rolling, m/s"},
           {"length", 2, "length of the mat along x (its width is 0.3 of it), m"},
           {"thickness", 0.05, "thickness of the mat, m"},
           {"mu", 0.5, "friction coefficient"},
           {"youngs_modulus", 1e5, "Young's modulus of the mat, Pa"},
           {"damping_stiffness", 0.01, "Rayleigh stiffness damping beta of the mat, s"},
           {"tets", 1000, "fewest tetrahedra: the largest one's volume is the mat's / tets"}},
          soft_bodies::buildBallOnMat};
}

SceneEntry softInclineScene() {
  return {"soft-incline",
          "soft FEM cube (nu 0.2) on a tilted static slope: sticks when mu > tan(angle), else slides",
          {{"angle_deg", 30, "slope angle in degrees"},
           {"mu", 0.7, "friction coefficient of block and slope"},
           {"size", 0.2, "edge of the cube, m"},
           {"youngs_modulus", 5e5, "Young's modulus, Pa"},
           {"damping_stiffness", 0.01, "Rayleigh stiffness damping beta, s"},
           soft_bodies::tetsParam()},
          soft_bodies::buildSoftIncline};
}

}  // namespace contactlab::scenes
