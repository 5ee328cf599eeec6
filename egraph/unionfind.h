// Union-find over e-class ids, with path halving.
#pragma once

#include <cstdint>
#include <vector>

namespace keq::egraph {

using EClassId = uint32_t;
inline constexpr EClassId kNoClass = UINT32_MAX;

class UnionFind {
 public:
  EClassId make_set() {
    parent_.push_back(static_cast<EClassId>(parent_.size()));
    return parent_.back();
  }
  // find is logically const; halving the path is an invisible optimization.
  EClassId find(EClassId x) const {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // Makes `root` the representative of `child`'s set. Both must be roots.
  void link(EClassId child, EClassId root) { parent_[child] = root; }
  bool is_root(EClassId x) const { return parent_[x] == x; }
  void reserve(size_t n) { parent_.reserve(n); }
  size_t size() const { return parent_.size(); }

 private:
  mutable std::vector<EClassId> parent_;
};

}  // namespace keq::egraph
