// keq rules check: every rule proved under the semantics it declares. IEEE rules go to Z3's
// floating-point theory over every fp32 input (NaN, infinities and signed zeros included); real
// rules to the real encoding over finite reals, and their infinite and NaN cases, which that
// encoding does not hold, are evaluated at every combination of special values. A refutation
// is a point where evaluation of both sides confirms the difference.
#include <cmath>
#include <stdexcept>

#include "ir/enclosure.h"
#include "rules/rules.h"
#include "smt/smt.h"
#include "verify/verify.h"

namespace keq::verify {

namespace {

using ir::Op;
using ir::TermId;

constexpr double kSpecials[] = {INFINITY, -INFINITY, NAN, 0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 448.0};

struct RuleTerms {
  std::vector<TermId> vars;
  TermId lhs, rhs;
  std::optional<TermId> z3_assume, eval_assume;  // the conditions, as Z3 and evaluation read them
};

// A condition as a bool term; none where it restricts nothing: `const` (any value may be the
// constant), and `finite` and `not-nan` over Z3's finite reals. A condition this does not know
// throws: treated as no restriction it would refute rules that hold.
std::optional<TermId> condition_term(ir::TermStore& s, const std::string& name,
                                     const std::vector<TermId>& v, bool finite_reals) {
  auto num = [&](double x) { return s.constant(ir::Constant::of_float(x)); };
  auto both = [&](TermId a, TermId b) { return s.make(Op::And, {a, b}); };
  auto within = [&](double m) {
    return both(s.make(Op::Ge, {v[0], num(-m)}), s.make(Op::Le, {v[0], num(m)}));
  };
  if (name == "finite")
    return finite_reals ? std::nullopt
                        : std::optional(s.make(Op::Lt, {s.make(Op::Abs, {v[0]}), num(INFINITY)}));
  if (name == "not-nan")
    return finite_reals ? std::nullopt : std::optional(s.make(Op::Eq, {v[0], v[0]}));
  if (name == "nonzero") {
    TermId ne = s.make(Op::Ne, {v[0], num(0)});
    return finite_reals ? ne : both(ne, s.make(Op::Eq, {v[0], v[0]}));
  }
  if (name == "positive") return s.make(Op::Gt, {v[0], num(0)});
  if (name == "negative") return s.make(Op::Lt, {v[0], num(0)});
  if (name == "nonneg") return s.make(Op::Ge, {v[0], num(0)});
  if (name == "nonpos") return s.make(Op::Le, {v[0], num(0)});
  if (name == "e4m3-range") return within(448);
  if (name == "e5m2-range") return within(57344);
  if (name == "le") return s.make(Op::Le, {v[0], v[1]});
  if (name == "const") return std::nullopt;
  throw std::invalid_argument("condition '" + name + "' has no term form in keq rules check");
}

std::optional<TermId> conjunction(ir::TermStore& s, const rules::KeqRule& r,
                                  const std::vector<TermId>& vars, bool finite_reals) {
  std::optional<TermId> all;
  for (const auto& [name, idx] : r.condition_specs) {
    std::vector<TermId> args;
    for (uint32_t k : idx) args.push_back(vars[k]);
    if (auto t = condition_term(s, name, args, finite_reals))
      all = all ? s.make(Op::And, {*all, *t}) : *t;
  }
  return all;
}

std::string point_str(const std::vector<TermId>& vars, const std::vector<double>& vals,
                      const ir::TermStore& s) {
  std::string out;
  for (size_t k = 0; k < vars.size(); ++k)
    out += (k ? ", " : "") + s.variable_of(vars[k]).name + " = " +
           ir::Constant::of_float(vals[k]).str();
  return out;
}

// Both sides and the condition at one point, in the rule's semantics: "" when they agree or the
// condition fails, else what each side gives.
std::string differs_at(ir::TermStore& s, const RuleTerms& t, const std::vector<double>& vals,
                       ir::Semantics sem) {
  auto value_of = [&](const ir::Variable& v) -> ir::Constant {
    double x = 0;
    for (size_t k = 0; k < t.vars.size(); ++k)
      if (s.variable_of(t.vars[k]).name == v.name) x = vals[k];
    return v.type == ir::Type::Bool ? ir::Constant::of_bool(x != 0) : ir::Constant::of_float(x);
  };
  try {
    if (sem == ir::Semantics::Ieee) {
      auto env = [&](const ir::Variable& v) {
        return std::optional(ir::IeeeValue::of(value_of(v)));
      };
      if (t.eval_assume && !ir::evaluate_ieee(s, *t.eval_assume, env).i) return "";
      ir::Constant a = ir::evaluate_ieee(s, t.lhs, env).to_constant();
      ir::Constant b = ir::evaluate_ieee(s, t.rhs, env).to_constant();
      if (ir::same_value(a, b, ir::Semantics::Ieee)) return "";
      return "left " + a.str() + ", right " + b.str();
    }
    // Real semantics: a difference only where the two sides' enclosures are disjoint, as keq
    // verify's replay requires (the conditions compare exact inputs with constants).
    auto env = [&](const ir::Variable& v) { return std::optional(ir::RealValue::of(value_of(v))); };
    if (t.eval_assume && !ir::evaluate_real(s, *t.eval_assume, env).i) return "";
    if (!ir::disjoint(ir::evaluate_enclosure(s, t.lhs, env), ir::evaluate_enclosure(s, t.rhs, env)))
      return "";
    return "left " + ir::evaluate_real(s, t.lhs, env).str() + ", right " +
           ir::evaluate_real(s, t.rhs, env).str();
  } catch (const ir::EvalError&) {
    return "";  // outside the evaluator's range: no evidence
  }
}

// Every combination of special values, in the rule's semantics: the first difference, or "".
// `points` counts those with an infinity or NaN (what the real encoding leaves out).
std::string sweep_specials(ir::TermStore& s, const RuleTerms& t, ir::Semantics sem,
                           size_t& points) {
  size_t n = t.vars.size();
  std::vector<size_t> idx(n, 0);
  for (bool more = n > 0; more;) {
    std::vector<double> vals;
    bool nonfinite = false;
    for (size_t k = 0; k < n; ++k) {
      bool is_bool = s.variable_of(t.vars[k]).type == ir::Type::Bool;
      vals.push_back(is_bool ? static_cast<double>(idx[k] % 2) : kSpecials[idx[k]]);
      nonfinite |= !is_bool && !std::isfinite(kSpecials[idx[k]]);
    }
    points += nonfinite;
    std::string diff = differs_at(s, t, vals, sem);
    if (!diff.empty()) return "at " + point_str(t.vars, vals, s) + ": " + diff;
    more = false;
    for (size_t k = 0; k < n && !more; ++k) {
      if (++idx[k] < std::size(kSpecials))
        more = true;
      else
        idx[k] = 0;
    }
  }
  return "";
}

RuleVerdict check_one(ir::TermStore& s, const rules::KeqRule& r, unsigned timeout_ms) {
  RuleVerdict v{r.rewrite.name, r.pos.str(), r.holds, RuleVerdict::Outcome::Unknown, ""};
  auto types = rules::pattern_var_types(s, r);
  if (!types) {
    v.detail = "no typing of its variables makes both sides well typed";
    return v;
  }
  RuleTerms t;
  for (size_t k = 0; k < types->size(); ++k)
    t.vars.push_back(s.variable(
        std::string((*types)[k] == ir::Type::Bool ? "cond_" : "") + static_cast<char>('a' + k),
        (*types)[k]));
  t.lhs = rules::instantiate(s, r.rewrite.lhs, t.vars);
  t.rhs = rules::instantiate(s, r.rewrite.rhs, t.vars);
  bool ieee = r.holds == ir::Semantics::Ieee;
  try {
    t.z3_assume = conjunction(s, r, t.vars, !ieee);
    t.eval_assume = conjunction(s, r, t.vars, false);
  } catch (const std::invalid_argument& e) {
    v.detail = e.what();
    return v;
  }
  size_t points = 0;
  if (std::string diff = sweep_specials(s, t, r.holds, points); !diff.empty()) {
    v.outcome = RuleVerdict::Outcome::Refuted;
    v.detail = diff;
    return v;
  }
  auto range = [ieee](TermId) { return smt::VarRange{-INFINITY, INFINITY, false, ieee}; };
  smt::Result res = ieee ? smt::check_equal_ieee(s, t.lhs, t.rhs, range, timeout_ms, t.z3_assume)
                         : smt::check_equal(s, t.lhs, t.rhs, range, timeout_ms, t.z3_assume);
  if (res.outcome == smt::Outcome::Model) {
    std::vector<double> vals;
    for (TermId x : t.vars) vals.push_back(res.model.contains(x) ? res.model.at(x) : 0.0);
    std::string diff = differs_at(s, t, vals, r.holds);
    if (!diff.empty()) {
      v.outcome = RuleVerdict::Outcome::Refuted;
      v.detail = "at " + point_str(t.vars, vals, s) + ": " + diff;
      return v;
    }
    v.detail = "Z3's model did not replay as a difference";
    return v;
  }
  if (res.outcome != smt::Outcome::Proved) {
    v.detail = res.reason;
    return v;
  }
  if (ieee) {
    v.outcome = RuleVerdict::Outcome::Proved;
    v.detail = "Z3 floating point, every fp32 input";
    return v;
  }
  v.outcome = RuleVerdict::Outcome::Proved;
  v.detail =
      "Z3 over finite reals; infinities and NaN at " + std::to_string(points) + " special points";
  return v;
}

}  // namespace

std::vector<RuleVerdict> check_rules(const std::vector<std::string>& files, unsigned timeout_ms) {
  ir::TermStore store;
  rules::KeqLanguage lang(&store, ir::Semantics::Real);
  std::vector<rules::KeqRule> all = rules::load_rules(lang, files);
  std::vector<RuleVerdict> out;
  for (const rules::KeqRule& r : all) out.push_back(check_one(store, r, timeout_ms));
  return out;
}

}  // namespace keq::verify
