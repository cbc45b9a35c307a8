#!/usr/bin/env bash
# Configures a CMake preset: scripts/configure.sh PRESET BUILD_DIR [cmake args...]
# A new build folder gets Ninja; an existing one keeps the generator it was made with (a plain
# `cmake -S . -B build` makes Makefiles, and CMake refuses to switch generators in place).
set -euo pipefail
preset=$1 dir=$2
shift 2
if [ -f "$dir/CMakeCache.txt" ]; then
  cmake --preset "$preset" "$@"
else
  cmake --preset "$preset" -G Ninja "$@"
fi
