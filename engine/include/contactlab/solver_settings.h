#pragma once
// Settings of the contact solve; the same struct drives the CLI flags, the GUI panel and the tests.
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

// PROX paper sec. 4.2.
enum class RFactorStrategy { Global, Local, Blocked };
const char* rFactorName(RFactorStrategy s);
// Parses "global" | "local" | "blocked"; returns false on anything else.
bool parseRFactor(std::string_view text, RFactorStrategy& out);

struct SolverSettings {
  std::string solver = "prox-gs";  // a name from solverNames()
  RFactorStrategy rFactor = RFactorStrategy::Global;
  int maxIterations = 1000;  // sweeps, rolled-back sweeps included
  double tolAbs = 1e-3;      // 0 means never stop early on this test
  double tolRel = 1e-3;      // 0 means never stop early on this test
  bool warmStart = true;
  bool stabilize = false;  // post-stabilization, paper sec. 4.4
  // modulus-gs (accelerated-modulus-gauss-seidel.txt): Omega = alpha D with D = diag(A) (sec. 4,
  // Corollary 4.3; alpha > 0) and Gamma = E / gamma (eq. 10; gamma > 0). The paper's experiments use
  // gamma = 2; alpha = 1 / gamma minimizes the contraction bound of Theorem 4.2 (Remark 4.4), though
  // its Figures 6-8 converge faster with smaller alpha.
  double modulusAlpha = 0.5;
  double modulusGamma = 2.0;
};

struct SolverDescription {
  std::string name;
  std::string summary;
};
// Every registered solver, in registry order: the GUI combo box, the CLI and the tests use this list.
std::vector<SolverDescription> solverNames();

}  // namespace contactlab
