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

std::string value_str(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// A check of pair p over the float inputs it reads, each within its domain; none when it reads
// another kind of input, or more than `max_vars` of them.
std::optional<runner::Check> pair_check(ir::TermStore& s, const Pair& p, const Domains& domains,
                                        size_t max_vars, std::vector<TermId>& vars, size_t& nodes) {
  absl::flat_hash_map<TermId, bool> seen;
  std::vector<double> consts;
  vars.clear();
  collect(s, p.ref, seen, vars, consts);
  collect(s, p.cand, seen, vars, consts);
  nodes = seen.size();
  if (vars.empty() || vars.size() > max_vars) return std::nullopt;
  runner::Check c;
  c.name = "output " + std::to_string(p.output) + " element " + std::to_string(p.element);
  c.semantics = ir::Semantics::Ieee;
  c.lhs = p.ref;
  c.rhs = p.cand;
  for (TermId v : vars) {
    auto d = domains.find(tensor_of(s.variable_of(v).name));
    if (s.type(v) != ir::Type::F32 || d == domains.end() || !torch::is_float(d->second.dtype))
      return std::nullopt;
    c.inputs.push_back({v, format_of(d->second.dtype)});
    if (auto cond = domain_condition(s, v, d->second))
      c.assume = c.assume ? s.make(ir::Op::And, {*c.assume, *cond}) : *cond;
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> inputs_of(const ir::TermStore& s,
                                                           const runner::Check& c,
                                                           const runner::Point& e) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t k = 0; k < c.inputs.size(); ++k)
    out.push_back({s.variable_of(c.inputs[k].var).name, value_str(e.inputs[k])});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Replay gpu_replay(ir::TermStore& s, const std::vector<Pair>& pairs, const Domains& domains,
                  const Options& opt, const std::map<TermId, std::string>& unfixed) {
  constexpr size_t kMaxVars = 256, kMaxNodes = 20000;  // what nvcc compiles in seconds
  Replay out;
  absl::flat_hash_map<TermId, std::string> memo;
  std::vector<runner::Check> checks;
  std::vector<size_t> which;
  std::vector<TermId> vars;
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (!ieee_approximation(s, pairs[k].ref, unfixed, memo, true).empty() ||
        !ieee_approximation(s, pairs[k].cand, unfixed, memo, true).empty())
      continue;
    size_t nodes = 0;
    auto c = pair_check(s, pairs[k], domains, kMaxVars, vars, nodes);
    if (!c || nodes > kMaxNodes) continue;
    checks.push_back(std::move(*c));
    which.push_back(k);
  }
  out.pairs = checks.size();
  if (checks.empty()) return out;
  runner::RunOptions ro;
  ro.device = runner::Device::Cuda;
  ro.samples = 1 << 22;
  ro.points = 0;
  ro.seed = opt.seed;
  ro.cuda_arch = opt.cuda_arch;
  ro.time_limit_s = opt.timeout_s;
  runner::RunResult res = runner::run(s, checks, ro);
  if (!res.error.empty()) {
    out.note = "ieee: the GPU replay did not run: " + res.error;
    return out;
  }
  for (size_t i = 0; i < checks.size() && !out.refuted; ++i) {
    const runner::CheckResult& r = res.checks[i];
    out.inputs += r.plan.count;
    if (r.differs == 0 || r.examples.empty()) continue;
    const runner::Point& e = r.examples.front();
    out.refuted = Exhaustion::Refuted{
        which[i], inputs_of(s, checks[i], e), value_str(e.lhs), value_str(e.rhs),
        "sampled on " + res.device + ": " + std::to_string(r.differs) + " of " +
            std::to_string(r.plan.count) + " inputs differ; replayed on the GPU"};
  }
  out.note = "ieee: " + std::to_string(checks.size()) +
             " pairs whose bits depend only on lowerings keq pins were evaluated on " + res.device +
             " at " + std::to_string(out.inputs) + " sampled inputs" +
             (out.refuted ? "" : ", none differing (a sample: no proof)");
  return out;
}

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
    std::vector<TermId> vars;
    size_t nodes = 0;
    auto c = pair_check(s, p, domains, 1, vars, nodes);
    if (!c) continue;
    ++out.unary;
    std::string why = ieee_approximation(s, p.ref, unfixed, memo_device, gpu);
    if (why.empty()) why = ieee_approximation(s, p.cand, unfixed, memo_device, gpu);
    if (!why.empty()) {
      if (not_fixed++ == 0) not_fixed_why = why;
      continue;
    }
    checks.push_back(std::move(*c));
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
  ro.time_limit_s = opt.timeout_s;  // what the configuration has left (Pipeline passes it)
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
    ir::Constant a, b;
    try {
      a = runner::evaluate_at(s, c, e, c.lhs).to_constant();
      b = runner::evaluate_at(s, c, e, c.rhs).to_constant();
    } catch (const ir::EvalError&) {
      a = b = ir::Constant{};  // no value to confirm with: treated as unconfirmed below
    }
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
