// Our FC3D reader (engine/src/io/fc3d_file.h) and Siconos Numerics' own read the same W, q and mu from
// each of the nine sample problems (../shared/fc3d). Built only when bench/ found Siconos.
#include <gtest/gtest.h>
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/NumericsMatrix.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/fc3d_file.h"

namespace contactlab {
namespace {

TEST(Fc3dReaderAgreement, SiconosReadsTheSameProblems) {
  const std::filesystem::path dir = CONTACTLAB_FC3D_DIR;
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is missing";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".dat") files.push_back(entry.path().string());
  ASSERT_EQ(files.size(), 9u);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const DelassusProblem ours = readFc3dFile(path);
    FrictionContactProblem* theirs = frictionContact_new_from_filename(path.c_str());
    ASSERT_NE(theirs, nullptr);
    ASSERT_EQ(theirs->dimension, 3);
    ASSERT_EQ(theirs->numberOfContacts, ours.numContacts());
    const Eigen::MatrixXd w = ours.denseW();
    const int nc = ours.numContacts();
    for (int k = 0; k < nc; ++k) {
      EXPECT_EQ(theirs->mu[k], ours.friction[k].x());
      EXPECT_EQ(ours.friction[k].y(), ours.friction[k].x());
      EXPECT_EQ(ours.friction[k].z(), 0.0);
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(theirs->q[3 * k + i], ours.q[4 * k + i]);
        for (int l = 0; l < nc; ++l)
          for (int j = 0; j < 3; ++j)
            EXPECT_EQ(NM_get_value(theirs->M, 3 * k + i, 3 * l + j), w(4 * k + i, 4 * l + j))
                << "W(" << 3 * k + i << ", " << 3 * l + j << ")";
      }
    }
    frictionContactProblem_free(theirs);
  }
}

}  // namespace
}  // namespace contactlab
