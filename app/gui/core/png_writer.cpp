#include "core/png_writer.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

namespace contactlab::app {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// libpng reports errors through a callback that must not return; we keep its message and longjmp
// back into writePng. The sink lives on the heap so that nothing on writePng's stack changes
// between setjmp and longjmp.
struct PngErrorSink {
  std::string message;
};

void onPngError(png_structp png, png_const_charp message) {
  auto* sink = static_cast<PngErrorSink*>(png_get_error_ptr(png));
  sink->message = message;
  png_longjmp(png, 1);
}

void onPngWarning(png_structp, png_const_charp) {}

}  // namespace

std::optional<std::string> writePng(const std::string& path, int width, int height,
                                    const std::vector<std::uint8_t>& rgbTopDown) {
  if (width <= 0 || height <= 0)
    return path + ": cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " image";
  const std::size_t rowBytes = static_cast<std::size_t>(width) * 3;
  if (rgbTopDown.size() != rowBytes * static_cast<std::size_t>(height))
    return path + ": image data has " + std::to_string(rgbTopDown.size()) + " bytes, expected " +
           std::to_string(rowBytes * static_cast<std::size_t>(height)) + " for " + std::to_string(width) +
           "x" + std::to_string(height) + " RGB";

  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (!file) return path + ": cannot open for writing: " + std::strerror(errno);

  const auto sink = std::make_unique<PngErrorSink>();
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink.get(), onPngError, onPngWarning);
  if (!png) return path + ": cannot initialise libpng";
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return path + ": cannot initialise libpng";
  }
  std::vector<png_const_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) rows[static_cast<std::size_t>(y)] = rgbTopDown.data() + rowBytes * static_cast<std::size_t>(y);

  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return path + ": PNG write failed: " + sink->message;
  }
  png_init_io(png, file.get());
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, const_cast<png_bytepp>(rows.data()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);

  // A full disk shows up only when the buffered data is flushed.
  std::FILE* raw = file.release();
  if (std::fclose(raw) != 0) return path + ": cannot finish writing: " + std::strerror(errno);
  return std::nullopt;
}

}  // namespace contactlab::app
