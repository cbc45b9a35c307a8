// `contactlab-cli solve` and `run --dump-problems`, run as subprocesses (see cli_errors_test.cpp).
#include <gtest/gtest.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "problem/contact_problem.h"
#include "io/fc3d_file.h"
#include "problem/natural_map.h"
#include "support/cli_runner.h"
#include "support/fc3d_samples.h"

namespace contactlab {
namespace {

using test::CliResult;
using test::runCli;

std::filesystem::path scratchDirectory(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("contactlab_solve_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The residual field of solve's line.
double residualOf(const std::string& line) {
  const std::size_t at = line.find("residual ");
  return at == std::string::npos ? -1.0 : std::stod(line.substr(at + 9));
}

TEST(SolveCommand, PrintsOneLineAndWritesTheSolution) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  const auto dir = scratchDirectory("example1");
  const std::string file = test::fc3dPath("FC3D_Example1.dat");
  const CliResult result = runCli("solve '" + file + "' --out '" + (dir / "s.csv").string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
  for (const char* part : {"FC3D_Example1.dat, prox-gs", "contacts 3", ", converged,", "iterations ", "seconds "})
    EXPECT_NE(result.output.find(part), std::string::npos) << part << " in " << result.output;
  EXPECT_LE(residualOf(result.output), 1e-8);

  std::ifstream csv(dir / "s.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "contact,r_n,r_t1,r_t2,u_n,u_t1,u_t2");
  int rows = 0;
  const DelassusProblem p = readFc3dFile(file);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(p.numRows());
  std::vector<Vec3> u;
  while (std::getline(csv, line)) {
    std::istringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');
    EXPECT_EQ(std::stoi(field), rows);
    Vec3 uc;
    for (int i = 0; i < 6; ++i) {
      std::getline(fields, field, ',');
      (i < 3 ? r[4 * rows + i] : uc[i - 3]) = std::stod(field);
    }
    u.push_back(uc);
    ++rows;
  }
  EXPECT_EQ(rows, 3);
  // u is W r + q of the written r, to the last bit (the CSV round-trips doubles).
  for (int k = 0; k < rows; ++k) EXPECT_EQ(Vec3(p.velocity(k, r).head<3>()), u[k]);
  std::filesystem::remove_all(dir);
}

// The acceptance: PROX-GS to 1e-8 on the seven samples with at most 9 contacts, with every
// r-factor (Blocked on the unsymmetric Rover problems needs RFactors' symmetric part of W_kk), and
// with Local as a block Gauss-Seidel (--local-iter, the setting the Siconos bench runs), and with
// exact local solves (--local-solve exact).
TEST(SolveCommand, ReachesTheToleranceOnTheSevenSmallSamples) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    if (sample.contacts > 9) continue;
    for (const char* flags : {"--rfactor global", "--rfactor local", "--rfactor blocked",
                              "--rfactor local --local-iter 10 --local-tol 0.01", "--local-solve exact"}) {
      SCOPED_TRACE(sample.file + " " + flags);
      const CliResult result = runCli("solve '" + test::fc3dPath(sample.file) + "' " + flags);
      ASSERT_EQ(result.exitCode, 0) << result.output;
      EXPECT_NE(result.output.find(", converged,"), std::string::npos) << result.output;
      EXPECT_LE(residualOf(result.output), 1e-8) << result.output;
      EXPECT_NE(result.output.find("contacts " + std::to_string(sample.contacts)), std::string::npos);
    }
  }
}

// Issue 31: `solve` with no flags reaches 1e-6 on every sample Siconos' NSGS solves (all but
// BoxesStack1, where NSGS ends at 2e-5 after its 10000 iterations: docs/fc3d.md), here to its own
// tolerance of 1e-8. Global PROX-GS, the default before, ends Capsules (276 contacts) at 2.3e-7 after
// 10000 sweeps, and reaches the Rover files only after 4758 and 6118.
TEST(SolveCommand, DefaultsSolveEverySampleSiconosNsgsSolves) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    if (sample.file.starts_with("BoxesStack1")) continue;
    SCOPED_TRACE(sample.file);
    const CliResult result = runCli("solve '" + test::fc3dPath(sample.file) + "'");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find(", prox-gs (local r-factor), contacts " + std::to_string(sample.contacts) + ", converged,"),
              std::string::npos) << result.output;
    EXPECT_LE(residualOf(result.output), 1e-8) << result.output;
    const std::size_t at = result.output.find("iterations ");
    ASSERT_NE(at, std::string::npos) << result.output;
    EXPECT_LT(std::stoi(result.output.substr(at + 11)), 4000) << result.output;
  }
}

// The box-friction solvers accept problem files: each stops on its own merit ("converged") at the
// box problem's solution and reports that solution's Coulomb residual, which is not zero where the
// contact slides. The one contact of FrictionContact3D_1c (W = [15 -1 -2; -1 14 1; -2 1 16],
// q = (-1, 2, 3), mu = 0.1) slides: with both friction rows on their bound -mu lambda_n and v_n = 0,
// (15 + 0.1 + 0.2) lambda_n = 1, and the tangential velocities that gives are positive, as the bound
// -mu lambda_n requires. The residual expected is the natural map of that closed-form solution, to
// the 3 digits printed (tests/problem/contact_rows_test.cpp checks the box solution on every small
// sample). FFD, which works per body, is refused with a usage error; --help lists the solvers that
// accept files.
TEST(SolveCommand, BoxSolversStopOnTheirOwnMeritAndFfdIsRefused) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  const DelassusProblem problem = readFc3dFile(test::fc3dPath("FrictionContact3D_1c.dat"));
  ASSERT_EQ(problem.numContacts(), 1);
  const double normal = 1.0 / 15.3;
  Eigen::VectorXd boxSolution = Eigen::VectorXd::Zero(4);
  boxSolution << normal, -0.1 * normal, -0.1 * normal, 0.0;
  const Eigen::VectorXd velocity = problem.velocities(boxSolution);
  ASSERT_NEAR(velocity[kNormal], 0.0, 1e-12);
  ASSERT_GT(velocity[1], 0.0);
  ASSERT_GT(velocity[2], 0.0);
  const double expectedResidual = naturalMapResidual(problem, boxSolution);

  const std::string file = "'" + test::fc3dPath("FrictionContact3D_1c.dat") + "'";
  for (const char* solver : {"pgs", "psor", "pgs-sm", "modulus-gs"}) {
    SCOPED_TRACE(solver);
    const CliResult result = runCli("solve " + file + " --solver " + solver);
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find(std::string("FrictionContact3D_1c.dat, ") + solver + ", contacts 1, converged,"),
              std::string::npos) << result.output;
    EXPECT_NEAR(residualOf(result.output), expectedResidual, 0.005 * expectedResidual) << result.output;
  }
  const CliResult ffd = runCli("solve " + file + " --solver ffd-id");
  EXPECT_EQ(ffd.exitCode, 2) << ffd.output;
  EXPECT_NE(ffd.output.find("needs bodies"), std::string::npos) << ffd.output;
  const CliResult help = runCli("solve --help");
  EXPECT_NE(help.output.find("these: prox-gs, prox-jacobi, pgs, psor, pgs-sm, modulus-gs)"), std::string::npos)
      << help.output;
}

TEST(SolveCommand, ErrorsNameTheFileOrTheFlag) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  const auto dir = scratchDirectory("errors");
  const std::string broken = (dir / "broken.dat").string();
  std::ofstream(broken) << "3\n1\n0 3 3\n3 3\n15 -1 -2 -1 14 1 -2 1 16\n-1 2 oops\n0.1\n";
  CliResult result = runCli("solve '" + broken + "'");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find(broken + ":6: q[2]: \"oops\" is not a number"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;

  result = runCli("solve '" + (dir / "missing.dat").string() + "'");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("missing.dat"), std::string::npos) << result.output;

  const std::string good = "'" + test::fc3dPath("FC3D_Example1.dat") + "'";
  for (const auto& [flags, mention] : std::vector<std::pair<std::string, std::string>>{
           {"--tol -1", "--tol"}, {"--max-iter x", "--max-iter"}, {"--solver nope", "--solver"},
           {"--rfactor fast", "--rfactor"}, {"--frobnicate 1", "--frobnicate"},
           {"--local-iter 0", "--local-iter"}, {"--local-tol 0", "--local-tol"}, {"--local-solve fast", "--local-solve"},
           {"--subspace -1", "--subspace"}, {"--subspace often", "--subspace"},
           {"--solver pgs --subspace 50", "--subspace: applies to prox-gs or prox-jacobi only, not to pgs"},
           {"--solver psor --rfactor local", "--rfactor: applies to prox-gs or prox-jacobi only"},
           {"--solver prox-jacobi --local-solve exact", "--local-solve: applies to prox-gs only"},
           {"--local-solve exact --rfactor global", "--rfactor: applies to proximal local steps"},
           {"--local-tol 0.5", "--local-tol: applies with --local-iter K > 1 only"},
           {"--omega 1.5", "--omega: applies to psor only"},
           {"--solver psor --omega 2", "--omega: must be below 2"}}) {
    result = runCli("solve " + good + " " + flags);
    EXPECT_EQ(result.exitCode, 2) << flags << ": " << result.output;
    EXPECT_NE(result.output.find(mention), std::string::npos) << result.output;
  }
  EXPECT_EQ(runCli("solve").exitCode, 2);
  // An output that cannot be written fails before the solve, with no result line printed.
  result = runCli("solve " + good + " --out '" + (dir / "no" / "such" / "x.csv").string() + "'");
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_EQ(result.output.find("iterations"), std::string::npos) << result.output;
  std::filesystem::remove_all(dir);
}

TEST(SolveCommand, SubspaceStepsSolveTheStack) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  // BoxesStack1 to Siconos PROX's residual (1.15e-9) through the CLI; the label says how.
  const CliResult result = runCli("solve '" + test::fc3dPath("BoxesStack1-i100000-32.hdf5.dat") +
                                  "' --rfactor local --subspace 50 --tol 1e-9");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("subspace step every 50 sweeps"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(", converged,"), std::string::npos) << result.output;
  EXPECT_LE(residualOf(result.output), 1e-9) << result.output;
}

TEST(SolveCommand, DumpedSceneProblemsReadBack) {
  const auto dir = scratchDirectory("dump");
  // A box on a slope: four contacts a step that Local PROX-GS solves to 1e-8 (tower and pyramid
  // problems stall there, see docs; that is the solver's business, not the files'). Run at the PROX
  // paper's tolerance, under which the box still creeps: at rest (the defaults) its four coplanar
  // contacts share the load in a way Local PROX-GS reaches only to about 2e-5 (docs/fc3d.md).
  const CliResult run =
      runCli("run incline --steps 3 --tol-abs 1e-3 --tol-rel 1e-3 --dump-problems '" + dir.string() + "'");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name.starts_with("step-") && name.ends_with(".dat") && name.size() == 15) << name;
    const CliResult solved = runCli("solve '" + entry.path().string() + "' --rfactor local");
    EXPECT_EQ(solved.exitCode, 0) << solved.output;
    EXPECT_LE(residualOf(solved.output), 1e-8) << solved.output;
  }
  EXPECT_EQ(files, 3);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
