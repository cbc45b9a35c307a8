// `contactlab-cli solve FILE.dat`: solve a Siconos frictional contact problem file and print one line.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "commands.h"
#include "io/csv_writer.h"
#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "problem/natural_map.h"

namespace contactlab::cli {
namespace {

struct SolveOptions {
  std::string file;
  SolverSettings settings = problemFileSolveDefaults();  // the flags change these
  std::string out;
};

constexpr const char* kSolveHelp =
    "usage: contactlab-cli solve FILE.dat [flags]\n"
    "\n"
    "Solves a 3D frictional contact problem in the Siconos text format (dense or sparse-block W, q, mu)\n"
    "and prints one line: file, solver, contacts, converged, iterations, residual, seconds. The residual\n"
    "is the natural-map residual of the Coulomb problem with De Saxce's modified velocity, divided by\n"
    "1 + ||q|| (the measure of ../shared/fc3d/README.md), the same for every solver. Problems have no\n"
    "torsion: each contact's torsion row is decoupled and its impulse is 0.\n"
    "\n"
    "  --solver NAME               a solver that works on W alone (default prox-gs; these: %s)\n"
    "  --rfactor global|local|blocked  r-factor strategy of prox-gs and prox-jacobi, PROX paper sec. 4.2\n"
    "                              (default local: docs/fc3d.md, \"The default configuration\", says why)\n"
    "  --tol X                     prox-gs, prox-jacobi: stop when the natural-map residual is below X\n"
    "                              (checked every 10 sweeps, and when the solver's own merit is below X\n"
    "                              absolute; no relative test). pgs, psor, pgs-sm, modulus-gs: stop when\n"
    "                              their own merit is below X absolute (default 1e-8)\n"
    "  --max-iter K                most sweeps (default 10000)\n"
    "  --local-iter K              prox-gs: at most K proximal steps per contact and sweep, repeated until the\n"
    "                              contact's own step is at most --local-tol times the smaller of the last\n"
    "                              sweep's merit and its first step (a block Gauss-Seidel sweep; default 1,\n"
    "                              the PROX paper's Alg. 2; docs/fc3d.md says when more pays)\n"
    "  --local-tol X               prox-gs with --local-iter > 1: the fraction above (default 0.1)\n"
    "  --omega X                   psor: relaxation omega in (0, 2) (default 1.2)\n"
    "  --local-solve prox|exact    prox-gs: exact solves each contact's local problem in closed form (take-off,\n"
    "                              sticking, or sliding by the roots of a quartic): the block Gauss-Seidel of\n"
    "                              Siconos' NSGS, no r-factor used; prox takes --local-iter proximal steps\n"
    "                              (default prox)\n"
    "  --subspace K                prox-gs, prox-jacobi: every K sweeps a subspace step, the contact states\n"
    "                              (separating, sticking, sliding) solved as linear equations at once, kept\n"
    "                              when its residual is smaller (default 0: never; docs/fc3d.md). Each is a\n"
    "                              dense solve of up to 4 unknowns per contact: it pays on tens of contacts,\n"
    "                              not on hundreds\n"
    "  --out FILE                  CSV of the solution: contact,r_n,r_t1,r_t2,u_n,u_t1,u_t2 (u = W r + q)\n"
    "  --help                      show this help\n"
    "\n"
    "pgs, psor, pgs-sm and modulus-gs solve the box-friction problem (|r_t1|, |r_t2| <= mu r_n each), whose\n"
    "solution is not the Coulomb one where a contact slides: their residual then stays above 0 however long\n"
    "they run, and `converged` means that their own merit reached --tol (docs/fc3d.md lists what each\n"
    "reaches on the sample problems).\n"
    "\n"
    "Files written by `run --dump-problems` hold the force rows n, t, s of each contact only (torsion dropped).\n";

std::optional<SolveOptions> parseSolveArgs(Args args) {
  SolveOptions o;
  bool haveFile = false;
  std::vector<std::string_view> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::string delassusSolvers;
      for (const SolverDescription& s : solverNames())
        if (makeSolver(s.name)->acceptsDelassus()) delassusSolvers.append(delassusSolvers.empty() ? "" : ", ").append(s.name);
      // Spliced piece by piece: GCC 12 reports a false -Wrestrict for string concatenations here.
      const std::string_view help = kSolveHelp;
      const std::size_t at = help.find("%s");
      std::fwrite(help.data(), 1, at, stdout);
      std::fputs(delassusSolvers.c_str(), stdout);
      std::fwrite(help.data() + at + 2, 1, help.size() - at - 2, stdout);
      return std::nullopt;
    }
    if (!arg.starts_with("--")) {
      if (haveFile) throw UsageError("unexpected argument " + inQuotes(arg) + " (the file is already " + inQuotes(o.file) + ")");
      o.file = std::string(arg);
      haveFile = true;
      continue;
    }
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    std::string_view value;
    if (name != "--solver" && name != "--rfactor" && name != "--tol" && name != "--max-iter" && name != "--out" &&
        name != "--local-iter" && name != "--local-tol" && name != "--local-solve" && name != "--subspace" && name != "--omega")
      throw UsageError("unknown flag " + std::string(name));
    if (equals != std::string_view::npos) value = arg.substr(equals + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else reject(name, "needs a value");
    SolverSettings& s = o.settings;
    if (name == "--solver") s.solver = solverName(name, value);
    else if (name == "--rfactor") {
      if (!parseRFactor(value, s.prox.rFactor)) reject(name, "expected global, local or blocked, got " + inQuotes(value));
    } else if (name == "--tol") s.tolAbs = s.naturalMapTolerance = positiveNumber(name, value);
    else if (name == "--max-iter") s.maxIterations = wholeNumber(name, value, 1);
    else if (name == "--local-iter") s.problemFile.localIterations = wholeNumber(name, value, 1);
    else if (name == "--local-tol") s.problemFile.localTolerance = positiveNumber(name, value);
    else if (name == "--subspace") s.problemFile.subspaceInterval = wholeNumber(name, value, 0);
    else if (name == "--omega") s.psor.omega = relaxationOmega(name, value);
    else if (name == "--local-solve") {
      if (value != "prox" && value != "exact") reject(name, "expected prox or exact, got " + inQuotes(value));
      s.problemFile.exactLocalSolve = value == "exact";
    }
    else o.out = outputPath(name, value);
    given.push_back(name);
  }
  if (!haveFile) throw UsageError("solve needs a FILE.dat (a Siconos frictional contact problem)");
  // One solver's settings given for another would change nothing.
  for (const std::string_view flag : given) {
    if (flag == "--rfactor") requireSolverOf(flag, o.settings.solver, rFactorSolvers());
    // The PROX solvers' Delassus paths take subspace steps (prox_solver.cpp).
    if (flag == "--subspace") requireSolverOf(flag, o.settings.solver, {"prox-gs", "prox-jacobi"});
    if (flag == "--local-iter" || flag == "--local-tol" || flag == "--local-solve")
      requireSolverOf(flag, o.settings.solver, {"prox-gs"});
    if (flag == "--omega") requireSolverOf(flag, o.settings.solver, {"psor"});
    // Exact local solves take no proximal steps, so no r-factor and no step count.
    if (o.settings.problemFile.exactLocalSolve && (flag == "--rfactor" || flag == "--local-iter" || flag == "--local-tol"))
      reject(flag, "applies to proximal local steps, not to --local-solve exact");
    if (flag == "--local-tol" && o.settings.problemFile.localIterations <= 1)
      reject(flag, "applies with --local-iter K > 1 only (one proximal step per contact has no tolerance)");
  }
  return o;
}

}  // namespace

int solveCommand(Args args) {
  const std::optional<SolveOptions> options = parseSolveArgs(args);
  if (!options) return 0;
  const SolverSettings& settings = options->settings;
  std::unique_ptr<ContactSolver> solver = makeSolver(settings.solver);
  if (!solver->acceptsDelassus())
    throw UsageError("--solver " + settings.solver + ": needs bodies; a problem file gives only W, q and mu");
  const DelassusProblem problem = readFc3dFile(options->file);
  // Opened before the solve, so that an unwritable path fails before the solver's time is spent.
  std::optional<CsvWriter> csv;
  if (!options->out.empty()) csv.emplace(options->out, std::vector<std::string_view>{"contact", "r_n", "r_t1", "r_t2", "u_n", "u_t1", "u_t2"});
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  const SolveReport report = solver->solve(problem, settings, lambda);
  // The PROX solvers stop on the natural map, the box solvers on their own merit (see the help).
  const bool converged = report.converged() || report.naturalMapResidual <= settings.naturalMapTolerance;
  std::string label = solverLabel(settings);
  if (settings.problemFile.exactLocalSolve && settings.solver == "prox-gs") label = "prox-gs, exact local solves";
  if (settings.problemFile.subspaceInterval > 0)
    label += ", subspace step every " + std::to_string(settings.problemFile.subspaceInterval) + " sweeps";
  std::printf("%s, %s, contacts %d, %s, iterations %d, residual %.3g, seconds %.6f\n", options->file.c_str(),
              label.c_str(), problem.numContacts(), converged ? "converged" : "not converged", report.iterations,
              report.naturalMapResidual, report.seconds);
  if (csv) {
    const Eigen::VectorXd u = problem.velocities(lambda);
    for (int k = 0; k < problem.numContacts(); ++k) {
      csv->field(k);
      for (int i = 0; i < 3; ++i) csv->field(lambda[4 * k + i]);
      for (int i = 0; i < 3; ++i) csv->field(u[4 * k + i]);
      csv->endRow();
    }
    csv->close();
  }
  return 0;
}

}  // namespace contactlab::cli
