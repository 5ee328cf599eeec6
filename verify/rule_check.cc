// keq rules check: every rule proved under the semantics it declares. IEEE rules go to Z3's
// floating-point theory over every fp32 input (NaN, infinities and signed zeros included); real
// rules to the real encoding over finite reals, and their infinite and NaN cases, which that
// encoding does not hold, are evaluated at every combination of special values. A refutation
// is a point where evaluation of both sides confirms the difference.
#include <cmath>
#include <stdexcept>

#include "rules/rules.h"
#include "smt/smt.h"
#include "verify/fp32_sweep.h"
#include "verify/rule_terms.h"
#include "verify/verify.h"

namespace keq::verify {

namespace {

using ir::Op;
using ir::TermId;

constexpr double kSpecials[] = {INFINITY, -INFINITY, NAN, 0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 448.0};
// For integer variables: as many, the edges of i32 and the fp32 field masks among them.
constexpr double kIntSpecials[] = {0,   1,       -1,         2,         127,
                                   255, 8388607, 2139095040, INT32_MIN, INT32_MAX};
static_assert(std::size(kIntSpecials) == std::size(kSpecials));

// Every combination of special values, in the rule's semantics: the first difference, or "".
// `points` counts them.
std::string sweep_specials(ir::TermStore& s, const RuleTerms& t, ir::Semantics sem,
                           size_t& points) {
  size_t n = t.vars.size();
  std::vector<size_t> idx(n, 0);
  for (bool more = n > 0; more;) {
    std::vector<double> vals;
    for (size_t k = 0; k < n; ++k) {
      ir::Type type = s.variable_of(t.vars[k]).type;
      vals.push_back(type == ir::Type::Bool ? static_cast<double>(idx[k] % 2)
                     : ir::is_int(type)     ? kIntSpecials[idx[k]]
                                            : kSpecials[idx[k]]);
    }
    points += 1;
    std::vector<ir::Constant> point = point_of(s, t.vars, vals);
    std::string diff = differs_at(s, t, point, sem);
    if (!diff.empty()) return "at " + point_str(t.vars, point, s) + ": " + diff;
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
  std::optional<RuleTerms> built;
  try {
    built = rule_terms(s, r);
  } catch (const std::invalid_argument& e) {
    v.detail = e.what();
    return v;
  }
  if (!built) {
    v.detail = "no typing of its variables makes both sides well typed";
    return v;
  }
  const RuleTerms& t = *built;
  bool ieee = r.holds == ir::Semantics::Ieee;
  size_t points = 0;
  if (std::string diff = sweep_specials(s, t, r.holds, points); !diff.empty()) {
    v.outcome = RuleVerdict::Outcome::Refuted;
    v.detail = diff;
    return v;
  }
  // Rules about an fp32 value's bits go to the exhaustive sweep (Z3 has no such reals).
  internal::Fp32Sweep swept = internal::sweep_fp32_values(s, r, t);
  if (swept.outcome != internal::Fp32Sweep::Outcome::NotApplicable) {
    v.outcome = swept.outcome == internal::Fp32Sweep::Outcome::Proved ? RuleVerdict::Outcome::Proved
                : swept.outcome == internal::Fp32Sweep::Outcome::Refuted
                    ? RuleVerdict::Outcome::Refuted
                    : RuleVerdict::Outcome::Unknown;
    v.detail = swept.detail;
    return v;
  }
  auto range = [ieee](TermId) { return smt::VarRange{-INFINITY, INFINITY, false, ieee}; };
  smt::Result res = ieee ? smt::check_equal_ieee(s, t.lhs, t.rhs, range, timeout_ms, t.z3_assume)
                         : smt::check_rule_real(s, t.lhs, t.rhs, timeout_ms, t.z3_assume);
  if (res.outcome == smt::Outcome::Model) {
    std::vector<double> vals;
    for (TermId x : t.vars) vals.push_back(res.model.contains(x) ? res.model.at(x) : 0.0);
    std::vector<ir::Constant> point = point_of(s, t.vars, vals);
    std::string diff = differs_at(s, t, point, r.holds);
    if (!diff.empty()) {
      v.outcome = RuleVerdict::Outcome::Refuted;
      v.detail = "at " + point_str(t.vars, point, s) + ": " + diff;
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
    bool integers = false;
    for (TermId x : t.vars) integers = integers || ir::is_int(s.type(x));
    v.detail = integers ? "Z3 bit-vectors and floating point, every input"
                        : "Z3 floating point, every fp32 input";
    return v;
  }
  v.outcome = RuleVerdict::Outcome::Proved;
  v.detail = std::string("Z3 over finite reals") +
             (res.within_domains ? " where both sides are defined" : "") + "; infinities and NaN" +
             (res.within_domains ? ", zero divisors and log and sqrt outside their domains," : "") +
             " at the " + std::to_string(points) + " combinations of special values";
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
