#include "core/simulation_session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/temporary_directory.h"

namespace contactlab::app {
namespace {

std::vector<std::vector<std::string>> readCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) fields.push_back(cell);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

double number(const std::string& text) { return std::stod(text); }

// Issue 3's acceptance: switching solver and r-factor while running changes the residual curve
// the plot shows on the very next step.
TEST(SimulationSession, SwitchingSolverAndRFactorChangesTheNextResidualCurve) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("tower")), std::nullopt);
  ASSERT_EQ(session.step(5), std::nullopt);
  const SolveReport before = session.lastSolve();
  ASSERT_FALSE(before.residualHistory.empty());
  EXPECT_GT(before.initialGlobalR, 0.0);  // the Global strategy reports its r
  EXPECT_EQ(session.world().settings().solver.solver, "prox-gs");

  WorldSettings settings = session.settings();
  settings.solver.solver = "prox-jacobi";
  settings.solver.prox.rFactor = RFactorStrategy::Local;
  ASSERT_EQ(session.setSettings(settings), std::nullopt);
  EXPECT_EQ(session.settings().solver.solver, "prox-jacobi");
  EXPECT_EQ(session.world().settings().solver.prox.rFactor, RFactorStrategy::Local);
  // Nothing changes until the next step.
  EXPECT_EQ(session.lastSolve().residualHistory, before.residualHistory);

  ASSERT_EQ(session.step(), std::nullopt);
  const SolveReport after = session.lastSolve();
  ASSERT_FALSE(after.residualHistory.empty());
  EXPECT_NE(after.residualHistory, before.residualHistory);
  EXPECT_EQ(after.initialGlobalR, 0.0);  // Local strategy: no global r
  EXPECT_EQ(after.rFactorHistory.size(), after.residualHistory.size());
  EXPECT_EQ(session.history().samples().back().iterations, after.iterations);
  EXPECT_EQ(session.history().samples().back().residual, after.residual);
}

TEST(SimulationSession, RFactorAloneChangesTheCurve) {
  SimulationSession global, local;
  ASSERT_EQ(global.load(SceneSource::builtin("wall")), std::nullopt);
  ASSERT_EQ(local.load(SceneSource::builtin("wall")), std::nullopt);
  ASSERT_EQ(global.step(3), std::nullopt);
  ASSERT_EQ(local.step(3), std::nullopt);
  WorldSettings settings = local.settings();
  settings.solver.prox.rFactor = RFactorStrategy::Local;
  ASSERT_EQ(local.setSettings(settings), std::nullopt);
  ASSERT_EQ(global.step(), std::nullopt);
  ASSERT_EQ(local.step(), std::nullopt);
  EXPECT_NE(local.lastSolve().residualHistory, global.lastSolve().residualHistory);
}

TEST(SimulationSession, BadSceneFilesReportTheFileAndKeepThePreviousWorldStepping) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("bounce")), std::nullopt);
  ASSERT_EQ(session.step(3), std::nullopt);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CONTACTLAB_TEST_DATA) + "/bad_scenes")) {
    ++files;
    const std::string path = entry.path().string();
    const std::optional<std::string> error = session.load(SceneSource::file(path));
    ASSERT_TRUE(error.has_value()) << path << " loaded";
    EXPECT_NE(error->find(path), std::string::npos) << *error;
    EXPECT_EQ(session.source().builtinName, "bounce");
    EXPECT_EQ(session.world().stepCount(), 3);
  }
  EXPECT_GE(files, 5);
  EXPECT_EQ(session.step(), std::nullopt);
  EXPECT_EQ(session.world().stepCount(), 4);
  EXPECT_EQ(session.history().samples().size(), 4u);
}

TEST(SimulationSession, MissingFileAndUnknownParameterAreReported) {
  SimulationSession session;
  const auto missing = session.load(SceneSource::file("/no/such/scene.json"));
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("/no/such/scene.json"), std::string::npos) << *missing;
  EXPECT_FALSE(session.hasWorld());
  const auto parameter = session.load(SceneSource::builtin("pile", {{"bogus", 3}}));
  ASSERT_TRUE(parameter.has_value());
  EXPECT_NE(parameter->find("bogus"), std::string::npos) << *parameter;
  EXPECT_TRUE(session.step().has_value());  // no world to step
}

TEST(SimulationSession, ReloadStartsTheSceneOver) {
  SimulationSession session;
  EXPECT_TRUE(session.reload().has_value());
  ASSERT_EQ(session.load(SceneSource::builtin("bounce")), std::nullopt);
  const Vec3 start = session.world().bodies().back().position;
  ASSERT_EQ(session.step(20), std::nullopt);
  EXPECT_NE(session.world().bodies().back().position, start);
  ASSERT_EQ(session.reload(), std::nullopt);
  EXPECT_EQ(session.world().stepCount(), 0);
  EXPECT_EQ(session.world().bodies().back().position, start);
  EXPECT_TRUE(session.history().samples().empty());
}

TEST(SimulationSession, EngineErrorPausesAndIsReported) {
  // A body at 1e307 m/s with a 100 s step: its position overflows and the engine reports a non-finite state.
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "explodes.json").string();
  {
    std::ofstream out(path);
    out << R"({ "gravity": [0, 0, 0], "dt": 100, "bodies": [ { "shape": "sphere", "radius": 0.5, "position": [0, 0, 0],
                "velocity": [1e307, 0, 0] } ] })";
  }
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::file(path)), std::nullopt);
  EXPECT_FALSE(session.paused());
  std::optional<std::string> error;
  for (int i = 0; i < 10 && !error; ++i) error = session.step();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("non-finite"), std::string::npos) << *error;
  EXPECT_TRUE(session.paused());
  EXPECT_EQ(session.stepsForFrame(1.0), 0);
}

TEST(SimulationSession, RealTimePacingAccumulatesScaledWallTime) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("bounce")), std::nullopt);
  ASSERT_EQ(session.setDt(0.01), std::nullopt);
  session.pacing = Pacing::RealTime;

  session.realTimeFactor = 0.5;
  EXPECT_EQ(session.stepsForFrame(0.1), 5);
  session.realTimeFactor = 2.0;
  EXPECT_EQ(session.stepsForFrame(0.1), 20);

  // Frames shorter than dt carry their time over.
  session.realTimeFactor = 1.0;
  EXPECT_EQ(session.stepsForFrame(0.004), 0);
  EXPECT_EQ(session.stepsForFrame(0.004), 0);
  EXPECT_EQ(session.stepsForFrame(0.004), 1);
  EXPECT_EQ(session.stepsForFrame(0.008), 1);  // 0.002 left over + 0.008

  // A long frame is capped and the excess dropped, not owed to later frames.
  session.maxStepsPerFrame = 50;
  EXPECT_EQ(session.stepsForFrame(10.0), 50);
  EXPECT_EQ(session.stepsForFrame(0.0), 0);

  // Setting the same state again (a checkbox bound every frame) keeps the carried-over time.
  EXPECT_EQ(session.stepsForFrame(0.006), 0);
  session.setPaused(false);
  EXPECT_EQ(session.stepsForFrame(0.006), 1);

  session.setPaused(true);
  EXPECT_EQ(session.stepsForFrame(1.0), 0);
  session.setPaused(false);
  EXPECT_EQ(session.stepsForFrame(0.0), 0);  // time spent paused is not owed
  EXPECT_EQ(session.stepsForFrame(-1.0), 0);
}

TEST(SimulationSession, FixedPacingTakesStepsPerFrame) {
  SimulationSession session;
  EXPECT_EQ(session.stepsForFrame(1.0), 0);  // no world
  ASSERT_EQ(session.load(SceneSource::builtin("bounce")), std::nullopt);
  session.pacing = Pacing::FixedStepsPerFrame;
  session.stepsPerFrame = 3;
  EXPECT_EQ(session.stepsForFrame(0.0), 3);
  EXPECT_EQ(session.stepsForFrame(5.0), 3);
  session.setPaused(true);
  EXPECT_EQ(session.stepsForFrame(0.1), 0);
}

TEST(PlotHistory, KeepsTheMostRecentSamples) {
  PlotHistory history(3);
  for (int i = 1; i <= 5; ++i) {
    StepSample sample;
    sample.step = i;
    sample.kinetic = 10.0 * i;
    history.add(sample);
  }
  ASSERT_EQ(history.samples().size(), 3u);
  EXPECT_EQ(history.samples().front().step, 3);
  EXPECT_EQ(history.samples().back().step, 5);
  EXPECT_EQ(history.values(&StepSample::kinetic), (std::vector<double>{30, 40, 50}));
  EXPECT_EQ(history.values(&StepSample::step), (std::vector<double>{3, 4, 5}));
  history.clear();
  EXPECT_TRUE(history.samples().empty());
}

TEST(SimulationSession, HistoryFollowsTheSteps) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("tower")), std::nullopt);
  ASSERT_EQ(session.step(10), std::nullopt);
  const auto& samples = session.history().samples();
  ASSERT_EQ(samples.size(), 10u);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(samples[i].step, static_cast<int>(i) + 1);
    EXPECT_NEAR(samples[i].time, (i + 1) * session.world().dt(), 1e-12);
    EXPECT_DOUBLE_EQ(samples[i].total, samples[i].kinetic + samples[i].potential);
  }
  EXPECT_EQ(samples.back().contacts, static_cast<int>(session.world().contacts().size()));
  EXPECT_GT(samples.back().contacts, 0);
  EXPECT_GT(samples.back().iterations, 0);
  EXPECT_GE(samples.back().stepMs, samples.back().solveMs);
}

TEST(SimulationSession, LiveSettingsAreValidatedAndKeptAcrossLoads) {
  SimulationSession session;
  WorldSettings bad;
  bad.solver.maxIterations = -1;
  EXPECT_TRUE(session.setSettings(bad).has_value());
  bad = {};
  bad.solver.solver = "no-such-solver";
  const auto unknown = session.setSettings(bad);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_NE(unknown->find("no-such-solver"), std::string::npos) << *unknown;
  EXPECT_EQ(session.settings().solver.solver, "prox-gs");

  WorldSettings settings;
  settings.solver.prox.rFactor = RFactorStrategy::Blocked;
  settings.solver.maxIterations = 77;
  ASSERT_EQ(session.setSettings(settings), std::nullopt);  // before any world
  ASSERT_EQ(session.setDt(0.004), std::nullopt);
  FrictionDefaults friction;
  friction.mu = 0.3;
  ASSERT_EQ(session.setFrictionDefaults(friction), std::nullopt);

  ASSERT_EQ(session.load(SceneSource::builtin("bounce")), std::nullopt);
  EXPECT_EQ(session.world().settings().solver.prox.rFactor, RFactorStrategy::Blocked);
  EXPECT_EQ(session.world().settings().solver.maxIterations, 77);
  EXPECT_DOUBLE_EQ(session.world().dt(), 0.004);
  EXPECT_DOUBLE_EQ(session.world().frictionDefaults().mu, 0.3);
  EXPECT_DOUBLE_EQ(session.frictionDefaults().mu, 0.3);

  EXPECT_TRUE(session.setDt(0.0).has_value());
  EXPECT_TRUE(session.setDt(std::numeric_limits<double>::quiet_NaN()).has_value());
  EXPECT_DOUBLE_EQ(session.world().dt(), 0.004);
  friction.mu = -1.0;
  EXPECT_TRUE(session.setFrictionDefaults(friction).has_value());
  EXPECT_DOUBLE_EQ(session.world().frictionDefaults().mu, 0.3);

  session.useSceneDt();
  ASSERT_EQ(session.reload(), std::nullopt);
  EXPECT_DOUBLE_EQ(session.world().dt(), buildBuiltinScene("bounce", {}, 1).dt);
}

// A soft cube on a static slab, with the beam of the app's checks pinned at one end above it.
constexpr const char* kSoftScene =
    R"({"dt": 0.001, "bodies": [)"
    R"({"name": "ground", "shape": "box", "size": [2, 2, 0.2], "position": [0, 0, -0.1], "static": true},)"
    R"({"name": "soft", "shape": "box", "size": [0.2, 0.2, 0.2], "position": [0, 0, 0.1005], "deformable": {}},)"
    R"({"name": "beam", "shape": "box", "size": [0.8, 0.1, 0.1], "position": [0.6, 0, 0.6],)"
    R"( "deformable": {"youngs_modulus": 2e5, "pinned": {"min": [0.15, -1, -1], "max": [0.21, 1, 2]}}}]})";

TEST(SimulationSession, SwitchingTheDeformableSolverChangesTheNextCrCurve) {
  const test::TemporaryDirectory scratch;
  const std::string path = scratch.write("soft.json", kSoftScene);
  SimulationSession full, diag;
  ASSERT_EQ(full.load(SceneSource::file(path)), std::nullopt);
  ASSERT_EQ(diag.load(SceneSource::file(path)), std::nullopt);
  ASSERT_EQ(full.world().deformableBodyCount(), 2);
  ASSERT_EQ(full.step(20), std::nullopt);
  ASSERT_EQ(diag.step(20), std::nullopt);
  EXPECT_EQ(full.world().lastMetrics().deformable.residualHistory, diag.world().lastMetrics().deformable.residualHistory);

  WorldSettings settings = diag.settings();
  settings.deformable.solver = "cr-diag";
  ASSERT_EQ(diag.setSettings(settings), std::nullopt);
  ASSERT_EQ(full.step(1), std::nullopt);
  ASSERT_EQ(diag.step(1), std::nullopt);
  const DeformableSolveReport& a = full.world().lastMetrics().deformable;
  const DeformableSolveReport& b = diag.world().lastMetrics().deformable;
  ASSERT_GT(a.iterations, 0);
  EXPECT_EQ(static_cast<int>(a.residualHistory.size()), a.iterations);
  EXPECT_NE(a.residualHistory, b.residualHistory) << "the preconditioner changes the CR iterates";
  settings.deformable.solver = "no-such-solver";
  EXPECT_TRUE(diag.setSettings(settings).has_value());
  EXPECT_EQ(diag.world().settings().deformable.solver, "cr-diag");

  // The history has the CR iterations, re-linearizations and state changes and the elastic energy, which the total includes.
  const StepSample& last = full.history().samples().back();
  EXPECT_EQ(last.crIterations, a.iterations);
  EXPECT_EQ(last.crRelinearizations, a.relinearizations);
  EXPECT_EQ(last.crActiveSetChanges, a.activeSetChanges);
  EXPECT_GT(last.elastic, 0.0) << "the beam bends";
  EXPECT_DOUBLE_EQ(last.total, last.kinetic + last.potential + last.elastic);
}

TEST(SimulationSession, SavedStateLoadsBackWithTheSameBodies) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("tower")), std::nullopt);
  ASSERT_EQ(session.step(30), std::nullopt);
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "state.json").string();
  ASSERT_EQ(session.saveState(path), std::nullopt);
  const std::vector<Body> saved = session.world().bodies();

  SimulationSession restored;
  ASSERT_EQ(restored.load(SceneSource::file(path)), std::nullopt);
  const std::vector<Body>& bodies = restored.world().bodies();
  ASSERT_EQ(bodies.size(), saved.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    EXPECT_EQ(bodies[i].motion, saved[i].motion) << i;
    EXPECT_EQ(kindOf(bodies[i].shape), kindOf(saved[i].shape)) << i;
    EXPECT_LT((bodies[i].position - saved[i].position).norm(), 1e-12) << i;
    EXPECT_LT(bodies[i].orientation.angularDistance(saved[i].orientation), 1e-9) << i;
    EXPECT_LT((bodies[i].velocity - saved[i].velocity).norm(), 1e-12) << i;
    EXPECT_LT((bodies[i].angularVelocity - saved[i].angularVelocity).norm(), 1e-12) << i;
    EXPECT_NEAR(bodies[i].mass, saved[i].mass, 1e-9 * saved[i].mass) << i;
  }

  const std::string unwritable = "/no/such/folder/state.json";
  const auto error = session.saveState(unwritable);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(unwritable), std::string::npos) << *error;
}

TEST(SimulationSession, HistoryCsvReadsBackExactly) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("tower")), std::nullopt);
  ASSERT_EQ(session.step(6), std::nullopt);
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "history.csv").string();
  ASSERT_EQ(session.exportHistoryCsv(path), std::nullopt);
  const auto rows = readCsv(path);
  ASSERT_EQ(rows.size(), 7u);
  const std::vector<std::string>& header = rows[0];
  ASSERT_EQ(header.size(), 21u);
  EXPECT_EQ(header[0], "step");
  EXPECT_EQ(header[3], "residual");
  EXPECT_EQ(header[8], "total_energy");
  EXPECT_EQ(header[9], "contacts");
  const auto& samples = session.history().samples();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::vector<std::string>& row = rows[i + 1];
    ASSERT_EQ(row.size(), header.size()) << i;
    EXPECT_EQ(std::stoi(row[0]), samples[i].step);
    EXPECT_EQ(number(row[1]), samples[i].time);
    EXPECT_EQ(std::stoi(row[2]), samples[i].iterations);
    EXPECT_EQ(number(row[3]), samples[i].residual);
    EXPECT_EQ(row[4], samples[i].converged ? "1" : "0");
    EXPECT_EQ(number(row[6]), samples[i].kinetic);
    EXPECT_EQ(number(row[7]), samples[i].potential);
    EXPECT_EQ(number(row[8]), samples[i].total);
    EXPECT_EQ(std::stoi(row[9]), samples[i].contacts);
    EXPECT_EQ(number(row[16]), samples[i].stepMs);
    EXPECT_EQ(number(row[17]), samples[i].elastic);
    EXPECT_EQ(std::stoi(row[18]), samples[i].crIterations);
    EXPECT_EQ(std::stoi(row[19]), samples[i].crRelinearizations);
    EXPECT_EQ(std::stoi(row[20]), samples[i].crActiveSetChanges);
  }
}

TEST(SimulationSession, LastSolveCsvReadsBackExactly) {
  SimulationSession session;
  ASSERT_EQ(session.load(SceneSource::builtin("tower")), std::nullopt);
  ASSERT_EQ(session.step(4), std::nullopt);
  const test::TemporaryDirectory scratch;
  const std::string path = (scratch.path() / "solve.csv").string();
  ASSERT_EQ(session.exportLastSolveCsv(path), std::nullopt);
  const auto rows = readCsv(path);
  const SolveReport& solve = session.lastSolve();
  ASSERT_EQ(rows.size(), solve.residualHistory.size() + 1);
  ASSERT_EQ(solve.rFactorHistory.size(), solve.residualHistory.size());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"iteration", "residual", "r_factor_scale"}));
  for (std::size_t i = 0; i < solve.residualHistory.size(); ++i) {
    EXPECT_EQ(std::stoi(rows[i + 1][0]), static_cast<int>(i) + 1);
    EXPECT_EQ(number(rows[i + 1][1]), solve.residualHistory[i]);
    EXPECT_EQ(number(rows[i + 1][2]), solve.rFactorHistory[i]);
  }

  const auto error = session.exportHistoryCsv("/no/such/folder/h.csv");
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("/no/such/folder/h.csv"), std::string::npos) << *error;
}

}  // namespace
}  // namespace contactlab::app
