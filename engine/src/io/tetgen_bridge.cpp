#include "io/tetgen_bridge.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>

#include "geometry/mesh_mass_properties.h"

extern char** environ;

namespace contactlab {
namespace fs = std::filesystem;
namespace {

// FNV-1a, 64 bit: a stable hash of bytes for cache keys and entry checksums.
class Fnv1a {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) hash_ = (hash_ ^ bytes[i]) * 1099511628211ull;
  }
  template <class T>
  void addValue(const T& value) { add(&value, sizeof(T)); }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

std::string readWholeFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Identifies the tetgen build: the executable's bytes and the libtet version it links against
// (Debian's tetgen is a small front end to libtet.so.1.5), so an upgrade invalidates the cache.
std::uint64_t tetgenIdentity(const std::string& executable) {
  const std::string binary = readWholeFile(executable);
  Fnv1a hash;
  hash.add(binary.data(), binary.size());
  if (const std::size_t at = binary.find("libtet.so."); at != std::string::npos) {
    const std::string soname = binary.substr(at, binary.find('\0', at) - at);
    hash.add(soname.data(), soname.size());
  }
  return hash.value();
}

constexpr char kCacheMagic[8] = {'C', 'L', 'T', 'E', 'T', 'S', '1', '\0'};

std::uint64_t cacheKey(const TriangleMesh& surface, const TetgenSettings& settings) {
  Fnv1a hash;
  hash.add(kCacheMagic, sizeof kCacheMagic);
  hash.addValue(surface.vertices.size());
  for (const Vec3& v : surface.vertices) hash.add(v.data(), 3 * sizeof(double));
  hash.addValue(surface.triangles.size());
  for (const auto& tri : surface.triangles) hash.add(tri.data(), sizeof tri);
  hash.addValue(settings.radiusEdgeRatio);
  hash.addValue(settings.maxVolume);
  hash.addValue(tetgenIdentity(settings.executable));
  return hash.value();
}

std::uint64_t payloadChecksum(const Tetrahedralization& t) {
  Fnv1a hash;
  for (const Vec3& v : t.vertices) hash.add(v.data(), 3 * sizeof(double));
  for (const auto& tet : t.tetrahedra) hash.add(tet.data(), sizeof tet);
  return hash.value();
}

// Everything a tetrahedralization of `surface` must satisfy; a cache entry failing any of it is
// not trusted.
bool isConsistent(const Tetrahedralization& t, const TriangleMesh& surface) {
  if (t.vertices.size() < surface.vertices.size() || t.tetrahedra.empty()) return false;
  for (std::size_t v = 0; v < surface.vertices.size(); ++v)
    if (t.vertices[v] != surface.vertices[v]) return false;
  const int count = static_cast<int>(t.vertices.size());
  for (const auto& tet : t.tetrahedra) {
    for (const int v : tet)
      if (v < 0 || v >= count) return false;
    const Vec3& a = t.vertices[tet[0]];
    if (!((t.vertices[tet[1]] - a).dot((t.vertices[tet[2]] - a).cross(t.vertices[tet[3]] - a)) > 0.0)) return false;
  }
  return true;
}

std::optional<Tetrahedralization> readCacheEntry(const fs::path& file, std::uint64_t key, const TriangleMesh& surface) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  char magic[8];
  std::uint64_t storedKey = 0, vertexCount = 0, tetCount = 0, checksum = 0;
  in.read(magic, sizeof magic);
  in.read(reinterpret_cast<char*>(&storedKey), sizeof storedKey);
  in.read(reinterpret_cast<char*>(&vertexCount), sizeof vertexCount);
  in.read(reinterpret_cast<char*>(&tetCount), sizeof tetCount);
  if (!in || std::memcmp(magic, kCacheMagic, sizeof magic) != 0 || storedKey != key) return std::nullopt;
  const auto expectedSize = sizeof magic + 4 * sizeof(std::uint64_t) + vertexCount * 3 * sizeof(double) +
                            tetCount * 4 * sizeof(int);
  std::error_code ec;
  if (fs::file_size(file, ec) != expectedSize) return std::nullopt;
  Tetrahedralization t;
  t.vertices.resize(vertexCount);
  t.tetrahedra.resize(tetCount);
  for (Vec3& v : t.vertices) in.read(reinterpret_cast<char*>(v.data()), 3 * sizeof(double));
  for (auto& tet : t.tetrahedra) in.read(reinterpret_cast<char*>(tet.data()), sizeof tet);
  in.read(reinterpret_cast<char*>(&checksum), sizeof checksum);
  if (!in || checksum != payloadChecksum(t) || !isConsistent(t, surface)) return std::nullopt;
  t.fromCache = true;
  return t;
}

// Written to a temporary name and renamed, so a reader never sees half an entry.
void writeCacheEntry(const fs::path& file, std::uint64_t key, const Tetrahedralization& t) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const fs::path partial = file.string() + ".partial." + std::to_string(::getpid());
  {
    std::ofstream out(partial, std::ios::binary);
    const std::uint64_t vertexCount = t.vertices.size(), tetCount = t.tetrahedra.size(), checksum = payloadChecksum(t);
    out.write(kCacheMagic, sizeof kCacheMagic);
    out.write(reinterpret_cast<const char*>(&key), sizeof key);
    out.write(reinterpret_cast<const char*>(&vertexCount), sizeof vertexCount);
    out.write(reinterpret_cast<const char*>(&tetCount), sizeof tetCount);
    for (const Vec3& v : t.vertices) out.write(reinterpret_cast<const char*>(v.data()), 3 * sizeof(double));
    for (const auto& tet : t.tetrahedra) out.write(reinterpret_cast<const char*>(tet.data()), sizeof tet);
    out.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
    if (!out) {
      spdlog::warn("cannot write the tetrahedralization cache entry {}; continuing without it", file.string());
      fs::remove(partial, ec);
      return;
    }
  }
  fs::rename(partial, file, ec);
  if (ec) fs::remove(partial, ec);
}

// A fresh private directory for tetgen's input and output files, removed when done.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "contactlab-tetgen-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw MeshError("cannot create a temporary directory for tetgen in " +
                                                              fs::temp_directory_path().string());
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// TetGen's .smesh format (TetGen 1.5 manual, sec. 5.2.2): the points, then the facets, no holes
// or regions; indices from 0 (-z).
void writeSmesh(const fs::path& file, const TriangleMesh& surface) {
  std::ofstream out(file);
  out << std::setprecision(17);
  out << surface.vertices.size() << " 3 0 0\n";
  for (std::size_t i = 0; i < surface.vertices.size(); ++i) {
    const Vec3& v = surface.vertices[i];
    out << i << ' ' << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
  }
  out << surface.triangles.size() << " 0\n";
  for (const auto& tri : surface.triangles) out << "3 " << tri[0] << ' ' << tri[1] << ' ' << tri[2] << '\n';
  out << "0\n0\n";
  if (!out) throw MeshError("cannot write tetgen's input file " + file.string());
}

// Runs the program with its standard output and error going to `log`; returns the wait status.
int runLogged(const std::vector<std::string>& arguments, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t child = 0;
  const int spawnError = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawnError != 0) return -1;
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

constexpr const char* kStdbuf = "/usr/bin/stdbuf";

std::string describeStatus(int status) {
  if (status == -1) return "could not be started";
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "failed";
}

// Reads tetgen's "<count> <dimension/corners> ..." table files, skipping '#' comments.
std::vector<std::vector<double>> readTable(const fs::path& file, int columns, const std::string& source) {
  std::ifstream in(file);
  if (!in) throw MeshError(source + ": tetgen wrote no " + file.filename().string());
  std::vector<std::vector<double>> rows;
  std::size_t expected = 0;
  bool header = true;
  for (std::string line; std::getline(in, line);) {
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    if (header) {
      if (fields >> expected) header = false;
      continue;
    }
    std::vector<double> row(columns + 1);  // the leading index, then the columns
    bool complete = true;
    for (double& value : row) complete = complete && static_cast<bool>(fields >> value);
    if (!complete) continue;  // a blank line
    rows.push_back(std::move(row));
  }
  if (header || rows.size() != expected)
    throw MeshError(source + ": tetgen's " + file.filename().string() + " is truncated (" + std::to_string(rows.size()) +
                    " of " + std::to_string(expected) + " rows)");
  return rows;
}

std::string formatNumber(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

Tetrahedralization runTetgen(const TriangleMesh& surface, const TetgenSettings& settings, const std::string& source) {
  if (::access(settings.executable.c_str(), X_OK) != 0)
    throw MeshError(source + ": cannot tetrahedralize: the tetgen program is not at " + settings.executable +
                    " (install the Debian package tetgen)");
  const TemporaryDirectory directory;
  const fs::path input = directory.path() / "surface.smesh";
  writeSmesh(input, surface);
  std::string switches = "-pYzq" + formatNumber(settings.radiusEdgeRatio);
  if (settings.maxVolume > 0.0) switches += "a" + formatNumber(settings.maxVolume);
  const fs::path log = directory.path() / "tetgen.log";
  if (const int status = runLogged({settings.executable, switches + "Q", input.string()}, log);
      status != 0) {
    // -Q silences the reason too; a second, verbose run tells it (e.g. the self-intersection found).
    // tetgen reports a failure by abort(), which loses whatever its buffered output held: coreutils'
    // stdbuf unbuffers it when available.
    std::vector<std::string> verbose = {settings.executable, switches, input.string()};
    if (::access(kStdbuf, X_OK) == 0) verbose.insert(verbose.begin(), {kStdbuf, "-o0", "-e0"});
    runLogged(verbose, log);
    std::string output = readWholeFile(log);
    constexpr std::size_t kTail = 2000;
    if (output.size() > kTail) output = "..." + output.substr(output.size() - kTail);
    throw MeshError(source + ": tetgen " + describeStatus(status) + " on " + std::to_string(surface.vertices.size()) +
                    " vertices and " + std::to_string(surface.triangles.size()) + " triangles (" +
                    settings.executable + " " + switches + "); its output:\n" + output);
  }

  Tetrahedralization t;
  for (const auto& row : readTable(directory.path() / "surface.1.node", 3, source)) t.vertices.emplace_back(row[1], row[2], row[3]);
  // With -Y tetgen keeps the input points first and in order; check it, and map surface vertices
  // back onto their input index if a build ever reorders them (MeshGeometry::tetVertices' promise).
  std::vector<int> newIndex(t.vertices.size(), -1);
  const std::size_t surfaceCount = surface.vertices.size();
  bool inOrder = t.vertices.size() >= surfaceCount;
  for (std::size_t v = 0; inOrder && v < surfaceCount; ++v) inOrder = t.vertices[v] == surface.vertices[v];
  if (inOrder) {
    for (std::size_t v = 0; v < t.vertices.size(); ++v) newIndex[v] = static_cast<int>(v);
  } else {
    std::map<std::array<double, 3>, int> surfaceIndex;
    for (std::size_t v = 0; v < surfaceCount; ++v)
      surfaceIndex.emplace(std::array{surface.vertices[v].x(), surface.vertices[v].y(), surface.vertices[v].z()},
                           static_cast<int>(v));
    std::vector<Vec3> remapped(surface.vertices);
    std::vector<bool> found(surfaceCount, false);
    for (std::size_t v = 0; v < t.vertices.size(); ++v) {
      const auto it = surfaceIndex.find({t.vertices[v].x(), t.vertices[v].y(), t.vertices[v].z()});
      if (it != surfaceIndex.end() && !found[it->second]) {
        newIndex[v] = it->second;
        found[it->second] = true;
      } else {
        newIndex[v] = static_cast<int>(remapped.size());
        remapped.push_back(t.vertices[v]);
      }
    }
    for (std::size_t v = 0; v < surfaceCount; ++v)
      if (!found[v])
        throw MeshError(source + ": tetgen dropped surface vertex " + std::to_string(v) + " (a duplicate vertex?)");
    t.vertices = std::move(remapped);
  }
  for (const auto& row : readTable(directory.path() / "surface.1.ele", 4, source)) {
    std::array<int, 4> tet;
    for (int k = 0; k < 4; ++k) {
      // Range first, then the cast: converting a double beyond size_t's range is undefined.
      const double entry = row[k + 1];
      if (!(entry >= 0.0 && entry < static_cast<double>(newIndex.size())))
        throw MeshError(source + ": tetgen's .ele refers to a missing vertex");
      tet[k] = newIndex[static_cast<std::size_t>(entry)];
    }
    const Vec3& a = t.vertices[tet[0]];
    if ((t.vertices[tet[1]] - a).dot((t.vertices[tet[2]] - a).cross(t.vertices[tet[3]] - a)) < 0.0) std::swap(tet[2], tet[3]);
    t.tetrahedra.push_back(tet);
  }
  return t;
}

}  // namespace

std::string defaultMeshCacheDirectory() {
  if (const char* dir = std::getenv("CONTACTLAB_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "contactlab").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "contactlab").string();
  return {};
}

Tetrahedralization tetrahedralize(const TriangleMesh& surface, const TetgenSettings& settings, const std::string& source) {
  requireClosedOrientedSurface(surface, source);
  const std::string directory = settings.cacheDirectory.empty() ? defaultMeshCacheDirectory() : settings.cacheDirectory;
  if (directory.empty() || ::access(settings.executable.c_str(), R_OK) != 0) return runTetgen(surface, settings, source);
  const std::uint64_t key = cacheKey(surface, settings);
  std::ostringstream name;
  name << std::hex << std::setw(16) << std::setfill('0') << key << ".tets";
  const fs::path entry = fs::path(directory) / name.str();
  if (std::optional<Tetrahedralization> cached = readCacheEntry(entry, key, surface)) return *std::move(cached);
  Tetrahedralization fresh = runTetgen(surface, settings, source);
  writeCacheEntry(entry, key, fresh);
  return fresh;
}

}  // namespace contactlab
