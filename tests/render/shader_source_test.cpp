#include "contactlab/render/shader_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "contactlab/render/renderer.h"

namespace contactlab::render {
namespace {

// An empty directory for one test, removed when the test ends.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& name)
      // Per process: another build's test binary may be running the same test right now.
      : path_(std::filesystem::temp_directory_path() / ("contactlab_render_" + name + "_" + std::to_string(getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(ShaderSource, MissingFileNamesThePath) {
  const ScratchDirectory scratch("missing");
  const std::string path = (scratch.path() / "body.vert").string();
  std::string source = "untouched";
  const auto error = readShaderSource(path, source);
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, path + ": cannot open file");
  EXPECT_EQ(source, "untouched");
}

TEST(ShaderSource, DirectoryAndEmptyFileAreErrors) {
  const ScratchDirectory scratch("empty");
  const auto& directory = scratch.path();
  std::string source;
  const auto directoryError = readShaderSource(directory.string(), source);
  ASSERT_TRUE(directoryError);
  EXPECT_NE(directoryError->find("cannot open file"), std::string::npos);
  const std::string path = (directory / "line.frag").string();
  std::ofstream(path) << "  \n\n";
  const auto emptyError = readShaderSource(path, source);
  ASSERT_TRUE(emptyError);
  EXPECT_EQ(*emptyError, path + ": file is empty");
}

TEST(ShaderSource, ReadsTheFileVerbatim) {
  const ScratchDirectory scratch("verbatim");
  const std::string path = (scratch.path() / "x.frag").string();
  const std::string text = "#version 330 core\nvoid main() {}\n";
  std::ofstream(path) << text;
  std::string source;
  EXPECT_FALSE(readShaderSource(path, source));
  EXPECT_EQ(source, text);
}

TEST(ShaderSource, EveryProgramTheRendererLoadsHasBothStagesInTheSourceTree) {
  for (const char* name : kShaderProgramNames) {
    for (const char* stage : {".vert", ".frag"}) {
      std::string source;
      const auto error = readShaderSource(std::string(CONTACTLAB_SHADER_DIR) + "/" + name + stage, source);
      EXPECT_FALSE(error) << *error;
      EXPECT_EQ(source.rfind("#version 330 core", 0), 0u) << name << stage;
    }
  }
}

TEST(ShaderSource, DefinesGoRightAfterTheVersionLine) {
  EXPECT_EQ(withDefines("#version 330 core\nvoid main() {}\n", "#define A 1\n"),
            "#version 330 core\n#define A 1\n#line 2\nvoid main() {}\n");
  EXPECT_EQ(withDefines("#version 330 core\nvoid main() {}\n", ""), "#version 330 core\nvoid main() {}\n");
}

}  // namespace
}  // namespace contactlab::render
