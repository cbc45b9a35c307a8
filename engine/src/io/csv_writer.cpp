#include "io/csv_writer.h"

#include <stdexcept>

namespace contactlab {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string_view>& header)
    : path_(path), out_(path, std::ios::binary | std::ios::trunc), columns_(header.size()) {
  if (!out_) throw std::runtime_error(path + ": cannot be opened for writing");
  for (std::string_view name : header) field(name);
  endRow();
}

CsvWriter& CsvWriter::field(double value) {
  char text[32];  // the longest shortest-round-trip double is 24 characters
  return raw(std::string_view(text, std::to_chars(text, text + sizeof text, value).ptr));
}

CsvWriter& CsvWriter::field(std::string_view text) { return raw(text); }

CsvWriter& CsvWriter::raw(std::string_view text) {
  if (fieldsInRow_++ > 0) row_ += ',';
  row_ += text;
  return *this;
}

void CsvWriter::endRow() {
  if (fieldsInRow_ != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(fieldsInRow_) + " fields for " +
                           std::to_string(columns_) + " columns");
  row_ += '\n';
  out_ << row_;
  row_.clear();
  fieldsInRow_ = 0;
}

void CsvWriter::close() {
  out_.close();
  if (!out_) throw std::runtime_error(path_ + ": write failed");
}

}  // namespace contactlab
