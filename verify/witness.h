// The output pairs of one configuration, their dedup key, and the witness search that refutes
// them: points drawn from each input's domain, confirmed only by disjoint enclosures (replay).
// Internal to verify/ (verify.cc's pipeline is its one user).
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <mpfr.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "frontends/triton/program.h"
#include "ir/budget.h"
#include "ir/enclosure.h"
#include "ir/ir.h"

namespace keq::verify::internal {

using ir::TermId;
using torch::Program;

// Where an input variable's values come from: its tensor's dtype and get_inputs() range.
struct Domain {
  double lo = -INFINITY, hi = INFINITY;
  bool hi_open = false;
  torch::DType dtype = torch::DType::F32;
  bool nonfinite = false;  // --nonfinite-inputs: +-inf and NaN too (float inputs only)
};

using Domains = absl::flat_hash_map<std::string, Domain>;  // by tensor name (in0, p3)

// The largest finite value of a float dtype (its elements are fp32 values at most this large);
// fp32's for the others.
inline double max_finite(torch::DType d) {
  switch (d) {
    case torch::DType::F16:
      return ir::format_info(ir::FloatFormat::F16).max_finite;
    case torch::DType::BF16:
      return ir::format_info(ir::FloatFormat::BF16).max_finite;
    case torch::DType::E4M3:
      return ir::format_info(ir::FloatFormat::E4M3FN).max_finite;
    case torch::DType::E5M2:
      return ir::format_info(ir::FloatFormat::E5M2).max_finite;
    default:
      return ir::format_info(ir::FloatFormat::F32).max_finite;
  }
}

inline Domains domains_of(const Program& ref, const Program& cand, bool nonfinite_inputs) {
  Domains d;
  for (const auto* p : {&ref, &cand}) {
    for (const auto& t : p->state.inputs)
      d[t.name] = {t.lo, t.hi, t.hi_open, t.dtype,
                   nonfinite_inputs && torch::is_float(t.dtype) && t.lo == -INFINITY};
    for (const auto& t : p->state.parameters) d[t.name] = {-INFINITY, INFINITY, false, t.dtype};
  }
  return d;
}

inline std::string tensor_of(const std::string& var) {
  return var.substr(0, var.find('['));
}

struct Pair {
  TermId ref, cand;
  size_t output, element;
};

inline void collect(const ir::TermStore& s, TermId root, absl::flat_hash_map<TermId, bool>& seen,
                    std::vector<TermId>& vars, std::vector<double>& consts) {
  std::vector<TermId> stack{root};  // iterative: terms can be as deep as a row is wide
  while (!stack.empty()) {
    ir::Budget::tick();  // a pair's terms can be a level-2 pipeline's 500,000 nodes
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
inline std::optional<std::string> real_difference(const ir::RealValue& a, const ir::RealValue& b) {
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

// How far apart two values are, relative to the larger magnitude: 0 when equal, infinity when
// one side is NaN or infinite alone (or integers differ). It only chooses among confirmed points,
// so that a counterexample shows the plain difference a bug makes, not a rounding beside it;
// no verdict rests on it.
inline double relative_difference(const ir::RealValue& a, const ir::RealValue& b) {
  if (a.type != ir::Type::F32 || b.type != ir::Type::F32) return a.i == b.i ? 0 : INFINITY;
  if (mpfr_nan_p(a.f.get()) || mpfr_nan_p(b.f.get()))
    return mpfr_nan_p(a.f.get()) && mpfr_nan_p(b.f.get()) ? 0 : INFINITY;
  if (mpfr_equal_p(a.f.get(), b.f.get())) return 0;
  double x = a.f.approx_double(), y = b.f.approx_double();
  if (!std::isfinite(x) || !std::isfinite(y)) return INFINITY;
  double d = std::abs(x - y), m = std::max(std::abs(x), std::abs(y));
  return m == 0 ? 0 : d / m;
}
inline double relative_difference(const ir::IeeeValue& a, const ir::IeeeValue& b) {
  if (a.type != ir::Type::F32 || b.type != ir::Type::F32) return a.i == b.i ? 0 : INFINITY;
  if (std::isnan(a.f) || std::isnan(b.f)) return std::isnan(a.f) && std::isnan(b.f) ? 0 : INFINITY;
  double x = a.f, y = b.f;
  if (x == y) return 0;
  if (!std::isfinite(x) || !std::isfinite(y)) return INFINITY;
  return std::abs(x - y) / std::max(std::abs(x), std::abs(y));
}
// A relative difference no rounding of fp32 values explains: once a point shows one, the search
// looks no further for a plainer counterexample.
constexpr double kPlainDifference = 1e-3;

// Values a variable can take, rounded into its dtype so the counterexample is a real input.
inline double into_domain(double v, const Domain& d, std::mt19937_64& rng) {
  if (d.nonfinite && !std::isfinite(v)) return v;
  bool narrow = d.dtype == torch::DType::F16 || d.dtype == torch::DType::BF16 ||
                d.dtype == torch::DType::E4M3 || d.dtype == torch::DType::E5M2;
  bool integral = d.dtype == torch::DType::I32 || d.dtype == torch::DType::I64 ||
                  d.dtype == torch::DType::Bool || d.dtype == torch::DType::I8 ||
                  d.dtype == torch::DType::U8;
  if (integral) v = std::nearbyint(v);
  if (narrow) {  // few mantissa bits: every format keq knows holds these
    int e = 0;
    double m = std::frexp(v, &e);
    v = std::ldexp(std::nearbyint(m * 8) / 8, std::clamp(e, -6, 8));
  }
  v = static_cast<double>(static_cast<float>(v));
  if (v == 0 && d.lo >= 0) v = 0;  // torch.rand and randint never draw -0
  bool inside = v >= d.lo && (d.hi_open ? v < d.hi : v <= d.hi) && std::isfinite(v);
  if (inside) return v;
  if (!std::isfinite(d.lo) || !std::isfinite(d.hi)) return 0;
  double u = std::uniform_real_distribution<double>(d.lo, d.hi)(rng);
  if (integral) u = std::floor(u);
  u = static_cast<double>(static_cast<float>(u));
  return (d.hi_open ? u < d.hi : u <= d.hi) && u >= d.lo ? u : d.lo;
}

inline std::string value_str(const ir::RealValue& v) {
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
      : s_(s), d_(d), rng_(seed), sem_(sem), store_scale_(largest_scale(s)) {
    for (const auto& [name, dom] : d) nonfinite_ |= dom.nonfinite;
  }

  // IEEE: terms whose zero's sign is the kernel's (TorchState::ieee_zero_sign). A difference at
  // a point where one of them in the pair is zero is no evidence.
  void set_zero_sign_terms(std::vector<TermId> terms) {
    zero_sign_.clear();
    zero_sign_.insert(terms.begin(), terms.end());
    zero_sign_in_.clear();
  }
  bool zero_sign_decides(const Pair& pr, const Point& p) const {
    if (zero_sign_.empty()) return false;
    auto [it, fresh] = zero_sign_in_.try_emplace(std::pair{pr.ref, pr.cand});
    if (fresh) {  // the pair's zero-sign terms, found once
      absl::flat_hash_set<TermId> seen;
      std::vector<TermId> stack = {pr.ref, pr.cand};
      while (!stack.empty()) {
        TermId t = stack.back();
        stack.pop_back();
        if (!seen.insert(t).second) continue;
        if (zero_sign_.contains(t)) it->second.push_back(t);
        for (TermId c : s_.children(t)) stack.push_back(c);
      }
    }
    for (TermId t : it->second) {
      ir::IeeeValue v = eval_ieee(t, p);
      if (v.type == ir::Type::F32 && v.f == 0) return true;
    }
    return false;
  }
  // IEEE: the bit-exact evaluation (callers send only pairs without approximations, so it is
  // the programs' own arithmetic). Equal means the same bits, any NaN matching any NaN.
  // The values at the last point are kept, as eval's are.
  ir::IeeeValue eval_ieee(TermId t, const Point& p) const {
    if (last_ieee_point_ != p || last_ieee_values_.size() > kMaxMemo) {
      last_ieee_values_.clear();
      last_ieee_point_ = p;
    }
    return ir::evaluate_ieee(
        s_, t,
        [&](TermId v) -> std::optional<ir::IeeeValue> {
          auto it = p.find(v);
          if (it == p.end()) return std::nullopt;
          return ir::IeeeValue::of(as_type(s_.type(v), it->second));
        },
        last_ieee_values_);
  }
  // A point's value x as a constant of type t (integers truncate).
  static ir::Constant as_type(ir::Type t, double x) {
    return t == ir::Type::F32 ? ir::Constant::of_float(x)
                              : ir::Constant::of_int(t, static_cast<int64_t>(x));
  }
  // A variable's value at p, in its type; nothing when p leaves it free.
  std::optional<ir::Constant> input(const ir::Variable& v, const Point& p) const {
    auto it = p.find(const_cast<ir::TermStore&>(s_).variable(v.name, v.type));
    if (it == p.end()) return std::nullopt;
    return as_type(v.type, it->second);
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

  // The values at the last point evaluated are kept: a point found is measured, confirmed and
  // described in turn, each evaluating both sides again (a row of 8,194 softmax inputs cost
  // 0.3 s an evaluation).
  ir::RealValue eval(TermId t, const Point& p) const {
    const mpfr_prec_t bits = ir::Real::working_precision();
    if (last_bits_ != bits || last_point_ != p || last_values_.size() > kMaxMemo) {
      last_values_.clear();
      last_point_ = p, last_bits_ = bits;
    }
    return eval_at(t, p, last_values_);
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
        auto d = ieee_difference(eval_ieee(pr.ref, p), eval_ieee(pr.cand, p));
        return d && zero_sign_decides(pr, p) ? std::nullopt : d;
      } catch (const ir::EvalError&) {
        return std::nullopt;
      }
    }
    // A point found is confirmed, and then described, at the same point: the enclosures are
    // evaluated once.
    if (last_confirmed_ && last_confirmed_->first == std::pair{pr.ref, pr.cand} &&
        last_confirmed_point_ == p)
      return last_confirmed_->second;
    auto d = confirm(pr, p);
    last_confirmed_ = {std::pair{pr.ref, pr.cand}, d};
    last_confirmed_point_ = p;
    return d;
  }
  std::optional<std::string> confirm(const Pair& pr, const Point& p) const {
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

  // The relative difference of the pair's sides at p (relative_difference); 0 where p cannot
  // be evaluated. In real semantics, no more than fp32 evaluation shows: a difference it rounds
  // away (a loss of 0 against 3.3e-9, where 1 - 3 / (3 + 1e-8) is 0 in fp32) is a rounding's
  // size however large beside a zero side, and the search goes on for a point that shows plainly
  // (inputs of 1e-4, where the candidate's eps makes the loss 0.25).
  double relative(const Pair& pr, const Point& p) const {
    try {
      if (sem_ == ir::Semantics::Ieee)
        return relative_difference(eval_ieee(pr.ref, p), eval_ieee(pr.cand, p));
      double real = relative_difference(eval(pr.ref, p), eval(pr.cand, p));
      try {
        return std::min(real, relative_difference(eval_ieee(pr.ref, p), eval_ieee(pr.cand, p)));
      } catch (const ir::EvalError&) {
        return real;
      }
    } catch (const ir::EvalError&) {
      return 0;
    }
  }

  std::optional<Point> search(const Pair& pr, size_t points, std::string& how, size_t& tried) {
    // A point whose difference is a rounding's size may sit beside a plain one (a missing
    // factor that is 1 at the first point found): the search goes on a while for a plainer
    // point and keeps the plainest, minimized once at the end.
    Found best;
    constexpr size_t kMorePoints = 32;  // after a point whose difference is a rounding's size
    size_t give_up = points;
    auto offer = [&](Point p, const char* found_how, size_t k) {
      // Measured before p moves: in one call's arguments, the move may come first (GCC's order),
      // which measured an empty point as 0 and kept the first point found however plain others.
      const double rel = relative(pr, p);
      if (!best.offer(rel, std::move(p), found_how)) return false;
      give_up = std::min(give_up, k + 1 + kMorePoints);
      return best.plain();
    };
    // Uniform points first: every input 0 (an all-zero row, where a missing eps guard divides
    // 0 by 0), then 1 and -1; random draws almost never make a whole reduction equal.
    size_t k = 0;
    for (; k < std::min(points, std::size(kUniform)) && shares_points(); ++k) {
      ++tried;
      if (auto p = differs_at_shared(pr, k); p && offer(*p, "witness search (uniform point)", k))
        return best.take(*this, pr, how);
    }
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
    std::vector<double> scales = uniform_scales(consts);
    std::normal_distribution<double> normal;
    for (size_t j = 0; k < points && k < give_up; ++k) {
      ++tried;
      Point p;
      bool uniform = k < std::size(kUniform), scaled = !uniform && j < scales.size(),
           guided = k < points / 2;
      double at_scale = scaled ? scales[j++] : 0;
      for (TermId v : vars) {
        double x = uniform  ? kUniform[k]
                   : scaled ? at_scale
                   : guided ? pool[rng_() % pool.size()]
                            : normal(rng_) * std::pow(10.0, static_cast<int>(rng_() % 7) - 3);
        p[v] = into_domain(x, domain(v), rng_);
      }
      if (differs(pr, p) && offer(p,
                                  uniform || scaled ? "witness search (uniform point)"
                                  : guided          ? "witness search (constant-guided point)"
                                                    : "witness search (random point)",
                                  k))
        break;
    }
    if (best.point) return best.take(*this, pr, how);
    if (auto p = at_half_integers(pr, vars, consts, tried)) {
      how = "witness search (a rounding's argument at a half-integer)";
      return minimize(pr, *p);
    }
    if (auto p = at_one_extreme_lane(pr, vars, tried)) {
      how = "witness search (one input at its dtype's largest finite value)";
      return minimize(pr, *p);
    }
    return std::nullopt;
  }

  // One input at its dtype's largest finite magnitude, the others at 1: an overflow in one lane
  // can turn a whole row NaN (x * 1.16 rounds to inf in bf16, the row's mean is inf - inf), which
  // a NaN-dropping maxnum on one side hides and torch's max keeps (an H100 shows it: a seeded
  // bf16 LayerNorm + ReLU). Other points stay far below (narrow formats draw within 2^8).
  // Only where the input ranges over every finite value (randn's, not rand's [0, 1)).
  std::optional<Point> at_one_extreme_lane(const Pair& pr, const std::vector<TermId>& vars,
                                           size_t& tried) {
    for (size_t i = 0; i < std::min<size_t>(vars.size(), 2); ++i) {
      const Domain& d = domain(vars[i]);
      if (!torch::is_float(d.dtype) || std::isfinite(d.lo) || std::isfinite(d.hi)) continue;
      const double edge = max_finite(d.dtype);
      for (double x : {edge, -edge}) {
        Point p;
        for (TermId w : vars) p[w] = into_domain(1.0, domain(w), rng_);
        p[vars[i]] = x;
        ++tried;
        if (differs(pr, p)) return p;
      }
    }
    return std::nullopt;
  }

  // Round half to even (torch.round, rint) and half away from zero (libdevice.round) differ only
  // where their argument is exactly k + 1/2, which no random point hits. For each rounding in the
  // pair (a few), one variable at a time is solved for such an argument by bisection over the
  // doubles, the others held at a constant of the terms (a scale's 127 makes x / (max / 127) a
  // plain x): the doubles on both sides of the crossing are tried.
  std::optional<Point> at_half_integers(const Pair& pr, const std::vector<TermId>& vars,
                                        std::vector<double> bases, size_t& tried) {
    std::vector<TermId> args;
    absl::flat_hash_set<TermId> seen;
    std::vector<TermId> stack{pr.ref, pr.cand};
    while (!stack.empty() && args.size() < 2) {
      TermId t = stack.back();
      stack.pop_back();
      if (!seen.insert(t).second) continue;
      if (s_.op(t) == ir::Op::Round || s_.op(t) == ir::Op::RoundAway)
        args.push_back(s_.children(t)[0]);
      for (TermId k : s_.children(t)) stack.push_back(k);
    }
    if (args.empty() || vars.size() > 16) return std::nullopt;
    bases.insert(bases.end(), {1.0, 2.0, 3.0});
    std::sort(bases.begin(), bases.end());
    bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
    if (bases.size() > 4) bases.erase(bases.begin(), bases.end() - 4);  // the largest: scales
    size_t evaluations = 0;  // a few thousand per pair: an open pair of a wide row stays cheap
    constexpr size_t kEvaluations = 4000;
    for (TermId arg : args)
      for (double base : bases)
        for (TermId v : vars) {
          if (evaluations > kEvaluations) return std::nullopt;
          Point p;
          for (TermId w : vars) p[w] = into_domain(base, domain(w), rng_);
          auto at = [&](double x) {
            p[v] = x;
            ++tried, ++evaluations;
            try {
              return eval(arg, p).f.approx_double();
            } catch (const ir::EvalError&) {
              return std::nan("");  // past MPFR's range there: no evidence, and no crossing
            }
          };
          double y0 = at(p[v]);
          if (!std::isfinite(y0)) continue;
          for (double target : {std::floor(y0) - 0.5, std::floor(y0) + 0.5, std::floor(y0) - 1.5,
                                std::floor(y0) + 1.5}) {
            if (auto q = crossing(pr, p, v, target, at)) return q;
          }
        }
    return std::nullopt;
  }

  // The doubles where f(x) crosses `target` between p[v] and a point found by stepping out from
  // it, when one of them (rounded into v's domain) makes the pair differ.
  template <typename F>
  std::optional<Point> crossing(const Pair& pr, Point p, TermId v, double target, F& f) {
    const double x0 = p[v];
    const bool above = f(x0) >= target;
    double lo = x0, hi = x0;
    for (double step = std::max(1.0, std::abs(x0)) / 64;; step *= 2) {
      if (step > 1e6) return std::nullopt;
      bool found = false;
      for (double x : {x0 + step, x0 - step})
        if (std::isfinite(x) && (f(x) >= target) != above) {
          hi = x, found = true;
          break;
        }
      if (found) break;
    }
    // Bisect to adjacent doubles: f(lo) on x0's side of the target, f(hi) on the other.
    for (int k = 0; k < 80 && std::nextafter(lo, hi) != hi; ++k) {
      double mid = lo + (hi - lo) / 2;
      if (mid == lo || mid == hi) break;
      ((f(mid) >= target) == above ? lo : hi) = mid;
    }
    for (double x : {lo, hi}) {
      p[v] = into_domain(x, domain(v), rng_);
      if (differs(pr, p)) return p;
    }
    return std::nullopt;
  }

  // A short probe before any proof: the uniform points and one random point, each shared by
  // every pair (drawn once per variable), so the probe of many pairs over one row costs about
  // one evaluation of the row per point.
  std::optional<Point> probe(const Pair& pr, std::string& how, size_t& tried) {
    if (!shares_points()) return search(pr, kSharedPoints, how, tried);
    Found best;
    for (size_t k = 0; k < kSharedPoints; ++k) {
      if (k > kSmallRandomPoint && !store_scale_) break;
      ++tried;
      auto p = differs_at_shared(pr, k);
      const double rel = p ? relative(pr, *p) : 0;  // before *p moves (as in search's offer)
      if (p &&
          best.offer(rel, std::move(*p),
                     k == kRandomPoint || k == kSmallRandomPoint
                         ? "witness search (random point)"
                         : "witness search (uniform point)") &&
          best.plain())
        break;
    }
    if (!best.point) return std::nullopt;
    return best.take(*this, pr, how);
  }

  const Domain& domain(TermId v) const {
    static const Domain any;
    auto it = d_.find(tensor_of(s_.variable_of(v).name));
    return it == d_.end() ? any : it->second;
  }

 private:
  // The confirmed point with the largest relative difference so far, not yet minimized.
  struct Found {
    std::optional<Point> point;
    double rel = -1;
    const char* how = "";
    bool offer(double r, Point p, const char* found_how) {
      if (point && r <= rel) return false;
      point = std::move(p), rel = r, how = found_how;
      return true;
    }
    bool plain() const { return rel >= kPlainDifference; }
    Point take(Witness& w, const Pair& pr, std::string& out_how) {
      out_how = how;
      return w.minimize(pr, *point);
    }
  };

  // Zero out, then shorten, the values while the difference stays: each step checked at the
  // working precision only, the result replayed in full, the confirmed point kept otherwise.
  // Values are zeroed a chunk at a time, a chunk that cannot go halved (delta debugging): a
  // row of n inputs costs O(k log n) evaluations for the k values that must stay, where one
  // at a time cost n (3,000 columns of a LayerNorm: 24 s, each evaluation a whole row).
  // A plain difference stays plain: a step that would shrink it to a rounding's size (zeroing
  // the value that made a missing factor show) is not taken.
  // Minimizing only makes a point plainer, so it stops after kMinimizeSeconds with the point as it
  // stands, or at half the time left before the budget's deadline. Cut short, it gives the
  // confirmed point back: confirming a half-minimized one costs as much again: a row of 8,194
  // softmax inputs (an LLM KL-div kernel at 4,097 columns) cost 0.3 s an evaluation and 21 s in
  // all, and the configuration ran past its share of the bound with a confirmed counterexample in
  // hand.
  Point minimize(const Pair& pr, const Point& confirmed) {
    Point p = confirmed;
    const double found = relative(pr, confirmed);
    const double floor = found >= 1e-6 ? std::min(found, kPlainDifference) / 16 : 0;
    const auto now = std::chrono::steady_clock::now();
    auto until =
        now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(kMinimizeSeconds);
    if (const auto deadline = ir::Budget::deadline();
        deadline != ir::Budget::Clock::time_point::max())
      until = std::min(until, now + (deadline - now) / 2);
    auto out_of_time = [&] { return std::chrono::steady_clock::now() > until; };
    auto still_differs = [&] {
      if (out_of_time()) return false;
      if (sem_ == ir::Semantics::Ieee) return differs(pr, p) && relative(pr, p) >= floor;
      try {
        ir::RealMemo memo;  // one point: both sides share their subterms
        ir::RealValue a = eval_at(pr.ref, p, memo), b = eval_at(pr.cand, p, memo);
        return real_difference(a, b).has_value() && relative_difference(a, b) >= floor;
      } catch (const ir::EvalError&) {
        return false;
      }
    };
    std::vector<TermId> vars;
    for (const auto& [v, x] : p) vars.push_back(v);
    zero_out(p, vars, still_differs, out_of_time);
    for (auto& [v, x] : p) {
      if (out_of_time()) break;  // (each step looks up the variable's domain by name)
      double keep = x;
      if (keep == 0) continue;
      for (double cand : {std::round(x), std::round(x * 1000) / 1000}) {
        double y = into_domain(cand, domain(v), rng_);
        if (y == keep) break;
        x = y;
        if (still_differs()) break;
        x = keep;
      }
    }
    if (out_of_time()) return confirmed;
    return differs(pr, p) ? p : confirmed;
  }
  static constexpr std::chrono::milliseconds kMinimizeSeconds{2000};
  template <class Check, class Stop>
  void zero_out(Point& p, std::span<const TermId> chunk, Check& still_differs, Stop& stop) {
    if (stop()) return;  // the point as it stands: splitting on would only restore values
    std::vector<std::pair<TermId, double>> kept;
    for (TermId v : chunk) {
      double y = into_domain(0.0, domain(v), rng_);
      if (y != p[v]) kept.push_back({v, p[v]}), p[v] = y;
    }
    if (kept.empty() || still_differs()) return;
    for (const auto& [v, x] : kept) p[v] = x;
    if (chunk.size() == 1) return;
    size_t half = chunk.size() / 2;
    zero_out(p, chunk.subspan(0, half), still_differs, stop);
    zero_out(p, chunk.subspan(half), still_differs, stop);
  }
  ir::RealValue eval_at(TermId t, const Point& p, ir::RealMemo& memo) const {
    return ir::evaluate_real(
        s_, t,
        [&](TermId v) -> std::optional<ir::RealValue> {
          auto it = p.find(v);
          if (it == p.end()) return std::nullopt;
          return ir::RealValue::of(as_type(s_.type(v), it->second));
        },
        memo);
  }
  static constexpr double kUniform[] = {0.0, 1.0, -1.0};
  // Uniform points past the terms' constants: every input twice a constant c, or -2c. A whole
  // row past a sentinel (a min seeded with 1e30, a max with -1e30 where -inf belongs) or a
  // threshold (softplus's 20) is what a difference there needs, and one draw per input almost
  // never puts all of a row there. The largest constants first, at most kScaledPoints points.
  // Past a sentinel near float32's largest value (3.4e38 for infinity), 2c overflows: the
  // largest float32 is the value past it. Then, for an eps-sized constant c (below 1e-2), every
  // input sqrt(c) or -sqrt(c): where the squares an eps guards are as small as it, its place
  // shows (added to a norm where torch clamps it, outside the sqrt where inside belongs).
  static constexpr size_t kScaledPoints = 8;
  static constexpr size_t kEpsScaledPoints = 4;
  static std::vector<double> uniform_scales(std::vector<double> consts) {
    std::vector<double> small;
    for (double c : consts)
      if (std::isfinite(c) && c != 0 && std::abs(c) < 1e-2) small.push_back(std::abs(c));
    std::sort(small.begin(), small.end());
    small.erase(std::unique(small.begin(), small.end()), small.end());
    for (double& c : consts) c = std::abs(c);
    std::erase_if(consts, [](double c) { return !std::isfinite(c) || c <= 1; });
    std::sort(consts.begin(), consts.end(), std::greater<>());
    consts.erase(std::unique(consts.begin(), consts.end()), consts.end());
    std::vector<double> out;
    for (double c : consts) {
      if (out.size() + 2 > kScaledPoints) break;
      double past =
          2 * c > std::numeric_limits<float>::max() ? std::numeric_limits<float>::max() : 2 * c;
      out.insert(out.end(), {past, -past});
    }
    const size_t large = out.size();
    for (double c : small) {
      if (out.size() + 2 > large + kEpsScaledPoints) break;
      out.insert(out.end(), {std::sqrt(c), -std::sqrt(c)});
    }
    return out;
  }
  // The shared points: the uniform ones, one random point, a second random point of small
  // values (sd 0.1: where the first's magnitudes, 1e-3 to 1e3 per input, saturate a clamp or an
  // activation on both sides, as beside a wide GEMM, values a model meets in use show a
  // difference), then every input at twice the largest constant of the programs and at minus
  // that (uniform_scales' first two, over the whole store so that pairs share them:
  // store_scale_).
  static constexpr size_t kRandomPoint = std::size(kUniform);
  static constexpr size_t kSmallRandomPoint = kRandomPoint + 1;
  static constexpr size_t kSharedPoints = kRandomPoint + 4;
  static std::optional<double> largest_scale(const ir::TermStore& s) {
    std::vector<double> consts;
    for (TermId t = 0; t < s.size(); ++t)
      if (s.op(t) == ir::Op::Const && s.type(t) == ir::Type::F32)
        consts.push_back(s.constant_of(t).f);
    std::vector<double> scales = uniform_scales(std::move(consts));
    return scales.empty() ? std::nullopt : std::optional<double>(scales[0]);
  }
  struct SharedPoint {
    absl::flat_hash_map<TermId, double> values;  // drawn once per variable
    ir::RealMemo memo;                           // the terms evaluated there so far
  };
  // Memoized evaluation is the real evaluator's at its working precision.
  bool shares_points() const {
    return sem_ == ir::Semantics::Real && ir::Real::working_precision() == ir::Real::kPrecision;
  }
  double shared_value(size_t k, TermId v) {
    auto [it, fresh] = shared_[k].values.try_emplace(v, 0.0);
    if (fresh) {
      double x = k < kRandomPoint         ? kUniform[k]
                 : k == kSmallRandomPoint ? 0.1 * std::normal_distribution<double>()(rng_)
                 : k > kSmallRandomPoint
                     ? (k == kSmallRandomPoint + 1 ? 1 : -1) * store_scale_.value_or(0)
                     : std::normal_distribution<double>()(rng_) *
                           std::pow(10.0, static_cast<int>(rng_() % 7) - 3);
      it->second = into_domain(x, domain(v), rng_);
    }
    return it->second;
  }
  // Shared point k when the pair's sides differ there for certain (then as a point of the
  // pair's variables), evaluated with the terms other pairs left in its memo.
  std::optional<Point> differs_at_shared(const Pair& pr, size_t k) {
    SharedPoint& sp = shared_[k];
    if (sp.memo.size() > kMaxMemo) sp.memo.clear();
    auto env = [&](TermId v) -> std::optional<ir::RealValue> {
      return ir::RealValue::of(as_type(s_.type(v), shared_value(k, v)));
    };
    try {
      if (!real_difference(ir::evaluate_real(s_, pr.ref, env, sp.memo),
                           ir::evaluate_real(s_, pr.cand, env, sp.memo)))
        return std::nullopt;
    } catch (const ir::EvalError&) {
      return std::nullopt;
    }
    absl::flat_hash_map<TermId, bool> seen;
    std::vector<TermId> vars;
    std::vector<double> consts;
    collect(s_, pr.ref, seen, vars, consts);
    collect(s_, pr.cand, seen, vars, consts);
    Point p;
    for (TermId v : vars) p[v] = shared_value(k, v);
    if (differs(pr, p)) return p;
    return std::nullopt;
  }
  static constexpr size_t kMaxMemo = size_t{1} << 21;  // a bound on the memory memos keep

  const ir::TermStore& s_;
  const Domains& d_;
  std::array<SharedPoint, kSharedPoints> shared_;
  std::mt19937_64 rng_;
  ir::Semantics sem_;
  absl::flat_hash_set<TermId> zero_sign_;
  mutable absl::flat_hash_map<std::pair<TermId, TermId>, std::vector<TermId>> zero_sign_in_;
  mutable Point last_point_;  // eval's: the point last_values_ hold the terms' values at
  mutable mpfr_prec_t last_bits_ = 0;
  mutable ir::RealMemo last_values_;
  mutable Point last_ieee_point_;  // eval_ieee's, as last_point_
  mutable ir::IeeeMemo last_ieee_values_;
  // differs' last answer in real semantics: for this pair, at this point.
  mutable std::optional<std::pair<std::pair<TermId, TermId>, std::optional<std::string>>>
      last_confirmed_;
  mutable Point last_confirmed_point_;
  // Twice the programs' largest constant, where the shared points past the random one put every
  // input; none without a constant above 1.
  std::optional<double> store_scale_;
  bool nonfinite_ = false;
};

}  // namespace keq::verify::internal
