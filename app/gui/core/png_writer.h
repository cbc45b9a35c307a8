#pragma once
// Screenshots: an RGB8 image written as a PNG file with libpng.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace contactlab::app {

// rgbTopDown holds width*height*3 bytes, rows from top to bottom. Returns an error naming the path.
std::optional<std::string> writePng(const std::string& path, int width, int height,
                                    const std::vector<std::uint8_t>& rgbTopDown);

}  // namespace contactlab::app
