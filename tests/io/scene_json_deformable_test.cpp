// The "deformable" object of a scene body: every key, the defaults, each error with its key path, and
// the round trip through the writer.
#include <gtest/gtest.h>

#include <string>

#include "contactlab/scene.h"

namespace contactlab {
namespace scene_json_deformable_test {

// The error message of parsing `text`, or "no error".
std::string errorOf(const std::string& text) {
  try {
    parseSceneJson(text, "soft.json");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// A scene of one dynamic sphere whose "deformable" value is `deformable` and whose other extra keys
// are `extraKeys`, e.g. R"("static": true)".
std::string sphereWith(const std::string& deformable, const std::string& extraKeys = "") {
  return R"({"bodies": [{"shape": "sphere", "radius": 0.5, "position": [0, 0, 1], )" +
         (extraKeys.empty() ? "" : extraKeys + ", ") + R"("deformable": )" + deformable + "}]}";
}

void expectSameDeformable(const DeformableDesc& a, const DeformableDesc& b) {
  EXPECT_EQ(a.model, b.model);
  EXPECT_EQ(a.youngsModulus, b.youngsModulus);
  EXPECT_EQ(a.poissonRatio, b.poissonRatio);
  EXPECT_EQ(a.dampingMass, b.dampingMass);
  EXPECT_EQ(a.dampingStiffness, b.dampingStiffness);
  EXPECT_EQ(a.maxTetVolume, b.maxTetVolume);
  EXPECT_EQ(a.selfCollision, b.selfCollision);
  ASSERT_EQ(a.pinned.has_value(), b.pinned.has_value());
  if (a.pinned) {
    EXPECT_EQ(a.pinned->min, b.pinned->min);
    EXPECT_EQ(a.pinned->max, b.pinned->max);
  }
}

TEST(SceneJsonDeformable, ReadsEveryKey) {
  const Scene scene = parseSceneJson(sphereWith(R"({"model": "neo-hookean", "youngs_modulus": 2.5e6,
      "poisson_ratio": 0.45, "damping": [0.1, 0.002], "max_tet_volume": 1e-5,
      "pinned": {"min": [-1, -1, 0.5], "max": [1, 1, 2]}, "self_collision": true})"),
                                     "soft.json");
  ASSERT_EQ(scene.bodies.size(), 1u);
  ASSERT_TRUE(scene.bodies[0].deformable.has_value());
  const DeformableDesc& d = *scene.bodies[0].deformable;
  EXPECT_EQ(d.model, DeformableModel::NeoHookean);
  EXPECT_EQ(d.youngsModulus, 2.5e6);
  EXPECT_EQ(d.poissonRatio, 0.45);
  EXPECT_EQ(d.dampingMass, 0.1);
  EXPECT_EQ(d.dampingStiffness, 0.002);
  EXPECT_EQ(d.maxTetVolume, 1e-5);
  ASSERT_TRUE(d.pinned.has_value());
  EXPECT_EQ(d.pinned->min, Vec3(-1, -1, 0.5));
  EXPECT_EQ(d.pinned->max, Vec3(1, 1, 2));
  EXPECT_TRUE(d.selfCollision);
  // The rigid keys keep their meaning.
  EXPECT_EQ(scene.bodies[0].motion, MotionType::Dynamic);
  EXPECT_EQ(scene.bodies[0].position, Vec3(0, 0, 1));
}

TEST(SceneJsonDeformable, AnEmptyObjectTakesTheDefaults) {
  const Scene scene = parseSceneJson(sphereWith("{}"), "soft.json");
  ASSERT_TRUE(scene.bodies[0].deformable.has_value());
  expectSameDeformable(*scene.bodies[0].deformable, DeformableDesc{});
  const DeformableDesc& d = *scene.bodies[0].deformable;
  EXPECT_EQ(d.model, DeformableModel::Corotational);
  EXPECT_FALSE(d.maxTetVolume.has_value());
  EXPECT_FALSE(d.pinned.has_value());
}

TEST(SceneJsonDeformable, EachKeyAloneLeavesTheOthersAtTheirDefaults) {
  const DeformableDesc defaults;
  const DeformableDesc model =
      *parseSceneJson(sphereWith(R"({"model": "corotational"})"), "t").bodies[0].deformable;
  EXPECT_EQ(model.model, DeformableModel::Corotational);
  EXPECT_EQ(model.youngsModulus, defaults.youngsModulus);
  const DeformableDesc ratio = *parseSceneJson(sphereWith(R"({"poisson_ratio": -0.5})"), "t").bodies[0].deformable;
  EXPECT_EQ(ratio.poissonRatio, -0.5);
  EXPECT_EQ(ratio.youngsModulus, defaults.youngsModulus);
  EXPECT_EQ(ratio.dampingMass, defaults.dampingMass);
  // A pinned box may be flat: the nodes on one face.
  const DeformableDesc flat =
      *parseSceneJson(sphereWith(R"({"pinned": {"min": [-1, -1, 0.5], "max": [1, 1, 0.5]}})"), "t")
           .bodies[0]
           .deformable;
  ASSERT_TRUE(flat.pinned.has_value());
  EXPECT_EQ(flat.pinned->min.z(), flat.pinned->max.z());
  EXPECT_FALSE(flat.maxTetVolume.has_value());
}

TEST(SceneJsonDeformable, BodiesWithoutTheKeyStayRigid) {
  const Scene scene = parseSceneJson(R"({"bodies": [{"shape": "box", "size": [1, 1, 1], "position": [0, 0, 0]}]})", "t");
  EXPECT_FALSE(scene.bodies[0].deformable.has_value());
  EXPECT_EQ(sceneToJson(scene).find("deformable"), std::string::npos);
}

TEST(SceneJsonDeformable, EverySolidShapeMayBeDeformable) {
  const Scene scene = parseSceneJson(R"({"bodies": [
      {"shape": "box", "size": [1, 1, 1], "position": [0, 0, 0], "deformable": {}},
      {"shape": "capsule", "radius": 0.2, "length": 1, "position": [0, 0, 2], "deformable": {}},
      {"shape": "mesh", "mesh": "cube", "position": [0, 0, 4], "deformable": {"youngs_modulus": 1e6}}]})",
                                     "t");
  for (const BodyDesc& body : scene.bodies) EXPECT_TRUE(body.deformable.has_value());
  EXPECT_EQ(scene.bodies[2].deformable->youngsModulus, 1e6);
}

struct BadCase {
  std::string text;
  std::string mustMention;
};

TEST(SceneJsonDeformable, EachErrorNamesItsKeyPath) {
  const std::string plane = R"({"bodies": [{"shape": "box", "size": [1, 1, 1], "position": [0, 0, 0]},
      {"shape": "plane", "normal": [0, 0, 1], "offset": 0, "deformable": {}}]})";
  const BadCase cases[] = {
      {sphereWith(R"({"colour": "red"})"), "bodies[0].deformable.colour: unknown key (allowed here: model,"},
      {sphereWith(R"({"Model": "corotational"})"), "bodies[0].deformable.Model: unknown key"},
      {sphereWith(R"({"pinned": {"min": [0, 0, 0], "max": [1, 1, 1], "mid": [0, 0, 0]}})"),
       "bodies[0].deformable.pinned.mid: unknown key (allowed here: min, max)"},
      {sphereWith("true"), "bodies[0].deformable: expected an object, got boolean"},
      {sphereWith("[]"), "bodies[0].deformable: expected an object, got array"},
      {sphereWith(R"({"model": "linear"})"),
       "bodies[0].deformable.model: unknown model \"linear\" (expected corotational or neo-hookean)"},
      {sphereWith(R"({"model": 1})"), "bodies[0].deformable.model: expected a string, got number"},
      {sphereWith(R"({"model": null})"), "bodies[0].deformable.model: expected a string, got null"},
      {sphereWith(R"({"youngs_modulus": 0})"), "bodies[0].deformable.youngs_modulus: must be positive, got 0"},
      {sphereWith(R"({"youngs_modulus": -5e5})"), "bodies[0].deformable.youngs_modulus: must be positive"},
      {sphereWith(R"({"youngs_modulus": "stiff"})"), "bodies[0].deformable.youngs_modulus: expected a number"},
      {sphereWith(R"({"poisson_ratio": 0.5})"),
       "bodies[0].deformable.poisson_ratio: must lie strictly between -1 and 0.5, got 0.5"},
      {sphereWith(R"({"poisson_ratio": 0.7})"), "bodies[0].deformable.poisson_ratio: must lie strictly between"},
      {sphereWith(R"({"poisson_ratio": -1})"), "bodies[0].deformable.poisson_ratio: must lie strictly between"},
      {sphereWith(R"({"poisson_ratio": -3})"), "bodies[0].deformable.poisson_ratio: must lie strictly between"},
      {sphereWith(R"({"damping": 0.1})"), "bodies[0].deformable.damping: expected [alpha, beta], two non-negative"},
      {sphereWith(R"({"damping": [0.1]})"), "bodies[0].deformable.damping: expected [alpha, beta]"},
      {sphereWith(R"({"damping": [0, 0, 0]})"), "bodies[0].deformable.damping: expected [alpha, beta]"},
      {sphereWith(R"({"damping": [-0.1, 0]})"), "bodies[0].deformable.damping[0]: must not be negative"},
      {sphereWith(R"({"damping": [0, -1e-3]})"), "bodies[0].deformable.damping[1]: must not be negative"},
      {sphereWith(R"({"damping": [0, "none"]})"), "bodies[0].deformable.damping[1]: expected a number"},
      {sphereWith(R"({"max_tet_volume": 0})"), "bodies[0].deformable.max_tet_volume: must be positive"},
      {sphereWith(R"({"self_collision": 1})"), "bodies[0].deformable.self_collision: expected true or false"},
      {sphereWith(R"({"max_tet_volume": -1e-5})"), "bodies[0].deformable.max_tet_volume: must be positive"},
      {sphereWith(R"({"pinned": {"max": [1, 1, 1]}})"), "bodies[0].deformable.pinned.min: missing"},
      {sphereWith(R"({"pinned": {"min": [0, 0, 0]}})"), "bodies[0].deformable.pinned.max: missing"},
      {sphereWith(R"({"pinned": [0, 0, 0]})"), "bodies[0].deformable.pinned: expected an object"},
      {sphereWith(R"({"pinned": {"min": [0, 0], "max": [1, 1, 1]}})"),
       "bodies[0].deformable.pinned.min: expected an array of 3 numbers"},
      {sphereWith(R"({"pinned": {"min": [0, 2, 0], "max": [1, 1, 1]}})"),
       "bodies[0].deformable.pinned.min[1]: must not exceed max[1], got 2 > 1"},
      {sphereWith(R"({"pinned": {"min": [0, 0, 0], "max": [1, 1, -0.5]}})"),
       "bodies[0].deformable.pinned.min[2]: must not exceed max[2]"},
      {sphereWith("{}", R"("static": true)"),
       "bodies[0].deformable: only a dynamic body can be deformable, this one is static"},
      {sphereWith("{}", R"("kinematic": true)"),
       "bodies[0].deformable: only a dynamic body can be deformable, this one is kinematic"},
      {plane, "bodies[1].deformable: a plane is a static half-space and cannot be deformable"},
      {sphereWith(R"({"model": "corotational", "model": "neo-hookean"})"), "bodies[0].deformable.model: duplicate key"},
      // JSON has no NaN or infinity; an overflowing number is caught by the parser with its path.
      {sphereWith(R"({"youngs_modulus": 1e999})"), "bodies[0].deformable.youngs_modulus: number overflow"},
      {sphereWith(R"({"pinned": {"min": [0, 0, -1e999], "max": [1, 1, 1]}})"),
       "bodies[0].deformable.pinned.min[2]: number overflow"},
      {sphereWith(R"({"poisson_ratio": NaN})"), "invalid JSON"},
      {sphereWith(R"({"damping": [Infinity, 0]})"), "invalid JSON"},
  };
  EXPECT_TRUE(errorOf(sphereWith(R"({"model": null})")).ends_with("got null"));  // not "null null"
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = errorOf(c.text);
    EXPECT_TRUE(message.starts_with("soft.json: ")) << message;
    EXPECT_NE(message.find(c.mustMention), std::string::npos) << message;
  }
}

Scene deformableScene() {
  Scene scene;
  BodyDesc full;
  full.name = "full";
  full.shape = BoxShape{Vec3(0.5, 0.25, 0.125)};
  full.position = Vec3(0, 0, 1);
  full.density = 1100.0;
  DeformableDesc every;
  every.model = DeformableModel::NeoHookean;
  every.youngsModulus = 1.0 / 3.0 * 1e6;
  every.poissonRatio = 0.49;
  every.dampingMass = 0.1;
  every.dampingStiffness = 1.0 / 7.0 * 1e-3;
  every.maxTetVolume = 2.5e-6;
  every.pinned = DeformableDesc::Box{Vec3(-1, -1.0 / 3.0, 0.5), Vec3(1, 1, 0.75)};
  full.deformable = every;
  BodyDesc plain;
  plain.name = "plain";
  plain.shape = SphereShape{0.3};
  plain.position = Vec3(2, 0, 1);
  plain.mass = 2.0;
  plain.deformable = DeformableDesc{};
  BodyDesc rigid;
  rigid.name = "rigid";
  rigid.shape = CapsuleShape{0.1, 0.2};
  rigid.position = Vec3(-2, 0, 1);
  rigid.density = kDefaultDensity;
  scene.bodies = {full, plain, rigid};
  return scene;
}

TEST(SceneJsonDeformable, RoundTripsThroughTheWriter) {
  const Scene original = deformableScene();
  const Scene copy = parseSceneJson(sceneToJson(original), "saved.json");
  ASSERT_EQ(copy.bodies.size(), original.bodies.size());
  for (std::size_t i = 0; i < copy.bodies.size(); ++i) {
    SCOPED_TRACE(original.bodies[i].name);
    ASSERT_EQ(copy.bodies[i].deformable.has_value(), original.bodies[i].deformable.has_value());
    if (original.bodies[i].deformable) expectSameDeformable(*copy.bodies[i].deformable, *original.bodies[i].deformable);
  }
  // A second trip changes nothing: the text is a fixed point.
  EXPECT_EQ(sceneToJson(copy), sceneToJson(original));
}

TEST(SceneJsonDeformable, ReadWriteReadKeepsAFileAsWritten) {
  const Scene first = parseSceneJson(sphereWith(R"({"model": "neo-hookean", "poisson_ratio": 0.3,
      "pinned": {"min": [-0.5, -0.5, 0.4], "max": [0.5, 0.5, 0.6]}, "self_collision": true})"),
                                     "soft.json");
  const std::string saved = sceneToJson(first);
  const Scene second = parseSceneJson(saved, "saved.json");
  ASSERT_TRUE(second.bodies[0].deformable.has_value());
  expectSameDeformable(*second.bodies[0].deformable, *first.bodies[0].deformable);
  // Unset max_tet_volume stays unset rather than becoming a fixed number.
  EXPECT_EQ(saved.find("max_tet_volume"), std::string::npos);
  EXPECT_NE(saved.find(R"("model":"neo-hookean")"), std::string::npos) << saved;
  EXPECT_NE(saved.find(R"("self_collision":true)"), std::string::npos) << saved;
}

}  // namespace scene_json_deformable_test
}  // namespace contactlab
