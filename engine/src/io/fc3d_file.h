#pragma once
// Siconos frictional contact problem files (FC3D, `*.dat`), as ../shared/fc3d/FORMAT.md describes
// them: d, nc, the NumericsMatrix W (storage 0 dense column-major, or 1 sparse block), q, mu, and
// any trailing tokens ignored. Storage 2 (CSparse dump, used by no FC3D file) is rejected.
//
// Read problems get the 4-row Delassus form of delassus_problem.h: each 3x3 block of W in the top
// left of a 4x4 block, a decoupled torsion row (W_tautau = 1, q_tau = 0) and friction (mu, mu, 0).
//
// The writer writes storage 1 (sparse block), every number with %.17g so that reading gives back
// the same doubles, and only the three force rows n, t, s of each contact: the torsion row and its
// coupling are dropped (the format has no place for them), and mu is mu_s (the engine's friction is
// isotropic; writing an anisotropic problem throws).
#include <stdexcept>
#include <string>
#include <string_view>

#include "problem/delassus_problem.h"

namespace contactlab {

// A malformed file. The message names the file, then the line and the token or item at fault,
// e.g. "a.dat:12: q[5]: \"1.2.3\" is not a number".
class Fc3dFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

DelassusProblem readFc3dFile(const std::string& path);
// The same from text in memory; `name` stands for the file in messages.
DelassusProblem parseFc3d(std::string_view text, const std::string& name);

void writeFc3dFile(const DelassusProblem& problem, const std::string& path);
std::string formatFc3d(const DelassusProblem& problem);

}  // namespace contactlab
