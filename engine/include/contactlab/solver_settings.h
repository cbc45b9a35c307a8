#pragma once
// Settings of the contact solve: which solver, when it stops, and each solver family's knobs. The same
// structs drive the CLI flags, the app's panel and the tests; docs/solvers.md ("Settings") says why
// each default is what it is.
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

// PROX paper sec. 4.2.
enum class RFactorStrategy { Global, Local, Blocked };
const char* rFactorName(RFactorStrategy s);
// Parses "global" | "local" | "blocked"; returns false on anything else.
bool parseRFactor(std::string_view text, RFactorStrategy& out);

// prox-gs and prox-jacobi (prox-rigid-body-contact-proximal-operators.md).
struct ProxSettings {
  RFactorStrategy rFactor = RFactorStrategy::Global;  // how the r-factors are chosen, sec. 4.2 (prox/r_factor.h)

  bool operator==(const ProxSettings&) const = default;
};

// psor: projected SOR with box friction.
struct PsorSettings {
  double omega = 1.2;  // relaxation, r_i = omega / A_ii (PROX paper sec. 4.2, after eq. 39); in (0, 2)

  bool operator==(const PsorSettings&) const = default;
};

// pgs-sm: PGS with subspace minimization (pgs-subspace-minimization.txt, defaults of its sec. 5).
struct PgsSubspaceSettings {
  int pgsSweeps = 25;            // k_pgs: PGS sweeps before each subspace phase
  int subspaceSteps = 5;         // k_sm: subspace-minimization steps per phase
  int cgMaxIterations = 0;       // CG iterations per reduced system; 0: the number of free rows
  double cgTolerance = 1e-15;    // CG stops when ||residual|| <= this * ||right-hand side||
  double regularization = 0.0;   // A_FF + gamma diag(A_FF) (sec. 5.1 with a unit-free gamma); 0: none

  bool operator==(const PgsSubspaceSettings&) const = default;
};

// modulus-gs (accelerated-modulus-gauss-seidel.txt).
struct ModulusSettings {
  double alpha = 0.5;  // Omega = alpha diag(A) (sec. 4, Corollary 4.3); > 0
  double gamma = 2.0;  // Gamma = E / gamma (eq. 10); > 0

  bool operator==(const ModulusSettings&) const = default;
};

// prox-gs and prox-jacobi on problems given in Delassus form (problem files, problem/delassus_problem.h);
// the body-space solves of a World ignore them.
struct ProblemFileSettings {
  // prox-gs: proximal steps per contact and sweep; 1 is PROX Alg. 2, more make a block Gauss-Seidel sweep.
  int localIterations = 1;
  // prox-gs: a contact's repeated steps stop at this fraction of min(previous sweep's merit, its first step).
  double localTolerance = 0.1;
  // prox-gs: solve each contact's local problem exactly (solvers/coulomb_local_solve.h), as Siconos' NSGS.
  bool exactLocalSolve = false;
  // Every this many sweeps, a subspace step on the iterate's contact states (prox/subspace_step.h); 0: never.
  int subspaceInterval = 0;

  bool operator==(const ProblemFileSettings&) const = default;
};

struct SolverSettings {
  std::string solver = "prox-gs";  // a name from solverNames()
  int maxIterations = 1000;        // sweeps, rolled-back sweeps included
  // When a solve stops (stoppingTest, solvers/contact_solver.h). The defaults solve resting stacks
  // to where they stand (docs/benchmarks.md, "The defaults"); the PROX paper's are tolAbs = tolRel =
  // 1e-3 and no stall test (`contactlab-cli study` runs those).
  double tolAbs = 1e-5;  // stop when the solver's merit is below this; 0: never
  double tolRel = 0.0;   // the paper's test: stop when the merit changes by less than this fraction; 0: never
  int stallWindow = 60;  // stop when this many sweeps did not halve the least merit; 0: never
  // > 0: the PROX solvers stop only when the natural-map residual (problem/natural_map.h) is below this too.
  double naturalMapTolerance = 0.0;

  ProxSettings prox;
  PsorSettings psor;
  PgsSubspaceSettings pgsSm;
  ModulusSettings modulus;
  ProblemFileSettings problemFile;

  bool operator==(const SolverSettings&) const = default;
};

// What `contactlab-cli solve FILE.dat` runs when given no flags: prox-gs (one proximal step per
// contact and sweep, PROX Alg. 2) with the Local r-factor, stopping at a natural-map residual of 1e-8
// or after 10000 sweeps. Chosen by measurement against Siconos' NSGS on the sample files
// (docs/fc3d.md, "The default configuration"); contactlab-bench-siconos runs the same settings in its
// row "solve defaults".
SolverSettings problemFileSolveDefaults();

// The deformable constraints' friction set: the Coulomb cone of sec. 3.2 (the kinetic force along a
// direction realigned to the sliding, Alg. 3), or a pyramid, each tangent row on its own between
// -mu lambda and mu lambda, as the paper's CR (Diag) of Fig. 11 and Table 1 has it.
enum class DeformableFriction { Cone, Pyramid };
const char* deformableFrictionName(DeformableFriction friction);  // "cone", "pyramid"
bool parseDeformableFriction(std::string_view text, DeformableFriction& out);  // false for another name

// The deformable problem's solve (conjugate-residual-deformable-contact.txt, Alg. 1-3): "cr-full" or
// "cr-diag", the preconditioner of sec. 3.4. Tolerances are the paper's.
struct DeformableSolverSettings {
  std::string solver = "cr-full";
  DeformableFriction friction = DeformableFriction::Cone;
  double relativeTolerance = 5e-5;  // epsilon_1: ||r|| below this times ||b - A v|| at the start (Alg. 1, line 22)
  double absoluteTolerance = 5e-6;  // epsilon_2 (metres): largest active constraint error, and smallest state change kept
  int maxIterations = 20000;        // CR iterations per step, re-linearizations included
  // A solve whose least merit under its present constraints has not fallen by 1 % in this many
  // iterations stops there with its best iterate, as a capped one does; 0: only the cap stops it.
  int stallIterations = 2000;

  bool operator==(const DeformableSolverSettings&) const = default;
};

struct SolverDescription {
  std::string name;
  std::string summary;
  bool usesRFactor = false;  // whether ProxSettings::rFactor changes it (the PROX solvers)
};
// Every registered solver, in registry order: the GUI combo box, the CLI and the tests use this list.
std::vector<SolverDescription> solverNames();
// The deformable problem's solvers, in registry order (cr-full, cr-diag).
std::vector<SolverDescription> deformableSolverNames();

}  // namespace contactlab
