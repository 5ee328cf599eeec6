// Hash-consing over arena-stored nodes, shared by the term DAG and the e-graph.
//
// A node is (op, payload, children). Nodes live in their owner's arena and are named by a
// uint32 id; the table stores ids only and hashes them through the owner's view of the node, so a
// lookup by content never allocates and n-ary nodes cost nothing extra.
#pragma once

#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include <cstdint>
#include <optional>
#include <span>

namespace keq::ir {

struct NodeView {
  uint32_t op = 0;
  uint32_t payload = 0;
  std::span<const uint32_t> children;

  friend bool operator==(const NodeView& a, const NodeView& b) {
    if (a.op != b.op || a.payload != b.payload || a.children.size() != b.children.size())
      return false;
    for (size_t k = 0; k < a.children.size(); ++k)  // short: a loop beats a memcmp call
      if (a.children[k] != b.children[k]) return false;
    return true;
  }
  template <typename H>
  friend H AbslHashValue(H h, const NodeView& n) {
    return H::combine_contiguous(H::combine(std::move(h), n.op, n.payload, n.children.size()),
                                 n.children.data(), n.children.size());
  }
};

// Owner must provide `NodeView view(uint32_t id) const`.
template <class Owner>
class HashCons {
 public:
  explicit HashCons(const Owner* owner) : set_(0, Hash{owner}, Eq{owner}) {}

  std::optional<uint32_t> find(const NodeView& n) const {
    auto it = set_.find(n);
    if (it == set_.end()) return std::nullopt;
    return *it;
  }
  // Inserts id (whose current content is its key); returns the id already there, if any.
  std::optional<uint32_t> insert(uint32_t id) {
    auto [it, inserted] = set_.insert(id);
    if (inserted) return std::nullopt;
    return *it;
  }
  // Removes id; its current content must be the content it was inserted with.
  bool erase(uint32_t id) {
    auto it = set_.find(set_.hash_function().owner->view(id));
    if (it == set_.end() || *it != id) return false;
    set_.erase(it);
    return true;
  }
  size_t size() const { return set_.size(); }
  void reserve(size_t n) { set_.reserve(n); }
  void clear() { set_.clear(); }

 private:
  struct Hash {
    using is_transparent = void;
    const Owner* owner;
    size_t operator()(uint32_t id) const { return absl::HashOf(owner->view(id)); }
    size_t operator()(const NodeView& n) const { return absl::HashOf(n); }
  };
  struct Eq {
    using is_transparent = void;
    const Owner* owner;
    bool operator()(uint32_t a, uint32_t b) const {
      return a == b || owner->view(a) == owner->view(b);
    }
    bool operator()(uint32_t a, const NodeView& b) const { return owner->view(a) == b; }
    bool operator()(const NodeView& a, uint32_t b) const { return a == owner->view(b); }
  };
  absl::flat_hash_set<uint32_t, Hash, Eq> set_;
};

}  // namespace keq::ir
