#!/usr/bin/env bash
# Installs dependencies, builds contactlab and runs the default scene (the wall) headless,
# printing its summary. Extra arguments go to `contactlab-cli run` (e.g. --steps 200 --solver prox-jacobi).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset release -G Ninja >/dev/null
cmake --build --preset release -j "$(nproc)"
./build/contactlab-cli run wall "$@"
