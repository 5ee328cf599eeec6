#include "verify/pair_key.h"

#include <algorithm>
#include <bit>

#include "ir/budget.h"

namespace keq::verify::internal {

namespace {
constexpr uint64_t kLeafRef = ~uint64_t{0};  // never an op/type word: a reference to a tuple term
}  // namespace

PairKeys::PairKeys(const ir::TermStore& s, const Domains& d, const std::vector<Pair>& pairs)
    : s_(s), d_(d), shared_(s.size(), false), seen_in_(s.size(), 0), node_number_(s.size(), 0) {
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
    tick();
    if (reacher[t] == kNone || s_.children(t).empty()) continue;
    if (reacher[t] == kMany) {
      shared_[t] = true;  // walks stop here: its children are not reached through it
      continue;
    }
    for (TermId k : s_.children(t)) reach(k, reacher[t]);
  }
}

// A fresh walk: its own generation, so the stamps of earlier walks read as unseen.
void PairKeys::start(Walk& w, bool stop, TermId root) {
  w.stop_at_shared = stop;
  w.root = root;
  w.key.clear(), w.leaves.clear(), w.var_order.clear();
  w.nodes = 0;
  w.generation = ++generation_;
}

bool PairKeys::seen(const Walk& w, TermId t) const {
  return seen_in_[t] == w.generation;
}

uint64_t PairKeys::number(Walk& w, TermId t) {
  seen_in_[t] = w.generation;
  return node_number_[t] = w.nodes++;
}

std::vector<uint64_t> PairKeys::operator()(TermId a, TermId b) {
  // First the shared terms the private part reaches, then the private part in their terms.
  // The walks' tables are kept from pair to pair: their memory is reused, not reallocated.
  Walk& collect = walks_[0];
  start(collect, true);
  uint64_t root_a = walk(collect, a, nullptr), root_b = walk(collect, b, nullptr);
  const Tuple& t = tuple(collect.leaves);
  Walk* final = &collect;  // with no shared terms, every variable was fresh: that walk is it
  if (!collect.leaves.empty()) {
    final = &walks_[1];
    start(*final, true);
    root_a = walk(*final, a, &t), root_b = walk(*final, b, &t);
  }
  const Walk& w = *final;
  // The tuple and node count first, the roots last: records and roots can never be read across.
  std::vector<uint64_t> key;
  key.reserve(w.key.size() + 4);
  key.insert(key.end(), {t.id, w.nodes});
  key.insert(key.end(), w.key.begin(), w.key.end());
  key.insert(key.end(), {root_a, root_b});
  return key;
}

// The canonical id of a tuple of shared terms: equal ids, equal up to a renaming that maps the
// i-th variable of one's numbering to the i-th of the other's.
const PairKeys::Tuple& PairKeys::tuple(const std::vector<TermId>& leaves) {
  if (leaves == last_leaves_ && !tuple_ids_.empty()) return last_tuple_;
  make_tuple(leaves, 0, last_tuple_);
  last_leaves_ = leaves;
  return last_tuple_;
}

// The tuple is its terms' ids, then their variables numbered across the tuple by first
// occurrence: a renaming maps each term to the other's (equal ids) and agrees on the variables
// they share (equal numbers). A term's variables are written as a segment (all new, in its own
// order), as the same list as an earlier segment, or listed one by one; which applies is kept
// by any renaming, so the key stays canonical.
void PairKeys::make_tuple(const std::vector<TermId>& leaves, int depth, Tuple& out) {
  std::vector<uint64_t> key = {leaves.size()};
  out.segments.clear(), out.vars.clear(), out.count = 0;
  for (TermId leaf : leaves) {
    SharedKey& k = shared_key(leaf, depth);
    key.insert(key.end(), {k.id, k.vars.size()});
    if (k.vars.size() >= kSegmentVars) {
      auto same = std::find_if(out.segments.begin(), out.segments.end(),
                               [&](const Segment& s) { return s.leaf->vars_id == k.vars_id; });
      if (same != out.segments.end()) {
        key.insert(key.end(), {kSameAs, static_cast<uint64_t>(same - out.segments.begin())});
        continue;
      }
      if (fresh_in(out, k)) {
        key.push_back(kFresh);
        out.segments.push_back({&k, out.count});
        out.count += k.vars.size();
        continue;
      }
    }
    key.push_back(kListed);
    for (uint32_t var : k.vars) {
      tick();
      std::optional<uint64_t> index = out.index_of(var);
      if (!index) index = out.vars[var] = out.count++;
      key.push_back(*index);
    }
  }
  out.id = tuple_ids_.try_emplace(std::move(key), tuple_ids_.size()).first->second;
}

std::optional<uint64_t> PairKeys::Tuple::index_of(uint32_t var) const {
  for (const Segment& s : segments)
    if (auto it = s.leaf->position.find(var); it != s.leaf->position.end())
      return s.offset + it->second;
  if (auto it = vars.find(var); it != vars.end()) return it->second;
  return std::nullopt;
}

std::vector<uint32_t> PairKeys::Tuple::order() const {
  std::vector<uint32_t> order(count);
  for (const Segment& s : segments)
    std::copy(s.leaf->vars.begin(), s.leaf->vars.end(), order.begin() + s.offset);
  for (auto [var, index] : vars) order[index] = var;
  return order;
}

const absl::flat_hash_map<uint32_t, uint32_t>& PairKeys::positions(SharedKey& k) {
  if (k.position.empty())
    for (uint32_t i = 0; i < k.vars.size(); ++i) {
      tick();
      k.position.emplace(k.vars[i], i);
    }
  return k.position;
}

// Whether two terms share no variable: the smaller list probes the larger's table, once per
// pair of terms.
bool PairKeys::disjoint(SharedKey& a, SharedKey& b) {
  SharedKey *small = &a, *large = &b;
  if (small->vars.size() > large->vars.size()) std::swap(small, large);
  auto [it, inserted] = disjoint_memo_.try_emplace({small, large}, true);
  if (inserted) {
    const auto& table = positions(*large);
    for (uint32_t var : small->vars) {
      tick();
      if (table.contains(var)) {
        it->second = false;
        break;
      }
    }
  }
  return it->second;
}

// Whether none of k's variables is numbered in t yet.
bool PairKeys::fresh_in(const Tuple& t, SharedKey& k) {
  for (const Segment& s : t.segments)
    if (!disjoint(*s.leaf, k)) return false;
  const auto& table = positions(k);
  for (const auto& entry : t.vars) {
    tick();
    if (table.contains(entry.first)) return false;
  }
  return true;
}

// One shared term's canonical id and its variables in their canonical order, computed once, as
// a pair's key is: its own part, walked up to the shared terms below it, in terms of their
// tuple. A level-2 pipeline's GroupNorm statistics (one per sample and group) each hold the
// BatchNorm statistics of their channels, over the whole batch: walked whole, once per tuple of
// a pair, they cost 35 s of dedup. Deeper than kMaxDepth, a term is walked whole.
PairKeys::SharedKey& PairKeys::shared_key(TermId t, int depth) {
  constexpr int kMaxDepth = 32;
  if (auto it = shared_keys_.find(t); it != shared_keys_.end()) return it->second;
  Tuple below;
  std::vector<uint64_t> key;
  Walk w;
  uint64_t root;
  if (depth < kMaxDepth) {
    start(w, true, t);
    root = walk(w, t, nullptr);
    make_tuple(w.leaves, depth + 1, below);  // w is this call's own: their walks leave it be
    if (!w.leaves.empty()) {                 // but renumber terms, and its variables are theirs
      start(w, true, t);
      root = walk(w, t, &below);
    }
    key = {1, below.id};
  } else {
    start(w, false);
    root = walk(w, t, nullptr);
    key = {0};
  }
  key.insert(key.end(), {w.nodes, root});
  key.insert(key.end(), w.key.begin(), w.key.end());
  SharedKey& k = shared_keys_[t];
  k.id = shared_ids_.try_emplace(std::move(key), shared_ids_.size()).first->second;
  k.vars = below.order();  // the tuple's variables by index, then its own fresh ones
  k.vars.insert(k.vars.end(), w.var_order.begin(), w.var_order.end());
  k.vars_id = var_list_ids_.try_emplace(k.vars, var_list_ids_.size()).first->second;
  return k;
}

// Post-order with an explicit stack: a 100,000-term chain (a scalar loop accumulator over a
// wide row) is as deep as it is long.
uint64_t PairKeys::walk(Walk& w, TermId root, const Tuple* outer) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    tick();
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (seen(w, t)) continue;
    if (w.stop_at_shared && shared_[t] && t != w.root) {
      // seen above: each shared term is met once per walk, so it is the next leaf
      w.key.insert(w.key.end(), {kLeafRef, w.leaves.size()});
      w.leaves.push_back(t);
      number(w, t);
      continue;
    }
    if (!expanded) {
      stack.push_back({t, true});
      auto kids = s_.children(t);
      for (auto k = kids.rbegin(); k != kids.rend(); ++k)
        if (!seen(w, *k)) stack.push_back({*k, false});
      continue;
    }
    record(w, t, outer);
  }
  return node_number_[root];
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
  for (TermId c : kids) w.key.push_back(node_number_[c]);
  number(w, t);
}

// Renamed only within one input or parameter domain, exactly (no hashing): a variable of the
// tuple by its index there, any other by first occurrence plus the domain's bits.
void PairKeys::record_var(Walk& w, uint32_t var, const Domain& d, const Tuple* outer) {
  if (outer)
    if (std::optional<uint64_t> index = outer->index_of(var)) {
      w.key.insert(w.key.end(), {2, *index});
      return;
    }
  if (var >= var_seen_in_.size()) var_seen_in_.resize(var + 1, 0), var_number_.resize(var + 1);
  if (var_seen_in_[var] != w.generation) {
    var_seen_in_[var] = w.generation;
    var_number_[var] = static_cast<uint32_t>(w.var_order.size());
    w.var_order.push_back(var);
  }
  w.key.insert(w.key.end(),
               {1, var_number_[var], std::bit_cast<uint64_t>(d.lo), std::bit_cast<uint64_t>(d.hi),
                uint64_t{d.hi_open}, static_cast<uint64_t>(d.dtype), uint64_t{d.nonfinite}});
}

// A variable's domain, looked up by its tensor's name once for all pairs.
const Domain* PairKeys::domain_of(TermId var) {
  uint32_t v = s_.payload(var);
  if (v >= domains_.size()) domains_.resize(v + 1, std::nullopt);
  if (!domains_[v]) {
    auto dom = d_.find(tensor_of(s_.variable_of(var).name));
    domains_[v] = dom == d_.end() ? nullptr : &dom->second;
  }
  return *domains_[v];
}

std::vector<Pair> distinct_pairs(const ir::TermStore& s, const Domains& d,
                                 const std::vector<Pair>& all, uint64_t budget, size_t& stopped_at,
                                 uint64_t& work) {
  PairKeys key(s, d, all);
  absl::flat_hash_map<std::vector<uint64_t>, size_t> first;
  std::vector<Pair> out;
  for (stopped_at = 0; stopped_at < all.size() && key.work() <= budget; ++stopped_at)
    if (first.try_emplace(key(all[stopped_at].ref, all[stopped_at].cand), out.size()).second)
      out.push_back(all[stopped_at]);
  out.insert(out.end(), all.begin() + static_cast<std::ptrdiff_t>(stopped_at), all.end());
  work = key.work();
  return out;
}

}  // namespace keq::verify::internal
