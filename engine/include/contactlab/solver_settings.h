#pragma once
// Settings of the contact solve; the same struct drives the CLI flags, the GUI panel and the tests.
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

// PROX paper sec. 4.2.
enum class RFactorStrategy { Global, Local, Blocked };
const char* rFactorName(RFactorStrategy s);
// Parses "global" | "local" | "blocked"; returns false on anything else.
bool parseRFactor(std::string_view text, RFactorStrategy& out);

struct SolverSettings {
  std::string solver = "prox-gs";  // a name from solverNames()
  RFactorStrategy rFactor = RFactorStrategy::Global;
  int maxIterations = 1000;  // sweeps, rolled-back sweeps included
  double tolAbs = 1e-3;      // 0 means never stop early on this test
  double tolRel = 1e-3;      // 0 means never stop early on this test
  bool warmStart = true;
  bool stabilize = false;  // post-stabilization, paper sec. 4.4
  // Threads a World step runs on (>= 1): broadphase, narrowphase, assembly, integration and the
  // PROX Jacobi sweep run in parallel, with bit-identical results for any count (docs/threads.md).
  // 1 by default: the machines this is developed on are shared, and a parallel region costs
  // a few microseconds of wake-up, more than it saves on small scenes.
  int threads = 1;
  // World: compute SolveReport::naturalMapResidual after every solve (costs a W product, so off).
  bool computeNaturalMap = false;
  // When > 0 (the PROX solvers), convergence means the natural-map residual (solvers/natural_map.h)
  // below this: checked every ProxSolver::kNaturalMapCheckInterval sweeps and whenever tolAbs or
  // tolRel would stop, which then stop only if it holds too. The box-friction solvers ignore it:
  // a box solution is not a Coulomb one where a contact slides, so they stop on their own merit.
  // `contactlab-cli solve` uses it: the eq. 27 merit (the step length) is not the natural map, and
  // can fall below a tolerance before it.
  double naturalMapTolerance = 0.0;
  // prox-gs on Delassus problems (problem files): the most proximal steps per contact and sweep.
  // 1 is PROX paper Alg. 2 (one step per contact). More makes the sweep a block (nonlinear)
  // Gauss-Seidel sweep: contact k repeats z = lambda_k - R_k v_k, lambda_k = prox(z) with the other
  // contacts fixed, v_k kept in step through W_kk, until its own step (weighted as the merit) is at
  // most proxLocalTolerance times the smaller of the previous sweep's merit and its first step,
  // so the 3x3 (4x4) local problem is solved about as exactly as Siconos' NSGS solves it. Ignored by
  // the body-space sweeps and by prox-jacobi.
  int proxLocalIterations = 1;
  double proxLocalTolerance = 0.1;
  // prox-gs on Delassus problems: solve each contact's local problem exactly instead
  // (solvers/coulomb_local_solve.h: take-off, sticking or sliding, the last by the roots of a
  // quartic), the block Gauss-Seidel sweep of Siconos' NSGS. Contacts whose friction set is not a
  // disk (mu_tau > 0, or one tangential mu zero) or whose local problem the solve cannot answer take
  // the proximal steps above. The sweep then does not depend on R for the exact contacts, so there
  // is no back-tracking: as for PGS's fixed R, only a non-finite merit stops the solve (at the best
  // iterate).
  bool proxExactLocalSolve = false;
  // prox-gs and prox-jacobi on Delassus problems: every this many sweeps (0: never), a subspace
  // step (solvers/prox/subspace_step.h): the contact states of the iterate (separating, sticking,
  // sliding) turned into linear equations and solved at once, as PGS-SM's subspace minimization
  // does for box friction. It replaces the iterate when its natural-map residual is smaller, and
  // ends the solve when that is below naturalMapTolerance. It costs a dense solve of up to four
  // unknowns per contact (three without torsion), so it pays on small, stiff problems (a resting
  // stack) and not on large ones. Ignored by the body-space sweeps and the box solvers.
  int proxSubspaceInterval = 0;

  // PSOR (solver "psor"): r_i = omega / A_ii (PROX paper sec. 4.2, after eq. 39). Projected SOR
  // converges for any omega in (0, 2) on an LCP with a symmetric positive definite A (Cottle, Pang
  // and Stone 1992, sec. 5.2); no paper we have gives a value for contact problems, and with the
  // friction bounds moving with lambda_n (an NCP, for which the PGS-SM paper sec. 3 knows no
  // convergence theorem) we stay modestly over-relaxed. 1.2 is a common choice for contact PSOR;
  // docs/ or the report of issue 4 records the iterations it takes against PGS.
  double psorOmega = 1.2;
  // PGS with subspace minimization (solver "pgs-sm"), defaults from the experiments of
  // Silcowitz, Niebe and Erleben sec. 5:
  int pgsSmPgsSweeps = 25;      // k_pgs: PGS sweeps before each subspace phase
  int pgsSmSubspaceSteps = 5;   // k_sm: subspace-minimization steps per phase
  int pgsSmCgMaxIterations = 0;  // CG iterations per reduced system; 0 = the number of free rows (paper)
  double pgsSmCgTolerance = 1e-15;  // CG stops when ||residual|| <= this * ||right-hand side||
  // Sec. 5.1: A_FF + gamma I. Ours is gamma * diag(A_FF), so that it is free of the unit of mass;
  // 0 (the paper's experiments) = no regularization.
  double pgsSmRegularization = 0.0;
  // modulus-gs (accelerated-modulus-gauss-seidel.txt): Omega = alpha D with D = diag(A) (sec. 4,
  // Corollary 4.3; alpha > 0) and Gamma = E / gamma (eq. 10; gamma > 0). The paper's experiments use
  // gamma = 2; alpha = 1 / gamma minimizes the contraction bound of Theorem 4.2 (Remark 4.4), though
  // its Figures 6-8 converge faster with smaller alpha.
  double modulusAlpha = 0.5;
  double modulusGamma = 2.0;

  // Collision, not the solve, but set in the same places: k of the kDOPs in the mesh bodies'
  // bounding volume hierarchies, 14, 18 or 26 (collision/kdop.h). 26 culls the most node pairs,
  // 14 tests them fastest and won on jack against jack (docs/meshes.md, "Collision").
  int kdop = 14;
};

struct SolverDescription {
  std::string name;
  std::string summary;
  bool usesRFactor = false;  // whether SolverSettings::rFactor changes it (the PROX solvers)
};
// Every registered solver, in registry order: the GUI combo box, the CLI and the tests use this list.
std::vector<SolverDescription> solverNames();

}  // namespace contactlab
