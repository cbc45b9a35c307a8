// The headless tool run as a subprocess: every kind of bad input gives a non-zero exit and one line
// naming the problem, never a crash.
#include <gtest/gtest.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/bad_scene_cases.h"
#include "support/cli_runner.h"

namespace contactlab {
namespace {

using test::CliResult;
using test::runCli;

// A failure: a clean non-zero exit with exactly one line that mentions `mustMention`.
void expectOneLineError(const CliResult& result, const std::string& mustMention) {
  EXPECT_GT(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find(mustMention), std::string::npos) << result.output;
  ASSERT_FALSE(result.output.empty());
  EXPECT_EQ(result.output.find('\n'), result.output.size() - 1) << result.output;
}

TEST(CliErrors, EveryBadSceneFileIsNamedWithItsFault) {
  for (const auto& bad : testing::badSceneCases()) {
    SCOPED_TRACE(bad.file);
    const std::string path = testing::badScenePath(bad.file);
    const CliResult result = runCli("run '" + path + "' --steps 1");
    expectOneLineError(result, bad.mustMention);
    EXPECT_NE(result.output.find(bad.file), std::string::npos) << result.output;
  }
}

// A scene that parses but whose World cannot be built (tetrahedra too small to mesh): the error
// names the file as well as the body.
TEST(CliErrors, AWorldThatCannotBeBuiltNamesTheSceneFile) {
  const auto path = (std::filesystem::temp_directory_path() / "contactlab_tiny_tetrahedra.json").string();
  std::ofstream(path) << R"({ "bodies": [ { "shape": "sphere", "radius": 0.5, "position": [0, 0, 1],
    "deformable": { "youngs_modulus": 5e5, "max_tet_volume": 1e-12 } } ] })";
  const CliResult result = runCli("run '" + path + "' --steps 1");
  expectOneLineError(result, path + ": body 0");
  EXPECT_NE(result.output.find("max_tet_volume"), std::string::npos) << result.output;
  EXPECT_EQ(result.exitCode, 1) << result.output;
}

TEST(CliErrors, MissingFilesAndDirectoriesAreNamed) {
  const std::string missing = testing::badScenePath("no_such_scene.json");
  expectOneLineError(runCli("run '" + missing + "'"), missing + ": no such file");
  expectOneLineError(runCli(std::string("run '") + CONTACTLAB_TEST_DATA + "'"), "is a directory");
  expectOneLineError(runCli("run castle"), "\"castle\"");
}

TEST(CliErrors, BadFlagsAreNamed) {
  expectOneLineError(runCli("run bounce --frobnicate 3"), "--frobnicate");
  expectOneLineError(runCli("run bounce --steps ten"), "--steps: \"ten\" is not a whole number");
  expectOneLineError(runCli("run bounce --dt abc"), "--dt: \"abc\" is not a number");
  expectOneLineError(runCli("run bounce --dt -0.01"), "--dt: must be positive");
  expectOneLineError(runCli("run bounce --dt 1e999"), "--dt: \"1e999\" is out of range");
  expectOneLineError(runCli("run bounce --steps 99999999999999999999"), "--steps");
  expectOneLineError(runCli("run bounce --solver nope"), "--solver: unknown solver \"nope\"");
  expectOneLineError(runCli("run bounce --rfactor fast"), "--rfactor");
  expectOneLineError(runCli("run bounce --omega 2"), "--omega: must be below 2");
  expectOneLineError(runCli("run bounce --kdop 20"), "--kdop: expected 14, 18 or 26, got \"20\"");
  expectOneLineError(runCli("run bounce --modulus-alpha 0"), "--modulus-alpha: must be positive");
  expectOneLineError(runCli("run bounce --solver pgs-sm --pgs-sweeps 0"), "--pgs-sweeps: must be at least 1");
  // A setting of one solver given with another would change nothing.
  expectOneLineError(runCli("run bounce --solver pgs --rfactor local"), "--rfactor: applies to prox-gs or prox-jacobi only");
  expectOneLineError(runCli("run bounce --omega 1.5"), "--omega: applies to psor only, not to prox-gs");
  expectOneLineError(runCli("run bounce --sm-steps 3"), "--sm-steps: applies to pgs-sm only");
  expectOneLineError(runCli("run bounce --modulus-gamma 3"), "--modulus-gamma: applies to modulus-gs only");
  expectOneLineError(runCli("run bounce --deformable-tol-rel 0"), "--deformable-tol-rel: must be positive");
  expectOneLineError(runCli("run bounce --deformable-tol-abs nan"), "--deformable-tol-abs: \"nan\" is not a finite number");
  expectOneLineError(runCli("run bounce --deformable-max-iter 0"), "--deformable-max-iter: must be at least 1");
  expectOneLineError(runCli("run bounce --max-iter 0"), "--max-iter: must be at least 1, got 0 (see contactlab-cli run --help)");
  expectOneLineError(runCli("study --out x --steps 0"), "(see contactlab-cli study --help)");
  expectOneLineError(runCli("walk"), "(see contactlab-cli --help)");
  // A message that already says where to look gets no second pointer.
  const CliResult unknownScene = runCli("run castle");
  EXPECT_EQ(unknownScene.output.find("--help"), std::string::npos) << unknownScene.output;
  expectOneLineError(runCli("run bounce --vtk-every 5"), "--vtk-every: needs --vtk DIR");
  expectOneLineError(runCli("run bounce --trace same.csv --metrics ./same.csv"), "--trace and --metrics: both name same.csv");
  expectOneLineError(runCli("run bounce --deformable-stall -1"), "--deformable-stall: must be at least 0");
  expectOneLineError(runCli("run bounce --warm-start yes"), "--warm-start: expected on or off");
  expectOneLineError(runCli("run bounce --threads 0"), "--threads: must be at least 1");
  expectOneLineError(runCli("bench --threads 0"), "--threads: expected a whole number >= 1");
  expectOneLineError(runCli("study --out /tmp/x --threads -1"), "--threads");
  expectOneLineError(runCli("run bounce --trace"), "--trace: needs a value");
  expectOneLineError(runCli("run bounce --param height"), "--param: expected KEY=VALUE");
  expectOneLineError(runCli("run bounce --param colour=3"), "\"colour\"");
  EXPECT_EQ(runCli("run bounce --param colour=3").exitCode, 2) << "a typo on the command line, not a scene error";
  expectOneLineError(runCli("run bounce --param height=tall"), "--param height: \"tall\" is not a number");
  expectOneLineError(runCli("run"), "SCENE");
  expectOneLineError(runCli("walk"), "unknown command \"walk\"");
  expectOneLineError(runCli(""), "COMMAND");
}

const std::string kExampleScene = std::string(CONTACTLAB_TEST_DATA) + "/scenes/issue_example.json";

TEST(CliErrors, ParamsAndSeedsAreForBuiltinScenesOnly) {
  expectOneLineError(runCli("run '" + kExampleScene + "' --param count=3"), "--param applies to built-in scenes only");
  expectOneLineError(runCli("run '" + kExampleScene + "' --seed 3"), "--seed applies to built-in scenes only");
}

TEST(CliErrors, UnwritableOutputIsNamed) {
  expectOneLineError(runCli("run bounce --steps 1 --trace /nonexistent_dir/trace.csv"), "/nonexistent_dir/trace.csv");
}

TEST(Cli, RunsTheIssuesExampleSceneFile) {
  const CliResult result = runCli("run '" + kExampleScene + "' --steps 10");
  EXPECT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("steps 10"), std::string::npos) << result.output;
}

TEST(Cli, HelpAndVersionSucceed) {
  for (const char* arguments : {"--help", "--version", "run --help", "list --help", "run --steps x --help"}) {
    SCOPED_TRACE(arguments);
    const CliResult result = runCli(arguments);
    EXPECT_EQ(result.exitCode, 0) << result.output;
    EXPECT_FALSE(result.output.empty());
  }
}

TEST(Cli, ListsScenesWithParametersAndSolvers) {
  const CliResult result = runCli("list");
  EXPECT_EQ(result.exitCode, 0);
  for (const char* expected : {"wall", "rows=9", "tower", "pyramid", "incline", "bounce", "spin", "pile", "count=2000",
                               "prox-gs", "prox-jacobi"})
    EXPECT_NE(result.output.find(expected), std::string::npos) << expected;
}

// Reads a CSV file's lines.
std::vector<std::string> lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The CR solve's own columns of --metrics: two soft cubes flying at each other are two islands until
// they meet, one after; a rigid scene has none.
TEST(Cli, MetricsHoldTheDeformableSolvesIslandsAndConstraints) {
  const auto path = (std::filesystem::temp_directory_path() / "contactlab_cli_cr_metrics.csv").string();
  const CliResult result = runCli("run soft-cubes --param gap=0.2 --steps 300 --metrics '" + path + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const std::vector<std::string> rows = lines(path);
  ASSERT_EQ(rows.size(), 301u);
  const auto column = [&](const std::string& row, const std::string& name) {
    std::stringstream header(rows[0]), fields(row);
    std::string h, f;
    while (std::getline(header, h, ',') && std::getline(fields, f, ','))
      if (h == name) return std::stod(f);
    ADD_FAILURE() << "no column " << name;
    return 0.0;
  };
  EXPECT_EQ(column(rows[1], "cr_islands"), 2.0);
  EXPECT_EQ(column(rows[1], "cr_constraints"), 0.0);
  EXPECT_GT(column(rows[1], "cr_iterations"), 0.0);
  EXPECT_GT(column(rows[1], "cr_all_iterations"), column(rows[1], "cr_iterations"));  // both islands iterate
  double fewestIslands = 2.0, mostActive = 0.0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    fewestIslands = std::min(fewestIslands, column(rows[i], "cr_islands"));
    mostActive = std::max(mostActive, column(rows[i], "cr_active_constraints"));
    EXPECT_GE(column(rows[i], "cr_all_iterations"), column(rows[i], "cr_iterations"));
    EXPECT_GE(column(rows[i], "cr_constraints"), column(rows[i], "cr_active_constraints"));
  }
  EXPECT_EQ(fewestIslands, 1.0);
  EXPECT_GT(mostActive, 0.0);
  // The summary's mean iterations are the metrics' (rigid sweeps and CR iterations together).
  double iterations = 0.0;
  for (std::size_t i = 1; i < rows.size(); ++i) iterations += column(rows[i], "iterations");
  char summary[64];
  std::snprintf(summary, sizeof summary, "iterations mean %.1f", iterations / (rows.size() - 1));
  EXPECT_NE(result.output.find(summary), std::string::npos) << summary << " in\n" << result.output;
  const CliResult rigid = runCli("run bounce --steps 2 --metrics '" + path + "'");
  ASSERT_EQ(rigid.exitCode, 0) << rigid.output;
  EXPECT_TRUE(lines(path).at(1).ends_with(",0,0,0,0,0")) << lines(path).at(1);
}

TEST(Cli, RunWritesEveryFileWithItsHeaderAndTheStateRunsOn) {
  const auto dir = std::filesystem::temp_directory_path() / "contactlab_cli_test";
  std::filesystem::create_directories(dir);
  const auto file = [&](const char* name) { return (dir / name).string(); };
  const CliResult result =
      runCli("run bounce --steps 20 --trace '" + file("trace.csv") + "' --metrics '" + file("metrics.csv") +
             "' --residuals '" + file("residuals.csv") + "' --contacts '" + file("contacts.csv") +
             "' --state-out '" + file("state.json") + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("steps 20"), std::string::npos) << result.output;

  const auto trace = lines(file("trace.csv"));
  ASSERT_EQ(trace.size(), 21u);  // header + one dynamic body x 20 steps
  EXPECT_EQ(trace[0], "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  EXPECT_TRUE(trace[1].starts_with("1,0.01,1,")) << trace[1];
  const auto metrics = lines(file("metrics.csv"));
  ASSERT_EQ(metrics.size(), 21u);
  EXPECT_EQ(metrics[0],
            "step,time,bodies,contacts,iterations,residual,converged,rollbacks,kinetic_energy,potential_energy,"
            "max_penetration,collision_ms,assembly_ms,solver_ms,integrate_ms,step_ms,elastic_energy,cr_iterations,"
            "cr_all_iterations,cr_islands,cr_constraints,cr_active_constraints,cr_stalled");
  EXPECT_TRUE(metrics[20].starts_with("20,0.2,2,")) << metrics[20];
  EXPECT_EQ(lines(file("residuals.csv")).at(0), "step,iteration,residual,solve");
  EXPECT_EQ(lines(file("contacts.csv")).at(0),
            "step,body_a,body_b,px,py,pz,nx,ny,nz,gap,lambda_n,lambda_t,lambda_s,lambda_tau,state");

  // The continued run counts on: its trace is the rows an uninterrupted run of 25 steps has after
  // step 20, step and time columns included.
  const CliResult resumed = runCli("run '" + file("state.json") + "' --steps 5 --trace '" + file("resumed.csv") + "'");
  EXPECT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("steps 5"), std::string::npos) << resumed.output;
  ASSERT_EQ(runCli("run bounce --steps 25 --trace '" + file("whole.csv") + "'").exitCode, 0);
  const auto whole = lines(file("whole.csv")), continued = lines(file("resumed.csv"));
  ASSERT_EQ(continued.size(), 6u);
  EXPECT_TRUE(continued[1].starts_with("21,0.21,1,")) << continued[1];
  EXPECT_EQ(std::vector<std::string>(continued.begin() + 1, continued.end()),
            std::vector<std::string>(whole.end() - 5, whole.end()));
  std::filesystem::remove_all(dir);
}

// The VTK series starts with the state before the first step, then every N steps.
TEST(Cli, VtkSeriesStartsWithTheStartingStateThenEveryNSteps) {
  const auto dir = std::filesystem::temp_directory_path() / "contactlab_cli_vtk";
  std::filesystem::remove_all(dir);
  const CliResult result = runCli("run bounce --steps 4 --vtk-every 2 --vtk '" + dir.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  int frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) frames += entry.path().extension() == ".vtu";
  EXPECT_EQ(frames, 3);
  std::string pvd;
  for (const std::string& line : lines((dir / "frames.pvd").string())) pvd += line;
  for (const char* time : {"timestep=\"0\"", "timestep=\"0.02\"", "timestep=\"0.04\""})
    EXPECT_NE(pvd.find(time), std::string::npos) << time << " in " << pvd;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
