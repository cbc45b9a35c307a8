#pragma once
// A CSV file written row by row: integers as integers, doubles as the shortest text that reads back
// to the same double (std::to_chars), so runs can be compared bit for bit from their files.
#include <charconv>
#include <concepts>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

class CsvWriter {
 public:
  // Writes the header row; throws std::runtime_error naming the file if it cannot be opened.
  CsvWriter(const std::string& path, const std::vector<std::string_view>& header);

  template <std::integral T>
  CsvWriter& field(T value) {
    char text[24];
    return raw(std::string_view(text, std::to_chars(text, text + sizeof text, value).ptr));
  }
  CsvWriter& field(double value);
  CsvWriter& field(std::string_view text);  // written as is: callers pass names without commas
  // Ends the row; throws std::logic_error if it does not have one field per header column.
  void endRow();
  // Flushes and throws std::runtime_error naming the file if anything failed to be written.
  void close();

 private:
  CsvWriter& raw(std::string_view text);
  std::string path_;
  std::ofstream out_;
  std::size_t columns_;
  std::size_t fieldsInRow_ = 0;
  std::string row_;
};

}  // namespace contactlab
