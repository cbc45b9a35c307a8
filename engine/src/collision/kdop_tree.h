#pragma once
// A bounding volume hierarchy of kDOPs over a list of primitives (a mesh's vertices, triangles or
// tetrahedra), in the frame of the body that owns it. A rigid body's tree is built once per mesh
// and never refitted: queries from another body are transformed into its frame instead (the PROX
// paper's sec. 6 narrow phase: kDOP BVHs, tested in tandem between two bodies). A deformable
// body's surface trees keep their shape and are refitted to the moving primitives every step
// (Verschoor & Jalba sec. 5.1; refit).
#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "collision/kdop.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

class KdopTree {
 public:
  // Top-down: each node splits its primitives, ordered by box centre along one of x, y, z, where
  // the surface area heuristic says (chooseSplit; ties broken by primitive index, so the tree
  // depends on nothing but its input), down to leaves of at most `leafSize` primitives, at most
  // kMaxDepth levels below the root. `primitiveBounds` are the primitives' kDOPs over kdopAxes(k);
  // throws std::invalid_argument if there are none, k is unsupported or leafSize is below 1.
  KdopTree(int k, std::span<const Kdop> primitiveBounds, int leafSize = kDefaultLeafSize);

  int k() const { return k_; }
  std::span<const Vec3> axes() const { return axes_; }
  const AxisComponents& axisComponents() const { return axisComponents_; }
  int primitiveCount() const { return static_cast<int>(order_.size()); }

  // New bounds for the same primitives (same count and order as built): every node's kDOP is formed
  // again from its children's, leaves from their primitives', keeping the tree's shape. Linear in
  // the nodes, where a rebuild sorts; as correct as a rebuild for every query, and only less tight
  // where primitives that started together have moved apart. Throws std::invalid_argument for a
  // different count.
  void refit(std::span<const Kdop> primitiveBounds);
  // The root's kDOP: of every primitive.
  const Kdop& bounds() const { return nodes_[0].bounds; }

  // Leaves hold a few primitives: the bottom levels of a one-per-leaf tree cost more node tests
  // than testing their primitives (docs/benchmarks.md). Queries report every primitive of a leaf
  // they reach, so callers test the primitives exactly. (A mesh's triangle and tetrahedron trees use other sizes: MeshCollisionModel.)
  static constexpr int kDefaultLeafSize = 4;
  // No leaf lies deeper below the root than this, whatever the input (chooseSplit).
  static constexpr int kMaxDepth = 31;
  // Levels below the root of the deepest leaf.
  int depth() const { return depth_; }

  // Every primitive of the leaves whose node box, placed in another frame by `test`, overlaps
  // `slabs` there (over the test's axes): e.g. a box's own three slabs, which bound it exactly in
  // its frame where its kDOP in the tree's frame, turned, can be far larger.
  template <class Visit>
  void forEachBoxOverlapping(const OrientedBoxTest& test, const Kdop& slabs, Visit&& visit) const {
    traverse([&](const Node& node) { return test.overlaps(slabs, node.boxCentre, node.boxHalfExtents); }, visit);
  }

  // Every primitive of the leaves whose kDOP overlaps `query` (over the tree's axes, tree frame).
  template <class Visit>
  void forEachOverlapping(const Kdop& query, Visit&& visit) const {
    const int axisCount = static_cast<int>(axes_.size());
    traverse([&](const Node& node) { return node.bounds.overlaps(query, axisCount); }, visit);
  }

  // Every primitive of the leaves whose kDOP comes within `radius` of `point` (tree frame).
  template <class Visit>
  void forEachNear(const Vec3& point, double radius, Visit&& visit) const {
    const AxisProjections projections = projectOnAxes(axes_, point);
    traverse([&](const Node& node) { return node.bounds.mayBeWithin(projections, radius); }, visit);
  }

  // Every primitive of the leaves whose kDOP reaches into the half-space {x : normal . x <= offset} (tree frame,
  // unit normal); the node test uses the kDOP's box, the lowest point of which along the normal
  // is centre . normal - |normal| . halfExtents.
  template <class Visit>
  void forEachBelowPlane(const Vec3& normal, double offset, Visit&& visit) const {
    traverse(
        [&](const Node& node) {
          return normal.dot(node.boxCentre) - normal.cwiseAbs().dot(node.boxHalfExtents) <= offset;
        },
        visit);
  }

  struct Nearest {
    int primitive = -1;  // -1: none within the search distance
    double distance = std::numeric_limits<double>::infinity();
  };
  // The primitive nearest to `point` no farther than `maxDistance`, by `distanceTo(primitive,
  // bound)`, which must not be below the distance from the point to the primitive; `bound` is the
  // best distance so far, and for a primitive it can tell is farther than that it may return any
  // value above it (such a primitive can neither win nor tie). Branch and bound,
  // nearer child first; on equal distances the lowest primitive index wins (nodes whose bound
  // equals the best distance are still searched), so the answer depends on the primitives only,
  // not on the tree's shape or traversal order.
  template <class Distance>
  Nearest nearest(const Vec3& point, double maxDistance, Distance&& distanceTo) const {
    const AxisProjections projections = projectOnAxes(axes_, point);
    Nearest best;
    best.distance = maxDistance;
    // Each node is pushed with its bound, formed once when its parent was opened: by the time it
    // is popped, a nearer primitive found meanwhile may let it be skipped.
    NodeStack<NodeAndBound> stack;
    stack.push({0, nodes_[0].bounds.distanceBound(projections)});
    while (!stack.empty()) {
      const auto [index, bound] = stack.pop();
      if (bound > best.distance) continue;
      const Node& node = nodes_[index];
      if (node.isLeaf()) {
        for (int primitive : leafPrimitives(node)) {
          const double d = distanceTo(primitive, best.distance);
          const bool tie = d == best.distance && (best.primitive < 0 || primitive < best.primitive);
          if (d < best.distance || tie) best = {primitive, d};
        }
        continue;
      }
      const NodeAndBound left{node.firstChild, nodes_[node.firstChild].bounds.distanceBound(projections)};
      const NodeAndBound right{node.firstChild + 1, nodes_[node.firstChild + 1].bounds.distanceBound(projections)};
      // Pushed last, popped first: the nearer child.
      stack.push(left.bound <= right.bound ? right : left);
      stack.push(left.bound <= right.bound ? left : right);
    }
    return best;
  }

  // Tandem traversal: every pair (primitive of a, primitive of b) of leaves whose kDOPs come
  // within `margin` of each other, where `bInA` takes b's frame into a's (the node test is
  // TandemTest below).
  template <class Visit>
  friend void forEachOverlappingPair(const KdopTree& a, const KdopTree& b, const Pose& bInA, double margin,
                                     Visit&& visit) {
    double unused;
    forEachOverlappingPair(a, b, bInA, margin, visit, unused);
  }

  // A node pair where a tandem traversal stopped: left out, or a pair of leaves whose primitives it
  // visited; `separation` is a lower bound of the distance between the two nodes' contents (for a
  // pair of leaves, the smallest of what `visit` returned for their primitive pairs, or -1 if it
  // returns nothing). The node pairs where a traversal stopped cover every primitive pair once.
  struct FrontEntry {
    int nodeA, nodeB;
    double separation;
  };

  // The same, also giving `separation`: the smallest lower bound of the distance between the
  // contents of a node pair the traversal left out (infinity if it left out none), so no unvisited
  // pair of primitives is closer than that. With `front`, also records where it stopped: every
  // node pair, left out or visited, whose separation is at most `recordBelow`. A `visit` that
  // returns a double gives a lower bound of the distance between its two primitives, or anything
  // <= 0 for a pair it keeps; a pair of leaves all of whose primitive pairs are farther apart than
  // `recordBelow` is then not recorded either. A `visit(primitiveOfA, kdopOfLeafOfB,
  // primitivesOfLeafOfB)` is called once per primitive of a's leaf with all of b's, and returns
  // such a bound for all those pairs: it may test the primitive against the leaf's kDOP (in b's
  // frame) before its primitives.
  // With `motionOfA` (a's contents moving relative to b, in b's frame), the node pairs are those
  // where the paths of a's node's points come within `margin`, and the bounds are of the distance
  // from the whole paths (so from a's node where it is).
  template <class Visit>
  friend void forEachOverlappingPair(const KdopTree& a, const KdopTree& b, const Pose& bInA, double margin,
                                     Visit&& visit, double& separation, std::vector<FrontEntry>* front = nullptr,
                                     double recordBelow = 0.0, const LinearMotion& motionOfA = {}) {
    separation = std::numeric_limits<double>::infinity();
    descend(a, b, TandemTest(b, bInA, margin, motionOfA), 0, 0, visit,
            [&](int nodeA, int nodeB, double distance) {
              separation = std::min(separation, distance);
              if (front && distance <= recordBelow) front->push_back({nodeA, nodeB, distance});
            },
            [&](int nodeA, int nodeB, double distance) {
              if (front && distance <= recordBelow) front->push_back({nodeA, nodeB, distance});
            });
  }

  // The traversal again at a new pose bInA, from a front recorded by the one above at another pose:
  // the recorded node pairs whose separation then is at most `reach` are traversed anew from there,
  // the others are left out. When b has moved in a's frame by at most `moved` since, reach = margin
  // + moved leaves out only pairs still farther apart than the margin (for a pair of leaves: whose
  // primitive pairs all are, when `visit`'s bounds are of the same test it keeps pairs by), and
  // the pairs recorded cover all the closer ones (recordBelow above the new reach); every
  // primitive pair that the traversal from the roots would keep is then visited. A few more may be
  // (below a recorded pair whose ancestors would now be left out), which a caller that tests its
  // primitive pairs exactly does not see. What `visit` returns is not used here.
  template <class Visit>
  friend void forEachOverlappingPairFromFront(const KdopTree& a, const KdopTree& b, const Pose& bInA, double margin,
                                              const std::vector<FrontEntry>& front, double reach, Visit&& visit,
                                              const LinearMotion& motionOfA = {}) {
    const TandemTest test(b, bInA, margin, motionOfA);
    for (const FrontEntry& entry : front)
      if (entry.separation <= reach)
        descend(a, b, test, entry.nodeA, entry.nodeB, visit, [](int, int, double) {}, [](int, int, double) {});
  }

 private:
  struct Node {
    Kdop bounds;
    // The kDOP's bounding box (its first three slabs) and its squared half diagonal, formed once:
    // every tandem test of the node needs them.
    Vec3 boxCentre;
    Vec3 boxHalfExtents;
    double squaredSize = 0.0;
    int firstChild = -1;  // the children are firstChild and firstChild + 1; -1 for a leaf
    int firstPrimitive = 0;  // leaves: their primitives are order_[firstPrimitive, + primitiveCount)
    int primitiveCount = 0;
    bool isLeaf() const { return firstChild < 0; }
  };

  // The tandem traversal's node test. Neither tree is refitted: a node pair is kept when a's node
  // box, moved into b's frame and projected on b's axes, overlaps b's node kDOP (a necessary
  // condition for the bounded sets to come within the margin). One direction only: the same test
  // the other way round as well (b's box against a's kDOP) costs more than it saves in node pairs,
  // and a's boxes, round a's tight vertex nodes, against b's kDOPs, round its fat tetrahedra,
  // reject more than the reverse alone (docs/benchmarks.md).
  struct TandemTest {
    OrientedBoxTest aBoxInB;
    TandemTest(const KdopTree& b, const Pose& bInA, double margin, const LinearMotion& motionOfA)
        : aBoxInB(b.axes_, Pose{-(bInA.rotation.transpose() * bInA.position), bInA.rotation.transpose()}, margin,
                  motionOfA) {}
    bool separated(const Node& nodeA, const Node& nodeB, double& distance) const {
      return aBoxInB.separated(nodeB.bounds, nodeA.boxCentre, nodeA.boxHalfExtents, distance);
    }
  };

  // Depth first from the node pair (startA, startB): `leftOut(nodeA, nodeB, distance)` for a pair
  // the test separates; `visit` of its primitive pairs, then `visited(nodeA, nodeB, distance)`
  // with the smallest bound `visit` returned (-1 if it returns none), for a pair of leaves it
  // keeps; otherwise the larger node (a's on ties) is split, so both sides shrink at the same pace.
  template <class Visit, class LeftOut, class Visited>
  static void descend(const KdopTree& a, const KdopTree& b, const TandemTest& test, int startA, int startB,
                      Visit& visit, LeftOut&& leftOut, Visited&& visited) {
    NodeStack<NodePair> stack;
    stack.push({startA, startB});
    while (!stack.empty()) {
      const auto [indexA, indexB] = stack.pop();
      const Node& nodeA = a.nodes_[indexA];
      const Node& nodeB = b.nodes_[indexB];
      double distance;
      if (test.separated(nodeA, nodeB, distance)) {
        leftOut(indexA, indexB, distance);
        continue;
      }
      if (nodeA.isLeaf() && nodeB.isLeaf()) {
        double nearest = std::numeric_limits<double>::infinity();
        for (int primitiveA : a.leafPrimitives(nodeA)) {
          if constexpr (std::is_invocable_v<Visit&, int, const Kdop&, std::span<const int>>) {
            nearest = std::min(nearest, visit(primitiveA, nodeB.bounds, b.leafPrimitives(nodeB)));
          } else {
            for (int primitiveB : b.leafPrimitives(nodeB)) {
              if constexpr (std::is_same_v<std::invoke_result_t<Visit&, int, int>, double>)
                nearest = std::min(nearest, visit(primitiveA, primitiveB));
              else
                visit(primitiveA, primitiveB), nearest = -1.0;
            }
          }
        }
        visited(indexA, indexB, nearest);
        continue;
      }
      const bool splitA = nodeB.isLeaf() || (!nodeA.isLeaf() && nodeA.squaredSize >= nodeB.squaredSize);
      if (splitA) {
        stack.push({nodeA.firstChild + 1, indexB});
        stack.push({nodeA.firstChild, indexB});
      } else {
        stack.push({indexA, nodeB.firstChild + 1});
        stack.push({indexA, nodeB.firstChild});
      }
    }
  }
  std::span<const int> leafPrimitives(const Node& leaf) const {
    return std::span(order_).subspan(leaf.firstPrimitive, leaf.primitiveCount);
  }

  void build(int index, std::span<int> primitives, std::span<const Kdop> primitiveBounds, int depth);
  void setBounds(Node& node, const Kdop& bounds);
  // Orders `primitives` (a node's, at `depth`) for the split and returns the left child's count.
  size_t chooseSplit(std::span<int> primitives, std::span<const Kdop> primitiveBounds, int depth) const;

  // Depth-first, left child first; visits the primitives of every leaf reached.
  template <class NodeTest, class Visit>
  void traverse(NodeTest&& keep, Visit& visit) const {
    NodeStack<int> stack;
    stack.push(0);
    while (!stack.empty()) {
      const Node& node = nodes_[stack.pop()];
      if (!keep(node)) continue;
      if (node.isLeaf()) {
        for (int primitive : leafPrimitives(node)) visit(primitive);
        continue;
      }
      stack.push(node.firstChild + 1);
      stack.push(node.firstChild);
    }
  }

  // A depth-first traversal that pushes two children and pops one holds at most depth + 1 nodes
  // (depth of a and of b plus one for a tandem traversal); no tree is deeper than kMaxDepth, so a
  // fixed array serves every tree without allocating, and queries may nest. The entries are plain
  // structs, left uninitialized until pushed: an array of std::pair is zeroed on construction, a
  // run of stores on every tandem traversal and nearest-point search.
  struct NodePair {
    int a, b;
  };
  struct NodeAndBound {
    int node;
    double bound;
  };
  template <class Entry>
  class NodeStack {
   public:
    bool empty() const { return size_ == 0; }
    void push(const Entry& entry) { entries_[size_++] = entry; }
    Entry pop() { return entries_[--size_]; }

   private:
    Entry entries_[72];
    int size_ = 0;
  };

  int k_;
  std::span<const Vec3> axes_;
  AxisComponents axisComponents_;
  int leafSize_;
  int depth_ = 0;
  std::vector<Node> nodes_;  // the root first
  std::vector<int> order_;   // primitive indices, each leaf's contiguous
};

}  // namespace contactlab
