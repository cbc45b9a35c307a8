#pragma once
// Runs contactlab-cli as a subprocess (tests/cli).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace contactlab::test {

struct CliResult {
  int exitCode = -1;   // -1 if the process did not exit normally (a crash)
  std::string output;  // stdout and stderr together
};

inline CliResult runCli(const std::string& arguments) {
  const std::string command = std::string("'") + CONTACTLAB_CLI_PATH + "' " + arguments + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  return result;
}

}  // namespace contactlab::test
