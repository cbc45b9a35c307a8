#pragma once
// Reading GLSL files (GL-free, so the error messages can be tested without a context).
#include <optional>
#include <string>

namespace contactlab::render {

// Reads the file into source. Returns the error instead, naming the path:
// "<path>: cannot open file" or "<path>: file is empty".
std::optional<std::string> readShaderSource(const std::string& path, std::string& source);

}  // namespace contactlab::render
