#include "verify/shared_terms.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cmath>
#include <string>
#include <vector>

#include "ir/budget.h"
#include "ir/post_order.h"

namespace keq::verify::internal {

namespace {

using ir::TermId;

absl::flat_hash_set<TermId> reachable(const ir::TermStore& s, TermId root) {
  absl::flat_hash_set<TermId> seen{root};
  std::vector<TermId> stack{root};
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    ir::Budget::tick();
    for (TermId c : s.children(t))
      if (seen.insert(c).second) stack.push_back(c);
  }
  return seen;
}

bool leaf(const ir::TermStore& s, TermId t) {
  return s.children(t).empty();
}

// `root` rebuilt bottom-up: a node `replaced` gives a term for is that term (every leaf must get
// one), the others are made again over their operands' rebuilt terms, first operand first.
// `done` may come filled from an earlier call. Iterative: a sum over a long row is deeper than
// the stack allows.
template <class Replaced>
TermId rebuilt(ir::TermStore& s, TermId root, absl::flat_hash_map<TermId, TermId>& done,
               Replaced replaced) {
  ir::post_order(s, root, done, replaced, [&](TermId t) {
    std::vector<TermId> kids;
    for (TermId c : s.children(t)) kids.push_back(done.at(c));
    return s.make(s.op(t), kids);
  });
  return done.at(root);
}

// The nodes of a and b up to the subterms both contain (those counted, not their insides).
size_t kept_nodes(const ir::TermStore& s, TermId a, TermId b,
                  const absl::flat_hash_set<TermId>& in_a,
                  const absl::flat_hash_set<TermId>& in_b) {
  absl::flat_hash_set<TermId> kept;
  std::vector<TermId> stack{a, b};
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!kept.insert(t).second || (t != a && t != b && in_a.contains(t) && in_b.contains(t)))
      continue;
    for (TermId c : s.children(t)) stack.push_back(c);
  }
  return kept.size();
}

}  // namespace

std::optional<TermId> shared_term(const std::string& variable) {
  constexpr std::string_view kPrefix = "shared#";
  if (variable.rfind(kPrefix, 0) != 0) return std::nullopt;
  return static_cast<TermId>(std::stoul(variable.substr(kPrefix.size())));
}

std::optional<SharedAbstraction> abstract_shared(ir::TermStore& store, TermId ref, TermId cand) {
  if (ref == cand) return std::nullopt;
  absl::flat_hash_set<TermId> in_ref = reachable(store, ref), in_cand = reachable(store, cand);
  absl::flat_hash_set<TermId> shared, both = in_ref;
  both.insert(in_cand.begin(), in_cand.end());
  // A small subterm over constants alone (recip 3, sqrt 2) stays itself: as a variable it
  // would hide the value that makes it equal to the other side's constant. Large ones (a rotary
  // table's cos(t * freq)) are variables, as any shared subterm.
  auto small_constant = [&](TermId t) {
    if (store.children(t).size() > 2) return false;
    for (TermId k : store.children(t))
      if (store.op(k) != ir::Op::Const) return false;
    return true;
  };
  for (TermId t : in_ref)
    if (!leaf(store, t) && in_cand.contains(t) && !small_constant(t)) shared.insert(t);
  if (shared.empty()) return std::nullopt;
  // Counted before any variable is made: an abstraction not worth it leaves nothing behind
  // (each shared variable costs the stages an enclosure).
  SharedAbstraction a;
  a.nodes_before = both.size();
  a.nodes_after = kept_nodes(store, ref, cand, in_ref, in_cand);
  if (2 * a.nodes_after > a.nodes_before) return std::nullopt;
  absl::flat_hash_map<TermId, TermId> done;
  auto as_variable = [&](TermId root) {
    return [&, root](TermId t) -> std::optional<TermId> {
      if (leaf(store, t)) return t;
      if (t != root && shared.contains(t))
        return store.variable("shared#" + std::to_string(t), store.type(t));
      return std::nullopt;
    };
  };
  a.ref = rebuilt(store, ref, done, as_variable(ref));
  a.cand = rebuilt(store, cand, done, as_variable(cand));
  return a;
}

std::optional<std::vector<std::pair<TermId, TermId>>> differences(const ir::TermStore& store,
                                                                  TermId ref, TermId cand,
                                                                  size_t most) {
  std::vector<std::pair<TermId, TermId>> out;
  absl::flat_hash_set<std::pair<TermId, TermId>> seen;
  std::vector<std::pair<TermId, TermId>> stack{{ref, cand}};
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    if (a == b || !seen.insert({a, b}).second) continue;
    ir::Budget::tick();
    auto ka = store.children(a), kb = store.children(b);
    if (store.op(a) == store.op(b) && !ka.empty() && ka.size() == kb.size()) {
      for (size_t i = ka.size(); i-- > 0;) stack.push_back({ka[i], kb[i]});
      continue;
    }
    if (out.size() == most) return std::nullopt;
    out.push_back({a, b});
  }
  return out;
}

bool surely_differ(const ir::TermStore& store, TermId a, TermId b) {
  for (uint64_t point : {1, 2}) {
    auto value = [point](const ir::Variable& v) -> std::optional<ir::IeeeValue> {
      uint64_t h = std::hash<std::string>{}(v.name) ^ (point * 0x9e3779b97f4a7c15ULL);
      h ^= h >> 31, h *= 0xbf58476d1ce4e5b9ULL, h ^= h >> 29;  // splitmix's finish
      if (v.type == ir::Type::F32)
        return ir::IeeeValue::of(ir::Constant::of_float(static_cast<double>(h % 4001) / 1000 - 2));
      if (v.type == ir::Type::Bool) return ir::IeeeValue::of(ir::Constant::of_bool(h & 1));
      return ir::IeeeValue::of(ir::Constant::of_int(v.type, static_cast<int64_t>(h % 7)));
    };
    try {  // fp32 arithmetic, fast: a filter, so a difference far past its rounding counts
      ir::IeeeValue x = ir::evaluate_ieee(store, a, value), y = ir::evaluate_ieee(store, b, value);
      if (x.type != y.type) continue;
      if (x.type != ir::Type::F32
              ? x.i != y.i
              : std::isfinite(x.f) && std::isfinite(y.f) &&
                    std::fabs(x.f - y.f) > 1e-3 * (1 + std::fabs(x.f) + std::fabs(y.f)))
        return true;
    } catch (const ir::EvalError&) {  // (a division by zero there, say: no evidence)
    } catch (const ir::TypeError&) {
    }
  }
  return false;
}

size_t representative_size(const ir::TermStore& store, TermId a, TermId b) {
  return kept_nodes(store, a, b, reachable(store, a), reachable(store, b));
}

size_t node_count(const ir::TermStore& store, TermId a, TermId b) {
  absl::flat_hash_set<TermId> all = reachable(store, a);
  for (TermId t : reachable(store, b)) all.insert(t);
  return all.size();
}

std::pair<TermId, TermId> representative(ir::TermStore& store, TermId a, TermId b) {
  absl::flat_hash_set<TermId> in_a = reachable(store, a), in_b = reachable(store, b);
  absl::flat_hash_map<TermId, TermId> done;
  size_t next = 0;
  // A leaf other than a constant, or a subterm both sides contain: the next fresh variable.
  auto fresh = [&](TermId t) {
    return store.variable(
        "any#" + std::to_string(next++) + ":" + std::string(ir::type_name(store.type(t))),
        store.type(t));
  };
  auto replaced = [&](TermId t) -> std::optional<TermId> {
    if (leaf(store, t)) return store.op(t) == ir::Op::Const ? t : fresh(t);
    if (t != a && t != b && in_a.contains(t) && in_b.contains(t)) return fresh(t);
    return std::nullopt;
  };
  auto walk = [&](TermId root) { return rebuilt(store, root, done, replaced); };
  TermId ra = walk(a);
  return {ra, walk(b)};
}

}  // namespace keq::verify::internal
