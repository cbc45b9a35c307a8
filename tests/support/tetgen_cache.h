#pragma once
// Tetgen settings whose cache is a test's own temporary directory, so that tests never share (or
// leave behind) cached tetrahedralizations.
#include "io/tetgen_bridge.h"
#include "support/temporary_directory.h"

namespace contactlab::test {

inline TetgenSettings tetgenSettingsIn(const TemporaryDirectory& cache) {
  TetgenSettings settings;
  settings.cacheDirectory = cache.path().string();
  return settings;
}

}  // namespace contactlab::test
