#!/usr/bin/env bash
# Installs dependencies, builds contactlab (Release) and starts the desktop app on its default
# scene (tower). Extra arguments go to `contactlab` (e.g. --scene pile --param count=500; --help).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/configure.sh release build >/dev/null
cmake --build build -j2 --target contactlab

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display (DISPLAY is not set), so the app's window cannot open." >&2
  echo "  Headless, under a virtual display:" >&2
  echo "    xvfb-run -a -s '-screen 0 1280x720x24' ./build/contactlab --frames 120 --record tower.mp4 --screenshot tower.png --exit" >&2
  echo "  or the command-line tool: ./build/contactlab-cli run tower" >&2
  exit 1
fi
exec ./build/contactlab "$@"
