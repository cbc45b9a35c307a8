#pragma once
// Preconditioned conjugate gradients for A x = b with A symmetric positive definite in 3x3 blocks:
// the contact-free solve of the linearly implicit step (Verschoor & Jalba eq. 4, "typically solved
// using the CG method"). Block-Jacobi preconditioner: the inverse of each node's diagonal block.
#include "contactlab/math.h"
#include "problem/block_sparse_matrix.h"

namespace contactlab {

class ThreadPool;

struct ConjugateGradientSettings {
  double tolerance = 1e-8;  // stop when |b - A x| <= tolerance |b|
  int maxIterations = 0;    // 0: 3 n + 10, n the number of unknowns (far more than exact arithmetic needs)
};

struct ConjugateGradientReport {
  int iterations = 0;
  double relativeResidual = 0.0;  // |b - A x| / |b| at exit (0 for b = 0)
  bool converged = false;
};

// Solves A x = b starting from the given x (a warm start; resized to zeros when its size differs).
// With a pool, the products A p use it (bit-identical for any thread count).
ConjugateGradientReport solveConjugateGradient(const BlockSparseMatrix3& A, const Eigen::VectorXd& b,
                                               Eigen::VectorXd& x, const ConjugateGradientSettings& settings = {},
                                               ThreadPool* pool = nullptr);

}  // namespace contactlab
