#include "verify/verify.h"

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <thread>

#include "frontends/python/python.h"
#include "ir/budget.h"
#include "ir/enclosure.h"
#include "rules/rules.h"
#include "smt/smt.h"

namespace keq::verify {

using ir::TermId;
using torch::Program;

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent:
      return "EQUIVALENT";
    case Verdict::NotEquivalent:
      return "NOT_EQUIVALENT";
    case Verdict::Unknown:
      return "UNKNOWN";
    case Verdict::Unsupported:
      return "UNSUPPORTED";
    case Verdict::Error:
      return "ERROR";
  }
  return "?";
}

int exit_code(Verdict v) {
  return static_cast<int>(v);
}

Verdict combine(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::NotEquivalent:
        return 4;
      case Verdict::Error:
        return 3;
      case Verdict::Unsupported:
        return 2;
      case Verdict::Unknown:
        return 1;
      case Verdict::Equivalent:
        return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

namespace {

// Where an input variable's values come from: its tensor's dtype and get_inputs() range.
struct Domain {
  double lo = -INFINITY, hi = INFINITY;
  bool hi_open = false;
  python::DType dtype = python::DType::F32;
  bool nonfinite = false;  // --nonfinite-inputs: +-inf and NaN too (float inputs only)
};

using Domains = absl::flat_hash_map<std::string, Domain>;  // by tensor name (in0, p3)

Domains domains_of(const Program& ref, const Program& cand, bool nonfinite_inputs) {
  Domains d;
  for (const auto* p : {&ref, &cand}) {
    for (const auto& t : p->state.inputs)
      d[t.name] = {t.lo, t.hi, t.hi_open, t.dtype,
                   nonfinite_inputs && python::is_float(t.dtype) && t.lo == -INFINITY};
    for (const auto& t : p->state.parameters) d[t.name] = {-INFINITY, INFINITY, false, t.dtype};
  }
  return d;
}

std::string tensor_of(const std::string& var) {
  return var.substr(0, var.find('['));
}

// A canonical encoding of the pair (ref, cand) up to renaming of variables: the DAG in visit
// order, variables numbered by first occurrence and tagged with their domain, so two pairs with
// equal keys are equivalent together or not at all.
class PairKey {
 public:
  PairKey(const ir::TermStore& s, const Domains& d) : s_(s), d_(d) {}
  std::vector<uint64_t> operator()(TermId a, TermId b) {
    key_.clear(), seen_.clear(), vars_.clear();
    uint64_t root_a = visit(a), root_b = visit(b);
    // The node count first, the roots last: records and roots can never be read across.
    key_.insert(key_.begin(), seen_.size());
    key_.push_back(root_a);
    key_.push_back(root_b);
    return key_;
  }

 private:
  // Post-order with an explicit stack: a 100,000-term chain (a scalar loop accumulator over a
  // wide row) is as deep as it is long.
  uint64_t visit(TermId root) {
    std::vector<std::pair<TermId, bool>> stack{{root, false}};
    while (!stack.empty()) {
      ir::Budget::tick();
      auto [t, expanded] = stack.back();
      stack.pop_back();
      if (seen_.contains(t)) continue;
      if (!expanded) {
        stack.push_back({t, true});
        auto kids = s_.children(t);
        for (auto k = kids.rbegin(); k != kids.rend(); ++k)
          if (!seen_.contains(*k)) stack.push_back({*k, false});
        continue;
      }
      record(t);
    }
    return seen_.at(root);
  }
  void record(TermId t) {
    std::vector<uint64_t> payload = {s_.payload(t)};
    if (s_.op(t) == ir::Op::Var) {
      // Renamed only within one input or parameter domain, exactly (no hashing): the index of
      // first occurrence plus the domain's bits. A variable outside every domain keeps its name.
      auto dom = d_.find(tensor_of(s_.variable_of(t).name));
      if (dom != d_.end()) {
        auto [it, fresh] = vars_.try_emplace(s_.payload(t), vars_.size());
        const Domain& d = dom->second;
        payload = {1,
                   it->second,
                   std::bit_cast<uint64_t>(d.lo),
                   std::bit_cast<uint64_t>(d.hi),
                   uint64_t{d.hi_open},
                   static_cast<uint64_t>(d.dtype),
                   uint64_t{d.nonfinite}};
      } else {
        payload = {0, s_.payload(t)};
      }
    }
    key_.push_back(static_cast<uint64_t>(s_.op(t)) << 8 | static_cast<uint64_t>(s_.type(t)));
    key_.insert(key_.end(), payload.begin(), payload.end());
    auto kids = s_.children(t);
    key_.push_back(kids.size());
    for (TermId c : kids) key_.push_back(seen_.at(c));
    uint64_t id = seen_.size();
    seen_[t] = id;
  }
  const ir::TermStore& s_;
  const Domains& d_;
  std::vector<uint64_t> key_;
  absl::flat_hash_map<TermId, uint64_t> seen_;
  absl::flat_hash_map<uint32_t, uint64_t> vars_;
};

struct Pair {
  TermId ref, cand;
  size_t output, element;
};

void collect(const ir::TermStore& s, TermId root, absl::flat_hash_map<TermId, bool>& seen,
             std::vector<TermId>& vars, std::vector<double>& consts) {
  std::vector<TermId> stack{root};  // iterative: terms can be as deep as a row is wide
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.try_emplace(t, true).second) continue;
    if (s.op(t) == ir::Op::Var) vars.push_back(t);
    if (s.op(t) == ir::Op::Const && s.type(t) == ir::Type::F32 && std::isfinite(s.constant_of(t).f))
      consts.push_back(s.constant_of(t).f);
    auto kids = s.children(t);
    for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back(*k);
  }
}

// Real semantics equality: the same extended real; NaN equals NaN, +0 equals -0.
// A cheap filter on point values: a difference far above the working precision is a candidate,
// which only `Witness::differs`'s disjoint enclosures can confirm.
std::optional<std::string> real_difference(const ir::RealValue& a, const ir::RealValue& b) {
  if (a.type != ir::Type::F32 || b.type != ir::Type::F32) {
    if (a.i == b.i) return std::nullopt;
    return std::to_string(b.i - a.i);
  }
  mpfr_srcptr x = a.f.get(), y = b.f.get();
  if (mpfr_nan_p(x) && mpfr_nan_p(y)) return std::nullopt;
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) return std::string("NaN on one side only");
  if (mpfr_equal_p(x, y)) return std::nullopt;
  if (mpfr_inf_p(x) || mpfr_inf_p(y)) return std::string("inf");
  ir::Real d, m;
  mpfr_sub(d.get(), x, y, MPFR_RNDN);
  mpfr_abs(d.get(), d.get(), MPFR_RNDN);
  mpfr_set(m.get(), mpfr_cmpabs(x, y) >= 0 ? x : y, MPFR_RNDN);
  mpfr_abs(m.get(), m.get(), MPFR_RNDN);
  mpfr_mul_2si(m.get(), m.get(), -200, MPFR_RNDN);
  if (mpfr_cmp(d.get(), m.get()) <= 0) return std::nullopt;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", d.approx_double());
  return std::string(buf);
}

// Values a variable can take, rounded into its dtype so the counterexample is a real input.
double into_domain(double v, const Domain& d, std::mt19937_64& rng) {
  if (d.nonfinite && !std::isfinite(v)) return v;
  bool narrow = d.dtype == python::DType::F16 || d.dtype == python::DType::BF16 ||
                d.dtype == python::DType::E4M3 || d.dtype == python::DType::E5M2;
  bool integral = d.dtype == python::DType::I32 || d.dtype == python::DType::I64 ||
                  d.dtype == python::DType::Bool;
  if (integral) v = std::nearbyint(v);
  if (narrow) {  // few mantissa bits: every format keq knows holds these
    int e = 0;
    double m = std::frexp(v, &e);
    v = std::ldexp(std::nearbyint(m * 8) / 8, std::clamp(e, -6, 8));
  }
  v = static_cast<double>(static_cast<float>(v));
  bool inside = v >= d.lo && (d.hi_open ? v < d.hi : v <= d.hi) && std::isfinite(v);
  if (inside) return v;
  if (!std::isfinite(d.lo) || !std::isfinite(d.hi)) return 0;
  double u = std::uniform_real_distribution<double>(d.lo, d.hi)(rng);
  if (integral) u = std::floor(u);
  u = static_cast<double>(static_cast<float>(u));
  return (d.hi_open ? u < d.hi : u <= d.hi) && u >= d.lo ? u : d.lo;
}

std::string value_str(const ir::RealValue& v) {
  if (v.type != ir::Type::F32) return std::to_string(v.i);
  if (mpfr_nan_p(v.f.get())) return "nan";  // not "-nan": NaN's sign means nothing here
  // MPFR prints what a double cannot hold (1e-650 is not -0).
  char* buf = nullptr;
  mpfr_asprintf(&buf, "%.9Rg", v.f.get());
  std::string s(buf);
  mpfr_free_str(buf);
  return s;
}

// Variable term -> value. Ordered: minimization walks it and draws random numbers as it goes,
// and a hash map's order changes from process to process (absl seeds its hash per process), so
// the same --seed gave different counterexamples.
using Point = std::map<TermId, double>;

class Witness {
 public:
  Witness(const ir::TermStore& s, const Domains& d, uint64_t seed, ir::Semantics sem)
      : s_(s), d_(d), rng_(seed), sem_(sem) {
    for (const auto& [name, dom] : d) nonfinite_ |= dom.nonfinite;
  }

  // IEEE: the bit-exact evaluation (callers send only pairs without approximations, so it is
  // the programs' own arithmetic). Equal means the same bits, any NaN matching any NaN.
  ir::IeeeValue eval_ieee(TermId t, const Point& p) const {
    return ir::evaluate_ieee(s_, t, [&](const ir::Variable& v) -> std::optional<ir::IeeeValue> {
      auto c = input(v, p);
      return c ? std::optional(ir::IeeeValue::of(*c)) : std::nullopt;
    });
  }
  // A variable's value at p, in its type; nothing when p leaves it free.
  std::optional<ir::Constant> input(const ir::Variable& v, const Point& p) const {
    auto it = p.find(const_cast<ir::TermStore&>(s_).variable(v.name, v.type));
    if (it == p.end()) return std::nullopt;
    return v.type == ir::Type::F32 ? ir::Constant::of_float(it->second)
                                   : ir::Constant::of_int(v.type, static_cast<int64_t>(it->second));
  }
  static std::optional<std::string> ieee_difference(const ir::IeeeValue& a,
                                                    const ir::IeeeValue& b) {
    if (a.type != ir::Type::F32 || b.type != ir::Type::F32)
      return a.i == b.i ? std::nullopt : std::optional(std::to_string(b.i - a.i));
    if (std::isnan(a.f) && std::isnan(b.f)) return std::nullopt;
    if (std::bit_cast<uint32_t>(a.f) == std::bit_cast<uint32_t>(b.f)) return std::nullopt;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.9g (bits 0x%08x vs 0x%08x)",
                  static_cast<double>(b.f) - static_cast<double>(a.f), std::bit_cast<uint32_t>(a.f),
                  std::bit_cast<uint32_t>(b.f));
    return std::string(buf);
  }
  // Both sides' values at p and their difference, as the report prints them.
  std::array<std::string, 3> describe(const Pair& pr, const Point& p) const {
    if (sem_ == ir::Semantics::Ieee) {
      ir::IeeeValue a = eval_ieee(pr.ref, p), b = eval_ieee(pr.cand, p);
      auto str = [](const ir::IeeeValue& v) {
        if (v.type != ir::Type::F32) return std::to_string(v.i);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v.f));
        return std::string(std::isnan(v.f) ? "nan" : buf);
      };
      return {str(a), str(b), ieee_difference(a, b).value_or("?")};
    }
    ir::RealValue a = eval(pr.ref, p), b = eval(pr.cand, p);
    return {value_str(a), value_str(b), differs(pr, p).value_or("?")};
  }

  ir::RealValue eval(TermId t, const Point& p) const {
    return ir::evaluate_real(s_, t, [&](const ir::Variable& v) -> std::optional<ir::RealValue> {
      auto c = input(v, p);
      return c ? std::optional(ir::RealValue::of(*c)) : std::nullopt;
    });
  }
  ir::Enclosure enclose(TermId t, const Point& p) const {
    return ir::evaluate_enclosure(s_, t,
                                  [&](const ir::Variable& v) -> std::optional<ir::RealValue> {
                                    auto c = input(v, p);
                                    return c ? std::optional(ir::RealValue::of(*c)) : std::nullopt;
                                  });
  }
  // The difference at p, when both sides differ for certain. A point evaluation at the working
  // precision finds candidates cheaply; only disjoint enclosures (interval arithmetic with
  // outward rounding) confirm one, at 256 bits and up to 8192 before giving up: a cancellation
  // such as exp(2y) - 1 at y = -1e-650 agrees with itself at any fixed precision.
  std::optional<std::string> differs(const Pair& pr, const Point& p) const {
    if (sem_ == ir::Semantics::Ieee) {
      try {
        return ieee_difference(eval_ieee(pr.ref, p), eval_ieee(pr.cand, p));
      } catch (const ir::EvalError&) {
        return std::nullopt;
      }
    }
    try {
      if (!real_difference(eval(pr.ref, p), eval(pr.cand, p))) return std::nullopt;
      for (mpfr_prec_t bits : {256, 2048, 8192}) {
        ir::Real::PrecisionScope precision(bits);
        ir::Enclosure a = enclose(pr.ref, p), b = enclose(pr.cand, p);
        if (ir::disjoint(a, b)) return ir::separation(a, b);
        if (!a.narrows_with_precision() || !b.narrows_with_precision()) break;
      }
      return std::nullopt;
    } catch (const ir::EvalError&) {
      return std::nullopt;  // out of MPFR's trusted range: no evidence either way
    }
  }

  std::optional<Point> search(const Pair& pr, size_t points, std::string& how, size_t& tried) {
    absl::flat_hash_map<TermId, bool> seen;
    std::vector<TermId> vars;
    std::vector<double> consts;
    collect(s_, pr.ref, seen, vars, consts);
    collect(s_, pr.cand, seen, vars, consts);
    std::vector<double> pool = {0,    1,     -1,  0.5,  -0.5, 2,     -2, 3,
                                1e-3, -1e-3, 100, -100, 1e4,  65504, 448};
    if (nonfinite_) pool.insert(pool.end(), {INFINITY, -INFINITY, NAN});
    for (double c : consts)
      for (double f : {1.0, -1.0, 1.0 + 0x1p-10, 1.0 - 0x1p-10, 2.0, 0.5}) pool.push_back(c * f);
    std::normal_distribution<double> normal;
    for (size_t k = 0; k < points; ++k) {
      ++tried;
      Point p;
      bool guided = k < points / 2;
      for (TermId v : vars) {
        double x = guided ? pool[rng_() % pool.size()]
                          : normal(rng_) * std::pow(10.0, static_cast<int>(rng_() % 7) - 3);
        p[v] = into_domain(x, domain(v), rng_);
      }
      if (differs(pr, p)) {
        how = guided ? "witness search (constant-guided point)" : "witness search (random point)";
        return minimize(pr, p);
      }
    }
    return std::nullopt;
  }

  const Domain& domain(TermId v) const {
    static const Domain any;
    auto it = d_.find(tensor_of(s_.variable_of(v).name));
    return it == d_.end() ? any : it->second;
  }

 private:
  // Zero out, then shorten, each value while the difference stays: each step checked at the
  // working precision only, the result replayed in full, the confirmed point kept otherwise.
  Point minimize(const Pair& pr, const Point& confirmed) {
    Point p = confirmed;
    auto still_differs = [&] {
      if (sem_ == ir::Semantics::Ieee) return differs(pr, p).has_value();
      try {
        return real_difference(eval(pr.ref, p), eval(pr.cand, p)).has_value();
      } catch (const ir::EvalError&) {
        return false;
      }
    };
    for (auto& [v, x] : p) {
      double keep = x;
      for (double cand : {0.0, std::round(x), std::round(x * 1000) / 1000}) {
        double y = into_domain(cand, domain(v), rng_);
        if (y == keep) break;
        x = y;
        if (still_differs()) break;
        x = keep;
      }
    }
    return differs(pr, p) ? p : confirmed;
  }
  const ir::TermStore& s_;
  const Domains& d_;
  std::mt19937_64 rng_;
  ir::Semantics sem_;
  bool nonfinite_ = false;
};

std::vector<int64_t> unravel(size_t e, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = static_cast<int64_t>(e) % shape[k];
    e /= static_cast<size_t>(shape[k]);
  }
  return idx;
}

bool is_note(const std::string& f) {
  return f.find(": note: ") != std::string::npos;
}

// Shapes, dtypes and findings: verdicts that need no proof.
std::optional<Report> structural(const Program& ref, const Program& cand, Report r) {
  for (const auto& f : cand.state.findings) (is_note(f) ? r.notes : r.findings).push_back(f);
  auto shape = [](const python::Tensor& t) {
    std::string s = std::string(python::dtype_name(t.dtype)) + "[";
    for (size_t k = 0; k < t.shape.size(); ++k) s += (k ? ", " : "") + std::to_string(t.shape[k]);
    return s + "]";
  };
  if (ref.outputs.size() != cand.outputs.size()) {
    r.verdict = Verdict::NotEquivalent;
    r.reason = "the reference returns " + std::to_string(ref.outputs.size()) +
               " tensors, the candidate " + std::to_string(cand.outputs.size());
    return r;
  }
  for (size_t o = 0; o < ref.outputs.size(); ++o)
    if (ref.outputs[o]->shape != cand.outputs[o]->shape ||
        ref.outputs[o]->dtype != cand.outputs[o]->dtype) {
      r.verdict = Verdict::NotEquivalent;
      r.reason = "output " + std::to_string(o) + ": the reference gives " + shape(*ref.outputs[o]) +
                 ", the candidate " + shape(*cand.outputs[o]);
      return r;
    }
  if (!r.findings.empty()) {
    r.verdict = Verdict::NotEquivalent;
    r.reason = "the candidate's kernels access memory wrongly (findings below)";
    return r;
  }
  if (auto m = torch::parameter_mismatch(ref, cand)) {
    r.verdict = Verdict::Unknown;
    r.reason = "parameters are matched by creation order and these differ: " + *m;
    return r;
  }
  return std::nullopt;
}

}  // namespace

// Transcendentals and the approximate Triton ops are approximations (op table's ieee_exact;
// SEMANTICS-FACTS.md measures each); sums and products of three or more terms have no fixed
// order, and a reduction of two products may be one fma (cuDNN's: tests/fixtures/gpu/ops).
std::string ieee_approximation(const ir::TermStore& s, TermId t,
                               const std::map<TermId, std::string>& unfixed,
                               absl::flat_hash_map<TermId, std::string>& memo) {
  if (auto it = memo.find(t); it != memo.end()) return it->second;
  ir::Op op = s.op(t);
  size_t arity = s.children(t).size();
  std::string why;
  auto product = [&](TermId c) { return s.op(c) == ir::Op::Mul; };
  if (op == ir::Op::Sum || op == ir::Op::Prod) {
    if (arity > 2)
      why = std::string(ir::op_name(op)) + " of " + std::to_string(arity) +
            " terms (order unspecified)";
    else if (op == ir::Op::Sum && std::ranges::any_of(s.children(t), product))
      why = "a reduction of products (may be one fma)";
  } else if (!ir::op_info(op).ieee_exact) {
    why = std::string(ir::op_name(op)) + " (an approximation)";
  } else if (auto it = unfixed.find(t); it != unfixed.end()) {
    why = it->second;
  }
  // A term depends on whatever any of its subterms depends on.
  for (TermId c : s.children(t)) {
    if (!why.empty()) break;
    why = ieee_approximation(s, c, unfixed, memo);
  }
  memo.emplace(t, why);
  return why;
}

// Z3 on the pairs that neither the e-graph nor the witness search settled. A model counts only
// when its point, rounded to the inputs' dtypes, replays as a difference.
template <typename Elapsed, typename Refute>
void smt_stage(const ir::TermStore& store, const std::vector<Pair>& pairs,
               const std::vector<size_t>& open, Witness& w, const Options& opt, Elapsed& elapsed,
               Report& r, std::string& reason, Refute& refute) {
  if (opt.nonfinite_inputs && opt.semantics == ir::Semantics::Real) {  // finite reals only
    reason = "the Z3 encoding covers finite inputs only (--nonfinite-inputs)";
    return;
  }
  auto range = [&](TermId v) {
    const Domain& d = w.domain(v);
    return smt::VarRange{d.lo, d.hi, d.hi_open, d.nonfinite};
  };
  // The queries are independent (each has its own Z3 context and reads the store only): up to
  // opt.jobs run at once, each with an equal share of the time left. Their answers are then
  // taken in order, so the verdict does not depend on the number of jobs.
  double left = opt.timeout_s - elapsed();
  if (left <= 0) {
    reason = reason.empty() ? "timeout" : reason;
    return;
  }
  smt::set_memory_limit(opt.max_memory_bytes);
  size_t jobs = std::max<size_t>(1, std::min(opt.jobs, open.size()));
  double rounds = std::ceil(static_cast<double>(open.size()) / static_cast<double>(jobs));
  // Clamped: an unbounded --timeout (inf) must not reach the cast (UBSan found it).
  unsigned ms = static_cast<unsigned>(std::clamp(1000 * left / rounds, 1.0, 1e9));
  std::vector<smt::Result> results(open.size());
  std::vector<double> seconds(open.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t n; (n = next++) < open.size();) {
      auto t0 = std::chrono::steady_clock::now();
      const Pair& pr = pairs[open[n]];
      try {  // a worker thread must not let the budget's exception escape it
        results[n] = opt.semantics == ir::Semantics::Ieee
                         ? smt::check_equal_ieee(store, pr.ref, pr.cand, range, ms)
                         : smt::check_equal(store, pr.ref, pr.cand, range, ms);
      } catch (const ir::BudgetExceeded& e) {
        results[n].outcome = smt::Outcome::Unknown;
        results[n].reason = e.what();
      }
      seconds[n] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  };
  std::vector<std::thread> threads;
  for (size_t j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  for (size_t n = 0; n < open.size(); ++n) {
    smt::Result& res = results[n];
    r.stats.smt_seconds += seconds[n];
    r.stats.smt_refinements += res.refinements;
    ++r.stats.smt_queries;
    if (res.outcome == smt::Outcome::Proved) {
      ++r.stats.smt_proved;
      continue;
    }
    if (res.outcome == smt::Outcome::Model) {
      Point p;
      std::mt19937_64 rng(opt.seed);
      std::map<TermId, double> model(res.model.begin(), res.model.end());  // in a fixed order
      for (auto [v, x] : model) p[v] = into_domain(x, w.domain(v), rng);
      if (w.differs(pairs[open[n]], p)) {
        ++r.stats.smt_refuted;
        refute(pairs[open[n]], p, "Z3 model, replayed");
        return;
      }
      res.reason = "a Z3 model that did not replay once rounded to the input dtypes";
    }
    if (reason.empty()) reason = res.reason;
  }
}

namespace {
Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options);
}  // namespace

Report verify(const std::string& ref_path, const std::string& cand_path, const Options& options) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(std::max(0.0, options.timeout_s)));
  if (options.deadline) deadline = std::min(deadline, *options.deadline);
  ir::BudgetScope budget(deadline, options.max_memory_bytes);
  try {
    return verify_configuration(ref_path, cand_path, options);
  } catch (const ir::BudgetExceeded& e) {
    Report r;
    r.bound = dims_str(options.dims) + (options.default_bound ? " (default bound)" : "");
    r.semantics = options.semantics;
    r.verdict = Verdict::Unknown;
    r.reason = std::string("stopped: ") + e.what() + " before this configuration was decided";
    return r;
  } catch (const std::bad_alloc&) {
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Unknown;
    r.reason = "the memory budget was exhausted";
    return r;
  } catch (const std::runtime_error& e) {  // a rules folder that cannot be read, and the like
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Error;
    r.reason = e.what();
    return r;
  }
}

namespace {

Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // This configuration's budget: its own timeout, within what the whole run has left.
  Options opt = options;
  if (opt.deadline)
    opt.timeout_s =
        std::min(opt.timeout_s, std::chrono::duration<double>(*opt.deadline - start).count());
  Report r;
  r.dims = opt.dims;
  r.bound = dims_str(opt.dims) + (opt.default_bound ? " (default bound)" : "");
  r.nonfinite_inputs = opt.nonfinite_inputs;
  r.semantics = opt.semantics;
  if (opt.timeout_s <= 0) {
    r.verdict = Verdict::Unknown;
    r.reason = "the run's --timeout was spent before this configuration started";
    return r;
  }
  ir::TermStore store;
  Program ref, cand;
  // DESIGN.md, "When a program cannot run": what keq does not model is UNSUPPORTED; a missing
  // or unreadable file is an ERROR; a reference Python or torch rejects is an ERROR; a
  // candidate they reject at a configuration the reference runs is NOT_EQUIVALENT.
  bool ran_reference = false;
  try {
    ref = torch::run_program(ref_path, store, "Model", opt.dims, opt.params_initial, opt.eval_mode);
    ran_reference = true;
    cand = torch::run_candidate(cand_path, ref_path, store, opt.dims, opt.params_initial,
                                "ModelNew", opt.autotune_config, opt.eval_mode);
    r.autotune_configs = cand.state.autotune_configs;
    for (const auto& c : cand.state.autotune_used) r.bound += "; autotune: " + c;
  } catch (const python::Unsupported& e) {
    r.verdict = Verdict::Unsupported, r.reason = e.what();
    return r;
  } catch (const python::FileUnreadable& e) {
    r.verdict = Verdict::Error, r.reason = e.what();
    return r;
  } catch (const ir::SyntaxError& e) {
    if (!ran_reference) {
      r.verdict = Verdict::Error, r.reason = std::string("the reference: ") + e.what();
    } else {
      r.verdict = Verdict::NotEquivalent;
      r.reason = std::string("the candidate does not run: Python rejects it: ") + e.what();
      r.cannot_run = true;
    }
    return r;
  } catch (const python::ProgramError& e) {
    if (e.assertion) {  // DESIGN.md: an assert rejects a configuration; the bound chooses others
      r.verdict = Verdict::Unknown;
      r.reason = std::string(ran_reference ? "the candidate's" : "the reference's") +
                 " assert rejects this configuration: " + e.what();
      r.assert_rejected = true;
      return r;
    }
    if (!e.confirmed) {  // keq's model refuses the arguments: maybe keq's gap, so no verdict
      r.verdict = Verdict::Unsupported;
      r.reason = std::string(ran_reference ? "the candidate" : "the reference") +
                 " stops in keq's model, which torch/Triton may not do: " + e.what();
      return r;
    }
    if (!ran_reference) {
      r.verdict = Verdict::Error, r.reason = std::string("the reference raises: ") + e.what();
    } else {
      r.verdict = Verdict::NotEquivalent;
      r.reason = std::string(
                     "the candidate raises at this configuration, where the reference "
                     "runs: ") +
                 e.what();
      r.cannot_run = true;
    }
    return r;
  }
  r.masks = cand.state.mask_coverage;
  r.loops = cand.state.loop_trips;
  r.blocks = cand.state.block_sizes;
  r.coverage = coverage_warnings({r});
  for (const auto* st : {&ref.state, &cand.state})
    for (const auto& a : st->host_assumptions) r.notes.push_back("host assumption: " + a);
  if (auto s = structural(ref, cand, r)) return *s;
  for (const auto& f : cand.state.findings) r.notes.push_back(f);

  // Pair dedup.
  Domains domains = domains_of(ref, cand, opt.nonfinite_inputs);
  PairKey key(store, domains);
  absl::flat_hash_map<std::vector<uint64_t>, size_t> first;
  std::vector<Pair> pairs;
  for (size_t o = 0; o < ref.outputs.size(); ++o)
    for (size_t e = 0; e < ref.outputs[o]->elems.size(); ++e) {
      ++r.stats.pairs;
      Pair p{ref.outputs[o]->elems[e], cand.outputs[o]->elems[e], o, e};
      if (p.ref == p.cand) continue;  // the same term: equal by construction
      if (first.try_emplace(key(p.ref, p.cand), pairs.size()).second) pairs.push_back(p);
    }
  r.stats.deduped = pairs.size();

  // IEEE semantics: a pair whose bits depend on an approximation or on a reduction order is
  // neither proved nor refuted (the bits of neither side are known); the rest go on.
  size_t approximate = 0;
  std::string approximate_why;
  if (opt.semantics == ir::Semantics::Ieee) {
    absl::flat_hash_map<TermId, std::string> memo;
    std::map<TermId, std::string> unfixed = ref.state.ieee_unfixed;  // one store: one set
    unfixed.insert(cand.state.ieee_unfixed.begin(), cand.state.ieee_unfixed.end());
    std::vector<Pair> exact;
    for (const Pair& p : pairs) {
      std::string why = ieee_approximation(store, p.ref, unfixed, memo);
      if (why.empty()) why = ieee_approximation(store, p.cand, unfixed, memo);
      if (why.empty()) {
        exact.push_back(p);
      } else if (approximate++ == 0) {
        approximate_why = why;
      }
    }
    pairs = std::move(exact);
    if (approximate)
      r.notes.push_back(
          "ieee: " + std::to_string(approximate) +
          " output pairs depend on what keq does not model bit for bit, first: " + approximate_why);
  }

  // Every counterexample, from the witness search or from Z3, is replayed in real semantics.
  Witness w(store, domains, opt.seed, opt.semantics);
  auto refute = [&](const Pair& p, const Point& point, const std::string& how) {
    Counterexample c;
    c.output = p.output;
    c.index = unravel(p.element, ref.outputs[p.output]->shape);
    for (auto [v, x] : point) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", x);
      c.inputs.push_back({store.variable_of(v).name, buf});
    }
    std::sort(c.inputs.begin(), c.inputs.end());
    auto [ref_value, cand_value, difference] = w.describe(p, point);
    c.ref_value = ref_value, c.cand_value = cand_value, c.difference = difference;
    c.found_by = how;
    r.counterexample = c;
    r.verdict = Verdict::NotEquivalent;
    r.reason = "a counterexample that replay confirms";
  };
  // A short probe before the e-graph: a wrong candidate usually differs at one of a few points
  // of a few outputs, and then the e-graph need not saturate at all. Evaluating long terms is
  // costly, so the probe samples at most kProbePairs pairs, spread over the outputs.
  constexpr size_t kProbePairs = 8, kProbePoints = 4;
  size_t stride = std::max<size_t>(1, pairs.size() / kProbePairs);
  for (size_t k = 0; k < pairs.size() && !r.counterexample; k += stride) {
    std::string how;
    if (auto point = w.search(pairs[k], kProbePoints, how, r.stats.witness_points)) {
      ++r.stats.witness_refuted;
      refute(pairs[k], *point, how);
    }
  }
  if (r.counterexample) {
    r.stats.unknown = pairs.size() + approximate - r.stats.witness_refuted;
    r.stats.seconds = elapsed();
    if (opt.explain) r.explanation = "nothing was proved: a counterexample came first";
    return r;
  }

  // The element --explain names, as a pair of its own (dedup may have merged it with another).
  std::optional<Pair> explained;
  if (opt.explain) {
    auto [o, index] = *opt.explain;
    std::optional<size_t> flat;
    if (o < ref.outputs.size() && index.size() == ref.outputs[o]->shape.size()) {
      size_t f = 0;
      bool inside = true;
      for (size_t d = 0; d < index.size(); ++d) {
        inside &= index[d] >= 0 && index[d] < ref.outputs[o]->shape[d];
        f = f * static_cast<size_t>(ref.outputs[o]->shape[d]) + static_cast<size_t>(index[d]);
      }
      if (inside) flat = f;
    }
    if (!flat)
      r.explanation = "--explain: output " + std::to_string(o) + " has no such element";
    else if (ref.outputs[o]->elems[*flat] == cand.outputs[o]->elems[*flat])
      r.explanation = "both programs build the same term: equal by construction";
    else
      explained = Pair{ref.outputs[o]->elems[*flat], cand.outputs[o]->elems[*flat], o, *flat};
    if (explained && !opt.use_egraph) r.explanation = "--no-egraph: the e-graph did not run";
  }

  // E-graph stage.
  std::vector<bool> proved(pairs.size(), false);
  if (opt.use_egraph && !pairs.empty()) {
    rules::ProverOptions po;
    po.semantics = opt.semantics;
    po.normal_forms = opt.normal_forms;
    po.explanations = explained.has_value();
    po.limits = {30, 500000, opt.timeout_s / 2};
    for (TermId id = 0; id < store.size(); ++id)
      if (store.op(id) == ir::Op::Var && store.type(id) == ir::Type::F32) {
        // Inputs and parameters are finite values of their range; anything else stays unknown.
        auto d = domains.find(tensor_of(store.variable_of(id).name));
        if (d == domains.end() || d->second.nonfinite) continue;
        ir::Interval iv = ir::Interval::any_finite();
        if (std::isfinite(d->second.lo) && std::isfinite(d->second.hi))
          iv = {d->second.lo, d->second.hi, false, true};
        po.domains.push_back({id, iv});
      }
    std::vector<rules::Goal> goals;
    for (const Pair& p : pairs) goals.push_back({p.ref, p.cand});
    // The explained pair is a goal like the others, so the run goes on until it is proved too.
    if (explained) goals.push_back({explained->ref, explained->cand});
    auto proof = rules::prove(store, goals, {}, rules::RuleSet::defaults(), po);
    for (size_t k = 0; k < pairs.size(); ++k) proved[k] = proof->proved(k);
    if (explained && proof->proved(pairs.size()))
      r.explanation = "proved by the e-graph:\n" + proof->explain(pairs.size());
    else if (explained)
      r.explanation = "the e-graph did not prove it (see the verdict for what did)";
    const auto& nfs = proof->graph.lang().normal_forms();
    // The normal form leaves a product of two large sums as an atom (its size guard): say so,
    // since a proof that needed the expansion then fails for that reason alone.
    if (size_t over = nfs.budget_exceeded())
      r.notes.push_back("normal forms: " + std::to_string(over) +
                        " products of sums left as atoms (over the " +
                        std::to_string(nfs.budget()) + "-term budget)");
    const egraph::RunReport& rep = proof->report;
    r.stats.egraph_iterations = rep.iterations.size();
    r.stats.egraph_nodes = proof->graph.memo_size();
    r.stats.egraph_stop = egraph::stop_reason_name(rep.stop);
  }
  for (bool b : proved) r.stats.egraph_proved += b;

  // The witness search on the residue, then Z3.
  bool timed_out = false;
  std::vector<size_t> open;
  for (size_t k = 0; k < pairs.size() && !r.counterexample; ++k) {
    if (proved[k]) continue;
    if ((timed_out = elapsed() > opt.timeout_s)) break;
    std::string how;
    if (auto point = w.search(pairs[k], opt.witness_points, how, r.stats.witness_points)) {
      ++r.stats.witness_refuted;
      refute(pairs[k], *point, how);
    } else {
      open.push_back(k);
    }
  }
  std::string smt_reason;
  if (opt.use_smt && !r.counterexample && !timed_out)
    smt_stage(store, pairs, open, w, opt, elapsed, r, smt_reason, refute);
  r.stats.unknown = pairs.size() + approximate - r.stats.egraph_proved - r.stats.witness_refuted -
                    r.stats.smt_proved - r.stats.smt_refuted;
  r.stats.seconds = elapsed();
  if (r.counterexample) return r;
  if (r.stats.unknown == 0) {
    r.verdict = Verdict::Equivalent;
    r.reason = r.stats.smt_proved ? "every output element proved (e-graph and Z3)"
                                  : "every output element proved by the e-graph";
  } else {
    r.verdict = Verdict::Unknown;
    r.reason =
        std::to_string(r.stats.unknown) + " output pairs neither proved nor refuted" +
        (approximate ? "; " + std::to_string(approximate) +
                           " depend on approximations or order (IEEE), first: " + approximate_why
                     : "") +
        (r.stats.unknown == approximate ? ""
         : elapsed() > opt.timeout_s    ? " before the timeout"
         : !opt.use_smt                 ? " by the e-graph and the witness search (--no-smt)"
                                        : "; first reason: " + smt_reason);
  }
  return r;
}

}  // namespace

std::string dims_str(const torch::Dims& dims) {
  std::string r;
  for (const auto& [n, v] : dims) {
    r += (r.empty() ? "" : ",") + n + "=";
    for (size_t k = 0; k < v.size(); ++k) r += (k ? "x" : "") + std::to_string(v[k]);
  }
  return r.empty() ? "the sizes as written" : r;
}

std::vector<std::string> coverage_warnings(const std::vector<Report>& reports) {
  std::map<std::string, torch::TorchState::MaskCoverage> all;
  for (const Report& r : reports)
    for (const auto& [where, seen] : r.masks) {
      all[where].on |= seen.on;
      all[where].off |= seen.off;
    }
  std::map<std::string, unsigned> loops;
  for (const Report& r : reports)
    for (const auto& [where, bits] : r.loops) loops[where] |= bits;
  std::vector<std::string> out;
  for (const auto& [where, seen] : all)
    if (!seen.on || !seen.off)
      out.push_back(where + ": mask " + (seen.on ? "never false" : "never true") + ": " +
                    (seen.on ? "no masked-off (tail) lane" : "no lane") +
                    " of this access was checked at this bound");
  for (const auto& [where, bits] : loops)
    if (!(bits & 4u))
      out.push_back(where +
                    ": loop never ran more than one trip: what it carries from one trip "
                    "to the next was not checked at this bound");
  return out;
}

}  // namespace keq::verify
