#include "verify/pair_key.h"

#include <bit>

#include "ir/budget.h"

namespace keq::verify::internal {

namespace {
constexpr uint64_t kLeafRef = ~uint64_t{0};  // never an op/type word: a reference to a tuple term
}  // namespace

struct PairKeys::Walk {
  bool stop_at_shared = false;  // a pair's private part; false: a tuple, walked whole
  std::vector<uint64_t> key;
  absl::flat_hash_map<TermId, uint64_t> seen;  // node -> its number in visit order
  absl::flat_hash_map<uint32_t, uint64_t> vars;
  std::vector<TermId> leaves;  // the shared terms reached, in order
};

PairKeys::PairKeys(const ir::TermStore& s, const Domains& d, const std::vector<Pair>& pairs)
    : s_(s), d_(d) {
  mark_shared(pairs);
}

// A term is shared when walks from two pairs reach it without passing a shared term first: the
// sum in a softmax row is (every output of the row reaches it), but not exp(x_i - m) inside it
// (only output i reaches it other than through the sum), so output i walks that privately and
// stops at the sum and the max. Decided parents first, in one pass over the store: a term is
// made after its children, so TermId order is topological.
void PairKeys::mark_shared(const std::vector<Pair>& pairs) {
  constexpr uint32_t kNone = ~uint32_t{0}, kMany = kNone - 1;
  std::vector<uint32_t> reacher(s_.size(), kNone);  // the one pair reaching it, or kMany
  auto reach = [&](TermId t, uint32_t p) {
    uint32_t& r = reacher[t];
    r = r == kNone || r == p ? p : kMany;
  };
  for (uint32_t p = 0; p < pairs.size(); ++p) reach(pairs[p].ref, p), reach(pairs[p].cand, p);
  for (TermId t = static_cast<TermId>(s_.size()); t-- > 0;) {
    ir::Budget::tick();
    if (reacher[t] == kNone || s_.children(t).empty()) continue;
    if (reacher[t] == kMany) {
      shared_.insert(t);  // walks stop here: its children are not reached through it
      continue;
    }
    for (TermId k : s_.children(t)) reach(k, reacher[t]);
  }
}

std::vector<uint64_t> PairKeys::operator()(TermId a, TermId b) {
  // First the shared terms the private part reaches, then the private part in their terms.
  Walk collect{true};
  walk(collect, a, nullptr), walk(collect, b, nullptr);
  const Tuple& t = tuple(collect.leaves);
  Walk w{true};
  uint64_t root_a = walk(w, a, &t), root_b = walk(w, b, &t);
  // The tuple and node count first, the roots last: records and roots can never be read across.
  w.key.insert(w.key.begin(), {t.id, w.seen.size()});
  w.key.push_back(root_a);
  w.key.push_back(root_b);
  return w.key;
}

// The canonical id of a tuple of shared terms: equal ids, equal up to a renaming that maps the
// i-th variable of one's numbering to the i-th of the other's.
const PairKeys::Tuple& PairKeys::tuple(const std::vector<TermId>& leaves) {
  if (leaves == last_leaves_ && !tuple_ids_.empty()) return last_tuple_;
  Walk w{false};
  std::vector<uint64_t> roots;
  for (TermId leaf : leaves) roots.push_back(walk(w, leaf, nullptr));
  w.key.insert(w.key.begin(), {w.seen.size(), roots.size()});
  w.key.insert(w.key.end(), roots.begin(), roots.end());
  auto [it, fresh] = tuple_ids_.try_emplace(std::move(w.key), tuple_ids_.size());
  last_leaves_ = leaves;
  last_tuple_ = {it->second, std::move(w.vars)};
  return last_tuple_;
}

// Post-order with an explicit stack: a 100,000-term chain (a scalar loop accumulator over a
// wide row) is as deep as it is long.
uint64_t PairKeys::walk(Walk& w, TermId root, const Tuple* outer) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    ir::Budget::tick();
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (w.seen.contains(t)) continue;
    if (w.stop_at_shared && shared_.contains(t)) {
      // seen above: each shared term is met once per walk, so it is the next leaf
      w.key.insert(w.key.end(), {kLeafRef, w.leaves.size()});
      w.leaves.push_back(t);
      w.seen.emplace(t, w.seen.size());
      continue;
    }
    if (!expanded) {
      stack.push_back({t, true});
      auto kids = s_.children(t);
      for (auto k = kids.rbegin(); k != kids.rend(); ++k)
        if (!w.seen.contains(*k)) stack.push_back({*k, false});
      continue;
    }
    record(w, t, outer);
  }
  return w.seen.at(root);
}

void PairKeys::record(Walk& w, TermId t, const Tuple* outer) {
  w.key.push_back(static_cast<uint64_t>(s_.op(t)) << 8 | static_cast<uint64_t>(s_.type(t)));
  if (s_.op(t) != ir::Op::Var) {
    w.key.push_back(s_.payload(t));
  } else if (const Domain* dom = domain_of(t)) {
    record_var(w, s_.payload(t), *dom, outer);
  } else {
    w.key.insert(w.key.end(), {0, s_.payload(t)});
  }
  auto kids = s_.children(t);
  w.key.push_back(kids.size());
  for (TermId c : kids) w.key.push_back(w.seen.at(c));
  w.seen.emplace(t, w.seen.size());
}

// Renamed only within one input or parameter domain, exactly (no hashing): a variable of the
// tuple by its index there, any other by first occurrence plus the domain's bits.
void PairKeys::record_var(Walk& w, uint32_t var, const Domain& d, const Tuple* outer) {
  if (outer)
    if (auto it = outer->vars.find(var); it != outer->vars.end()) {
      w.key.insert(w.key.end(), {2, it->second});
      return;
    }
  auto [it, fresh] = w.vars.try_emplace(var, w.vars.size());
  w.key.insert(w.key.end(),
               {1, it->second, std::bit_cast<uint64_t>(d.lo), std::bit_cast<uint64_t>(d.hi),
                uint64_t{d.hi_open}, static_cast<uint64_t>(d.dtype), uint64_t{d.nonfinite}});
}

// A variable's domain, looked up by its tensor's name once for all pairs.
const Domain* PairKeys::domain_of(TermId var) {
  auto [it, fresh] = domains_.try_emplace(var, nullptr);
  if (fresh) {
    auto dom = d_.find(tensor_of(s_.variable_of(var).name));
    it->second = dom == d_.end() ? nullptr : &dom->second;
  }
  return it->second;
}

}  // namespace keq::verify::internal
