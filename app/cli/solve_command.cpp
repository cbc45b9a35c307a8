// `contactlab-cli solve FILE.dat`: solve a Siconos frictional contact problem file and print one line.
#include <cstdio>
#include <memory>

#include "commands.h"
#include "io/csv_writer.h"
#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "solvers/natural_map.h"

namespace contactlab::cli {
namespace {

struct SolveOptions {
  std::string file;
  std::string solver = "prox-gs";
  RFactorStrategy rFactor = RFactorStrategy::Global;
  double tol = 1e-8;
  int maxIterations = 10000;
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
    "  --rfactor global|local|blocked  r-factor strategy, PROX paper sec. 4.2 (default global)\n"
    "  --tol X                     stop when the natural-map residual is below X (checked every 10 sweeps,\n"
    "                              and when the solver's own merit is below X absolute; no relative\n"
    "                              test) (default 1e-8)\n"
    "  --max-iter K                most sweeps (default 10000)\n"
    "  --out FILE                  CSV of the solution: contact,r_n,r_t1,r_t2,u_n,u_t1,u_t2 (u = W r + q)\n"
    "  --help                      show this help\n"
    "\n"
    "Files written by `run --dump-problems` hold the force rows n, t, s of each contact only (torsion dropped).\n";

std::optional<SolveOptions> parseSolveArgs(Args args) {
  SolveOptions o;
  bool haveFile = false;
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
      if (haveFile) throw UsageError("unexpected argument " + quoted(arg) + " (the file is already " + quoted(o.file) + ")");
      o.file = std::string(arg);
      haveFile = true;
      continue;
    }
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    std::string_view value;
    if (name != "--solver" && name != "--rfactor" && name != "--tol" && name != "--max-iter" && name != "--out")
      throw UsageError("unknown flag " + std::string(name));
    if (equals != std::string_view::npos) value = arg.substr(equals + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else reject(name, "needs a value");
    if (name == "--solver") o.solver = solverName(name, value);
    else if (name == "--rfactor") {
      if (!parseRFactor(value, o.rFactor)) reject(name, "expected global, local or blocked, got " + quoted(value));
    } else if (name == "--tol") o.tol = positiveNumber(name, value);
    else if (name == "--max-iter") o.maxIterations = wholeNumber(name, value, 1);
    else o.out = outputPath(name, value);
  }
  if (!haveFile) throw UsageError("solve needs a FILE.dat (a Siconos frictional contact problem)");
  return o;
}

}  // namespace

int solveCommand(Args args) {
  const std::optional<SolveOptions> options = parseSolveArgs(args);
  if (!options) return 0;
  std::unique_ptr<ContactSolver> solver = makeSolver(options->solver);
  if (!solver->acceptsDelassus())
    throw UsageError("--solver " + options->solver + ": needs bodies; a problem file gives only W, q and mu");
  const DelassusProblem problem = readFc3dFile(options->file);
  SolverSettings settings;
  settings.solver = options->solver;
  settings.rFactor = options->rFactor;
  settings.tolAbs = options->tol;
  settings.tolRel = 0.0;
  settings.naturalMapTolerance = options->tol;
  settings.maxIterations = options->maxIterations;
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  const SolveReport report = solver->solve(problem, settings, lambda);
  const bool converged = report.naturalMapResidual <= options->tol;
  std::printf("%s, %s (%s r-factor), contacts %d, %s, iterations %d, residual %.3g, seconds %.6f\n",
              options->file.c_str(), options->solver.c_str(), rFactorName(options->rFactor), problem.numContacts(),
              converged ? "converged" : "not converged", report.iterations, report.naturalMapResidual, report.seconds);
  if (!options->out.empty()) {
    const Eigen::VectorXd u = problem.velocities(lambda);
    CsvWriter csv(options->out, {"contact", "r_n", "r_t1", "r_t2", "u_n", "u_t1", "u_t2"});
    for (int k = 0; k < problem.numContacts(); ++k) {
      csv.field(k);
      for (int i = 0; i < 3; ++i) csv.field(lambda[4 * k + i]);
      for (int i = 0; i < 3; ++i) csv.field(u[4 * k + i]);
      csv.endRow();
    }
    csv.close();
  }
  return 0;
}

}  // namespace contactlab::cli
