// Rewrites: a left pattern, a right pattern, and conditions over analysis facts.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "egraph/pattern.h"

namespace keq::egraph {

// What applying a rule's matches did: unions that changed the graph, and matches with no union
// done (a condition false, or the language refused it), which a later search must find again.
struct Applied {
  size_t changed = 0, deferred = 0;
};

template <class L>
struct Rewrite {
  using Condition = std::function<bool(const EGraph<L>&, std::span<const EClassId> subst)>;
  std::string name;
  Pattern lhs, rhs;
  std::vector<Condition> conditions;

  Matches search(const EGraph<L>& g, size_t limit = SIZE_MAX) const {
    return Matcher<L>(g, lhs).search(limit);
  }
  // Applies each match whose conditions hold, except those marked not fresh (Matches::fresh).
  // `applied` (optional) holds a key per match already applied, over canonical classes: e-matching
  // finds the same matches every iteration, and one applied before has its union already
  // (classes only merge), so it is skipped instead of instantiated again. egg instantiates it,
  // finding every node in the hash-cons: the redundant rewrites of associativity-heavy rows.
  Applied apply(EGraph<L>& g, const Matches& ms, uint32_t rule_index,
                absl::flat_hash_set<uint64_t>* applied = nullptr) const {
    Applied out;
    for (size_t k = 0; k < ms.size(); ++k) {
      if (!ms.is_fresh(k)) continue;  // found by a search whose matches were all applied
      std::span<const EClassId> s = ms.subst(k);
      // The key goes in as it is looked up (one probe, not two); a match that then does not
      // union (a condition false now may hold later) takes it out again.
      typename absl::flat_hash_set<uint64_t>::iterator key;
      if (applied) {
        auto [at, fresh] = applied->insert(match_key(g, rule_index, ms.roots[k], s));
        if (!fresh) continue;
        key = at;
      }
      std::optional<bool> merged = union_match(g, ms.roots[k], s, rule_index);
      if (!merged && applied) applied->erase(key);
      out.changed += merged.value_or(false);
      out.deferred += !merged;
    }
    return out;
  }

 private:
  // Instantiates the right side and merges it with the match's root, if the conditions hold and
  // the language allows it: whether that changed the graph, or nullopt when no union was done
  // (one may be done later).
  std::optional<bool> union_match(EGraph<L>& g, EClassId root, std::span<const EClassId> s,
                                  uint32_t rule_index) const {
    for (const Condition& c : conditions)
      if (!c(g, s)) return std::nullopt;
    Justification why{Justification::Kind::Rule, rule_index};
    EClassId to = instantiate(g, rhs, s);
    // With explanations, the edge joins the two instantiated terms, as egg records it.
    EClassId from = g.explanations_enabled() ? instantiate(g, lhs, s) : root;
    // A language may refuse a union its rules cannot mean (an f32 0 for an i32 a - a).
    if constexpr (requires { g.lang().may_union(g.data(from), g.data(to)); })
      if (!g.lang().may_union(g.data(from), g.data(to))) return std::nullopt;
    return g.union_classes(from, to, why);
  }
  // A 64-bit key of (rule, root, substitution) over canonical ids. Two matches sharing a key
  // by collision would skip one union: a lost proof, never a wrong merge.
  static uint64_t match_key(const EGraph<L>& g, uint32_t rule, EClassId root,
                            std::span<const EClassId> s) {
    auto mix = [](uint64_t h, uint64_t v) {
      h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      return h * 0xBF58476D1CE4E5B9ull;
    };
    uint64_t h = mix(rule, g.find(root));
    for (EClassId c : s) h = mix(h, g.find(c));
    return h ^ (h >> 31);
  }
};

}  // namespace keq::egraph
