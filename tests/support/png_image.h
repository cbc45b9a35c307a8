#pragma once
// Reads a PNG back for the tests that check written images (libpng's simplified API).
#include <png.h>

#include <cstdint>
#include <string>
#include <vector>

namespace contactlab::test {

struct PngImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // rows top to bottom; empty if the file could not be read
};

inline PngImage readPng(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  PngImage decoded;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return decoded;
  image.format = PNG_FORMAT_RGB;
  decoded.width = static_cast<int>(image.width);
  decoded.height = static_cast<int>(image.height);
  decoded.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, decoded.rgb.data(), 0, nullptr)) decoded.rgb.clear();
  return decoded;
}

}  // namespace contactlab::test
