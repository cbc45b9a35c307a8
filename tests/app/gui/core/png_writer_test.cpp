#include "core/png_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/temporary_directory.h"

namespace contactlab::app {
namespace {

using test::readPng;

TEST(PngWriter, WrittenPixelsReadBackUnchanged) {
  const int width = 7, height = 5;  // odd sizes: no row padding assumptions
  std::vector<std::uint8_t> rgb(width * height * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>((i * 37 + 11) % 256);
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "roundtrip.png").string();
  ASSERT_EQ(writePng(path, width, height, rgb), std::nullopt);

  const test::PngImage decoded = readPng(path);
  EXPECT_EQ(decoded.width, width);
  EXPECT_EQ(decoded.height, height);
  EXPECT_EQ(decoded.rgb, rgb);
}

TEST(PngWriter, FirstRowIsTheTopOfTheImage) {
  // 1x2: a red top row and a blue bottom row.
  const std::vector<std::uint8_t> rgb = {255, 0, 0, 0, 0, 255};
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "orientation.png").string();
  ASSERT_EQ(writePng(path, 1, 2, rgb), std::nullopt);
  const test::PngImage decoded = readPng(path);
  ASSERT_EQ(decoded.rgb.size(), 6u);
  EXPECT_EQ(decoded.rgb[0], 255);  // red first
  EXPECT_EQ(decoded.rgb[5], 255);  // blue last
}

TEST(PngWriter, UnwritablePathGivesAnErrorNamingIt) {
  const std::string path = "/nonexistent_contactlab_dir/shot.png";
  const auto error = writePng(path, 2, 2, std::vector<std::uint8_t>(12, 0));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(path), std::string::npos) << *error;
}

TEST(PngWriter, WrongBufferSizeIsRejectedWithoutWriting) {
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "short.png").string();
  const auto error = writePng(path, 4, 4, std::vector<std::uint8_t>(10, 0));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(path), std::string::npos) << *error;
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(PngWriter, NonPositiveSizeIsRejected) {
  const test::TemporaryDirectory scratch;
  const auto error = writePng((scratch.path() / "empty.png").string(), 0, 3, {});
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("0x3"), std::string::npos) << *error;
}

}  // namespace
}  // namespace contactlab::app
