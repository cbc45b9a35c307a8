// `contactlab-cli study` run as a subprocess on a short study: every file it promises, and data
// that agree with each other (the per-sweep residuals are the solves' sweeps, one energy row a step).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::string>> readCsv(const fs::path& path, std::string* header) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, *header);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream cellStream(line);
    for (std::string cell; std::getline(cellStream, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class StudyCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "contactlab-study-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(StudyCommand, WritesConsistentDataAndEveryFigure) {
  const fs::path out = dir_ / "study";
  const test::CliResult result =
      test::runCli("study --out '" + out.string() + "' --scenes tower --solvers prox-gs,prox-jacobi --rfactors global,local --steps 12");
  ASSERT_EQ(result.exitCode, 0) << result.output;

  std::string header;
  const auto solves = readCsv(out / "solves.csv", &header);
  EXPECT_EQ(header, "scene,solver,rfactor,step,contacts,iterations,rollbacks,convergence,residual,seconds");
  // The tower rests on the ground from the start: every step has contacts and so a solve.
  ASSERT_EQ(solves.size(), 4u * 12u);
  std::map<std::string, long> sweeps;  // solver rfactor step -> iterations
  for (const auto& row : solves) {
    ASSERT_EQ(row.size(), 10u);
    sweeps[row[1] + " " + row[2] + " " + row[3]] = std::stol(row[5]);
  }
  const auto residuals = readCsv(out / "residuals.csv", &header);
  EXPECT_EQ(header, "scene,solver,rfactor,step,iteration,residual");
  std::map<std::string, long> rows;
  for (const auto& row : residuals) ++rows[row[1] + " " + row[2] + " " + row[3]];
  EXPECT_EQ(rows, sweeps) << "residuals.csv must hold exactly the sweeps solves.csv counts";

  const auto energy = readCsv(out / "energy.csv", &header);
  EXPECT_EQ(header, "scene,solver,rfactor,step,time,kinetic_energy,potential_energy");
  EXPECT_EQ(energy.size(), 4u * 12u);
  const auto summary = readCsv(out / "summary.csv", &header);
  EXPECT_EQ(header, "scene,solver,rfactor,solves,mean_iterations,median_iterations,p90_iterations,max_iterations,absolute,"
                    "relative,none,mean_rollbacks,max_rollbacks,solver_seconds");
  ASSERT_EQ(summary.size(), 4u);
  for (const auto& row : summary) EXPECT_EQ(row[3], "12") << "12 solves per combination";

  const std::string page = readText(out / "index.html");
  for (const char* figure : {"convergence-tower-prox-gs-global.svg", "convergence-tower-prox-jacobi-local.svg",
                             "outcomes-tower.svg", "rollbacks-tower.svg", "kinetic-tower.svg", "potential-tower.svg"}) {
    const std::string svg = readText(out / figure);
    EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << figure;
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << figure;
    EXPECT_NE(page.find(figure), std::string::npos) << "index.html should show " << figure;
  }
  EXPECT_NE(page.find("<polyline"), std::string::npos) << "the page inlines the figures' curves";
}

// A solve whose warm start already meets the tolerance takes no sweep and is still a solve: PGS
// with subspace minimization meets it at once in several of the tower's first 40 steps.
TEST_F(StudyCommand, EveryStepWithContactsIsASolveAlsoWithoutASweep) {
  const fs::path out = dir_ / "study";
  const test::CliResult result = test::runCli("study --out '" + out.string() + "' --scenes tower --solvers pgs-sm --steps 40");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  std::string header;
  const auto solves = readCsv(out / "solves.csv", &header);
  ASSERT_EQ(solves.size(), 40u);
  int withoutSweep = 0;
  for (const auto& row : solves) withoutSweep += row[5] == "0";
  EXPECT_GT(withoutSweep, 0) << "the case this test is about did not occur";
  const auto summary = readCsv(out / "summary.csv", &header);
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0][3], "40");
}

// A parameter out of its range is found before the first run, not after the scenes before it ran.
TEST_F(StudyCommand, ASceneThatCannotBeBuiltStopsTheStudyBeforeItRuns) {
  const fs::path out = dir_ / "study";
  const test::CliResult result = test::runCli("study --out '" + out.string() + "' --scenes tower,pile --param pile:count=0");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("count"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("tower prox-gs"), std::string::npos) << "the tower ran first: " << result.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(StudyCommand, BadArgumentsAreNamed) {
  for (const auto& [arguments, mention] : std::vector<std::pair<std::string, std::string>>{
           {"study --scenes tower", "--out"},
           {"study --out x --scenes castle", "castle"},
           {"study --out x --solvers nope", "nope"},
           {"study --out x --rfactors sideways", "sideways"},
           {"study --out x --param pile:count", "SCENE:KEY=VALUE"},
           {"study --out x --scenes tower --param pile:count=5", "pile is not among the study's scenes"},
           {"study --out x --scenes tower --param tower:colour=5", "\"colour\""},
           {"study --out x --steps 0", "--steps"},
           {"study --out x --scenes tower,wall,tower", "\"tower\" is named twice"},
           {"study --out x --solvers prox-gs,prox-gs", "\"prox-gs\" is named twice"},
           {"study --out x --scenes soft-block", "soft-block has deformable bodies"},
           {"study --out x --solvers pgs,psor --rfactors local", "--rfactors: applies to the PROX solvers only"}}) {
    const test::CliResult result = test::runCli(arguments);
    EXPECT_EQ(result.exitCode, 2) << arguments << ": " << result.output;
    EXPECT_NE(result.output.find(mention), std::string::npos) << arguments << ": " << result.output;
  }
}

}  // namespace
}  // namespace contactlab
