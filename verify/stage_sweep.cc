// The sweep: candidate-only subterms equal to reference subterms, found by their values at two
// points, proved in one e-graph, and put in place of the candidate's, round after round. A
// kernel that replaces one layer of a torch model (a linear before six TransformerEncoderLayers)
// feeds the same torch layers as the reference: once its outputs
// are the reference's own terms, the layers above are too (hash-consing), and what is left of a
// pair is its top. Each substitution is a proved equality, so a pair proved with them is proved.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/budget.h"
#include "verify/pipeline.h"
#include "verify/shared_terms.h"
#include "verify/terms_key.h"

namespace keq::verify::internal {

namespace {

constexpr int kPoints = 2;

// A float variable's value at a point, drawn from its name: in [0.1, 0.9], inside every input
// domain keq gives (torch.rand's [0, 1) included) and away from the zeros where a ReLU's
// values would all match. Integers small and nonnegative.
std::optional<ir::RealValue> value_at(const ir::TermStore& s, TermId var, int point) {
  uint64_t h =
      std::hash<std::string>{}(s.variable_of(var).name) ^ (0x9e3779b97f4a7c15ULL * (point + 1));
  h ^= h >> 31, h *= 0xbf58476d1ce4e5b9ULL, h ^= h >> 29;
  ir::RealValue v;
  v.type = s.type(var);
  if (v.type == ir::Type::Bool)
    v.i = static_cast<int64_t>(h & 1);
  else if (ir::is_int(v.type))
    v.i = static_cast<int64_t>(h % 3);
  else
    v.f = ir::Real(0.1 + 0.8 * static_cast<double>(h % 1000003) / 1000003.0);
  return v;
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

// Values of every node the pairs reach, at each point (64-bit reals: a sum in another order
// agrees to far below the tolerance); none when a point leaves some term undefined.
bool Pipeline::sweep_values(const std::vector<size_t>& which,
                            std::vector<absl::flat_hash_map<TermId, double>>& values) {
  ir::Real::PrecisionScope precision(64);
  values.assign(kPoints, {});
  for (int point = 0; point < kPoints; ++point) {
    ir::RealMemo memo;
    auto env = [&](TermId v) { return value_at(store_, v, point); };
    try {
      for (size_t k : which)
        for (TermId root : {pairs_[k].ref, pairs_[k].cand})
          ir::evaluate_real(store_, root, env, memo);
    } catch (const ir::EvalError&) {
      return false;
    } catch (const ir::TypeError&) {
      return false;
    }
    for (const auto& [t, v] : memo)
      if (!ir::is_int(v.type) && v.type != ir::Type::Bool) values[point][t] = v.f.approx_double();
  }
  return true;
}

void Pipeline::prove_by_sweeping(std::vector<size_t>& which, double seconds,
                                 double earned_seconds) {
  // A round per layer the candidate rewrote, and one per level of a rewritten layer's own
  // nodes (a Llama block takes 6); a round that proves nothing ends the sweep.
  constexpr int kRounds = 64;
  // --explain shows the e-graph's rewrites for its pair: nothing else proves that one.
  if (explained_) return;
  auto after = [](double s) {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(s));
  };
  // `seconds`, and up to `earned_seconds` while every round proves every goal it poses: a
  // sweep that works takes what it needs; one that does not leaves the rest to the e-graph.
  const auto base_end = after(seconds), earned_end = after(earned_seconds);
  std::optional<ir::TighterDeadline> setup(std::in_place, base_end);  // values and matches
  std::vector<size_t> pairs;
  for (size_t k : which)
    if (k < pairs_.size()) pairs.push_back(k);
  if (pairs.empty()) return;
  absl::flat_hash_set<TermId> roots;
  for (size_t k : pairs) roots.insert(pairs_[k].cand);
  std::vector<absl::flat_hash_map<TermId, double>> values;
  if (!sweep_values(pairs, values)) return;
  // The reference's nodes by their first value, non-leaf and float.
  std::vector<uint8_t> in_ref(store_.size(), 0);
  std::vector<std::pair<double, TermId>> by_value;
  for (size_t k : pairs) {
    std::vector<TermId> stack{pairs_[k].ref};
    while (!stack.empty()) {
      TermId t = stack.back();
      stack.pop_back();
      if (in_ref[t]) continue;
      in_ref[t] = 1;
      ir::Budget::tick();
      if (!store_.children(t).empty() && values[0].contains(t))
        by_value.push_back({values[0].at(t), t});
      for (TermId c : store_.children(t)) stack.push_back(c);
    }
  }
  std::sort(by_value.begin(), by_value.end());
  // The reference's nodes without zero addends too, and back: a candidate node rebuilt into
  // one of those is that reference node (the same value, no goal).
  absl::flat_hash_map<TermId, TermId> ref_norm, norm_to_ref;
  for (TermId t = 0; t < in_ref.size(); ++t) {
    if (!in_ref[t]) continue;
    ir::Budget::tick();
    TermId n = store_.children(t).empty()
                   ? t
                   : without_zero_addends(store_, t, [&](TermId k) { return ref_norm.at(k); });
    ref_norm[t] = n;
    norm_to_ref.try_emplace(n, t);
  }
  // The one reference node a value matches at every point, if one.
  auto match = [&](TermId c) -> std::optional<TermId> {
    if (!values[0].contains(c) || !values[1].contains(c)) return std::nullopt;
    double v = values[0].at(c);
    if (v == 0) return std::nullopt;
    double tol = 1e-9 * std::max(1.0, std::fabs(v));
    auto it = std::lower_bound(by_value.begin(), by_value.end(), std::pair{v - tol, TermId{0}});
    std::optional<TermId> found;
    for (; it != by_value.end() && it->first <= v + tol; ++it) {
      if (!close(values[1].at(it->second), values[1].at(c))) continue;
      if (found) return std::nullopt;  // ambiguous
      found = it->second;
    }
    return found;
  };
  // The candidate-only nodes, children first (TermId order is topological).
  std::vector<TermId> cand_nodes;
  {
    std::vector<uint8_t> seen(store_.size(), 0);
    for (size_t k : pairs) {
      std::vector<TermId> stack{pairs_[k].cand};
      while (!stack.empty()) {
        TermId t = stack.back();
        stack.pop_back();
        if (seen[t] || in_ref[t]) continue;
        seen[t] = 1;
        if (!store_.children(t).empty()) cand_nodes.push_back(t);
        for (TermId c : store_.children(t)) stack.push_back(c);
      }
    }
    std::sort(cand_nodes.begin(), cand_nodes.end());
  }
  absl::flat_hash_map<TermId, TermId> now;        // a candidate node as the substitutions leave it
  absl::flat_hash_map<TermId, TermId> proved_as;  // candidate node -> reference node
  auto rebuilt = [&](TermId t) {
    if (auto p = proved_as.find(t); p != proved_as.end()) return ref_norm.at(p->second);
    if (auto r = ref_norm.find(t); r != ref_norm.end()) return r->second;
    auto it = now.find(t);
    return it == now.end() ? t : it->second;
  };
  auto rebuild = [&](TermId c) { return now[c] = without_zero_addends(store_, c, rebuilt); };
  setup.reset();
  bool earned = false;
  size_t lemmas = 0;
  for (int round = 0; round < kRounds; ++round) {
    const auto end = earned ? earned_end : base_end;
    if (std::chrono::steady_clock::now() >= end) break;
    // Rebuild each candidate node over the substitutions; the lowest that matches a reference
    // node without being one becomes a goal (one above a goal waits for the next round).
    std::vector<rules::Goal> goals;
    std::vector<TermId> goal_node, ref_of_goal;
    absl::flat_hash_map<TermId, bool> above_goal;
    now.clear();
    for (TermId c : cand_nodes) {
      ir::Budget::tick();
      bool waits = false;
      for (TermId k : store_.children(c))
        if (auto a = above_goal.find(k); a != above_goal.end() && a->second) waits = true;
      TermId c2 = rebuild(c);
      if (proved_as.contains(c) || waits) {
        above_goal[c] = waits;
        continue;
      }
      if (auto r = norm_to_ref.find(c2); r != norm_to_ref.end()) {  // the reference's own now
        proved_as[c] = r->second;
        continue;
      }
      if (roots.contains(c)) continue;  // a whole pair is the e-graph's, after this
      if (auto r = match(c)) {
        // What both sides contain (the layers below, now the reference's) as variables whose
        // domains enclose them: whole, the goal would take the shared layers' normal forms
        // into its e-graph.
        auto a = abstract_shared(store_, ref_norm.at(*r), c2);
        goals.push_back(a ? rules::Goal{a->ref, a->cand} : rules::Goal{ref_norm.at(*r), c2});
        ref_of_goal.push_back(*r);
        goal_node.push_back(c);
        above_goal[c] = true;
      }
    }
    if (goals.empty()) break;
    double left = std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    // The round's deadline binds the e-graph's searches too (they overran its limit before);
    // past it the sweep keeps what earlier rounds proved.
    std::unique_ptr<rules::Proof> proof;
    {
      ir::TighterDeadline round_end(end);
      try {
        proof = prove_goals(goals, rules::kElementTerms, left, 15);
      } catch (const ir::BudgetExceeded& e) {
        if (e.memory_exhausted || round_end.outer_passed()) throw;
        break;
      }
    }
    if (!proof->report.canary.empty()) break;
    size_t before = proved_as.size();
    earned = true;
    for (size_t g = 0; g < goals.size(); ++g) {
      if (proof->proved(g)) proved_as[goal_node[g]] = ref_of_goal[g];
      earned = earned && proof->proved(g);
    }
    lemmas += proved_as.size() - before;
    if (proved_as.size() == before) break;
  }
  if (proved_as.empty()) return;
  for (TermId c : cand_nodes) rebuild(c);  // over the last round's lemmas too
  // The pairs with the candidate rebuilt: equal terms are proved; the others keep their place
  // (the substitutions proved nothing false, but only what they prove whole is counted).
  size_t n = 0;
  for (size_t k : pairs)
    if (rebuilt(pairs_[k].cand) == ref_norm.at(pairs_[k].ref)) proved_[k] = true, ++n;
  if (n == 0) return;
  std::erase_if(which, [&](size_t k) { return k < pairs_.size() && proved_[k]; });
  r_.notes.push_back("e-graph: " + std::to_string(n) +
                     " pairs proved with candidate subterms put in the place of the reference's "
                     "they equal (" +
                     std::to_string(lemmas) + " proved by the e-graph, " +
                     std::to_string(proved_as.size() - lemmas) +
                     " the same terms but for zero addends or over those)");
}

}  // namespace keq::verify::internal
