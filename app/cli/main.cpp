// contactlab-cli: the headless front end. Every failure ends here as one line on stderr and a
// non-zero status: 2 for a mistake on the command line, 1 for anything else.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"

namespace {

constexpr const char* kUsage =
    "usage: contactlab-cli COMMAND [arguments]\n"
    "\n"
    "commands:\n"
    "  run SCENE [flags]   step a built-in scene or a .json scene file headless (run --help)\n"
    "  list                the built-in scenes with their parameters, and the solvers\n"
    "  bench [flags]       time the step and the solver on the benchmark scenes (bench --help)\n"
    "  study --out DIR     convergence studies: scenes x solvers x r-factors, CSV and figures (study --help)\n"
    "  solve FILE.dat      solve a Siconos frictional contact problem file (solve --help)\n"
    "\n"
    "  --help              show this help\n"
    "  --version           show the version\n";

// Messages may quote multi-line text (a JSON parser's, say); the promise is one line.
std::string oneLine(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

// Where a command-line mistake is explained: the command's own help, or the overview; nothing
// when the message already points somewhere (an unknown scene: "see contactlab-cli list").
std::string helpHint(std::string_view message, const std::vector<std::string_view>& args) {
  if (message.find("(see contactlab-cli") != std::string_view::npos) return "";
  for (const std::string_view command : {"run", "list", "bench", "study", "solve"})
    if (!args.empty() && args.front() == command) return " (see contactlab-cli " + std::string(command) + " --help)";
  return " (see contactlab-cli --help)";
}

int dispatch(const std::vector<std::string_view>& args) {
  using namespace contactlab::cli;
  if (args.empty()) throw UsageError("missing COMMAND (run, list, bench, study or solve)");
  const std::string_view command = args.front();
  const Args rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "contactlab-cli " << CONTACTLAB_VERSION << "\n";
    return 0;
  }
  if (command == "run") return runCommand(rest);
  if (command == "list") return listCommand(rest);
  if (command == "bench") return benchCommand(rest);
  if (command == "study") return studyCommand(rest);
  if (command == "solve") return solveCommand(rest);
  throw UsageError("unknown command \"" + std::string(command) + "\" (commands: run, list, bench, study, solve)");
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return dispatch(args);
  } catch (const contactlab::cli::UsageError& e) {
    std::cerr << "contactlab-cli: " << oneLine(e.what()) << helpHint(e.what(), args) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "contactlab-cli: error: " << oneLine(e.what()) << "\n";
    return 1;
  } catch (...) {
    std::cerr << "contactlab-cli: error: unexpected failure\n";
    return 1;
  }
}
