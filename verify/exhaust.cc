// keq verify --exhaustive: see exhaust.h.
#include "verify/exhaust.h"

#include <cmath>
#include <cstring>

namespace keq::verify::internal {

namespace {

runner::InputFormat format_of(torch::DType d) {
  switch (d) {
    case torch::DType::F16:
      return runner::InputFormat::F16;
    case torch::DType::BF16:
      return runner::InputFormat::BF16;
    case torch::DType::E4M3:
      return runner::InputFormat::E4M3;
    case torch::DType::E5M2:
      return runner::InputFormat::E5M2;
    default:
      return runner::InputFormat::F32;
  }
}

// The input's domain as a condition: finite unless --nonfinite-inputs, within get_inputs()'s range.
std::optional<TermId> domain_condition(ir::TermStore& s, TermId x, const Domain& d) {
  auto num = [&](double v) { return s.constant(ir::Constant::of_float(v)); };
  std::vector<TermId> parts;
  if (!d.nonfinite) parts.push_back(s.make(ir::Op::Lt, {s.make(ir::Op::Abs, {x}), num(INFINITY)}));
  if (std::isfinite(d.lo)) parts.push_back(s.make(ir::Op::Ge, {x, num(d.lo)}));
  if (std::isfinite(d.hi))
    parts.push_back(s.make(d.hi_open ? ir::Op::Lt : ir::Op::Le, {x, num(d.hi)}));
  std::optional<TermId> all;
  for (TermId p : parts) all = all ? s.make(ir::Op::And, {*all, p}) : p;
  return all;
}

ir::IeeeValue input_value(uint64_t bits) {
  ir::IeeeValue v{ir::Type::F32, 0, 0};
  uint32_t b = static_cast<uint32_t>(bits);
  std::memcpy(&v.f, &b, 4);
  return v;
}

std::string value_str(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

Exhaustion exhaust(ir::TermStore& s, const std::vector<Pair>& pairs, const Domains& domains,
                   const Options& opt, const std::map<TermId, std::string>& unfixed) {
  Exhaustion out;
  bool gpu = opt.device == runner::Device::Cuda;
  absl::flat_hash_map<TermId, std::string> memo_device, memo_cpu;
  std::vector<runner::Check> checks;
  std::vector<size_t> which;
  size_t not_fixed = 0;
  std::string not_fixed_why;
  for (size_t k = 0; k < pairs.size(); ++k) {
    const Pair& p = pairs[k];
    absl::flat_hash_map<TermId, bool> seen;
    std::vector<TermId> vars;
    std::vector<double> consts;
    collect(s, p.ref, seen, vars, consts);
    collect(s, p.cand, seen, vars, consts);
    if (vars.size() != 1 || s.type(vars[0]) != ir::Type::F32) continue;
    auto d = domains.find(tensor_of(s.variable_of(vars[0]).name));
    if (d == domains.end() || !torch::is_float(d->second.dtype)) continue;
    ++out.unary;
    std::string why = ieee_approximation(s, p.ref, unfixed, memo_device, gpu);
    if (why.empty()) why = ieee_approximation(s, p.cand, unfixed, memo_device, gpu);
    if (!why.empty()) {
      if (not_fixed++ == 0) not_fixed_why = why;
      continue;
    }
    runner::Check c;
    c.name = "output " + std::to_string(p.output) + " element " + std::to_string(p.element);
    c.semantics = ir::Semantics::Ieee;
    c.inputs = {{vars[0], format_of(d->second.dtype)}};
    c.lhs = p.ref;
    c.rhs = p.cand;
    c.assume = domain_condition(s, vars[0], d->second);
    checks.push_back(std::move(c));
    which.push_back(k);
  }
  std::string where = gpu ? "the GPU" : "the CPU";
  if (not_fixed)
    out.note = "--exhaustive: " + std::to_string(not_fixed) +
               " pairs of one input element not swept: their bits depend on what keq does not "
               "pin on " +
               where + ", first: " + not_fixed_why;
  if (checks.empty()) {
    if (out.note.empty())
      out.note = "--exhaustive: no output pair is a function of one float input element";
    return out;
  }
  runner::RunOptions ro;
  ro.device = opt.device;
  ro.exhaustive = true;
  ro.samples = 1;
  ro.points = 0;
  ro.seed = opt.seed;
  ro.cuda_arch = opt.cuda_arch;
  runner::RunResult res = runner::run(s, checks, ro);
  if (!res.error.empty()) {
    out.note = "--exhaustive: the sweep did not run, so nothing was settled by it: " + res.error;
    return out;
  }
  for (size_t i = 0; i < checks.size(); ++i) {
    const runner::CheckResult& r = res.checks[i];
    out.inputs += r.plan.count;
    if (r.differs == 0) {
      out.proved.push_back(which[i]);
      continue;
    }
    if (out.refuted || r.examples.empty()) continue;
    const runner::Point& e = r.examples.front();  // the smallest differing bit pattern
    const runner::Check& c = checks[i];
    Exhaustion::Refuted ref{which[i],
                            {{s.variable_of(c.inputs[0].var).name, value_str(e.inputs[0])}},
                            value_str(e.lhs),
                            value_str(e.rhs),
                            ""};
    std::string counts = "exhaustion on " + res.device + ": the first of " +
                         std::to_string(r.differs) + " differing inputs of " +
                         std::to_string(r.plan.count);
    std::string exact_why = ieee_approximation(s, c.lhs, unfixed, memo_cpu, false);
    if (exact_why.empty()) exact_why = ieee_approximation(s, c.rhs, unfixed, memo_cpu, false);
    if (!exact_why.empty()) {
      ref.how = counts + ", replayed on the GPU (the bits depend on " + exact_why +
                ", whose lowering keq pins to the instruction both frameworks emit)";
      out.refuted = ref;
      continue;
    }
    auto env = [&](const ir::Variable&) { return std::optional(input_value(e.input_bits[0])); };
    ir::Constant a = ir::evaluate_ieee(s, c.lhs, env).to_constant();
    ir::Constant b = ir::evaluate_ieee(s, c.rhs, env).to_constant();
    if (ir::same_value(a, b, ir::Semantics::Ieee)) {  // the device disagrees with the evaluator
      out.note += (out.note.empty() ? "" : "; ") + std::string("--exhaustive: keq defect: ") +
                  res.device + " found a difference at " + ref.inputs[0].second +
                  " that keq's evaluator does not reproduce; the pair is left open";
      continue;
    }
    ref.ref_value = a.str(), ref.cand_value = b.str();
    ref.how = counts + ", confirmed by keq's evaluator";
    out.refuted = ref;
  }
  std::string sweep = std::to_string(checks.size()) +
                      " pairs of one input element, every value "
                      "of the input's format within its domain (" +
                      std::to_string(out.inputs) + " evaluations on " + res.device + ")";
  out.note = (out.note.empty() ? "" : out.note + "; ") +
             "--exhaustive: " + std::to_string(out.proved.size()) + " of " + sweep +
             " have no differing input";
  return out;
}

}  // namespace keq::verify::internal
