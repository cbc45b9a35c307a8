// `contactlab-cli bench` run as a subprocess: the deformable table (a scene with deformable bodies,
// once per CR solver) has its columns and sane numbers, and the rigid table keeps its columns.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.h"

// Named after the file, not anonymous: the tests are compiled in unity batches.
namespace contactlab::bench_command_test {

namespace fs = std::filesystem;

// The CSV's rows as maps from the header's column names to the cells.
std::vector<std::map<std::string, std::string>> readCsvRows(const fs::path& path, std::vector<std::string>* header) {
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    for (std::string cell; std::getline(stream, cell, ',');) cells.push_back(cell);
    return cells;
  };
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  *header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    EXPECT_EQ(cells.size(), header->size()) << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size() && i < header->size(); ++i) row[(*header)[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

// A failure: a clean non-zero exit with exactly one line that mentions `mustMention`.
void expectOneLineError(const test::CliResult& result, const std::string& mustMention) {
  EXPECT_GT(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find(mustMention), std::string::npos) << result.output;
  ASSERT_FALSE(result.output.empty());
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
}

class BenchCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "contactlab-bench-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// The soft cubes touch from step 4 to past step 80: the timed steps 21-40 are in contact.
TEST_F(BenchCommand, DeformableSceneGetsOneRowPerCrSolverWithSaneMedians) {
  const fs::path csv = dir_ / "bench.csv";
  const test::CliResult result =
      test::runCli("bench --scenes soft-cubes --param speed=1 --warmup 20 --steps 20 --csv '" + csv.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  for (const char* column : {"scene", "dsolver", "bodies", "tets", "warmup", "steps", "step_s", "coll_s", "asm_s",
                             "solve_s", "iters", "constr", "active", "relin", "changes", "deepest"})
    EXPECT_NE(result.output.find(column), std::string::npos) << column << " missing from\n" << result.output;
  EXPECT_NE(result.output.find("params: speed=1"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("sweep_ns"), std::string::npos) << "no rigid table without a rigid scene";

  std::vector<std::string> header;
  const auto rows = readCsvRows(csv, &header);
  const std::vector<std::string> expected{"scene", "params", "deformable_solver", "threads", "warmup", "steps",
                                          "deformable_bodies", "tetrahedra", "median_step_s", "median_collision_s",
                                          "median_assembly_s", "median_solve_s", "median_cr_iterations",
                                          "median_constraints", "median_active_constraints",
                                          "median_relinearizations", "median_active_set_changes",
                                          "deepest_penetration_m"};
  EXPECT_EQ(header, expected);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("deformable_solver"), "cr-full");
  EXPECT_EQ(rows[1].at("deformable_solver"), "cr-diag");
  for (const auto& row : rows) {
    SCOPED_TRACE(row.at("deformable_solver"));
    EXPECT_EQ(row.at("scene"), "soft-cubes");
    EXPECT_EQ(row.at("params"), "speed=1");
    EXPECT_EQ(row.at("threads"), "1");
    EXPECT_EQ(row.at("warmup"), "20");
    EXPECT_EQ(row.at("steps"), "20");
    EXPECT_EQ(row.at("deformable_bodies"), "2");
    EXPECT_GT(std::stoi(row.at("tetrahedra")), 100);
    const double step = std::stod(row.at("median_step_s"));
    EXPECT_GT(step, 0.0);
    EXPECT_LT(step, 10.0);
    for (const char* part : {"median_collision_s", "median_assembly_s", "median_solve_s"}) {
      EXPECT_GT(std::stod(row.at(part)), 0.0) << part;
      EXPECT_LE(std::stod(row.at(part)), 2.0 * step) << part;  // medians of different steps: not an exact bound
    }
    EXPECT_GT(std::stod(row.at("median_cr_iterations")), 0.0) << "the cubes are in contact";
    const double all = std::stod(row.at("median_constraints")), active = std::stod(row.at("median_active_constraints"));
    EXPECT_GT(active, 0.0);
    EXPECT_GE(all, active);
    EXPECT_GE(std::stod(row.at("median_relinearizations")), 0.0);
    EXPECT_GE(std::stod(row.at("median_active_set_changes")), 0.0);
    EXPECT_GE(std::stod(row.at("deepest_penetration_m")), 0.0);
    EXPECT_LT(std::stod(row.at("deepest_penetration_m")), 1e-5);  // the soft cubes' bound (docs/deformable.md)
  }
}

TEST_F(BenchCommand, DeformableSolversFlagChoosesTheRowsAndRigidTableKeepsItsColumns) {
  const fs::path csv = dir_ / "both.csv";
  const test::CliResult result = test::runCli("bench --scenes tower,soft-cubes --deformable-solvers cr-diag --warmup 1 "
                                              "--steps 2 --csv '" + csv.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("threads: 1\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("sweep_ns"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("dsolver"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("cr-full"), std::string::npos) << result.output;

  std::vector<std::string> header;
  const auto rigidRows = readCsvRows(csv, &header);
  ASSERT_FALSE(header.empty());
  EXPECT_EQ(header.front(), "scene");
  EXPECT_EQ(header.back(), "drift_m");
  EXPECT_EQ(rigidRows.size(), 2u) << "the tower at 10 sweeps and at the defaults";
  const auto deformableRows = readCsvRows(dir_ / "both-deformable.csv", &header);
  ASSERT_EQ(deformableRows.size(), 1u);
  EXPECT_EQ(deformableRows[0].at("deformable_solver"), "cr-diag");
}

// The drift column is measured from the first timed step: 20 pile bodies still falling freely (the
// lattice is higher than they fall in 0.1 s, so nothing touches) move by g (t1^2 - t0^2) / 2 between
// t0 = 0.05 s, where the 5 warm-up steps end, and t1 = 0.1 s; Moreau's midpoint rule integrates the
// fall exactly.
TEST_F(BenchCommand, DriftIsHowFarABodyMovedOverTheTimedSteps) {
  const fs::path csv = dir_ / "falling.csv";
  const test::CliResult result =
      test::runCli("bench --scenes pile --param count=20 --warmup 5 --steps 5 --csv '" + csv.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("drift_mm"), std::string::npos) << result.output;
  std::vector<std::string> header;
  const auto rows = readCsvRows(csv, &header);
  ASSERT_EQ(rows.size(), 2u);
  const double g = 9.81, t0 = 0.05, t1 = 0.1;
  for (const auto& row : rows) {
    EXPECT_EQ(std::stod(row.at("mean_contacts")), 0.0);
    EXPECT_EQ(std::stod(row.at("deepest_m")), 0.0);
    EXPECT_NEAR(std::stod(row.at("drift_m")), 0.5 * g * (t1 * t1 - t0 * t0), 1e-12);
  }
}

// pyramid-touching is the pyramid with gap=0. With two rows, three boxes: the two on the ground
// touch it with four points each and carry the top box with four points each (16 contacts); in the
// touching pyramid the two bottom boxes also touch each other face to face, four points more.
TEST_F(BenchCommand, TouchingPyramidIsThePyramidWhoseRowNeighboursTouch) {
  const fs::path csv = dir_ / "pyramids.csv";
  const test::CliResult result = test::runCli("bench --scenes pyramid,pyramid-touching --param rows=2 --warmup 1 "
                                              "--steps 1 --csv '" + csv.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  std::vector<std::string> header;
  const auto rows = readCsvRows(csv, &header);
  ASSERT_EQ(rows.size(), 4u);  // two settings each
  for (const auto& row : rows) {
    const bool touching = row.at("scene") == "pyramid-touching";
    EXPECT_TRUE(touching || row.at("scene") == "pyramid") << row.at("scene");
    EXPECT_EQ(std::stod(row.at("mean_contacts")), touching ? 20.0 : 16.0) << row.at("scene");
  }
}

TEST_F(BenchCommand, DeformableSolveFlagsReachTheSolveAndTheHeader) {
  const fs::path csv = dir_ / "capped.csv";
  const test::CliResult result = test::runCli("bench --scenes soft-cubes --deformable-solvers cr-full --deformable-max-iter 3 "
                                              "--deformable-tol-abs 1e-4 --warmup 1 --steps 2 --csv '" + csv.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("deformable solve: epsilon_1 5e-05, epsilon_2 0.0001 m, at most 3 iterations"),
            std::string::npos) << result.output;
  std::vector<std::string> header;
  const auto rows = readCsvRows(csv, &header);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_LE(std::stod(rows[0].at("median_cr_iterations")), 3.0);
}

TEST(BenchCommandErrors, BadScenesSolversAndParamsAreNamed) {
  expectOneLineError(test::runCli("bench --scenes castle"), "--scenes: unknown scene \"castle\"");
  expectOneLineError(test::runCli("bench --scenes bounce"), "\"bounce\" has no deformable bodies");
  expectOneLineError(test::runCli("bench --scenes soft-cubes --deformable-solvers cr-full,nope"),
                     "--deformable-solvers: unknown deformable solver \"nope\"");
  expectOneLineError(test::runCli("bench --scenes soft-cubes --deformable-tol-rel -1"), "--deformable-tol-rel: must be positive");
  expectOneLineError(test::runCli("bench --scenes rings --param colour=3"), "scene rings has no parameter \"colour\"");
  expectOneLineError(test::runCli("bench --scenes rings --param count"), "--param: expected KEY=VALUE");
}

}  // namespace contactlab::bench_command_test
