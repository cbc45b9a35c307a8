#pragma once
// Command-line parsing for contactlab-cli, written by hand: a table of flags drives both the parser
// and the help text, so the two cannot disagree.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "contactlab/scene.h"
#include "contactlab/world_settings.h"

namespace contactlab::cli {

// A mistake on the command line: main prints it with a pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Args = std::span<const std::string_view>;

struct OutputPaths {
  std::string trace, metrics, residuals, contacts, stateOut;  // empty: not written
  std::string dumpProblems;  // a directory; empty: not written
  std::string vtk;           // a directory for the VTK series; empty: not written
  int vtkEvery = 1;          // a VTK frame every this many steps
};

struct RunOptions {
  std::string scene;  // a built-in scene name or a path to a .json scene file
  WorldSettings world = interactiveSettings();
  std::optional<double> dt;  // unset: the scene's own dt
  int steps = 500;
  SceneParams params;                // built-in scenes only
  std::optional<std::uint64_t> seed;  // built-in scenes only
  OutputPaths outputs;
};

inline constexpr std::uint64_t kDefaultSeed = 1;

// Value parsers shared by the commands' flags; each throws UsageError naming the flag.
[[noreturn]] void reject(std::string_view flag, const std::string& problem);
std::string inQuotes(std::string_view text);
double number(std::string_view flag, std::string_view text);
double positiveNumber(std::string_view flag, std::string_view text);
// PSOR's relaxation omega, in (0, 2).
double relaxationOmega(std::string_view flag, std::string_view text);
double nonNegativeNumber(std::string_view flag, std::string_view text);
template <class Integer>
Integer wholeNumber(std::string_view flag, std::string_view text, Integer minimum);
bool onOff(std::string_view flag, std::string_view text);
std::string outputPath(std::string_view flag, std::string_view text);
std::string solverName(std::string_view flag, std::string_view text);
// Throws UsageError when `flag`, a setting of the named solvers only, was given for another solver,
// which it would not change.
void requireSolverOf(std::string_view flag, const std::string& solver, const std::vector<std::string>& solvers);
// Throws UsageError when two of the run's output files are one file.
void checkDistinctOutputs(const OutputPaths& outputs);
// The solvers whose r-factor strategy can be chosen (the PROX solvers).
std::vector<std::string> rFactorSolvers();
// "prox-gs (global r-factor)" for those, the bare name for the others.
std::string solverLabel(const SolverSettings& settings);
// Throws UsageError when the built-in scene `scene` has no parameter of one of the names in `params`.
void checkSceneParams(const std::string& scene, const SceneParams& params);

// The deformable CR solve's flags, which `run` and `bench` share: --deformable-tol-rel (epsilon_1),
// --deformable-tol-abs (epsilon_2, metres), --deformable-max-iter, --deformable-stall and
// --deformable-friction. Sets `settings` from `flag` and returns true when it is one of them; false
// for any other flag.
bool applyDeformableSolveFlag(DeformableSolverSettings& settings, std::string_view flag, std::string_view value);
struct FlagHelp {
  std::string_view name, valueName, help;
};
inline constexpr FlagHelp kDeformableSolveFlags[] = {
    {"--deformable-tol-rel", "X",
     "deformable CR solve: epsilon_1, the residual's bound relative to the step's force impulse (default 5e-5)"},
    {"--deformable-tol-abs", "M",
     "deformable CR solve: epsilon_2 in metres, largest constraint error and smallest state change kept (default 5e-6)"},
    {"--deformable-max-iter", "K",
     "deformable CR solve: most iterations per step; a capped solve keeps its best iterate (default 20000)"},
    {"--deformable-stall", "K",
     "deformable CR solve: stop, keeping the best iterate, when K iterations bring the least error down by less than 1 %; 0 never (default 2000)"},
    {"--deformable-friction", "cone|pyramid",
     "deformable CR solve: the Coulomb cone, or each tangent row on its own as the paper's CR (Diag) (default cone)"},
};

// nullopt when --help was asked for (the help has then been printed).
std::optional<RunOptions> parseRunArgs(Args args);

// A flag's value as a finite number, a non-negative one, or a whole number >= minimum; each throws
// UsageError naming the flag and the value.
double numberFlag(std::string_view flag, std::string_view text);
double nonNegativeNumberFlag(std::string_view flag, std::string_view text);
int wholeNumberFlag(std::string_view flag, std::string_view text, int minimum);
std::string runHelp();

}  // namespace contactlab::cli
