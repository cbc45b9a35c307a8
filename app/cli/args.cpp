#include "args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>

#include "collision/kdop.h"

namespace contactlab::cli {

// Appended piece by piece: the one-expression form trips GCC 12's false -Wrestrict positive.
std::string inQuotes(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.append(1, '"').append(text).append(1, '"');
  return out;
}

[[noreturn]] void reject(std::string_view flag, const std::string& problem) {
  throw UsageError(std::string(flag) + ": " + problem);
}

double number(std::string_view flag, std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) reject(flag, inQuotes(text) + " is out of range");
  if (error != std::errc() || end != text.data() + text.size()) reject(flag, inQuotes(text) + " is not a number");
  if (!std::isfinite(value)) reject(flag, inQuotes(text) + " is not a finite number");
  return value;
}

double positiveNumber(std::string_view flag, std::string_view text) {
  const double value = number(flag, text);
  if (!(value > 0.0)) reject(flag, "must be positive, got " + std::string(text));
  return value;
}

double relaxationOmega(std::string_view flag, std::string_view text) {
  const double omega = positiveNumber(flag, text);
  if (omega >= 2.0) reject(flag, "must be below 2, got " + std::string(text));
  return omega;
}

double nonNegativeNumber(std::string_view flag, std::string_view text) {
  const double value = number(flag, text);
  if (value < 0.0) reject(flag, "must not be negative, got " + std::string(text));
  return value;
}

bool applyDeformableSolveFlag(DeformableSolverSettings& settings, std::string_view flag, std::string_view value) {
  if (flag == kDeformableSolveFlags[0].name) settings.relativeTolerance = positiveNumber(flag, value);
  else if (flag == kDeformableSolveFlags[1].name) settings.absoluteTolerance = positiveNumber(flag, value);
  else if (flag == kDeformableSolveFlags[2].name) settings.maxIterations = wholeNumber(flag, value, 1);
  else if (flag == kDeformableSolveFlags[3].name) settings.stallIterations = wholeNumber(flag, value, 0);
  else if (flag == kDeformableSolveFlags[4].name) {
    if (!parseDeformableFriction(value, settings.friction))
      reject(flag, inQuotes(value) + " is not a friction set (cone or pyramid)");
  } else return false;
  return true;
}

template <class Integer>
Integer wholeNumber(std::string_view flag, std::string_view text, Integer minimum) {
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) reject(flag, inQuotes(text) + " is out of range");
  if (error != std::errc() || end != text.data() + text.size()) reject(flag, inQuotes(text) + " is not a whole number");
  if (value < minimum) reject(flag, "must be at least " + std::to_string(minimum) + ", got " + std::string(text));
  return value;
}

bool onOff(std::string_view flag, std::string_view text) {
  if (text == "on") return true;
  if (text == "off") return false;
  reject(flag, "expected on or off, got " + inQuotes(text));
}

std::string outputPath(std::string_view flag, std::string_view text) {
  if (text.empty()) reject(flag, "needs a file name");
  return std::string(text);
}

void checkSceneParams(const std::string& scene, const SceneParams& params) {
  const SceneEntry* entry = findBuiltinScene(scene);
  if (!entry) return;
  if (const std::string unknown = unknownSceneParameter(*entry, params); !unknown.empty())
    throw UsageError("--param: " + unknown);
}

void requireSolverOf(std::string_view flag, const std::string& solver, const std::vector<std::string>& solvers) {
  if (std::ranges::find(solvers, solver) != solvers.end()) return;
  std::string names;
  for (const std::string& name : solvers) names += (names.empty() ? "" : " or ") + name;
  reject(flag, "applies to " + names + " only, not to " + solver + "; choose one with --solver");
}

std::vector<std::string> rFactorSolvers() {
  std::vector<std::string> names;
  for (const SolverDescription& s : solverNames())
    if (s.usesRFactor) names.push_back(s.name);
  return names;
}

std::string solverLabel(const SolverSettings& settings) {
  const std::vector<std::string> proxSolvers = rFactorSolvers();
  if (std::ranges::find(proxSolvers, settings.solver) == proxSolvers.end()) return settings.solver;
  return settings.solver + " (" + rFactorName(settings.prox.rFactor) + " r-factor)";
}

std::string solverName(std::string_view flag, std::string_view text) {
  std::string known;
  for (const SolverDescription& s : solverNames()) {
    if (s.name == text) return s.name;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  reject(flag, "unknown solver " + inQuotes(text) + " (available: " + known + ")");
}

template int wholeNumber<int>(std::string_view, std::string_view, int);

namespace {

void sceneParam(RunOptions& options, std::string_view flag, std::string_view text) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) reject(flag, "expected KEY=VALUE, got " + inQuotes(text));
  const std::string key(text.substr(0, equals));
  options.params[key] = number(std::string(flag) + " " + key, text.substr(equals + 1));
}

// Setters shared by flags that differ only in the field they set.
template <std::string OutputPaths::*file>
void setOutput(RunOptions& options, std::string_view flag, std::string_view value) {
  options.outputs.*file = outputPath(flag, value);
}
template <double SolverSettings::*tolerance>
void setTolerance(RunOptions& options, std::string_view flag, std::string_view value) {
  options.world.solver.*tolerance = nonNegativeNumber(flag, value);
}
template <bool WorldSettings::*toggle>
void setToggle(RunOptions& options, std::string_view flag, std::string_view value) {
  options.world.*toggle = onOff(flag, value);
}

struct Flag {
  std::string_view name;
  std::string_view valueName;  // shown in the help
  std::string_view help;
  void (*apply)(RunOptions& options, std::string_view flag, std::string_view value);
};

void setDeformableSolve(RunOptions& options, std::string_view flag, std::string_view value) {
  applyDeformableSolveFlag(options.world.deformable, flag, value);
}

// Every flag of `run`, in the order the help lists them.
const Flag kRunFlags[] = {
    {"--solver", "NAME", "contact solver (default prox-gs; see contactlab-cli list)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.solver = solverName(f, v); }},
    {"--deformable-solver", "NAME", "deformable bodies' solver: cr-full or cr-diag (default cr-full)",
     [](RunOptions& o, std::string_view f, std::string_view v) {
       std::string known;
       for (const SolverDescription& s : deformableSolverNames()) {
         if (s.name == v) {
           o.world.deformable.solver = s.name;
           return;
         }
         known += (known.empty() ? "" : ", ") + s.name;
       }
       reject(f, "unknown deformable solver " + inQuotes(v) + " (available: " + known + ")");
     }},
    {kDeformableSolveFlags[0].name, kDeformableSolveFlags[0].valueName, kDeformableSolveFlags[0].help, setDeformableSolve},
    {kDeformableSolveFlags[1].name, kDeformableSolveFlags[1].valueName, kDeformableSolveFlags[1].help, setDeformableSolve},
    {kDeformableSolveFlags[2].name, kDeformableSolveFlags[2].valueName, kDeformableSolveFlags[2].help, setDeformableSolve},
    {kDeformableSolveFlags[3].name, kDeformableSolveFlags[3].valueName, kDeformableSolveFlags[3].help, setDeformableSolve},
    {kDeformableSolveFlags[4].name, kDeformableSolveFlags[4].valueName, kDeformableSolveFlags[4].help, setDeformableSolve},
    {"--rfactor", "global|local|blocked", "r-factor strategy, PROX paper sec. 4.2 (default global)",
     [](RunOptions& o, std::string_view f, std::string_view v) {
       if (!parseRFactor(v, o.world.solver.prox.rFactor)) reject(f, "expected global, local or blocked, got " + inQuotes(v));
     }},
    {"--dt", "S", "time step in seconds (default: the scene's dt)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.dt = positiveNumber(f, v); }},
    {"--steps", "N", "number of steps (default 500)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.steps = wholeNumber(f, v, 1); }},
    {"--max-iter", "K", "most solver sweeps per step (default 1000)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.maxIterations = wholeNumber(f, v, 1); }},
    {"--tol-abs", "X", "absolute tolerance on the solver's merit (PROX: eq. 27), 0 never stops early (default 1e-5; the PROX paper's 1e-3)",
     setTolerance<&SolverSettings::tolAbs>},
    {"--tol-rel", "X", "the PROX paper's relative tolerance on the solver's merit, 0 never stops early (default 0; the paper's 1e-3)",
     setTolerance<&SolverSettings::tolRel>},
    {"--stall-window", "K", "stop a solve when K sweeps did not halve its least merit; 0 never (default 60)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.stallWindow = wholeNumber(f, v, 0); }},
    {"--omega", "X", "psor: relaxation omega in (0, 2), r_i = omega / A_ii (default 1.2)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.psor.omega = relaxationOmega(f, v); }},
    {"--pgs-sweeps", "N", "pgs-sm: PGS sweeps before each subspace phase, k_pgs (default 25)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.pgsSm.pgsSweeps = wholeNumber(f, v, 1); }},
    {"--sm-steps", "N", "pgs-sm: subspace-minimization steps per phase, k_sm (default 5)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.pgsSm.subspaceSteps = wholeNumber(f, v, 0); }},
    {"--modulus-alpha", "X", "modulus-gs: Omega = alpha diag(A) (default 0.5)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.modulus.alpha = positiveNumber(f, v); }},
    {"--modulus-gamma", "X", "modulus-gs: gamma of the modulus transformation (default 2)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.solver.modulus.gamma = positiveNumber(f, v); }},
    {"--threads", "N", "threads a step runs on, N >= 1; results are bit-identical for any N (default 1)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.world.threads = wholeNumber(f, v, 1); }},
    {"--warm-start", "on|off", "start each solve from the last step's impulses (default on)",
     setToggle<&WorldSettings::warmStart>},
    {"--stabilize", "on|off", "post-stabilization, PROX paper sec. 4.4 (default on)",
     setToggle<&WorldSettings::stabilize>},
    {"--sleep", "on|off", "islands at rest sleep until something touches them (default on)",
     setToggle<&WorldSettings::sleep>},
    {"--kdop", "14|18|26", "k of the kDOPs in the mesh bodies' bounding volume hierarchies (default 14)",
     [](RunOptions& o, std::string_view f, std::string_view v) {
       o.world.kdop = wholeNumber(f, v, 0);
       if (!isSupportedKdop(o.world.kdop)) reject(f, "expected 14, 18 or 26, got " + inQuotes(v));
     }},
    {"--param", "KEY=VALUE", "set a built-in scene's parameter; repeatable (see contactlab-cli list)", sceneParam},
    {"--seed", "N", "random seed of a built-in scene (default 1)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.seed = wholeNumber<std::uint64_t>(f, v, 0); }},
    {"--trace", "FILE", "CSV of every dynamic and deformable body's state after every step",
     setOutput<&OutputPaths::trace>},
    {"--metrics", "FILE", "CSV of per-step metrics and stage times", setOutput<&OutputPaths::metrics>},
    {"--residuals", "FILE", "CSV of the merit after every solver sweep, and of the deformable CR residual",
     setOutput<&OutputPaths::residuals>},
    {"--contacts", "FILE", "CSV of every contact point and its impulse after every step",
     setOutput<&OutputPaths::contacts>},
    {"--state-out", "FILE", "scene file of the final state, which runs on from there",
     setOutput<&OutputPaths::stateOut>},
    {"--dump-problems", "DIR", "DIR/step-000123.dat: each step's contact problem with contacts, as a Siconos "
     "FC3D file (sparse block; force rows n, t, s only: torsion dropped), which `solve` reads",
     setOutput<&OutputPaths::dumpProblems>},
    {"--vtk", "DIR", "DIR/frames_000000.vtu ... and DIR/frames.pvd: every body as VTK for ParaView (deformable "
     "bodies as tetrahedra with node velocity and element stress, rigid ones as surfaces)",
     setOutput<&OutputPaths::vtk>},
    {"--vtk-every", "N", "write a VTK frame every N steps (default 1)",
     [](RunOptions& o, std::string_view f, std::string_view v) { o.outputs.vtkEvery = wholeNumber(f, v, 1); }},
};

const Flag* findFlag(std::string_view name) {
  for (const Flag& flag : kRunFlags)
    if (flag.name == name) return &flag;
  return nullptr;
}

}  // namespace

std::string runHelp() {
  std::string help =
      "usage: contactlab-cli run SCENE [flags]\n"
      "\n"
      "Steps SCENE headless and prints a summary. SCENE is a built-in scene name (see contactlab-cli list)\n"
      "or a path to a .json scene file. Flags take their value as the next argument or after '='.\n"
      "\n";
  for (const Flag& flag : kRunFlags) {
    std::string usage = "  " + std::string(flag.name) + " " + std::string(flag.valueName);
    usage.resize(std::max<std::size_t>(usage.size() + 2, 30), ' ');
    help += usage + std::string(flag.help) + "\n";
  }
  help += "  --help                      show this help\n";
  return help;
}

std::optional<RunOptions> parseRunArgs(Args args) {
  // --help wins wherever it appears, so a half-written command line can still ask for help.
  if (std::ranges::any_of(args, [](std::string_view a) { return a == "--help" || a == "-h"; })) {
    std::cout << runHelp();
    return std::nullopt;
  }
  RunOptions options;
  bool haveScene = false;
  std::vector<std::string_view> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (!arg.starts_with("--")) {
      if (haveScene) throw UsageError("unexpected argument " + inQuotes(arg) + " (the scene is already " +
                                      inQuotes(options.scene) + ")");
      options.scene = std::string(arg);
      haveScene = true;
      continue;
    }
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const Flag* flag = findFlag(name);
    if (!flag) throw UsageError("unknown flag " + std::string(name));
    std::string_view value;
    if (equals != std::string_view::npos) value = arg.substr(equals + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else reject(name, "needs a value (" + std::string(flag->valueName) + ")");
    flag->apply(options, name, value);
    given.push_back(name);
  }
  if (!haveScene) throw UsageError("run needs a SCENE: a built-in scene name or a path to a .json file");
  // One solver's settings given for another would change nothing.
  const std::string& solver = options.world.solver.solver;
  for (const std::string_view flag : given) {
    if (flag == "--rfactor") requireSolverOf(flag, solver, rFactorSolvers());
    if (flag == "--omega") requireSolverOf(flag, solver, {"psor"});
    if (flag == "--pgs-sweeps" || flag == "--sm-steps") requireSolverOf(flag, solver, {"pgs-sm"});
    if (flag == "--modulus-alpha" || flag == "--modulus-gamma") requireSolverOf(flag, solver, {"modulus-gs"});
    if (flag == "--vtk-every" && options.outputs.vtk.empty()) reject(flag, "needs --vtk DIR, the folder its frames go to");
  }
  checkDistinctOutputs(options.outputs);
  return options;
}

// Two outputs named alike would interleave into one unreadable file.
void checkDistinctOutputs(const OutputPaths& outputs) {
  const std::pair<const char*, const std::string*> files[] = {{"--trace", &outputs.trace},
                                                              {"--metrics", &outputs.metrics},
                                                              {"--residuals", &outputs.residuals},
                                                              {"--contacts", &outputs.contacts},
                                                              {"--state-out", &outputs.stateOut}};
  const auto normal = [](const std::string& path) { return std::filesystem::absolute(path).lexically_normal(); };
  for (std::size_t i = 0; i < std::size(files); ++i)
    for (std::size_t j = i + 1; j < std::size(files); ++j)
      if (!files[i].second->empty() && !files[j].second->empty() && normal(*files[i].second) == normal(*files[j].second))
        throw UsageError(std::string(files[i].first) + " and " + files[j].first + ": both name " + *files[i].second +
                         "; give each output its own file");
}

double numberFlag(std::string_view flag, std::string_view text) { return number(flag, text); }
double nonNegativeNumberFlag(std::string_view flag, std::string_view text) { return nonNegativeNumber(flag, text); }
int wholeNumberFlag(std::string_view flag, std::string_view text, int minimum) { return wholeNumber(flag, text, minimum); }

}  // namespace contactlab::cli
