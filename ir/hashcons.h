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
#include <utility>

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
//
// Each entry keeps its node's hash: growing the table rehashes every entry, and reading the
// node back for it (two cache misses in a table of millions) was most of the cost of building a
// 128^3 matmul's terms. The stored hash also rejects most unequal candidates without reading
// their node.
template <class Owner>
class HashCons {
 public:
  explicit HashCons(const Owner* owner) : set_(0, Hash{}, Eq{owner}) {}

  std::optional<uint32_t> find(const NodeView& n) const {
    auto it = set_.find(Probe{&n, hash32(n)});
    if (it == set_.end()) return std::nullopt;
    return it->id;
  }
  // Inserts id (whose current content is its key); returns the id already there, if any.
  std::optional<uint32_t> insert(uint32_t id) {
    auto [it, inserted] = set_.insert(Entry{id, hash32(owner()->view(id))});
    if (inserted) return std::nullopt;
    return it->id;
  }
  // The id with content n, or new_id when there is none (then the caller must make new_id's
  // content n before the table next compares with it): one hash and one probe, where find then
  // insert took two.
  std::pair<uint32_t, bool> find_or_insert(const NodeView& n, uint32_t new_id) {
    return find_or_insert(n, hash32(n), new_id);
  }
  // The same with n's hash (hash_of) computed before, e.g. to prefetch with it.
  std::pair<uint32_t, bool> find_or_insert(const NodeView& n, uint32_t hash, uint32_t new_id) {
    bool inserted = false;
    Probe p{&n, hash};
    auto it = set_.lazy_emplace(p, [&](const auto& construct) {
      inserted = true;
      construct(Entry{new_id, p.hash});
    });
    return {it->id, inserted};
  }
  static uint32_t hash_of(const NodeView& n) { return hash32(n); }
  // Starts loading the table memory a lookup of a node with this hash reads: lookups issued a
  // few ahead of their use overlap their cache misses (a table of millions misses on each).
  void prefetch(uint32_t hash) const { set_.prefetch(Probe{nullptr, hash}); }
  // Removes id; its current content must be the content it was inserted with.
  bool erase(uint32_t id) {
    NodeView v = owner()->view(id);
    auto it = set_.find(Probe{&v, hash32(v)});
    if (it == set_.end() || it->id != id) return false;
    set_.erase(it);
    return true;
  }
  size_t size() const { return set_.size(); }
  void reserve(size_t n) { set_.reserve(n); }
  void clear() { set_.clear(); }

 private:
  struct Entry {
    uint32_t id;
    uint32_t hash;
  };
  struct Probe {  // a lookup by content, hashed once
    const NodeView* view;
    uint32_t hash;
  };
  // A multiply-xor hash over the node's words: nodes are a few words, and absl's general
  // hash (seeded, length-prefixed) cost more than the probe it feeds. Equal nodes hash equal;
  // unequal ones that collide are told apart by Eq, so quality costs time, never correctness.
  static uint32_t hash32(const NodeView& n) {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
    // op and payload mixed by a multiply, not packed as op << 32 | payload: GCC read that pair
    // as one 64-bit load of the two 32-bit stores just made, a failed store forward (13% of
    // EGraph::add in the integration workloads, perf annotate).
    uint64_t h = (uint64_t{n.op} * 0xFF51AFD7ED558CCDull + n.payload) * kMul;
    h ^= n.children.size();
    for (uint32_t c : n.children) h = (h ^ (h >> 29) ^ c) * kMul;
    h ^= h >> 32;
    return static_cast<uint32_t>(h);
  }
  // The table reads both ends of the hash (the group from the high bits, a tag from the low 7):
  // a multiply spreads the 32 stored bits over 64.
  static size_t spread(uint32_t h) {
    uint64_t x = uint64_t{h} * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(x ^ (x >> 32));
  }
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Entry& e) const { return spread(e.hash); }
    size_t operator()(const Probe& p) const { return spread(p.hash); }
  };
  struct Eq {
    using is_transparent = void;
    const Owner* owner;
    bool operator()(const Entry& a, const Entry& b) const {
      return a.id == b.id || (a.hash == b.hash && owner->view(a.id) == owner->view(b.id));
    }
    bool operator()(const Entry& a, const Probe& b) const {
      return a.hash == b.hash && owner->view(a.id) == *b.view;
    }
    bool operator()(const Probe& a, const Entry& b) const { return (*this)(b, a); }
  };
  const Owner* owner() const { return set_.key_eq().owner; }
  absl::flat_hash_set<Entry, Hash, Eq> set_;
};

}  // namespace keq::ir
