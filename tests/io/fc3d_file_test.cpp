// The Siconos FC3D reader and writer (engine/src/io/fc3d_file.cpp) on the nine sample files in
// ../shared/fc3d, on round trips, and on broken files made from a good one.
#include "io/fc3d_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "support/fc3d_samples.h"

namespace contactlab {
namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Fc3dFile, ReadsEveryNineSampleWithItsContactCount) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    SCOPED_TRACE(sample.file);
    const DelassusProblem p = readFc3dFile(test::fc3dPath(sample.file));
    EXPECT_EQ(p.numContacts(), sample.contacts);
    EXPECT_EQ(p.q.size(), 4 * sample.contacts);
    for (int k = 0; k < p.numContacts(); ++k) {
      // The decoupled torsion row of a 3-row problem (delassus_problem.h).
      EXPECT_EQ(p.diagonalBlock(k)(3, 3), 1.0);
      EXPECT_EQ(p.q[4 * k + 3], 0.0);
      EXPECT_EQ(p.friction[k][2], 0.0);
      EXPECT_EQ(p.friction[k][0], p.friction[k][1]);
    }
    const Eigen::MatrixXd w = p.denseW();
    for (int k = 0; k < p.numContacts(); ++k) {
      EXPECT_EQ(w.row(4 * k + 3).cwiseAbs().sum(), 1.0);
      EXPECT_EQ(w.col(4 * k + 3).cwiseAbs().sum(), 1.0);
    }
  }
}

TEST(Fc3dFile, ValuesMatchTheText) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  // FrictionContact3D_1c.dat: "15 -1 -2 -1 14 1 -2 1 16" column-major, q = -1 2 3, mu = 0.1.
  const DelassusProblem one = readFc3dFile(test::fc3dPath("FrictionContact3D_1c.dat"));
  Mat3 w;
  w << 15, -1, -2, -1, 14, 1, -2, 1, 16;
  EXPECT_EQ(Mat3(one.diagonalBlock(0).topLeftCorner<3, 3>()), w);
  EXPECT_EQ(one.q, Vec4(-1, 2, 3, 0));
  EXPECT_EQ(one.friction[0], Vec3(0.1, 0.1, 0.0));
  // Rover4396.dat: q ends with -2.339750149624925779079376e+00, mu = 0.7 (written 6.99...96e-01);
  // the matrix is not symmetric, so its first text line is column 0 of W.
  const DelassusProblem rover = readFc3dFile(test::fc3dPath("Rover4396.dat"));
  EXPECT_EQ(rover.q[4 * 1 + 2], -2.339750149624925779079376e+00);
  EXPECT_EQ(rover.friction[1][0], 6.999999999999999555910790e-01);
  std::istringstream text(readText(test::fc3dPath("Rover4396.dat")));
  std::string token;
  for (int i = 0; i < 6; ++i) text >> token;  // d, nc, storage, sizes, and the repeated first size
  text >> token;                             // the repeated second size
  double column0[6];
  for (double& x : column0) text >> x;
  const Eigen::MatrixXd dense = rover.denseW();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(dense(4 * (i / 3) + i % 3, 0), column0[i]) << i;
}

TEST(Fc3dFile, DenseAndSparseBlockExample1Agree) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  const DelassusProblem dense = readFc3dFile(test::fc3dPath("FC3D_Example1.dat"));
  const DelassusProblem sparse = readFc3dFile(test::fc3dPath("FC3D_Example1_SBM.dat"));
  EXPECT_EQ(dense.denseW(), sparse.denseW());
  EXPECT_EQ(dense.q, sparse.q);
  EXPECT_EQ(dense.friction, sparse.friction);
}

TEST(Fc3dFile, WriteThenReadRoundTripsBitExactly) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    SCOPED_TRACE(sample.file);
    const DelassusProblem p = readFc3dFile(test::fc3dPath(sample.file));
    const DelassusProblem back = parseFc3d(formatFc3d(p), "round-trip");
    EXPECT_EQ(back.denseW(), p.denseW());
    EXPECT_EQ(back.q, p.q);
    EXPECT_EQ(back.friction, p.friction);
    EXPECT_EQ(back.rowStart, p.rowStart);
    EXPECT_EQ(back.blockColumn, p.blockColumn);
  }
  // Values that %.17g must carry exactly, through a file on disk.
  DelassusProblem p = readFc3dFile(test::fc3dPath("FrictionContact3D_1c.dat"));
  p.q[0] = 0.1 + 0.2;
  p.blocks[p.diagonalIndex[0]](0, 1) = 1.0 / 3.0;
  p.friction[0] = Vec3(5e-324, 5e-324, 0.0);
  const std::string path = (std::filesystem::temp_directory_path() / "contactlab_fc3d_roundtrip.dat").string();
  writeFc3dFile(p, path);
  const DelassusProblem back = readFc3dFile(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.denseW(), p.denseW());
  EXPECT_EQ(back.q, p.q);
  EXPECT_EQ(back.friction, p.friction);
}

// A broken variant of a good file and what the message must name.
struct Broken {
  std::string what;
  std::string text;
  std::vector<std::string> mustMention;
};

std::string replaceToken(std::string text, const std::string& from, const std::string& to, std::size_t after = 0) {
  const std::size_t at = text.find(from, after);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Fc3dFile, BrokenFilesGiveClearErrors) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  // FrictionContact3D_1c.dat laid out as FORMAT.md shows it, one item per line (the file itself
  // puts every number on a line of its own); the first assertion checks it is the same problem.
  const std::string one = "3\n1\n0 3 3\n3 3\n15 -1 -2 -1 14 1 -2 1 16\n-1 2 3\n0.1\n";
  EXPECT_EQ(parseFc3d(one, "one").denseW(), readFc3dFile(test::fc3dPath("FrictionContact3D_1c.dat")).denseW());
  const std::string sbm = readText(test::fc3dPath("FC3D_Example1_SBM.dat"));
  const std::size_t blocksStart = sbm.find("0\t1\t2\t\n");  // index2_data, line 14
  ASSERT_NE(blocksStart, std::string::npos);
  const std::vector<Broken> cases{
      {"truncated", one.substr(0, one.find("0.1")), {"f.dat:7:", "mu[0]", "truncated"}},
      {"truncated in W", one.substr(0, one.find("14")), {"f.dat:5:", "W(1,1)", "truncated"}},
      {"non-numeric token", replaceToken(one, "14", "1x4"), {"f.dat:5:", "W(1,1)", "\"1x4\" is not a number"}},
      {"non-finite", replaceToken(one, "-1 2 3", "-1 nan 3"), {"f.dat:6:", "q[1]", "not a finite number"}},
      {"infinite", replaceToken(one, "-1 2 3", "-1 2 1e999"), {"f.dat:6:", "q[2]", "not a finite number"}},
      {"wrong d", replaceToken(one, "3", "2"), {"f.dat:1:", "d = 2"}},
      {"bad sizes", replaceToken(one, "0 3 3", "0 4 3"), {"f.dat:3:", "size0", "expected 3"}},
      {"negative mu", replaceToken(one, "0.1", "-0.1"), {"f.dat:7:", "mu[0]", "negative"}},
      {"negative contacts", replaceToken(one, "\n1\n", "\n-1\n"), {"f.dat:2:", "nc", "out of range"}},
      {"huge nc", replaceToken(one, "\n1\n", "\n999999\n"), {"f.dat:2:", "nc = 999999", "too short"}},
      {"huge dense W", replaceToken(one, "3\n1\n0 3 3\n3 3", "3\n100\n0 300 300\n300 300"), {"f.dat:4:", "dense W", "too short"}},
      {"storage 2", replaceToken(one, "0 3 3", "2 3 3"), {"f.dat:3:", "storage type 2"}},
      {"binary bytes", std::string("\0\x01\x02\n", 4), {"f.dat:1:", "\"\\x00\\x01\\x02\" is not a whole number"}},
      {"NUL inside a number", std::string("3\0junk\n", 7), {"f.dat:1:", "\"3\\x00junk\" is not a whole number"}},
      {"zero W", replaceToken(one, "15 -1 -2 -1 14 1 -2 1 16", "0 0 0 0 0 0 0 0 0"),
       {"f.dat: contact 0", "W(0,0)", "normal row, is 0", "positive"}},
      {"negative diagonal", replaceToken(one, "14", "-14"), {"f.dat: contact 0", "W(1,1)", "first tangent row, is -14"}},
      {"block not 3x3", replaceToken(sbm, "3\t6\t9\t", "4\t6\t9\t"), {"f.dat:9:", "blocksize0[0]", "3x3"}},
      {"block column out of range", replaceToken(sbm, "0\t1\t2\t", "0\t1\t7\t", blocksStart),
       {"f.dat:14:", "index2_data[2]"}},
  };
  for (const Broken& broken : cases) {
    SCOPED_TRACE(broken.what);
    try {
      parseFc3d(broken.text, "f.dat");
      ADD_FAILURE() << "no error";
    } catch (const Fc3dFileError& e) {
      for (const std::string& part : broken.mustMention)
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what() << "\nmissing: " << part;
    }
  }
  EXPECT_THROW(readFc3dFile("/no/such/file.dat"), Fc3dFileError);
  try {
    readFc3dFile(std::filesystem::temp_directory_path().string());
    ADD_FAILURE() << "a directory read as a problem";
  } catch (const Fc3dFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

// Random damage (a token dropped, or replaced by a small integer, a huge one or text) either reads
// or throws Fc3dFileError: never another exception, a crash or (under ASan) a bad access.
TEST(Fc3dFile, DamagedFilesReadOrFailCleanly) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  std::mt19937 rng(5);
  for (const char* file : {"FC3D_Example1_SBM.dat", "Confeti-ex13-4contact-Fc3D-SBM.dat", "FC3D_Example1.dat"}) {
    std::istringstream in(readText(test::fc3dPath(file)));
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    const std::vector<std::string> replacements{"0", "1", "2", "3", "4", "-1", "9", "99999999999", "x", "1e400"};
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<std::string> damaged = tokens;
      // Mostly the header and index arrays, where the sizes are.
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, std::min<std::size_t>(damaged.size() - 1, trial % 2 ? 40 : damaged.size() - 1))(rng);
      if (trial % 5 == 0) damaged.erase(damaged.begin() + at);
      else damaged[at] = replacements[rng() % replacements.size()];
      std::string text;
      for (const std::string& t : damaged) text += t + "\n";
      try {
        parseFc3d(text, "damaged.dat");
      } catch (const Fc3dFileError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("damaged.dat:", 0), 0u) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << file << " token " << at << ": " << e.what();
      }
    }
  }
}

TEST(Fc3dFile, TrailingTokensAfterMuAreIgnored) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  const std::string one = readText(test::fc3dPath("FrictionContact3D_1c.dat"));
  const DelassusProblem a = parseFc3d(one, "a");
  const DelassusProblem b = parseFc3d(one + "\n1 junk 7\n", "b");
  EXPECT_EQ(a.denseW(), b.denseW());
  EXPECT_EQ(a.q, b.q);
}

}  // namespace
}  // namespace contactlab
