// Magnitude facts that one class's interval cannot hold: |a| <= k * |b| between two classes,
// read off the e-graph's structure. The case that needs it is max-abs scaling: x_i is one of the
// elements whose absolute maximum m was taken, so |x_i| <= m, and x_i / (max(m, eps) / 448) lies
// in [-448, 448] whatever the inputs, which no interval of x_i or m alone shows.
//
// Real semantics only: the facts hold for the exact values the real semantics computes. Narrow
// casts are not looked through (a scale rounded to bf16 can be below the amax it came from), so
// a rounded scale proves nothing, as it must not.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/container/node_hash_map.h>

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "rules/keq_language.h"

namespace keq::rules {

// What the search keeps between calls: for each max-like node and each sum of nonnegative
// terms, the classes its operands bound (each operand, and v where an operand is |v| or -v) and
// the operands worth searching below: those with a node the search can go through (a scaling,
// a sum, a max, ...); an operand without one bounds a only where a scales down to it, which
// the search asks of a's few scalings, not of each of a softmax row's 256 lane sums (and v
// where an operand is v * v, for a^2 <= k s). A
// quantization's quotients all ask about one wide amax, a softmax row's about one sum. Entries stay
// true after unions (a class only grows) and are rebuilt as unions accumulate, for completeness.
class MagnitudeCache {
 public:
  struct Members {
    absl::flat_hash_set<EClassId> bounded;
    absl::flat_hash_set<EClassId> squared;  // v where an operand is v * v
    std::vector<EClassId> composite;
    std::vector<EClassId> square_composite;  // the operands square_ratio goes through
  };
  // Stable while the search that asked runs: it holds the entry while it recurses.
  const Members& members(const KeqLanguage::Graph& g, EClassId node);
  // What a whole search (kind: |a| <= k |b|, or a^2 <= k b) found, asked again each time a
  // quotient's node is made again (after every union below it): kept like the members.
  template <class Search>
  std::optional<double> found(int kind, EClassId a, EClassId b, Search&& search) {
    auto key = std::tuple{kind, a, b};
    if (auto it = found_.find(key); it != found_.end()) return it->second;
    std::optional<double> k = search();  // adds no entry of its own here
    found_.emplace(key, k);
    return k;
  }
  // Drops what unions have made incomplete; only between searches, as it frees entries.
  void expire(const KeqLanguage::Graph& g);

 private:
  size_t unions_ = SIZE_MAX;  // ids minus classes: grows with every union
  absl::node_hash_map<EClassId, Members> by_node_;
  absl::flat_hash_map<std::tuple<int, EClassId, EClassId>, std::optional<double>> found_;
};

// An interval for the node `n` (a quotient, or a product with a reciprocal) from the least k
// a bounded search finds with |numerator| <= k |denominator| wherever neither is NaN (extended
// reals: an infinite numerator forces an infinite denominator), or none. Meet it with the node's
// own interval: it says nothing about NaN.
std::optional<Interval> ratio_interval(const KeqLanguage::Graph& g, egraph::ENode n,
                                       MagnitudeCache& cache);

}  // namespace keq::rules
