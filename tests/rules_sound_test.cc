// Every seed rule, tested empirically: its variables take special values (signed zeros,
// infinities, NaN, extremes) and random ones; where the rule's conditions hold, both sides must
// evaluate equal in the semantics the rule claims (and `ieee` rules in real semantics too).
// This would catch a rule missing a condition, e.g. distribute without (finite ?a).
#include <gtest/gtest.h>

#include <random>

#include "rules/rules.h"

namespace keq::rules {
namespace {

using Graph = KeqLanguage::Graph;

const double kSpecials[] = {0, -0.0, 1, -1, 2, 0.5, -3.25, 7, 1e-30, -1e-30, 1e30, 3.4e38, -3.4e38,
                            INFINITY, -INFINITY, NAN, 1.5, 100,
                            // the edges of the fp8 formats (saturation, rounding past max)
                            448, -448, 464, 465, 57344, -61440};

bool real_equal(const ir::RealValue& a, const ir::RealValue& b) {
  if (a.type != b.type) return false;
  if (a.type != ir::Type::F32) return a.i == b.i;
  mpfr_srcptr x = a.f.get(), y = b.f.get();
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) return mpfr_nan_p(x) && mpfr_nan_p(y);
  if (mpfr_equal_p(x, y)) return true;
  if (mpfr_inf_p(x) || mpfr_inf_p(y)) return false;
  // Transcendental results carry MPFR's 256-bit rounding, and cancellation (log(exp(x)) near
  // x = 0) turns it into an absolute error: allow 2^-200 relative plus 2^-240 absolute. A wrong
  // rule is off by far more.
  ir::Real diff, scale;
  mpfr_sub(diff.get(), x, y, MPFR_RNDN);
  mpfr_abs(diff.get(), diff.get(), MPFR_RNDN);
  mpfr_abs(scale.get(), x, MPFR_RNDN);
  mpfr_mul_2si(scale.get(), scale.get(), -200, MPFR_RNDN);
  ir::Real floor_abs(std::ldexp(1.0, -240));
  mpfr_add(scale.get(), scale.get(), floor_abs.get(), MPFR_RNDN);
  return mpfr_lessequal_p(diff.get(), scale.get());
}

TEST(RulesSound, EverySeedRuleHoldsWhereItsConditionsHold) {
  ir::TermStore store;
  KeqLanguage parse_lang(&store, ir::Semantics::Real);
  auto rules = load_rules(parse_lang, default_rule_files());
  ASSERT_FALSE(rules.empty());
  std::mt19937 rng(2024);
  std::normal_distribution<double> normal(0, 10);
  for (const KeqRule& r : rules) {
    SCOPED_TRACE(r.rewrite.name + " at " + r.pos.str());
    auto types = pattern_var_types(store, r);
    ASSERT_TRUE(types) << "no variable typing makes both sides well typed";
    size_t n = types->size();
    int checked = 0;
    for (int sample = 0; sample < 600; ++sample) {
      std::vector<ir::TermId> vals(n);
      std::vector<ir::Constant> consts(n);
      for (size_t v = 0; v < n; ++v) {
        if ((*types)[v] == ir::Type::Bool) {
          consts[v] = ir::Constant::of_bool(rng() % 2);
        } else if (ir::is_int((*types)[v])) {  // i32 edges, fp32 field masks, random bits
          constexpr int64_t kInts[] = {0,        1,          -1,        127,      255,
                                       0x7FFFFF, 0x7F800000, INT32_MIN, INT32_MAX};
          int64_t x = rng() % 2 ? kInts[rng() % std::size(kInts)] : static_cast<int32_t>(rng());
          consts[v] = ir::Constant::of_int((*types)[v], x);
        } else {
          double x =
              rng() % 3 ? kSpecials[rng() % std::size(kSpecials)] : static_cast<float>(normal(rng));
          size_t other = v > 0 ? rng() % v : 0;  // equal operands, for (- ?a ?a)
          if (v > 0 && rng() % 4 == 0 && consts[other].type == ir::Type::F32) x = consts[other].f;
          consts[v] = ir::Constant::of_float(x);
        }
        vals[v] = store.constant(consts[v]);
      }
      for (ir::Semantics sem : {ir::Semantics::Real, ir::Semantics::Ieee}) {
        if (sem == ir::Semantics::Ieee && r.holds != ir::Semantics::Ieee) continue;
        // Conditions, read through the analysis exactly as saturation reads them.
        Graph g(KeqLanguage(&store, sem));
        std::vector<egraph::EClassId> subst;
        for (ir::TermId t : vals) subst.push_back(add_term(g, t));
        // A condition that says only where a rule fires (a class's structure, which no constant
        // has): the rule must hold without it. (Typing conditions follow the named ones.)
        bool holds = true;
        for (size_t i = 0; i < r.rewrite.conditions.size(); ++i)
          if (i >= r.condition_specs.size() || !KeqLanguage::fires_only(r.condition_specs[i].first))
            holds = holds && r.rewrite.conditions[i](g, subst);
        if (!holds) continue;
        ir::TermId lhs = instantiate(store, r.rewrite.lhs, vals);
        ir::TermId rhs = instantiate(store, r.rewrite.rhs, vals);
        std::string at;
        for (const auto& c : consts) at += " " + c.str();
        if (sem == ir::Semantics::Real) {
          auto none = [](const ir::Variable&) { return std::optional<ir::RealValue>(); };
          std::optional<ir::RealValue> a, b;
          try {
            a = ir::evaluate_real(store, lhs, none), b = ir::evaluate_real(store, rhs, none);
          } catch (const ir::EvalError&) {
            continue;  // beyond the evaluator's range (exp(3.4e38)): no verdict at this point
          }
          ASSERT_TRUE(real_equal(*a, *b))
              << "real: lhs " << a->str() << " rhs " << b->str() << " at" << at;
        } else {
          auto none = [](const ir::Variable&) { return std::optional<ir::IeeeValue>(); };
          ir::Constant a = ir::evaluate_ieee(store, lhs, none).to_constant();
          ir::Constant b = ir::evaluate_ieee(store, rhs, none).to_constant();
          ASSERT_TRUE(ir::same_value(a, b, ir::Semantics::Ieee))
              << "ieee: lhs " << a.str() << " rhs " << b.str() << " at" << at;
        }
        ++checked;
      }
    }
    EXPECT_GT(checked, 0) << "conditions never held: the rule was not tested";
  }
}

}  // namespace
}  // namespace keq::rules
