#pragma once
// The subcommands of contactlab-cli; each returns the process exit status.
#include "args.h"

namespace contactlab::cli {

int runCommand(Args args);
int listCommand(Args args);
int benchCommand(Args args);
int studyCommand(Args args);
int solveCommand(Args args);

}  // namespace contactlab::cli
