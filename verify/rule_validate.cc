// keq rules validate: every rule evaluated on many inputs by generated code (runner/), on the GPU
// or the CPU. IEEE rules compare bits (any NaN matching any NaN); real rules are measured in
// doubles and decided by rigorous evaluation on the CPU, at the inputs the device flagged and a
// sample. Points the device evaluated are also re-evaluated by keq's evaluator where its value is
// bit-exact, so a code-generation error cannot pass unseen.
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "runner/runner.h"
#include "verify/rule_terms.h"
#include "verify/verify.h"

namespace keq::verify {

namespace {

using ir::Op;
using ir::TermId;

runner::InputFormat input_format(const ir::TermStore& s, const rules::KeqRule& r, uint32_t var,
                                 TermId v, const ValidateOptions& opt) {
  switch (s.type(v)) {
    case ir::Type::Bool:
      return runner::InputFormat::Bool;
    case ir::Type::I32:
      return runner::InputFormat::I32;
    case ir::Type::I64:
      return runner::InputFormat::I64;
    case ir::Type::F32:
      break;
  }
  for (const auto& [name, vars] : r.condition_specs)
    if (name.rfind("in-", 0) == 0 && vars.size() == 1 && vars[0] == var)
      if (auto f = runner::format_by_name(name.substr(3))) return *f;
  return opt.format.value_or(runner::InputFormat::F32);
}

// Whether the term's IEEE value is the same bits on every device: no approximation (the
// evaluator takes the correctly rounded value for those), no unspecified order.
bool bit_exact(const ir::TermStore& s, TermId t) {
  const ir::OpInfo& info = ir::op_info(s.op(t));
  bool fold = info.normal_form == ir::NormalFormRole::Sum ||
              info.normal_form == ir::NormalFormRole::Prod;  // folds left, as the evaluator
  if (!info.ieee_exact && !fold) return false;
  for (TermId k : s.children(t))
    if (!bit_exact(s, k)) return false;
  return true;
}
// An op whose device bits are one library's approximation, not fixed by the programs.
bool unpinned_approximation(const ir::TermStore& s, TermId t) {
  const ir::OpInfo& info = ir::op_info(s.op(t));
  bool fold =
      info.normal_form == ir::NormalFormRole::Sum || info.normal_form == ir::NormalFormRole::Prod;
  if (!info.ieee_exact && !info.gpu_pinned && !fold) return true;
  for (TermId k : s.children(t))
    if (unpinned_approximation(s, k)) return true;
  return false;
}

std::string inputs_label(const runner::Check& c, const runner::Plan& p) {
  std::string out;
  for (const runner::Input& in : c.inputs)
    out += (out.empty() ? "" : " x ") + std::string(runner::format_name(in.format));
  if (out.empty()) out = "none";
  return out + (p.exhaustive ? ", all" : ", sampled");
}

std::vector<ir::Constant> constants_of(const ir::TermStore& s, const runner::Check& c,
                                       const runner::Point& p) {
  std::vector<ir::Constant> out;
  for (size_t k = 0; k < c.inputs.size(); ++k) out.push_back(p.input(k, s.type(c.inputs[k].var)));
  return out;
}

std::string side_str(double v, ir::Type t) {
  if (t == ir::Type::Bool) return v != 0 ? "true" : "false";
  return runner::side_constant(v, t).str();
}

// The evaluator's IEEE value of t at p, against the device's; "" when they agree.
std::string evaluator_disagrees(const ir::TermStore& s, const runner::Check& c,
                                const runner::Point& p, TermId t, double device) {
  try {
    ir::Constant want = runner::evaluate_at(s, c, p, t).to_constant();
    ir::Constant got = runner::side_constant(device, want.type);
    if (ir::same_value(want, got, ir::Semantics::Ieee)) return "";
    return "device " + got.str() + ", evaluator " + want.str();
  } catch (const ir::EvalError&) {
    return "";
  }
}

// The first three distinct counterexamples (sampled inputs repeat special values).
void add_example(RuleValidation& v, std::string text) {
  if (v.counterexamples.size() >= 3) return;
  for (const std::string& c : v.counterexamples)
    if (c == text) return;
  v.counterexamples.push_back(std::move(text));
}

void read_ieee(ir::TermStore& s, const RuleTerms& t, const runner::Check& c,
               const runner::CheckResult& res, RuleValidation& v) {
  v.mismatches = res.differs;
  ir::Type ty = s.type(t.lhs);
  for (const runner::Point& p : res.examples)
    add_example(v, "at " + point_str(t.vars, constants_of(s, c, p), s) + ": left " +
                       side_str(p.lhs, ty) + ", right " + side_str(p.rhs, ty));
  bool exact_l = bit_exact(s, t.lhs), exact_r = bit_exact(s, t.rhs);
  auto cross = [&](const runner::Point& p) {
    if (p.outcome < 2) return;
    for (auto [exact, term, value] :
         {std::tuple{exact_l, t.lhs, p.lhs}, std::tuple{exact_r, t.rhs, p.rhs}}) {
      if (!exact) continue;
      ++v.evaluator_points;
      std::string d = evaluator_disagrees(s, c, p, term, value);
      if (d.empty()) continue;
      if (v.evaluator_disagreements++ == 0)
        v.evaluator_note = "at " + point_str(t.vars, constants_of(s, c, p), s) + ": " + d;
    }
  };
  for (const runner::Point& p : res.examples) cross(p);
  for (const runner::Point& p : res.samples) cross(p);
}

// Real rules: the device's doubles flag candidates; a mismatch is where rigorous evaluation
// gives the two sides disjoint enclosures.
void read_real(ir::TermStore& s, const RuleTerms& t, const runner::Check& c,
               const runner::CheckResult& res, RuleValidation& v) {
  v.flagged = res.differs;
  v.max_difference = res.max_difference;
  auto replay = [&](const runner::Point& p) {
    if (p.outcome < 2) return;
    ++v.replayed;
    std::vector<ir::Constant> point = constants_of(s, c, p);
    std::string d = differs_at(s, t, point, ir::Semantics::Real);
    if (d.empty()) return;
    ++v.mismatches;
    add_example(v, "at " + point_str(t.vars, point, s) + ": " + d);
  };
  for (const runner::Point& p : res.examples) replay(p);
  for (const runner::Point& p : res.samples) replay(p);
}

}  // namespace

ValidationRun validate_rules(const std::vector<std::string>& files, const ValidateOptions& opt) {
  ir::TermStore store;
  rules::KeqLanguage lang(&store, ir::Semantics::Real);
  std::vector<rules::KeqRule> all = rules::load_rules(lang, files);
  ValidationRun out;
  std::vector<runner::Check> checks;
  std::vector<RuleTerms> terms;
  std::vector<size_t> row_of;  // check -> row
  for (const rules::KeqRule& r : all) {
    RuleValidation v;
    v.name = r.rewrite.name;
    v.where = r.pos.str();
    v.holds = r.holds;
    std::optional<RuleTerms> t;
    try {
      t = rule_terms(store, r);
      if (!t) v.not_run = "no typing of its variables makes both sides well typed";
    } catch (const std::invalid_argument& e) {
      v.not_run = e.what();
    }
    if (t) {
      runner::Check c;
      c.name = r.rewrite.name;
      c.semantics = r.holds;
      for (size_t k = 0; k < t->vars.size(); ++k)
        c.inputs.push_back(
            {t->vars[k], input_format(store, r, static_cast<uint32_t>(k), t->vars[k], opt)});
      c.lhs = t->lhs;
      c.rhs = t->rhs;
      c.assume = t->eval_assume;
      v.approximate = r.holds == ir::Semantics::Ieee && (unpinned_approximation(store, c.lhs) ||
                                                         unpinned_approximation(store, c.rhs));
      row_of.push_back(out.rules.size());
      checks.push_back(std::move(c));
      terms.push_back(std::move(*t));
    }
    out.rules.push_back(std::move(v));
  }
  runner::RunResult res = runner::run(store, checks, opt.run);
  out.compile_s = res.compile_s;
  out.compiler = res.compiler;
  out.device = res.device;
  out.error = res.error;
  if (!res.error.empty()) return out;
  for (size_t k = 0; k < checks.size(); ++k) {
    RuleValidation& v = out.rules[row_of[k]];
    const runner::CheckResult& r = res.checks[k];
    v.inputs = inputs_label(checks[k], r.plan);
    v.tried = r.plan.count;
    v.skipped = r.skipped;
    v.undefined = r.undefined;
    v.ms = r.ms;
    if (checks[k].semantics == ir::Semantics::Ieee)
      read_ieee(store, terms[k], checks[k], r, v);
    else
      read_real(store, terms[k], checks[k], r, v);
  }
  return out;
}

}  // namespace keq::verify
