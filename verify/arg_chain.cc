#include "verify/arg_chain.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <cmath>

#include "ir/budget.h"

namespace keq::verify {
namespace {

using ir::Op;
using ir::TermId;
using Entries = std::vector<std::pair<TermId, int64_t>>;

bool is_float_const(const ir::TermStore& s, TermId t) {
  return s.op(t) == Op::Const && !ir::is_int(s.type(t)) && s.type(t) != ir::Type::Bool;
}

bool is_int_const(const ir::TermStore& s, TermId t) {
  return s.op(t) == Op::Const && ir::is_int(s.type(t));
}

// Index arithmetic the chains are built with: exact at the sizes keq runs.
bool is_index_type(ir::Type t) {
  return t == ir::Type::I32 || t == ir::Type::I64;
}

// Reads chains of one kind (max or min) over one store.
class ChainReader {
 public:
  ChainReader(const ir::TermStore& s, bool is_max, const std::function<bool(TermId)>& finite)
      : s_(s), is_max_(is_max), finite_(finite) {}

  std::optional<Entries> read(TermId t);

 private:
  // A select step oriented so that `take` is chosen when its extreme beats `keep`'s.
  struct Step {
    TermId take, take_ext, keep, keep_ext;
  };
  std::optional<Step> step_of(TermId t);
  std::optional<TermId> without_nan_clauses(TermId cond);
  bool nan_clause(TermId t);
  bool not_nan(TermId t);
  bool extremum_of_kind(TermId t) const {
    const ir::OpInfo& info = ir::op_info(s_.op(t));
    return info.is_extremum() && info.is_max == is_max_;
  }
  // Whether select(c, a, b) computes the extreme of a and b (c: a beats b).
  bool picks_extreme(TermId t);
  std::vector<TermId> leaves(TermId ext);
  std::vector<TermId> values(const Entries& e) const;
  bool is_identity(TermId v) const {
    return is_float_const(s_, v) && s_.constant_of(v).f == (is_max_ ? -INFINITY : INFINITY);
  }
  std::optional<Entries> side(TermId t, TermId ext);
  std::optional<Entries> read_wrapped(TermId t);

  const ir::TermStore& s_;
  bool is_max_;
  const std::function<bool(TermId)>& finite_;
  absl::flat_hash_map<TermId, bool> not_nan_;
};

// cond with its NaN clauses removed, when it is an order: `x > y`, or `x > y | nan_clause`
// (torch: `x != x & best == best`; Triton: `best != best & x == x`), false without NaN; a
// conjunct `true` (a lane's mask) is dropped too.
std::optional<TermId> ChainReader::without_nan_clauses(TermId cond) {
  auto is_true = [&](TermId t) {
    return s_.op(t) == Op::Const && s_.type(t) == ir::Type::Bool && s_.constant_of(t).i == 1;
  };
  while (s_.op(cond) == Op::Or || s_.op(cond) == Op::And) {
    auto k = s_.children(cond);
    if (s_.op(cond) == Op::And) {  // a mask that is true on this lane: `mask & (v < best)`
      if (!is_true(k[0]) && !is_true(k[1])) return std::nullopt;
      cond = is_true(k[0]) ? k[1] : k[0];
    } else if (nan_clause(k[1]))
      cond = k[0];
    else if (nan_clause(k[0]))
      cond = k[1];
    else
      return std::nullopt;
  }
  Op op = s_.op(cond);
  if (op != Op::Gt && op != Op::Lt && op != Op::Ge && op != Op::Le) return std::nullopt;
  return cond;
}

bool ChainReader::nan_clause(TermId t) {
  auto is_self_ne = [&](TermId u) {
    return s_.op(u) == Op::Ne && s_.children(u)[0] == s_.children(u)[1] &&
           not_nan(s_.children(u)[0]);
  };
  if (is_self_ne(t)) return true;
  if (s_.op(t) != Op::And) return false;
  auto k = s_.children(t);
  return is_self_ne(k[0]) || is_self_ne(k[1]);
}

// No NaN: constants that are none, finite values, and selects and extremes of such (post-order,
// memoized: a running best is as deep as its row is wide).
bool ChainReader::not_nan(TermId root) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  auto through = [&](TermId t) {
    return s_.op(t) == Op::Select || ir::op_info(s_.op(t)).is_extremum();
  };
  auto kids = [&](TermId t) {
    auto k = s_.children(t);
    return s_.op(t) == Op::Select ? k.subspan(1) : k;
  };
  while (!stack.empty()) {
    ir::Budget::tick();
    auto [t, expanded] = stack.back();
    if (not_nan_.contains(t)) {
      stack.pop_back();
      continue;
    }
    if (!through(t)) {
      stack.pop_back();
      bool ok = s_.op(t) == Op::Const ? !std::isnan(s_.constant_of(t).f) : finite_(t);
      not_nan_[t] = ok || ir::is_int(s_.type(t));
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (TermId k : kids(t))
        if (!not_nan_.contains(k)) stack.push_back({k, false});
      continue;
    }
    stack.pop_back();
    bool ok = true;
    for (TermId k : kids(t)) ok = ok && not_nan_.at(k);
    not_nan_[t] = ok;
  }
  return not_nan_.at(root);
}

// select(cond, a, b) read as a step: which branch is taken when which extreme beats the other.
// `a <= b` is `not (a > b)` without NaN, so a non-strict comparison swaps the branches.
std::optional<ChainReader::Step> ChainReader::step_of(TermId t) {
  if (s_.op(t) != Op::Select) return std::nullopt;
  auto k = s_.children(t);
  auto cond = without_nan_clauses(k[0]);
  if (!cond) return std::nullopt;
  TermId a = k[1], b = k[2];
  Op op = s_.op(*cond);
  TermId x = s_.children(*cond)[0], y = s_.children(*cond)[1];
  if (op == Op::Ge || op == Op::Le) {  // a taken when x >= y: b taken when y > x
    std::swap(a, b);
    std::swap(x, y);
    op = op == Op::Ge ? Op::Gt : Op::Lt;
  }
  // Now a is taken when x op y, strictly. For a max, a's extreme beats when it is the greater.
  bool a_is_x = (op == Op::Gt) == is_max_;
  return Step{a, a_is_x ? x : y, b, a_is_x ? y : x};
}

bool ChainReader::picks_extreme(TermId t) {
  auto step = step_of(t);
  return step && step->take == step->take_ext && step->keep == step->keep_ext;
}

// The values an extreme is taken over: through extremes of this kind and selects that pick the
// extreme of their branches, less the kind's identity (-inf never is a max of finite values).
std::vector<TermId> ChainReader::leaves(TermId ext) {
  std::vector<TermId> out, stack{ext};
  absl::flat_hash_set<TermId> seen;
  while (!stack.empty()) {
    ir::Budget::tick();
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.insert(t).second) continue;
    if (extremum_of_kind(t)) {
      for (TermId k : s_.children(t)) stack.push_back(k);
    } else if (picks_extreme(t)) {
      stack.push_back(s_.children(t)[1]);
      stack.push_back(s_.children(t)[2]);
    } else if (!is_identity(t)) {
      out.push_back(t);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<TermId> ChainReader::values(const Entries& e) const {
  std::vector<TermId> out;
  for (const auto& [v, i] : e)
    if (!is_identity(v)) out.push_back(v);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// One side of a step: an index constant is one entry with the step's extreme as its value;
// anything else is a chain whose values must be exactly those the extreme is taken over.
std::optional<Entries> ChainReader::side(TermId t, TermId ext) {
  if (is_int_const(s_, t)) return Entries{{ext, s_.constant_of(t).i}};
  auto e = read(t);
  if (!e || leaves(ext) != values(*e)) return std::nullopt;
  return e;
}

// Index casts and constant offsets around a chain (`tl.argmax(v, 0) + start`, `.to(tl.int64)`).
std::optional<Entries> ChainReader::read_wrapped(TermId t) {
  if (!is_index_type(s_.type(t))) return std::nullopt;
  Op op = s_.op(t);
  if ((op == Op::CastI32 || op == Op::CastI64) && is_index_type(s_.type(s_.children(t)[0])))
    return read(s_.children(t)[0]);
  if (op != Op::Add) return std::nullopt;
  auto k = s_.children(t);
  int c = is_int_const(s_, k[1]) ? 1 : is_int_const(s_, k[0]) ? 0 : -1;
  if (c < 0) return std::nullopt;
  auto e = read(k[1 - c]);
  if (e)
    for (auto& entry : *e) entry.second += s_.constant_of(k[c]).i;
  return e;
}

// The steps along the kept branches are walked in a loop (torch's chain is as deep as its row),
// the taken branches (a block's own chain) by recursion.
std::optional<Entries> ChainReader::read(TermId t) {
  std::vector<Step> steps;
  while (auto step = step_of(t)) {
    ir::Budget::tick();
    steps.push_back(*step);
    t = step->keep;
  }
  if (steps.empty()) return read_wrapped(t);
  auto list = side(t, steps.back().keep_ext);
  if (!list) return std::nullopt;
  for (size_t k = steps.size(); k-- > 0;) {
    const Step& st = steps[k];
    // The kept extreme must be the extreme of the list so far: the previous step's own extreme
    // of its two branches (a running best), or, failing that, taken over the same values.
    bool running = k + 1 < steps.size() && [&] {
      const Step& prev = steps[k + 1];
      auto of_both = [&](TermId a, TermId b) {
        return (a == prev.take_ext && b == prev.keep_ext) ||
               (b == prev.take_ext && a == prev.keep_ext);
      };
      TermId e = st.keep_ext;
      auto kids = s_.children(e);
      if (extremum_of_kind(e)) return kids.size() == 2 && of_both(kids[0], kids[1]);
      return picks_extreme(e) && of_both(kids[1], kids[2]);
    }();
    if (!running && k + 1 < steps.size() && leaves(st.keep_ext) != values(*list))
      return std::nullopt;
    auto taken = side(st.take, st.take_ext);
    if (!taken) return std::nullopt;
    list->insert(list->end(), taken->begin(), taken->end());
  }
  return list;
}

}  // namespace

std::optional<ArgChain> arg_chain_of(const ir::TermStore& s, TermId t,
                                     const std::function<bool(TermId)>& finite) {
  for (bool is_max : {true, false}) {
    ChainReader reader(s, is_max, finite);
    auto entries = reader.read(t);
    if (!entries) continue;
    ArgChain chain{is_max, {}};
    // Every value must be no NaN (the reading's premise) and, when identity entries are left
    // out, beat the identity: finite.
    bool ok = true;
    for (const auto& [v, i] : *entries) {
      bool identity = is_float_const(s, v) && s.constant_of(v).f == (is_max ? -INFINITY : INFINITY);
      if (identity) continue;
      ok = ok && (s.op(v) == Op::Const ? std::isfinite(s.constant_of(v).f) || ir::is_int(s.type(v))
                                       : finite(v));
      chain.entries.push_back({v, i});
    }
    if (!ok || chain.entries.empty()) return std::nullopt;
    return chain;
  }
  return std::nullopt;
}

}  // namespace keq::verify
