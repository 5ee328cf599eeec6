// Rule terms: see rule_terms.h.
#include "verify/rule_terms.h"

#include <cmath>
#include <stdexcept>

#include "ir/enclosure.h"

namespace keq::verify {

namespace {

using ir::Op;
using ir::TermId;

// A condition as a bool term; none where it restricts nothing: `const` (any value may be the
// constant), and `finite` and `not-nan` over Z3's finite reals. A condition this does not know
// throws: treated as no restriction it would refute rules that hold.
std::optional<TermId> condition_term(ir::TermStore& s, const std::string& name,
                                     const std::vector<TermId>& v, bool finite_reals) {
  auto num = [&](double x) { return s.constant(ir::Constant::of_float(x)); };
  auto both = [&](TermId a, TermId b) { return s.make(Op::And, {a, b}); };
  auto within = [&](double m) {  // or NaN, which a saturating cast and the plain one agree on
    return s.make(Op::Or, {both(s.make(Op::Ge, {v[0], num(-m)}), s.make(Op::Le, {v[0], num(m)})),
                           s.make(Op::Ne, {v[0], v[0]})});
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
  if (name == "ue8m0-range")
    return both(s.make(Op::Ge, {v[0], num(0x1p-126)}), s.make(Op::Le, {v[0], num(0x1p127)}));
  // Rounding to fp32 keeps floor(log2 x) and whether x is a power of two: no term says so, and
  // its rules are proved by exhaustion over fp32 values (fp32_sweep.h), where it always holds.
  if (name == "f32-binade") return std::nullopt;
  if (name == "le") return s.make(Op::Le, {v[0], v[1]});
  if (name == "lt") return s.make(Op::Lt, {v[0], v[1]});
  for (auto [fmt, cast] : {std::pair{"in-f16", Op::CastF16}, std::pair{"in-bf16", Op::CastBF16},
                           std::pair{"in-e4m3", Op::CastE4M3}, std::pair{"in-e5m2", Op::CastE5M2}})
    if (name == fmt)  // a value its own rounding, or NaN
      return s.make(Op::Or,
                    {s.make(Op::Eq, {v[0], s.make(cast, {v[0]})}), s.make(Op::Ne, {v[0], v[0]})});
  if (name == "const" || rules::KeqLanguage::fires_only(name)) return std::nullopt;
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

}  // namespace

std::optional<RuleTerms> rule_terms(ir::TermStore& s, const rules::KeqRule& r) {
  auto types = rules::pattern_var_types(s, r);
  if (!types) return std::nullopt;
  RuleTerms t;
  // ?x is x (f32), cond_x (bool) or i32_x: one store holds every rule's variables.
  for (size_t k = 0; k < types->size(); ++k) {
    ir::Type type = (*types)[k];
    std::string prefix = type == ir::Type::Bool  ? "cond_"
                         : type == ir::Type::F32 ? ""
                                                 : std::string(ir::type_name(type)) + "_";
    t.vars.push_back(s.variable(prefix + r.rewrite.lhs.var_names[k].substr(1), type));
  }
  t.lhs = rules::instantiate(s, r.rewrite.lhs, t.vars);
  t.rhs = rules::instantiate(s, r.rewrite.rhs, t.vars);
  t.z3_assume = conjunction(s, r, t.vars, r.holds != ir::Semantics::Ieee);
  t.eval_assume = conjunction(s, r, t.vars, false);
  return t;
}

std::string point_str(const std::vector<TermId>& vars, const std::vector<ir::Constant>& vals,
                      const ir::TermStore& s) {
  std::string out;
  for (size_t k = 0; k < vars.size(); ++k)
    out += (k ? ", " : "") + s.variable_of(vars[k]).name + " = " + vals[k].str();
  return out;
}

std::vector<ir::Constant> point_of(const ir::TermStore& s, const std::vector<TermId>& vars,
                                   const std::vector<double>& vals) {
  std::vector<ir::Constant> out;
  for (size_t k = 0; k < vars.size(); ++k) {
    ir::Type t = s.type(vars[k]);
    out.push_back(t == ir::Type::Bool ? ir::Constant::of_bool(vals[k] != 0)
                  : ir::is_int(t)     ? ir::Constant::of_int(t, static_cast<int64_t>(vals[k]))
                                      : ir::Constant::of_float(vals[k]));
  }
  return out;
}

// Both sides and the condition at one point, in the rule's semantics: "" when they agree or the
// condition fails, else what each side gives.
std::string differs_at(ir::TermStore& s, const RuleTerms& t, const std::vector<ir::Constant>& vals,
                       ir::Semantics sem) {
  auto value_of = [&](const ir::Variable& v) -> ir::Constant {
    for (size_t k = 0; k < t.vars.size(); ++k)
      if (s.variable_of(t.vars[k]).name == v.name) return vals[k];
    return ir::Constant::of_float(0);
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

}  // namespace keq::verify
