// `contactlab-cli study`: the PROX paper's convergence studies, reproducible (issue 4, "Convergence
// studies"). Runs scenes x solvers x r-factor strategies for N steps and writes every solve's data as
// CSV, and figures as SVG plus one self-contained HTML page: merit quartiles over the iterations
// (the paper's Figures 4 and 8), how each solve ended and how often divergence was detected
// (Figure 9), and the energies (Figure 7).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.h"
#include "contactlab/world.h"
#include "solvers/contact_solver.h"
#include "svg_chart.h"

namespace contactlab::cli {
namespace {

// The PROX paper's solver settings: at most 1000 sweeps, both tolerances 1e-3, no stall test (the
// engine's defaults stop otherwise, SolverSettings::tolAbs), so the study's solves end as the
// paper's do: absolute, relative or at the cap.
WorldSettings paperSettings() {
  WorldSettings settings;
  settings.solver.tolAbs = 1e-3;
  settings.solver.tolRel = 1e-3;
  settings.solver.stallWindow = 0;
  return settings;
}

struct StudyOptions {
  std::vector<std::string> scenes{"tower", "wall", "pile"};
  std::vector<std::string> solvers{"prox-gs", "prox-jacobi"};
  std::vector<RFactorStrategy> rFactors{RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked};
  int steps = 450;
  WorldSettings settings = paperSettings();
  std::map<std::string, SceneParams> params;  // per scene
  std::uint64_t seed = 1;
  std::string out;
};

constexpr const char* kStudyHelp =
    "usage: contactlab-cli study --out DIR [flags]\n"
    "\n"
    "Runs every combination of scene, solver and r-factor strategy for N steps and writes into DIR:\n"
    "  solves.csv     scene,solver,rfactor,step,contacts,iterations,rollbacks,convergence,residual,seconds\n"
    "  residuals.csv  scene,solver,rfactor,step,iteration,residual (the merit of every sweep)\n"
    "  energy.csv     scene,solver,rfactor,step,time,kinetic_energy,potential_energy\n"
    "  summary.csv    per combination: solves, iterations (mean, median, 90th percentile, max), how the\n"
    "                 solves ended (absolute, relative, none), roll-backs (mean, max), solver seconds\n"
    "  *.svg          per scene: merit quartiles against iterations for each combination (PROX paper\n"
    "                 Fig. 4 and 8), how the solves ended, divergence detections per solve (Fig. 9),\n"
    "                 kinetic and potential energy over time (Fig. 7)\n"
    "  index.html     all of it on one self-contained page\n"
    "Every step with contacts is a solve, one that its warm start already met (0 sweeps) included. A\n"
    "solve that stopped before iteration k counts with its final merit at k (it would stay there).\n"
    "Solvers without r-factors (all but prox-*) run once per scene. Flags take their value as the next\n"
    "argument or after '='.\n"
    "\n"
    "  --out DIR              output folder (created; required)\n"
    "  --scenes a,b           built-in scenes (default: tower,wall,pile)\n"
    "  --solvers a,b          solvers from contactlab-cli list (default: prox-gs,prox-jacobi)\n"
    "  --rfactors a,b         global, local, blocked (default: all three)\n"
    "  --steps N              steps per run (default: 450, the paper's)\n"
    "  --max-iter K           sweeps per solve at most (default: 1000, the paper's)\n"
    "  --tol-abs X            absolute tolerance of the merit (default: 1e-3, the paper's; 0: never)\n"
    "  --tol-rel X            relative tolerance of the merit (default: 1e-3, the paper's; 0: never)\n"
    "  --param SCENE:KEY=V    a built-in scene's parameter, e.g. pile:count=2000; repeatable\n"
    "  --seed N               seed of the built-in scenes (default: 1)\n"
    "  --threads N            threads each step runs on, N >= 1 (default: 1; results do not depend on it)\n"
    "  --sleep on|off         let islands at rest sleep (default: off)\n"
    "  --help                 show this help\n";

// The comma-separated items of a list flag's value; an item named twice is an error (the study
// would run the same combination twice and the second run's figures overwrite the first's).
std::vector<std::string> splitList(std::string_view flag, std::string_view text) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item(text.substr(start, comma - start));
    if (std::ranges::find(items, item) != items.end())
      throw UsageError(std::string(flag) + ": \"" + item + "\" is named twice");
    items.push_back(std::move(item));
    start = comma + 1;
  }
  return items;
}

const SolverEntry* findSolver(const std::string& name) {
  for (const SolverEntry& entry : solverRegistry())
    if (entry.name == name) return &entry;
  return nullptr;
}

std::optional<StudyOptions> parseStudyArgs(Args args) {
  if (std::ranges::any_of(args, [](std::string_view a) { return a == "--help" || a == "-h"; })) {
    std::cout << kStudyHelp;
    return std::nullopt;
  }
  StudyOptions options;
  bool rFactorsGiven = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const std::size_t equals = arg.find('=');
    const std::string flag(arg.substr(0, equals));
    std::string_view value;
    if (!flag.starts_with("--")) throw UsageError("study: unexpected argument \"" + std::string(arg) + "\"");
    if (equals != std::string_view::npos) value = arg.substr(equals + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else throw UsageError(flag + ": needs a value");
    if (flag == "--out") {
      if (value.empty()) throw UsageError("--out: needs a folder");
      options.out = std::string(value);
    } else if (flag == "--scenes") {
      options.scenes = splitList(flag, value);
      for (const std::string& scene : options.scenes)
        if (!findBuiltinScene(scene)) throw UsageError("--scenes: unknown built-in scene \"" + scene + "\" (see contactlab-cli list)");
    } else if (flag == "--solvers") {
      options.solvers = splitList(flag, value);
      for (const std::string& solver : options.solvers)
        if (!findSolver(solver)) throw UsageError("--solvers: unknown solver \"" + solver + "\" (see contactlab-cli list)");
    } else if (flag == "--rfactors") {
      rFactorsGiven = true;
      options.rFactors.clear();
      for (const std::string& name : splitList(flag, value)) {
        RFactorStrategy strategy;
        if (!parseRFactor(name, strategy)) throw UsageError("--rfactors: expected global, local or blocked, got \"" + name + "\"");
        options.rFactors.push_back(strategy);
      }
    } else if (flag == "--steps") {
      options.steps = wholeNumberFlag(flag, value, 1);
    } else if (flag == "--max-iter") {
      options.settings.solver.maxIterations = wholeNumberFlag(flag, value, 1);
    } else if (flag == "--tol-abs") {
      options.settings.solver.tolAbs = nonNegativeNumberFlag(flag, value);
    } else if (flag == "--tol-rel") {
      options.settings.solver.tolRel = nonNegativeNumberFlag(flag, value);
    } else if (flag == "--threads") {
      options.settings.threads = wholeNumberFlag(flag, value, 1);
    } else if (flag == "--sleep") {
      options.settings.sleep = onOff(flag, value);
    } else if (flag == "--seed") {
      options.seed = static_cast<std::uint64_t>(wholeNumberFlag(flag, value, 0));
    } else if (flag == "--param") {
      const std::size_t colon = value.find(':'), assign = value.find('=');
      if (colon == std::string_view::npos || assign == std::string_view::npos || assign < colon)
        throw UsageError("--param: expected SCENE:KEY=VALUE, got \"" + std::string(value) + "\"");
      const std::string scene(value.substr(0, colon)), key(value.substr(colon + 1, assign - colon - 1));
      if (!findBuiltinScene(scene)) throw UsageError("--param: unknown built-in scene \"" + scene + "\"");
      options.params[scene][key] = numberFlag(flag + " " + scene + ":" + key, value.substr(assign + 1));
    } else {
      throw UsageError("study: unknown flag \"" + flag + "\"");
    }
  }
  if (options.out.empty()) throw UsageError("study: --out DIR is required");
  if (rFactorsGiven && std::ranges::none_of(options.solvers, [](const std::string& solver) { return findSolver(solver)->usesRFactor; }))
    throw UsageError("--rfactors: applies to the PROX solvers only, and --solvers names none of them");
  for (const auto& [scene, params] : options.params) {
    if (std::ranges::find(options.scenes, scene) == options.scenes.end())
      throw UsageError("--param " + scene + ":...: scene " + scene + " is not among the study's scenes (--scenes)");
    checkSceneParams(scene, params);
  }
  return options;
}

// One solve of one step.
struct SolveRecord {
  int step = 0, contacts = 0;
  SolveReport report;
};

// One combination of scene, solver and r-factor strategy, run for the study's steps.
struct StudyRun {
  std::string scene, solver, rFactor;  // rFactor "-" for solvers without r-factors
  std::vector<SolveRecord> solves;     // steps with contacts only
  std::vector<double> time, kinetic, potential;
  double seconds = 0.0;  // solver time, summed
  std::string label() const { return rFactor == "-" ? solver : solver + " " + rFactor; }
};

// The study's scenes, each built once before the first run, so that a parameter out of its range
// or a scene the study cannot measure stops the study before it has spent minutes on other scenes.
std::map<std::string, Scene> buildStudyScenes(const StudyOptions& options) {
  std::map<std::string, Scene> scenes;
  for (const std::string& name : options.scenes) {
    const auto found = options.params.find(name);
    Scene scene = buildBuiltinScene(name, found == options.params.end() ? SceneParams{} : found->second, options.seed);
    // The study measures the rigid solvers; deformable bodies are solved by the CR method, which
    // `run --metrics` and `bench` report.
    if (std::ranges::any_of(scene.bodies, [](const BodyDesc& body) { return body.deformable.has_value(); }))
      throw UsageError("--scenes: " + name + " has deformable bodies, whose contacts the CR solve takes, not the rigid solvers "
                       "a study compares (its CR iterations are in run --metrics and bench)");
    World check(scene, options.settings);  // a body the World refuses (a mass that underflows) fails here too
    scenes.emplace(name, std::move(scene));
  }
  return scenes;
}

StudyRun runCombination(const StudyOptions& options, const Scene& sceneDesc, const std::string& scene, const std::string& solver,
                        const std::string& rFactorLabel, RFactorStrategy rFactor) {
  WorldSettings settings = options.settings;
  settings.solver.solver = solver;
  settings.solver.prox.rFactor = rFactor;
  World world(sceneDesc, settings);
  StudyRun run{scene, solver, rFactorLabel, {}, {}, {}, {}, 0.0};
  for (int step = 0; step < options.steps; ++step) {
    world.step();
    const StepMetrics& m = world.lastMetrics();
    if (m.contacts > 0) run.solves.push_back({m.step, m.contacts, m.solve});  // 0 sweeps too: a solve the warm start met
    run.seconds += m.solve.seconds;
    run.time.push_back(m.time);
    run.kinetic.push_back(m.kineticEnergy);
    run.potential.push_back(m.potentialEnergy);
  }
  return run;
}

double quantile(std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::nan("");
  const double position = q * (sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

// The merit's distribution over the solves at every iteration k: min, 25 %, median, 75 %, max.
struct MeritQuartiles {
  std::vector<double> iteration, low, q1, median, q3, high;
};

MeritQuartiles meritQuartiles(const StudyRun& run) {
  MeritQuartiles out;
  std::size_t longest = 0;
  for (const SolveRecord& s : run.solves) longest = std::max(longest, s.report.residualHistory.size());
  std::vector<double> values;
  for (std::size_t k = 0; k < longest; ++k) {
    values.clear();
    for (const SolveRecord& s : run.solves) {
      const auto& history = s.report.residualHistory;
      values.push_back(k < history.size() ? history[k] : s.report.residual);
    }
    std::sort(values.begin(), values.end());
    out.iteration.push_back(static_cast<double>(k + 1));
    out.low.push_back(values.front());
    out.q1.push_back(quantile(values, 0.25));
    out.median.push_back(quantile(values, 0.5));
    out.q3.push_back(quantile(values, 0.75));
    out.high.push_back(values.back());
  }
  return out;
}

struct RunSummary {
  int solves = 0, absolute = 0, relative = 0, none = 0, maxIterations = 0, maxRollbacks = 0;
  double meanIterations = 0.0, medianIterations = 0.0, p90Iterations = 0.0, meanRollbacks = 0.0;
};

RunSummary summarize(const StudyRun& run) {
  RunSummary s;
  std::vector<double> iterations;
  for (const SolveRecord& r : run.solves) {
    ++s.solves;
    (r.report.convergence == Convergence::Absolute ? s.absolute : r.report.convergence == Convergence::Relative ? s.relative : s.none)++;
    iterations.push_back(r.report.iterations);
    s.meanIterations += r.report.iterations;
    s.meanRollbacks += r.report.rollbacks;
    s.maxIterations = std::max(s.maxIterations, r.report.iterations);
    s.maxRollbacks = std::max(s.maxRollbacks, r.report.rollbacks);
  }
  if (s.solves > 0) {
    s.meanIterations /= s.solves;
    s.meanRollbacks /= s.solves;
    std::sort(iterations.begin(), iterations.end());
    s.medianIterations = quantile(iterations, 0.5);
    s.p90Iterations = quantile(iterations, 0.9);
  }
  return s;
}

std::ofstream openCsv(const std::filesystem::path& path, const char* header) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out.precision(17);
  out << header << "\n";
  return out;
}

void writeCsvs(const std::filesystem::path& dir, const std::vector<StudyRun>& runs) {
  std::ofstream solves = openCsv(dir / "solves.csv", "scene,solver,rfactor,step,contacts,iterations,rollbacks,convergence,residual,seconds");
  std::ofstream residuals = openCsv(dir / "residuals.csv", "scene,solver,rfactor,step,iteration,residual");
  std::ofstream energy = openCsv(dir / "energy.csv", "scene,solver,rfactor,step,time,kinetic_energy,potential_energy");
  std::ofstream summary = openCsv(dir / "summary.csv",
                                  "scene,solver,rfactor,solves,mean_iterations,median_iterations,p90_iterations,max_iterations,absolute,"
                                  "relative,none,mean_rollbacks,max_rollbacks,solver_seconds");
  for (const StudyRun& run : runs) {
    const std::string key = run.scene + "," + run.solver + "," + run.rFactor + ",";
    for (const SolveRecord& s : run.solves) {
      solves << key << s.step << "," << s.contacts << "," << s.report.iterations << "," << s.report.rollbacks << ","
             << convergenceName(s.report.convergence) << "," << s.report.residual << "," << s.report.seconds << "\n";
      for (std::size_t k = 0; k < s.report.residualHistory.size(); ++k)
        residuals << key << s.step << "," << k + 1 << "," << s.report.residualHistory[k] << "\n";
    }
    for (std::size_t i = 0; i < run.time.size(); ++i)
      energy << key << i + 1 << "," << run.time[i] << "," << run.kinetic[i] << "," << run.potential[i] << "\n";
    const RunSummary s = summarize(run);
    summary << key << s.solves << "," << s.meanIterations << "," << s.medianIterations << "," << s.p90Iterations << "," << s.maxIterations << ","
            << s.absolute << "," << s.relative << "," << s.none << "," << s.meanRollbacks << "," << s.maxRollbacks << ","
            << run.seconds << "\n";
  }
}

// Roll-backs per solve, binned 0, 1, 2-3, 4-7, ... (Fig. 9 counts divergence detections per solve).
std::vector<std::string> rollbackBins(int largest) {
  std::vector<std::string> bins{"0"};
  for (int low = 1; low <= std::max(largest, 1); low *= 2)
    bins.push_back(low == 1 ? "1" : std::to_string(low) + "-" + std::to_string(2 * low - 1));
  return bins;
}
int rollbackBin(int rollbacks) {
  int bin = 0;
  for (int value = rollbacks; value > 0; value /= 2) ++bin;
  return bin;
}

struct Figure {
  std::string file, caption, svg;
};

std::vector<Figure> sceneFigures(const std::string& scene, const std::vector<const StudyRun*>& runs, const StudyOptions& options) {
  std::vector<Figure> figures;
  for (const StudyRun* run : runs) {
    const MeritQuartiles q = meritQuartiles(*run);
    SvgChart chart(scene + ": " + run->label() + " (" + std::to_string(run->solves.size()) + " solves)", "iteration",
                   "merit (eq. 27, m/s)");
    chart.setLogY(true);
    chart.addBand(q.iteration, q.low, q.high, "#1f77b4", 0.15, "min-max");
    chart.addBand(q.iteration, q.q1, q.q3, "#1f77b4", 0.35, "25-75 %");
    chart.addLine(q.iteration, q.median, "#1f77b4", "median", 2.0);
    if (options.settings.solver.tolAbs > 0)
      chart.addLine({1.0, std::max(2.0, q.iteration.empty() ? 2.0 : q.iteration.back())}, {options.settings.solver.tolAbs, options.settings.solver.tolAbs},
                    "#d62728", "absolute tolerance", 1.0, true);
    std::string name = "convergence-" + scene + "-" + run->solver + (run->rFactor == "-" ? "" : "-" + run->rFactor) + ".svg";
    figures.push_back({name, "Merit quartiles over the solves, " + run->label(), chart.render(560, 360)});
  }
  std::vector<std::string> labels, colors;
  std::vector<std::vector<double>> outcomes(runs.size()), rollbackCounts(runs.size());
  int largestRollbacks = 0;
  for (const StudyRun* run : runs)
    for (const SolveRecord& s : run->solves) largestRollbacks = std::max(largestRollbacks, s.report.rollbacks);
  const std::vector<std::string> bins = rollbackBins(largestRollbacks);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunSummary s = summarize(*runs[i]);
    labels.push_back(runs[i]->label());
    colors.push_back(chartColor(static_cast<int>(i)));
    outcomes[i] = {double(s.absolute), double(s.relative), double(s.none)};
    rollbackCounts[i].assign(bins.size(), 0.0);
    for (const SolveRecord& r : runs[i]->solves) rollbackCounts[i][rollbackBin(r.report.rollbacks)] += 1.0;
  }
  SvgChart outcome(scene + ": how the solves ended", "", "solves");
  outcome.setBars({"absolute", "relative", "not converged"}, labels, outcomes, colors);
  figures.push_back({"outcomes-" + scene + ".svg", "Convergence outcome of every solve", outcome.render(640, 360)});
  SvgChart divergence(scene + ": divergence detections per solve", "roll-backs in a solve", "solves");
  divergence.setBars(bins, labels, rollbackCounts, colors);
  figures.push_back({"rollbacks-" + scene + ".svg", "Roll-backs (divergence detected) per solve", divergence.render(640, 360)});
  for (const bool kinetic : {true, false}) {
    SvgChart energy(scene + (kinetic ? ": kinetic energy" : ": potential energy"), "time (s)", "energy (J)");
    for (std::size_t i = 0; i < runs.size(); ++i)
      energy.addLine(runs[i]->time, kinetic ? runs[i]->kinetic : runs[i]->potential, colors[i], labels[i]);
    figures.push_back({std::string(kinetic ? "kinetic-" : "potential-") + scene + ".svg",
                       kinetic ? "Kinetic energy over time" : "Potential energy over time", energy.render(640, 360)});
  }
  return figures;
}

void writeFigures(const std::filesystem::path& dir, const std::vector<StudyRun>& runs, const StudyOptions& options) {
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>contactlab study</title>\n"
       << "<style>body{font-family:sans-serif;margin:20px}figure{display:inline-block;margin:6px}"
       << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}</style>"
       << "</head><body>\n<h1>contactlab study</h1>\n<p>" << options.steps << " steps per run, at most "
       << options.settings.solver.maxIterations << " sweeps per solve, tolerances " << options.settings.solver.tolAbs << " (absolute), "
       << options.settings.solver.tolRel << " (relative). Data: solves.csv, residuals.csv, energy.csv, summary.csv.</p>\n";
  for (const std::string& scene : options.scenes) {
    std::vector<const StudyRun*> sceneRuns;
    for (const StudyRun& run : runs)
      if (run.scene == scene) sceneRuns.push_back(&run);
    html << "<h2>" << escapeXml(scene) << "</h2>\n<table><tr><th>solver</th><th>solves</th><th>iterations mean</th>"
         << "<th>median</th><th>p90</th><th>max</th><th>absolute</th><th>relative</th><th>none</th><th>roll-backs mean</th>"
         << "<th>max</th><th>solver s</th></tr>\n";
    for (const StudyRun* run : sceneRuns) {
      const RunSummary s = summarize(*run);
      char row[512];
      std::snprintf(row, sizeof row,
                    "<tr><td>%s</td><td>%d</td><td>%.1f</td><td>%.0f</td><td>%.0f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                    "<td>%.2f</td><td>%d</td><td>%.2f</td></tr>\n",
                    escapeXml(run->label()).c_str(), s.solves, s.meanIterations, s.medianIterations, s.p90Iterations, s.maxIterations, s.absolute,
                    s.relative, s.none, s.meanRollbacks, s.maxRollbacks, run->seconds);
      html << row;
    }
    html << "</table>\n";
    for (const Figure& figure : sceneFigures(scene, sceneRuns, options)) {
      std::ofstream svg(dir / figure.file);
      if (!(svg << figure.svg)) throw std::runtime_error("cannot write " + (dir / figure.file).string());
      html << "<figure>" << figure.svg << "<figcaption>" << escapeXml(figure.caption) << " (" << figure.file
           << ")</figcaption></figure>\n";
    }
  }
  html << "</body></html>\n";
  std::ofstream page(dir / "index.html");
  if (!(page << html.str())) throw std::runtime_error("cannot write " + (dir / "index.html").string());
}

}  // namespace

int studyCommand(Args args) {
  const std::optional<StudyOptions> options = parseStudyArgs(args);
  if (!options) return 0;  // --help
  const std::map<std::string, Scene> scenes = buildStudyScenes(*options);
  const std::filesystem::path dir(options->out);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create the folder " + dir.string() + (error ? ": " + error.message() : ""));
  std::vector<StudyRun> runs;
  for (const std::string& scene : options->scenes)
    for (const std::string& solver : options->solvers) {
      const bool usesRFactor = findSolver(solver)->usesRFactor;
      for (const RFactorStrategy strategy : options->rFactors) {
        const auto start = std::chrono::steady_clock::now();
        runs.push_back(runCombination(*options, scenes.at(scene), scene, solver, usesRFactor ? rFactorName(strategy) : "-", strategy));
        const RunSummary s = summarize(runs.back());
        std::printf("%s %s: %d solves, iterations mean %.1f, converged %d absolute %d relative %d none, %.1f s\n",
                    scene.c_str(), runs.back().label().c_str(), s.solves, s.meanIterations, s.absolute, s.relative, s.none,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        std::fflush(stdout);
        if (!usesRFactor) break;
      }
    }
  writeCsvs(dir, runs);
  writeFigures(dir, runs, *options);
  std::printf("wrote %s/index.html, the figures and the CSV files\n", dir.string().c_str());
  return 0;
}

}  // namespace contactlab::cli
