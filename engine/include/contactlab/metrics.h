#pragma once
// What a step and a solve report: the profiler panel, the CLI metrics CSV and the studies read these.
#include <array>
#include <vector>

namespace contactlab {

// The stages of World::step, in order; each has its own timer.
enum class Stage { Collision, Assembly, Solve, Integrate, Stabilize, Sleep, Count };
const char* stageName(Stage s);

// How a solve stopped: None at the sweep cap, else by which test of stoppingTest
// (solvers/contact_solver.h).
enum class Convergence { None, Absolute, Relative, Stalled };
const char* convergenceName(Convergence c);

struct SolveReport {
  int iterations = 0;  // sweeps done, rolled-back ones included (a step's: its islands' most)
  // Contacts times sweeps, summed over the problems a step solved (its islands): what a per-contact,
  // per-sweep cost divides by. Set by the World's island solve; 0 in a solver's own report.
  double contactSweeps = 0.0;
  int rollbacks = 0;   // sweeps rejected by divergence detection (PROX Alg. 1-2, lines 11-13)
  Convergence convergence = Convergence::None;
  double residual = 0.0;                 // the solver's merit after the last accepted sweep
  std::vector<double> residualHistory;   // merit of every sweep, rejected ones included
  std::vector<double> rFactorHistory;    // r-factor scale in force for every sweep (1 = initial values);
                                         // of a step's largest island, held after it stopped
  double initialGlobalR = 0.0;           // the Global strategy's initial r (0 for other strategies)
  double seconds = 0.0;
  // The part of `seconds` spent iterating, from the first sweep to the end of the last (roll-backs
  // and merit tests included): without the set-up before it (r-factors, the sweep order, the
  // iterate's and w's start) and the read-out after. Per contact and sweep, the cost of a sweep.
  double iterationSeconds = 0.0;
  // The common merit (problem/natural_map.h) at the end of the solve, the same for every solver:
  // filled for Delassus problems always, for the World's body-space solves only when
  // WorldSettings::computeNaturalMap is on; -1 when not computed.
  double naturalMapResidual = -1.0;
  bool converged() const { return convergence != Convergence::None; }
};

// The deformable MLCP's solve by the CR method (conjugate-residual-deformable-contact.txt, Alg. 1).
// The World solves each island of bodies joined by constraints as its own MLCP (docs/deformable.md,
// "One MLCP per island"); its report then sums the islands' counts, except for the iterations:
// those of the island that needed the most (with one island, the whole system's), added over the
// passes of a step in which a collision joined islands and the joined ones were solved again; all
// islands' together in allIterations.
struct DeformableSolveReport {
  int iterations = 0;          // CR iterations (Alg. 1, line 8), over every re-linearization
  int allIterations = 0;       // over all islands and passes
  int islands = 1;             // islands the step ends with
  int activeSetChanges = 0;    // constraint state changes kept (Alg. 2: activations, deactivations, friction switches)
  int residualRestarts = 0;    // times the residual was recomputed after a change (Alg. 1, lines 19-21)
  int relinearizations = 0;    // re-linearizations that changed a constraint (Alg. 1, line 27)
  int collisionRounds = 0;     // collision checks at convergence that added constraints (line 25)
  bool localMinimum = false;   // stopped by ||B C^-1 r|| < epsilon_1 (sec. 4.3), in any island
  // Stopped unconverged (the iteration cap or a stall) and returned the best iterate it had met,
  // not its last.
  bool tookBestIterate = false;
  bool stalled = false;  // stopped by DeformableSolverSettings::stallIterations, in any island
  Convergence convergence = Convergence::None;  // None if any island did not converge
  double residual = 0.0;                      // ||r|| at the end, of all islands' r together
  // After every iteration: ||r|| of all islands' residuals together, and ||U r||_inf (the largest
  // active constraint error); an island that has stopped counts with its last.
  std::vector<double> residualHistory;
  std::vector<double> constraintHistory;
  double seconds = 0.0;
  bool converged() const { return convergence != Convergence::None; }
};

struct StepMetrics {
  int step = 0;
  double time = 0.0;
  int bodies = 0;
  int contacts = 0;
  SolveReport solve;
  DeformableSolveReport deformable;  // the deformable bodies' CR solve (empty without them)
  int deformableConstraints = 0;     // active deformable constraints after the solve (part of `contacts`)
  double kineticEnergy = 0.0;
  double potentialEnergy = 0.0;
  double elasticEnergy = 0.0;   // of the deformable bodies
  double maxPenetration = 0.0;  // largest -gap over the step's contacts, >= 0; deformable vertices included
  std::array<double, static_cast<int>(Stage::Count)> stageMs{};
  double stepMs = 0.0;
  double ms(Stage s) const { return stageMs[static_cast<int>(s)]; }
  // The rigid solve's sweeps and the deformable bodies' CR iterations together, as `contacts`
  // counts both kinds of contact.
  int iterations() const { return solve.iterations + deformable.iterations; }
};

}  // namespace contactlab
