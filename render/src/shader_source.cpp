#include "contactlab/render/shader_source.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace contactlab::render {

std::optional<std::string> readShaderSource(const std::string& path, std::string& source) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return path + ": cannot open file";
  std::ifstream file(path, std::ios::binary);
  if (!file) return path + ": cannot open file";
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return path + ": read error";
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos) return path + ": file is empty";
  source = text.str();
  return std::nullopt;
}

std::string withDefines(const std::string& source, const std::string& defines) {
  if (defines.empty()) return source;
  // "#line 2" after the defines numbers the file's second line 2 again (GLSL 3.30 sec. 3.3), so
  // compile errors point at the lines of the file as written.
  const std::size_t lineEnd = source.find('\n');
  if (lineEnd == std::string::npos) return source + "\n" + defines;
  return source.substr(0, lineEnd + 1) + defines + "#line 2\n" + source.substr(lineEnd + 1);
}

}  // namespace contactlab::render
