#!/usr/bin/env bash
# Installs contactlab's build and test dependencies from Debian packages. Idempotent:
# packages already present are skipped, so a second call costs one dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  # the compiler cache (CMakeLists.txt): a rebuild of unchanged sources takes their objects from it
  ccache
  libeigen3-dev libspdlog-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # the benchmark peer: Bullet 3.24, run side by side with contactlab by bench/ (contactlab-bench-bullet)
  libbullet-dev
  # the problem-file peer: Siconos Numerics' NSGS and PROX (contactlab-bench-siconos, and the test that
  # reads the sample files with Siconos' reader); installed so that CI builds both
  libsiconos-numerics-dev
  # meshes (issue 5): OBJ reading, the tetrahedralizer program, and the Stanford bunny asset
  libtinyobjloader-dev tetgen glmark2-data
  # the tests' independent reader of the VTK (ParaView) frames the engine writes, run by the system's python3
  python3-meshio
  # the desktop app: window, GUI, OpenGL loader, PNG screenshots, video, and a virtual display for its tests
  libglfw3-dev libimgui-dev libepoxy-dev libpng-dev ffmpeg
  xvfb xauth libgl1-mesa-dri libegl1 libegl-mesa0
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
