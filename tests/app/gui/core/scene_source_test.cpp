#include "core/scene_source.h"

#include <gtest/gtest.h>

#include <string>

namespace contactlab::app {
namespace {

TEST(SceneSource, BuiltinLabelListsItsParameterOverrides) {
  EXPECT_EQ(SceneSource::builtin("tower").label(), "tower");
  EXPECT_EQ(SceneSource::builtin("pile", {{"count", 500}}).label(), "pile (count=500)");
}

TEST(SceneSource, FileLabelIsTheFileName) {
  const SceneSource source = SceneSource::file("/some/folder/my_scene.json");
  EXPECT_TRUE(source.isFile());
  EXPECT_TRUE(source.builtinName.empty());
  EXPECT_EQ(source.label(), "my_scene.json");
}

TEST(SceneSource, BuildsTheBuiltinSceneWithItsParameters) {
  const Scene small = SceneSource::builtin("pile", {{"count", 10}}).build();
  const Scene large = SceneSource::builtin("pile", {{"count", 20}}).build();
  EXPECT_EQ(large.bodies.size() - small.bodies.size(), 10u);
}

TEST(SceneSource, BuildsAFile) {
  const Scene scene = SceneSource::file(std::string(CONTACTLAB_TEST_DATA) + "/scenes/issue_example.json").build();
  EXPECT_FALSE(scene.bodies.empty());
}

TEST(SceneSource, UnknownBuiltinAndMissingFileThrowNamingThem) {
  try {
    SceneSource::builtin("no_such_scene").build();
    FAIL() << "expected SceneError";
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find("no_such_scene"), std::string::npos) << error.what();
  }
  try {
    SceneSource::file("/missing/scene.json").build();
    FAIL() << "expected SceneError";
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find("/missing/scene.json"), std::string::npos) << error.what();
  }
}

TEST(SceneSource, EmptySourceThrows) { EXPECT_THROW(SceneSource{}.build(), SceneError); }

}  // namespace
}  // namespace contactlab::app
