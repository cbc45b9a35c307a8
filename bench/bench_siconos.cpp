// contactlab-bench-siconos: our Delassus solvers and Siconos Numerics' fc3d_nsgs and fc3d_proximal on
// the same FC3D problem files in one process (issue 4). Each file is read twice, by our reader and
// by Siconos' own; every solver starts from zero impulses with tolerance 1e-8 and at most 10000
// iterations, and every result is measured by OUR natural-map residual (/ (1 + ||q||), natural_map.h)
// on the problem our reader gave; Siconos' own error is printed beside it.
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsVerbose.h>
#include <siconos/numerics/SolverOptions.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "problem/natural_map.h"

namespace contactlab::bench {
namespace {

// Every solver, ours and Siconos', stops where `contactlab-cli solve` stops by default.
const SolverSettings kSolveDefaults = problemFileSolveDefaults();
const double kTolerance = kSolveDefaults.naturalMapTolerance;
const int kMaxIterations = kSolveDefaults.maxIterations;
constexpr double kMinTotalSeconds = 2e-3;  // repeat a solve until the repeats together take this long
constexpr int kMaxRepeats = 10000;
constexpr const char* kBoxSolvers[] = {"pgs", "psor", "pgs-sm", "modulus-gs"};

constexpr const char* kHelp =
    "usage: contactlab-bench-siconos [FILE.dat ...] [flags]\n"
    "\n"
    "Solves each Siconos FC3D problem file (default: every *.dat in --dir) with contactlab's prox-gs (local\n"
    "and global r-factor; local as a block Gauss-Seidel: at most 10 proximal steps per contact and sweep,\n"
    "local tolerance 0.01; with each contact's local problem solved exactly, NSGS's sweep; and local with a\n"
    "subspace step every 50 sweeps), prox-jacobi (local) and the box-friction pgs, psor, pgs-sm and\n"
    "modulus-gs (which stop on their own merit), and with Siconos Numerics' fc3d_nsgs and fc3d_proximal\n"
    "(its default options otherwise), all from zero impulses, tolerance 1e-8, at most 10000 iterations;\n"
    "first of all with `contactlab-cli solve`'s defaults (the row \"solve defaults\").\n"
    "Prints per file and solver: iterations, converged, the natural-map residual / (1 + ||q||) of the\n"
    "result computed by contactlab on its own reading of the file (the same measure for every solver),\n"
    "Siconos' own error for Siconos' solvers, and seconds per solve (steady_clock around the solver call\n"
    "alone; after one untimed run a solve is repeated until the calls take 2 ms, and the mean of those is\n"
    "one round's time; the rounds run every solver of the file in turn, and the median round is\n"
    "reported). Then, per file, whether each PROX-GS run reached each converged Siconos solver's residual\n"
    "(as small, or both below 1e-8) in less time; at the end, the solve defaults against NSGS over all\n"
    "files. Flags take their value as the next argument or after '='.\n"
    "\n"
    "  --dir DIR        folder of *.dat files when no FILE is given (default: " CONTACTLAB_FC3D_DIR ")\n"
    "  --rounds N       rounds of timing per file (default 3)\n"
    "  --csv FILE       also write the table as CSV\n"
    "  --help           show this help\n";

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<std::string> files;
  std::string dir = CONTACTLAB_FC3D_DIR;
  std::string csv;
  int rounds = 3;
};

std::optional<Options> parseArgs(const std::vector<std::string_view>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kHelp, stdout);
      return std::nullopt;
    }
    if (!arg.starts_with("-")) {
      o.files.emplace_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name(arg.substr(0, equals));
    if (name != "--dir" && name != "--csv" && name != "--rounds") throw UsageError("unknown flag " + name);
    std::string value;
    if (equals != std::string_view::npos) value = std::string(arg.substr(equals + 1));
    else if (i + 1 < args.size()) value = std::string(args[++i]);
    else throw UsageError(name + " needs a value");
    if (value.empty()) throw UsageError(name + " needs a non-empty value");
    if (name == "--rounds") {
      char* end = nullptr;
      const long rounds = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || rounds < 1 || rounds > 1000) throw UsageError("--rounds: expected 1 to 1000, got \"" + value + "\"");
      o.rounds = static_cast<int>(rounds);
    } else {
      (name == "--dir" ? o.dir : o.csv) = value;
    }
  }
  if (o.files.empty()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(o.dir, ec))
      if (entry.path().extension() == ".dat") o.files.push_back(entry.path().string());
    if (ec) throw std::runtime_error(o.dir + ": " + ec.message());
    if (o.files.empty()) throw std::runtime_error(o.dir + ": no *.dat files");
    std::sort(o.files.begin(), o.files.end());
  }
  return o;
}

// One solve's outcome, as the table prints it.
struct Outcome {
  int iterations = 0;
  bool converged = false;
  double residual = 0.0;       // ours: natural map / (1 + ||q||)
  double siconosError = NAN;   // Siconos' own, for its solvers
  double seconds = 0.0;        // the solver call alone (not the set-up, copies or our residual)
};

struct Row {
  std::string file, solver;
  int contacts = 0;
  Outcome outcome;
  double seconds = 0.0;  // per solve, the median round's
  int repeats = 0;       // in the first round
  std::vector<double> roundSeconds;
};

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// One round: runs `solve` once (its outcome is reported; the run warms caches), then repeats it until
// the repeats' solver calls take kMinTotalSeconds together, and returns their mean.
double timeSolve(const std::function<Outcome()>& solve, Outcome& outcome, int& repeats) {
  outcome = solve();
  repeats = std::clamp(static_cast<int>(std::ceil(kMinTotalSeconds / std::max(outcome.seconds, 1e-9))), 1, kMaxRepeats);
  double total = 0.0;
  for (int i = 0; i < repeats; ++i) total += solve().seconds;
  return total / repeats;
}

// Siconos' problem, freed on scope exit.
struct SiconosProblem {
  FrictionContactProblem* p = nullptr;
  explicit SiconosProblem(const std::string& path) : p(frictionContact_new_from_filename(path.c_str())) {
    if (p == nullptr) throw std::runtime_error(path + ": Siconos' reader failed");
  }
  ~SiconosProblem() { frictionContactProblem_free(p); }
  SiconosProblem(const SiconosProblem&) = delete;
  SiconosProblem& operator=(const SiconosProblem&) = delete;
};

// prox-gs's block Gauss-Seidel settings: the row "prox-gs local block" takes up to
// kBlockLocalIterations proximal steps per contact (SolverSettings::problemFile.localIterations, the values
// docs/fc3d.md measured), "prox-gs local exact" solves each contact exactly (problemFile.exactLocalSolve).
constexpr int kBlockLocalIterations = 10;
constexpr double kBlockLocalTolerance = 0.01;
enum class LocalSolve { OneStep, ProximalSteps, Exact };
// The row "prox-gs local subspace": a subspace step every kSubspaceInterval sweeps
// (SolverSettings::problemFile.subspaceInterval; docs/fc3d.md has the intervals tried).
constexpr int kSubspaceInterval = 50;

// The settings of one of the bench's own rows: the solve defaults' stopping rule (tolerance 1e-8, at
// most 10000 sweeps) with the row's solver, r-factor and sweep.
SolverSettings rowSettings(const ContactSolver& solver, RFactorStrategy rFactor, LocalSolve local = LocalSolve::OneStep,
                           int subspaceInterval = 0) {
  SolverSettings settings = problemFileSolveDefaults();
  settings.problemFile.subspaceInterval = subspaceInterval;
  settings.problemFile.localIterations = local == LocalSolve::ProximalSteps ? kBlockLocalIterations : 1;
  settings.problemFile.localTolerance = kBlockLocalTolerance;
  settings.problemFile.exactLocalSolve = local == LocalSolve::Exact;
  settings.solver = solver.name();
  settings.prox.rFactor = rFactor;
  return settings;
}

Outcome solveOurs(const DelassusProblem& problem, ContactSolver& solver, const SolverSettings& settings) {
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  const auto start = Clock::now();
  const SolveReport report = solver.solve(problem, settings, lambda);
  Outcome o;
  o.seconds = secondsSince(start);
  o.iterations = report.iterations;
  o.residual = naturalMapResidual(problem, lambda);
  o.converged = o.residual <= kTolerance;
  return o;
}

Outcome solveSiconos(const DelassusProblem& ours, FrictionContactProblem* problem, int solverId) {
  const int n = problem->dimension * problem->numberOfContacts;
  std::vector<double> reaction(n, 0.0), velocity(n, 0.0);
  SolverOptions* options = solver_options_create(solverId);
  options->iparam[SICONOS_IPARAM_MAX_ITER] = kMaxIterations;
  options->dparam[SICONOS_DPARAM_TOL] = kTolerance;
  const auto start = Clock::now();
  const int info = fc3d_driver(problem, reaction.data(), velocity.data(), options);
  Outcome o;
  o.seconds = secondsSince(start);
  o.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  o.siconosError = options->dparam[SICONOS_DPARAM_RESIDU];
  solver_options_delete(options);
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(ours.numRows());
  for (int k = 0; k < problem->numberOfContacts; ++k)
    for (int i = 0; i < 3; ++i) lambda[4 * k + i] = reaction[3 * k + i];
  o.residual = naturalMapResidual(ours, lambda);
  o.converged = info == 0;
  return o;
}

constexpr const char* kSolveDefaultsRow = "solve defaults";
constexpr const char* kNsgsRow = "siconos nsgs";
// Below this residual a problem counts as solved in the summary (issue 31: "reaches 1e-6").
constexpr double kSolvedResidual = 1e-6;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? NAN : n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The solve defaults against NSGS over all files: on how many of the files NSGS solves (converged
// and below kSolvedResidual) the defaults solve them too, and over the files both solve, the median
// of the per-file time ratios and the two medians of the times.
void printDefaultsAgainstNsgs(const std::vector<Row>& rows) {
  int nsgsSolved = 0, bothSolved = 0;
  std::vector<double> ratios, ourSeconds, nsgsSeconds;
  std::string missed;
  for (const Row& nsgs : rows) {
    if (nsgs.solver != kNsgsRow || !(nsgs.outcome.converged && nsgs.outcome.residual <= kSolvedResidual)) continue;
    ++nsgsSolved;
    for (const Row& ours : rows) {
      if (ours.file != nsgs.file || ours.solver != kSolveDefaultsRow) continue;
      if (!(ours.outcome.residual <= kSolvedResidual)) {
        missed += (missed.empty() ? "" : ", ") + ours.file;
        continue;
      }
      ++bothSolved;
      ratios.push_back(ours.seconds / nsgs.seconds);
      ourSeconds.push_back(ours.seconds);
      nsgsSeconds.push_back(nsgs.seconds);
    }
  }
  std::printf("solve defaults (%s, %s r-factor%s) against Siconos NSGS: residual <= %.0e on %d of the %d files NSGS "
              "solves%s%s%s\n",
              kSolveDefaults.solver.c_str(), rFactorName(kSolveDefaults.prox.rFactor),
              kSolveDefaults.problemFile.exactLocalSolve ? ", exact local solves" : "", kSolvedResidual, bothSolved,
              nsgsSolved, missed.empty() ? "" : " (not: ", missed.c_str(), missed.empty() ? "" : ")");
  if (bothSolved > 0)
    std::printf("  over those: median time ratio x%.2f; median times %.3e s against NSGS's %.3e s\n", median(ratios),
                median(ourSeconds), median(nsgsSeconds));
}

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void writeCsv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out << "file,contacts,solver,iterations,converged,residual,siconos_error,seconds,repeats\n";
  char line[512];
  for (const Row& r : rows) {
    std::snprintf(line, sizeof line, "%s,%d,%s,%d,%d,%.6g,%.6g,%.9g,%d\n", r.file.c_str(), r.contacts, r.solver.c_str(),
                  r.outcome.iterations, r.outcome.converged ? 1 : 0, r.outcome.residual, r.outcome.siconosError, r.seconds,
                  r.repeats);
    out << line;
  }
  if (!out.flush()) throw std::runtime_error(path + ": write failed");
}

int benchSiconos(const std::vector<std::string_view>& args) {
  const std::optional<Options> options = parseArgs(args);
  if (!options) return 0;
  numerics_set_verbose(0);
  std::unique_ptr<ContactSolver> proxGs = makeSolver("prox-gs");
  std::unique_ptr<ContactSolver> proxJacobi = makeSolver("prox-jacobi");
  std::unique_ptr<ContactSolver> defaultSolver = makeSolver(kSolveDefaults.solver);
  if (!proxGs || !proxJacobi || !defaultSolver) throw std::runtime_error("prox-gs or prox-jacobi missing from the solver registry");
  // The box-friction solvers, after the comparison's six: they solve the box problem, whose
  // solution is not Coulomb's where a contact slides (docs/fc3d.md), so they stop on their own merit.
  std::vector<std::unique_ptr<ContactSolver>> boxSolvers;
  for (const char* name : kBoxSolvers) {
    boxSolvers.push_back(makeSolver(name));
    if (!boxSolvers.back()) throw std::runtime_error(std::string(name) + " missing from the solver registry");
  }

  std::vector<Row> rows;
  std::printf("%-36s %-22s %6s %5s %10s %10s %12s %7s\n", "file", "solver", "iter", "conv", "residual", "siconos_err",
              "seconds", "repeats");
  for (const std::string& path : options->files) {
    const DelassusProblem ours = readFc3dFile(path);  // Fc3dFileError names the file
    const SiconosProblem theirs(path);
    if (theirs.p->dimension != 3 || theirs.p->numberOfContacts != ours.numContacts())
      throw std::runtime_error(path + ": Siconos reads " + std::to_string(theirs.p->numberOfContacts) +
                               " contacts of dimension " + std::to_string(theirs.p->dimension) + ", we read " +
                               std::to_string(ours.numContacts()));
    // The goal below compares every ProxGs row with every converged Siconos row.
    enum class Role { ProxGs, Siconos, Other };  // "solve defaults" is a ProxGs row
    struct Candidate {
      std::string name;
      Role role;
      std::function<Outcome()> solve;
    };
    const auto ourRow = [&](ContactSolver& solver, SolverSettings settings) {
      return [&ours, &solver, settings] { return solveOurs(ours, solver, settings); };
    };
    std::vector<Candidate> candidates = {
        {kSolveDefaultsRow, Role::ProxGs, ourRow(*defaultSolver, kSolveDefaults)},
        {"prox-gs local", Role::ProxGs, ourRow(*proxGs, rowSettings(*proxGs, RFactorStrategy::Local))},
        {"prox-gs global", Role::ProxGs, ourRow(*proxGs, rowSettings(*proxGs, RFactorStrategy::Global))},
        {"prox-gs local block", Role::ProxGs,
         ourRow(*proxGs, rowSettings(*proxGs, RFactorStrategy::Local, LocalSolve::ProximalSteps))},
        {"prox-gs local exact", Role::ProxGs,
         ourRow(*proxGs, rowSettings(*proxGs, RFactorStrategy::Local, LocalSolve::Exact))},
        {"prox-gs local subspace", Role::ProxGs,
         ourRow(*proxGs, rowSettings(*proxGs, RFactorStrategy::Local, LocalSolve::OneStep, kSubspaceInterval))},
        {"prox-jacobi local", Role::Other, ourRow(*proxJacobi, rowSettings(*proxJacobi, RFactorStrategy::Local))},
        {kNsgsRow, Role::Siconos, [&] { return solveSiconos(ours, theirs.p, SICONOS_FRICTION_3D_NSGS); }},
        {"siconos prox", Role::Siconos, [&] { return solveSiconos(ours, theirs.p, SICONOS_FRICTION_3D_PROX); }},
    };
    for (const std::unique_ptr<ContactSolver>& box : boxSolvers)
      candidates.push_back({box->name(), Role::Other, ourRow(*box, rowSettings(*box, RFactorStrategy::Local))});
    const std::size_t first = rows.size();
    for (const Candidate& c : candidates) rows.push_back(Row{stem(path), c.name, ours.numContacts(), {}, 0.0, 0, {}});
    // The rounds alternate the solvers, so that a change of the machine's speed between rounds
    // touches them all alike; the median round is reported.
    for (int round = 0; round < options->rounds; ++round) {
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        Row& row = rows[first + c];
        int repeats = 0;
        row.roundSeconds.push_back(timeSolve(candidates[c].solve, row.outcome, repeats));
        if (round == 0) row.repeats = repeats;
      }
    }
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      Row& row = rows[first + c];
      row.seconds = median(row.roundSeconds);
      std::printf("%-36s %-22s %6d %5s %10.2e %10.2e %12.3e %7d\n", row.file.c_str(), row.solver.c_str(),
                  row.outcome.iterations, row.outcome.converged ? "yes" : "no", row.outcome.residual,
                  row.outcome.siconosError, row.seconds, row.repeats);
    }
    std::fflush(stdout);
    // The goal: for each Siconos solver that converged, a PROX-GS run with a residual no
    // larger (or both below the tolerance) in less time.
    for (std::size_t s = 0; s < candidates.size(); ++s) {
      if (candidates[s].role != Role::Siconos) continue;
      const Row& sic = rows[first + s];
      if (!sic.outcome.converged) {
        std::printf("  %s: not converged by Siconos, no comparison\n", sic.solver.c_str());
        continue;
      }
      for (std::size_t g = 0; g < candidates.size(); ++g) {
        if (candidates[g].role != Role::ProxGs) continue;
        const Row& gs = rows[first + g];
        const bool strict = gs.outcome.residual <= sic.outcome.residual;
        const bool atTol = gs.outcome.residual <= std::max(sic.outcome.residual, kTolerance);
        const bool faster = gs.seconds < sic.seconds;
        std::printf("  %s vs %s: residual %s (%s), time x%.2f (%s)\n", gs.solver.c_str(), sic.solver.c_str(),
                    strict ? "as small" : "larger", atTol ? "reached at tolerance" : "not reached", gs.seconds / sic.seconds,
                    faster ? "faster" : "slower");
      }
    }
  }
  printDefaultsAgainstNsgs(rows);
  if (!options->csv.empty()) writeCsv(options->csv, rows);
  return 0;
}

}  // namespace
}  // namespace contactlab::bench

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return contactlab::bench::benchSiconos(args);
  } catch (const contactlab::bench::UsageError& e) {
    std::cerr << "contactlab-bench-siconos: " << e.what() << " (see contactlab-bench-siconos --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "contactlab-bench-siconos: error: " << e.what() << "\n";
    return 1;
  }
}
