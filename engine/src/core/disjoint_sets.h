#pragma once
// Union-find over 0 .. n-1 with path halving, the smaller element the root: a set's root is its
// first element. Used to group bodies into islands (contact islands, mixed islands, the deformable
// MLCP's islands).
#include <numeric>
#include <vector>

namespace contactlab {

class DisjointSets {
 public:
  void reset(int count) {
    parent_.resize(count);
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int root(int i) {
    while (parent_[i] != i) {
      parent_[i] = parent_[parent_[i]];  // path halving
      i = parent_[i];
    }
    return i;
  }
  void join(int a, int b) {
    a = root(a);
    b = root(b);
    if (a < b) parent_[b] = a;
    else if (b < a) parent_[a] = b;
  }

 private:
  std::vector<int> parent_;
};

}  // namespace contactlab
