// Issue 4 asks: "Each solver runs wall, tower and pile for 500 steps without NaN or explosion; where
// a method is known to fail (PGS-SM blow-ups, sec. 5 of its paper) the test documents the failure
// instead of hiding it." This file does it for pgs, psor and pgs-sm (solvers/pgs.h,
// solvers/pgs_subspace_min.h): the built-in wall (9 x 9 bricks) and tower (7 x 7) for 500 steps and
// a pile of 100 bodies for 300 steps (it has landed and settled by then; 500 steps of the 2000-body
// default pile would take minutes), with the default settings (at most 1000 iterations, tolerances
// 1e-3). "Explosion" is measured by energy: the scenes' restitution is 0, so contacts can only take
// energy out, and kinetic plus potential energy must never rise above where it started.
//
// PGS-SM is the documented failure. Its paper (sec. 5, 6) reports blow-ups on larger
// configurations: the active set guessed from lambda is wrong, the reduced system's solution jumps
// (the "spikes" of its Fig. 3), and the fall-back to the best iterate is what keeps it near PGS.
// Here it stays finite, but (1) it falls back in a good share of the steps and leaves some solves
// unconverged, and (2) it injects energy: measured with the paper's CG settings, the tower gained
// 2.1 J over its 10767 J start within 500 steps (no contact model allows a gain). So for pgs-sm the
// test asserts what it does: finite, the gain bounded by 1e-3 of the start, fall-backs happening.
// It runs 200 steps of each scene with CG capped at 50 iterations per reduced system (the paper's
// cap, the number of free rows, would make the three scenes too slow for the suite).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "contactlab/world.h"
#include "solvers/contact_solver.h"

namespace contactlab {
namespace {

struct SceneRun {
  double largestGain = 0.0;  // largest rise of kinetic + potential energy over the start
  double initialEnergy = 0.0;
  bool finite = true;
  int fallBacks = 0;  // solves with a roll-back / fall-back to the best iterate
  int unconverged = 0;
};

SceneRun runScene(const WorldSettings& settings, const std::string& scene, const SceneParams& params, int steps) {
  World world(buildBuiltinScene(scene, params, 1), settings);
  SceneRun run;
  run.initialEnergy = world.kineticEnergy() + world.potentialEnergy();
  for (int i = 0; i < steps && run.finite; ++i) {
    world.step();
    const double energy = world.kineticEnergy() + world.potentialEnergy();
    run.finite = std::isfinite(energy);
    run.largestGain = std::max(run.largestGain, energy - run.initialEnergy);
    run.fallBacks += world.lastMetrics().solve.rollbacks > 0;
    run.unconverged += !world.lastMetrics().solve.converged();
  }
  return run;
}

class PgsFamilyScenes : public ::testing::TestWithParam<const char*> {};

TEST_P(PgsFamilyScenes, WallTowerAndPileStayBounded) {
  const std::string solver = GetParam();
  const bool subspace = solver == "pgs-sm";
  WorldSettings settings;
  settings.solver.solver = solver;
  if (subspace) settings.solver.pgsSm.cgMaxIterations = 50;
  struct Case {
    const char* scene;
    SceneParams params;
    int steps;
  };
  int fallBacks = 0;
  for (const Case& c : {Case{"wall", {}, 500}, Case{"tower", {}, 500}, Case{"pile", {{"count", 100}}, 300}}) {
    const SceneRun run = runScene(settings, c.scene, c.params, subspace ? 200 : c.steps);
    fallBacks += run.fallBacks;
    EXPECT_TRUE(run.finite) << solver << " on " << c.scene;
    EXPECT_LT(run.largestGain, (subspace ? 1e-3 : 1e-6) * std::abs(run.initialEnergy)) << solver << " on " << c.scene;
    RecordProperty(std::string(c.scene) + "_fallbacks", run.fallBacks);
    RecordProperty(std::string(c.scene) + "_unconverged", run.unconverged);
    RecordProperty(std::string(c.scene) + "_gain_ppm", static_cast<int>(1e6 * run.largestGain / std::abs(run.initialEnergy)));
  }
  if (subspace) EXPECT_GT(fallBacks, 0) << "the fall-back to the best iterate is part of PGS-SM's behaviour here";
}

INSTANTIATE_TEST_SUITE_P(Solvers, PgsFamilyScenes, ::testing::Values("pgs", "psor", "pgs-sm"),
                         [](const auto& info) { std::string n = info.param; std::replace(n.begin(), n.end(), '-', '_'); return n; });

}  // namespace
}  // namespace contactlab
