#pragma once
// What a pair of meshes keeps from one step to the next: where its two tandem traversals stopped
// (KdopTree::FrontEntry), so that while the bodies lie on each other and move little the next step
// traverses again only near the contact, not from the roots (collideMeshMesh). ContactGenerator
// keeps one per broadphase pair of two meshes and decides, from how far the bodies moved, which
// mode a step uses; a pair that has not moved at all keeps its contacts instead (PairMemory).
#include <vector>

#include "collision/kdop_tree.h"

namespace contactlab {

struct MeshPairFronts {
  enum class Mode {
    Record,  // traverse from the roots and record the fronts (left-out pairs up to recordBelow)
    Replay,  // traverse from the recorded fronts, leaving out recorded pairs farther apart than reach
  };
  Mode mode = Mode::Record;
  double recordBelow = 0.0;
  double reach = 0.0;
  std::vector<KdopTree::FrontEntry> verticesOfA;  // a's contact points against b's tetrahedra
  std::vector<KdopTree::FrontEntry> verticesOfB;  // b's against a's
};

}  // namespace contactlab
