// `contactlab-cli list`: the built-in scenes with their parameters, and the solvers.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "commands.h"

namespace contactlab::cli {

int listCommand(Args args) {
  for (std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << "usage: contactlab-cli list\n\n"
                   "Lists the built-in scenes with their parameters and defaults (set them with\n"
                   "contactlab-cli run SCENE --param KEY=VALUE) and the solvers (--solver NAME).\n";
      return 0;
    }
    throw UsageError("list takes no arguments, got \"" + std::string(arg) + "\"");
  }
  std::printf("scenes (contactlab-cli run NAME [--param KEY=VALUE]...):\n");
  int nameWidth = 0;  // the longest name sets the column, so descriptions line up
  for (const SceneEntry& scene : builtinScenes()) nameWidth = std::max(nameWidth, static_cast<int>(scene.name.size()));
  for (const SceneEntry& scene : builtinScenes()) {
    std::printf("  %-*s %s\n", nameWidth, scene.name.c_str(), scene.description.c_str());
    for (const SceneParam& param : scene.params) {
      char setting[64];
      std::snprintf(setting, sizeof setting, "%s=%g", param.name.c_str(), param.defaultValue);
      std::printf("      %-16s %s\n", setting, param.description.c_str());
    }
  }
  std::printf("solvers (contactlab-cli run SCENE --solver NAME):\n");
  for (const SolverDescription& solver : solverNames())
    std::printf("  %-12s %s\n", solver.name.c_str(), solver.summary.c_str());
  return 0;
}

}  // namespace contactlab::cli
