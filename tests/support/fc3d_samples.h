#pragma once
// The nine Siconos sample problems in ../shared/fc3d (README.md there lists them).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace contactlab::test {

struct Fc3dSample {
  std::string file;
  int contacts;
};

inline const std::vector<Fc3dSample>& fc3dSamples() {
  static const std::vector<Fc3dSample> samples{
      {"FrictionContact3D_1c.dat", 1},   {"FC3D_Example1.dat", 3},
      {"FC3D_Example1_SBM.dat", 3},      {"Rover4396.dat", 2},
      {"Rover1039.dat", 4},              {"Confeti-ex13-4contact-Fc3D-SBM.dat", 4},
      {"NESpheres_10_1.dat", 9},         {"BoxesStack1-i100000-32.hdf5.dat", 52},
      {"Capsules-i100-889.dat", 276},
  };
  return samples;
}

inline std::string fc3dPath(const std::string& file) { return std::string(CONTACTLAB_FC3D_DIR) + "/" + file; }

// Skips the test when shared/fc3d is not beside the clone.
#define CONTACTLAB_REQUIRE_FC3D_SAMPLES()                                                         \
  do {                                                                                            \
    if (!std::filesystem::is_directory(CONTACTLAB_FC3D_DIR))                                      \
      GTEST_SKIP() << "no sample problems at " << CONTACTLAB_FC3D_DIR;                            \
  } while (0)

}  // namespace contactlab::test
