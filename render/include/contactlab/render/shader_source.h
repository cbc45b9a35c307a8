#pragma once
// Reading GLSL files (GL-free, so the error messages can be tested without a context).
#include <optional>
#include <string>

namespace contactlab::render {

// Reads the file into source. Returns the error instead, naming the path:
// "<path>: cannot open file" or "<path>: file is empty".
std::optional<std::string> readShaderSource(const std::string& path, std::string& source);

// The source with `defines` inserted after its first line (the #version line, which must come
// first), followed by a #line directive so that compile errors report the file's own line numbers.
std::string withDefines(const std::string& source, const std::string& defines);

}  // namespace contactlab::render
