#!/usr/bin/env bash
# Installs dependencies, builds contactlab and runs every test with ctest.
#   scripts/test.sh              Release build in build/
#   scripts/test.sh --sanitize   ASan + UBSan build in build-asan/ of the engine, scenes and CLI at
#                                -O1 with line tables, and every test but those labelled scene-run
#                                (whole scenes stepped for hundreds of steps: under the sanitizers
#                                they take minutes and reach no code the unit tests do not; the
#                                release pass runs them). The desktop app is left out too: it runs
#                                inside GLFW, X and Mesa libraries not built with the sanitizers.
# Either builds only what the suite runs (the target contactlab_test_suite: the test binaries, the
# CLI and the app); `cmake --build build` builds the benchmark programs too.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc)
if [ "${1:-}" = "--sanitize" ]; then
  bash scripts/configure.sh asan build-asan
  cmake --build --preset asan -j "$jobs" --target contactlab_test_suite
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE scene-run
else
  bash scripts/configure.sh release build
  cmake --build --preset release -j "$jobs" --target contactlab_test_suite
  ctest --test-dir build --output-on-failure -j "$jobs"
fi
