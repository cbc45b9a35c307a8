#include "io/fc3d_file.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace contactlab {
namespace {

// A token as a message quotes it: bytes outside printable ASCII as \xNN (a binary file's NUL would
// end the message where it stands), and a long one cut after 40 characters.
std::string quotedToken(std::string_view token) {
  std::string text = "\"";
  for (std::size_t i = 0; i < token.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      text += static_cast<char>(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
      text += escaped;
    }
  }
  return text + (token.size() > 40 ? "...\"" : "\"");
}

// Whitespace-separated tokens (FORMAT.md: fscanf semantics, newlines carry no meaning), each with
// the line it is on, for the messages.
class Tokens {
 public:
  Tokens(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw Fc3dFileError(name_ + ":" + std::to_string(line) + ": " + what);
  }

  // The next token; `item` names what it should be, for the message on a truncated file.
  std::string_view next(const std::string& item) {
    while (pos_ < text_.size() && isSpace(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= text_.size()) fail(line_, item + ": file ends here (truncated?)");
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !isSpace(text_[pos_])) ++pos_;
    tokenLine_ = line_;
    return text_.substr(start, pos_ - start);
  }

  long long integer(const std::string& item, long long minimum, long long maximum) {
    const std::string token(next(item));
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(token.c_str(), &end, 10);
    // Compared with the token's end, not its NUL: a binary file's token may hold a NUL inside it.
    if (end == token.c_str() || end != token.c_str() + token.size())
      fail(tokenLine_, item + ": " + quotedToken(token) + " is not a whole number");
    if (minimum == maximum && (errno == ERANGE || value != minimum))
      fail(tokenLine_, item + ": " + quotedToken(token) + " but expected " + std::to_string(minimum));
    if (errno == ERANGE || value < minimum || value > maximum)
      fail(tokenLine_, item + ": " + quotedToken(token) + " is out of range (" + std::to_string(minimum) + " to " +
                           std::to_string(maximum) + ")");
    return value;
  }

  double number(const std::string& item) {
    const std::string token(next(item));
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || end != token.c_str() + token.size())
      fail(tokenLine_, item + ": " + quotedToken(token) + " is not a number");
    if (!std::isfinite(value)) fail(tokenLine_, item + ": " + quotedToken(token) + " is not a finite number");
    return value;
  }

  int line() const { return tokenLine_; }
  // Fails, naming `item`, when the rest of the text cannot hold `count` more tokens (each takes at
  // least two characters with its separator): absurd sizes must not make the reader allocate for
  // them first. Small counts are left to the token-by-token reading, whose message is more precise.
  void expectTokens(long double count, const std::string& item) const {
    if (count > 4096 && count * 2 > static_cast<long double>(text_.size() - pos_) + 1)
      fail(tokenLine_, item + ": the file is too short for " + std::to_string(static_cast<long long>(count)) +
                           " more numbers (truncated?)");
  }

 private:
  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int tokenLine_ = 1;
};

std::string indexed(const char* name, long long i) { return std::string(name) + "[" + std::to_string(i) + "]"; }
std::string indexed(const char* name, long long i, long long j) {
  return std::string(name) + "(" + std::to_string(i) + "," + std::to_string(j) + ")";
}

// Large enough for any FC3D problem, small enough that n * n and the arrays cannot overflow.
constexpr long long kMaxContacts = 1'000'000;

// The 3x3 force blocks of W, by block row.
using Rows = std::vector<std::vector<DelassusBlockEntry>>;

Mat4 embed(const Mat3& force) {
  Mat4 block = Mat4::Zero();
  block.topLeftCorner<3, 3>() = force;
  return block;
}

Rows readDense(Tokens& in, long long n) {
  const long long rows = in.integer("dense W: repeated row count", n, n);
  const long long columns = in.integer("dense W: repeated column count", n, n);
  (void)rows;
  (void)columns;
  in.expectTokens(static_cast<long double>(n) * n, "dense W");
  Eigen::MatrixXd w(n, n);
  for (long long j = 0; j < n; ++j)  // column-major
    for (long long i = 0; i < n; ++i) w(i, j) = in.number(indexed("W", i, j));
  const long long contacts = n / 3;
  Rows out(contacts);
  for (long long k = 0; k < contacts; ++k)
    for (long long l = 0; l < contacts; ++l) {
      const Mat3 block = w.block<3, 3>(3 * k, 3 * l);
      if (k == l || !block.isZero(0.0)) out[k].push_back({static_cast<int>(l), embed(block)});
    }
  return out;
}

Rows readSparseBlock(Tokens& in, long long n, long long contacts) {
  const long long stored = in.integer("SBM: nbblocks", 0, contacts * contacts);
  in.expectTokens(10.0L * stored, "SBM: " + std::to_string(stored) + " blocks");
  Rows out(contacts);
  if (stored == 0) return out;
  const long long blockRows = in.integer("SBM: blocknumber0", contacts, contacts);
  const long long blockColumns = in.integer("SBM: blocknumber1", contacts, contacts);
  for (const char* name : {"blocksize0", "blocksize1"}) {
    const long long count = name[9] == '0' ? blockRows : blockColumns;
    for (long long i = 0; i < count; ++i) {
      // Cumulative offsets: every block is 3 wide (d = 3).
      const long long offset = in.integer(indexed(name, i), 0, n);
      if (offset != 3 * (i + 1))
        in.fail(in.line(), indexed(name, i) + " = " + std::to_string(offset) + ": blocks must be 3x3 (expected " +
                               std::to_string(3 * (i + 1)) + ")");
    }
  }
  const long long filled1 = in.integer("SBM: filled1", 1, blockRows + 1);
  in.integer("SBM: filled2", stored, stored);
  std::vector<long long> rowPointer(filled1);
  for (long long i = 0; i < filled1; ++i) {
    rowPointer[i] = in.integer(indexed("index1_data", i), i == 0 ? 0 : rowPointer[i - 1], stored);
    if (i == 0 && rowPointer[0] != 0) in.fail(in.line(), "index1_data[0] must be 0");
  }
  if (rowPointer.back() != stored)
    in.fail(in.line(), "index1_data[" + std::to_string(filled1 - 1) + "] = " + std::to_string(rowPointer.back()) +
                           " but nbblocks = " + std::to_string(stored));
  std::vector<long long> column(stored);
  for (long long b = 0; b < stored; ++b) column[b] = in.integer(indexed("index2_data", b), 0, blockColumns - 1);
  for (long long row = 0; row + 1 < filled1; ++row)
    for (long long b = rowPointer[row]; b < rowPointer[row + 1]; ++b) {
      // Siconos only warns about a wrong running number; so do we not insist (but it must be one).
      in.integer("SBM: block number " + std::to_string(b), std::numeric_limits<long long>::min(),
                 std::numeric_limits<long long>::max());
      Mat3 block;
      for (int i = 0; i < 9; ++i)
        block(i % 3, i / 3) = in.number("block " + std::to_string(b) + " " + indexed("x", i));
      out[row].push_back({static_cast<int>(column[b]), embed(block)});
    }
  return out;
}

}  // namespace

DelassusProblem parseFc3d(std::string_view text, const std::string& name) {
  Tokens in(text, name);
  const long long d = in.integer("d (space dimension)", std::numeric_limits<long long>::min(),
                                 std::numeric_limits<long long>::max());
  if (d != 3) in.fail(in.line(), "d = " + std::to_string(d) + ": only 3D problems (d = 3) are supported");
  const long long contacts = in.integer("nc (number of contacts)", 0, kMaxContacts);
  const long long n = 3 * contacts;
  in.expectTokens(4.0L * contacts, "nc = " + std::to_string(contacts));  // q and mu at least
  const long long storage = in.integer("W: storage type", 0, 2);
  if (storage == 2)
    in.fail(in.line(), "W: storage type 2 (CSparse) is not supported; only 0 (dense) and 1 (sparse block)");
  in.integer("W: size0 (rows, 3 nc)", n, n);
  in.integer("W: size1 (columns, 3 nc)", n, n);
  Rows rows = storage == 0 ? readDense(in, n) : readSparseBlock(in, n, contacts);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(4 * contacts);
  std::vector<Vec3> friction(contacts);
  for (long long i = 0; i < n; ++i) q[4 * (i / 3) + i % 3] = in.number(indexed("q", i));
  for (long long k = 0; k < contacts; ++k) {
    const double mu = in.number(indexed("mu", k));
    if (mu < 0.0) in.fail(in.line(), indexed("mu", k) + " = " + std::to_string(mu) + " is negative");
    friction[k] = Vec3(mu, mu, 0.0);
  }
  // The decoupled torsion row (delassus_problem.h).
  for (long long k = 0; k < contacts; ++k) {
    Mat4 unit = Mat4::Zero();
    unit(3, 3) = 1.0;
    rows[k].push_back({static_cast<int>(k), unit});
  }
  DelassusProblem problem = makeDelassusProblem(std::move(rows), std::move(q), std::move(friction));
  // W = H M^-1 H^T of bodies with mass has a positive diagonal: a contact's normal and tangent
  // directions each move under their own impulse. A zero or negative entry is no Delassus operator,
  // and every solver divides by these entries (the r-factors, the local solves).
  static constexpr const char* kRowNames[3] = {"normal", "first tangent", "second tangent"};
  for (long long k = 0; k < contacts; ++k) {
    const Mat4& block = problem.blocks[problem.diagonalIndex[k]];
    for (int i = 0; i < 3; ++i) {
      if (block(i, i) > 0.0) continue;
      char value[32];
      std::snprintf(value, sizeof value, "%g", block(i, i));
      const std::string row = std::to_string(3 * k + i);
      throw Fc3dFileError(name + ": contact " + std::to_string(k) + ": W(" + row + "," + row + "), the diagonal entry of its " +
                          kRowNames[i] + " row, is " + value +
                          "; a Delassus operator's diagonal is positive (a massless body, or a wrong W?)");
    }
  }
  return problem;
}

DelassusProblem readFc3dFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw Fc3dFileError(path + ": is a directory, not a problem file");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Fc3dFileError(path + ": cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  return parseFc3d(text.str(), path);
}

std::string formatFc3d(const DelassusProblem& p) {
  const int contacts = p.numContacts();
  std::string out;
  char buffer[64];
  const auto line = [&](const std::string& s) { out += s + "\n"; };
  const auto number = [&](double x) {
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return std::string(buffer);
  };
  line("3");
  line(std::to_string(contacts));
  line("1");
  line(std::to_string(3 * contacts));
  line(std::to_string(3 * contacts));
  line(std::to_string(p.blocks.size()));
  if (!p.blocks.empty()) {
    line(std::to_string(contacts));
    line(std::to_string(contacts));
    std::string offsets;
    for (int k = 0; k < contacts; ++k) offsets += std::to_string(3 * (k + 1)) + "\t";
    line(offsets);
    line(offsets);
    line(std::to_string(contacts + 1));
    line(std::to_string(p.blocks.size()));
    std::string pointers, columns;
    for (const int start : p.rowStart) pointers += std::to_string(start) + "\t";
    for (const int column : p.blockColumn) columns += std::to_string(column) + "\t";
    line(pointers);
    line(columns);
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      line(std::to_string(b));
      for (int i = 0; i < 9; ++i) line(number(p.blocks[b](i % 3, i / 3)));
    }
  }
  for (int k = 0; k < contacts; ++k)
    for (int i = 0; i < 3; ++i) line(number(p.q[4 * k + i]));
  for (int k = 0; k < contacts; ++k) {
    if (p.friction[k][0] != p.friction[k][1])
      throw std::invalid_argument("FC3D file: contact " + std::to_string(k) +
                                  " has anisotropic friction, which the format cannot hold");
    line(number(p.friction[k][0]));
  }
  return out;
}

void writeFc3dFile(const DelassusProblem& problem, const std::string& path) {
  const std::string text = formatFc3d(problem);
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot write the file");
  file << text;
  if (!file.flush()) throw std::runtime_error(path + ": writing failed");
}

}  // namespace contactlab
