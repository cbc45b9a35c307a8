// contactlab: the desktop app (see README.md, "The desktop app"), or headless with --exit.
#include <iostream>
#include <string>
#include <vector>

#include "ui/application.h"
#include "ui/command_line.h"

int main(int argc, char** argv) {
  using namespace contactlab::app;
  std::string error;
  CommandLine commandLine = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc), error);
  if (!error.empty()) {
    std::cerr << "contactlab: " << error << '\n';
    return 2;
  }
  if (commandLine.showHelp) {
    std::cout << commandLineUsage();
    return 0;
  }
  if (commandLine.showVersion) {
    std::cout << "contactlab " << CONTACTLAB_VERSION << '\n';
    return 0;
  }
  Application app(std::move(commandLine));
  return app.run();
}
