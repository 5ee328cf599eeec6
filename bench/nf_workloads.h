// Term families for the real-semantics normal forms: each builds one output element of a
// candidate (blocked, masked, rescaled as a Triton kernel computes it) and of its reference (as
// torch computes it), as the frontends will produce them once masks are concrete. Buggy variants
// reproduce the bug patterns. Used by tests/normal_form_test.cc and nf_bench.cc.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace keq::bench {

struct Pair {
  ir::TermId cand, ref;
  std::vector<std::pair<std::string, double>> finite_vars;  // name, bound: |var| <= bound
};

class NfFamilies {
 public:
  explicit NfFamilies(ir::TermStore& s) : s_(s) {}

  // C[0,0] of a K-tiled matmul: the K loop in blocks of bk, tail lanes masked to 0 unless
  // `tail_mask` is false, when they read past the row (an unrelated value).
  Pair tiled_dot(int k, int bk, bool tail_mask = true) {
    Pair p;
    std::vector<ir::TermId> flat;
    for (int i = 0; i < k; ++i) flat.push_back(mul(var("a", i, p), var("b", i, p)));
    ir::TermId acc = c(0);
    for (int t = 0; t < k; t += bk) {
      std::vector<ir::TermId> lanes;
      for (int i = t; i < t + bk; ++i) {
        if (i < k)
          lanes.push_back(flat[i]);
        else
          lanes.push_back(tail_mask ? c(0) : mul(var("past_a", i, p), var("past_b", i, p)));
      }
      acc = s_.make(ir::Op::Add, {acc, sum(lanes)});
    }
    p.cand = acc;
    p.ref = sum(flat);
    return p;
  }

  // softmax(x)[i] over a row of n, online with a scalar running max in blocks of `block`.
  // `masked_zero`: masked lanes load 0.0 instead of -inf (a bug when the row has a tail).
  Pair online_softmax(int n, int block, int i = 0, bool masked_zero = false) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 100));
    ir::TermId m = c(-INFINITY), l = c(0);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> lanes;
      for (int k = t; k < t + block; ++k) lanes.push_back(k < n ? x[k] : c(masked_zero ? 0 : -INFINITY));
      ir::TermId m_new = s_.make(ir::Op::MaxNum, {m, s_.make(ir::Op::TMax, lanes)});
      std::vector<ir::TermId> e;
      for (ir::TermId v : lanes) e.push_back(exp(sub(v, m_new)));
      l = s_.make(ir::Op::Add, {mul(l, exp(sub(m, m_new))), sum(e)});
      m = m_new;
    }
    p.cand = s_.make(ir::Op::Div, {exp(sub(x[i], m)), l});
    p.ref = torch_softmax(x, i);
    return p;
  }

  // The per-lane variant: each lane keeps its own running max, starting at -inf; lanes past a
  // row shorter than the block stay -inf in every block, and exp(-inf - -inf) is NaN.
  Pair per_lane_online_softmax(int n, int block, int i = 0) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 100));
    std::vector<ir::TermId> m(block, c(-INFINITY)), l(block, c(0));
    for (int t = 0; t < n; t += block)
      for (int lane = 0; lane < block; ++lane) {
        ir::TermId v = t + lane < n ? x[t + lane] : c(-INFINITY);
        ir::TermId m_new = s_.make(ir::Op::MaxNum, {m[lane], v});
        l[lane] = s_.make(ir::Op::Add, {mul(l[lane], exp(sub(m[lane], m_new))), exp(sub(v, m_new))});
        m[lane] = m_new;
      }
    ir::TermId gm = s_.make(ir::Op::TMax, m);
    std::vector<ir::TermId> scaled;
    for (int lane = 0; lane < block; ++lane) scaled.push_back(mul(l[lane], exp(sub(m[lane], gm))));
    p.cand = s_.make(ir::Op::Div, {exp(sub(x[i], gm)), sum(scaled)});
    p.ref = torch_softmax(x, i);
    return p;
  }

  // log_softmax written as x - m - log(sum exp(x - m)), blocked, against torch's.
  Pair log_softmax(int n, int block, int i = 0) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 100));
    std::vector<ir::TermId> maxes, sums;
    for (int t = 0; t < n; t += block)
      maxes.push_back(s_.make(ir::Op::TMax, std::vector<ir::TermId>(x.begin() + t, x.begin() + std::min(n, t + block))));
    ir::TermId m = maxes.size() == 1 ? maxes[0] : s_.make(ir::Op::TMax, maxes);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> e;
      for (int k = t; k < std::min(n, t + block); ++k) e.push_back(exp(sub(x[k], m)));
      sums.push_back(sum(e));
    }
    ir::TermId total = sums.size() == 1 ? sums[0] : sum(sums);
    p.cand = sub(sub(x[i], m), s_.make(ir::Op::Log, {total}));
    ir::TermId rm = s_.make(ir::Op::AMax, x);
    std::vector<ir::TermId> e;
    for (ir::TermId v : x) e.push_back(exp(sub(v, rm)));
    p.ref = sub(sub(x[i], rm), s_.make(ir::Op::Log, {sum(e)}));
    return p;
  }

  // LayerNorm: two-pass blocked mean and variance with masked tails, y = (x - mean) * rstd * w + b,
  // against torch's (x - mean) / sqrt(var + eps) * w + b. `unbiased` divides by n - 1 (a bug).
  Pair layernorm(int n, int block, int i = 0, bool unbiased = false) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 1e4));
    ir::TermId w = var("w", i, p, 1e4), b = var("b", i, p, 1e4), eps = c(1e-5);
    auto blocked_sum = [&](auto lane) {
      ir::TermId acc = c(0);
      for (int t = 0; t < n; t += block) {
        std::vector<ir::TermId> lanes;
        for (int k = t; k < t + block; ++k) lanes.push_back(k < n ? lane(k) : c(0));
        acc = s_.make(ir::Op::Add, {acc, sum(lanes)});
      }
      return acc;
    };
    ir::TermId mean = s_.make(ir::Op::Div, {blocked_sum([&](int k) { return x[k]; }), c(n)});
    ir::TermId var_c = s_.make(ir::Op::Div, {blocked_sum([&](int k) { ir::TermId d = sub(x[k], mean); return mul(d, d); }),
                                             c(unbiased ? n - 1 : n)});
    ir::TermId rstd = s_.make(ir::Op::Rsqrt, {s_.make(ir::Op::Add, {var_c, eps})});
    p.cand = s_.make(ir::Op::Add, {mul(mul(sub(x[i], mean), rstd), w), b});
    ir::TermId rmean = s_.make(ir::Op::Div, {sum(x), c(n)});
    std::vector<ir::TermId> sq;
    for (ir::TermId v : x) { ir::TermId d = sub(v, rmean); sq.push_back(mul(d, d)); }
    ir::TermId rvar = s_.make(ir::Op::Div, {sum(sq), c(n)});
    ir::TermId den = s_.make(ir::Op::Sqrt, {s_.make(ir::Op::Add, {rvar, eps})});
    p.ref = s_.make(ir::Op::Add, {mul(s_.make(ir::Op::Div, {sub(x[i], rmean), den}), w), b});
    return p;
  }

  // RMSNorm: x * rsqrt(mean(x^2) + eps) * w, blocked sum of squares, against torch's.
  Pair rmsnorm(int n, int block, int i = 0) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 1e4));
    ir::TermId w = var("w", i, p, 1e4), eps = c(1e-6);
    ir::TermId acc = c(0);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> lanes;
      for (int k = t; k < t + block; ++k) lanes.push_back(k < n ? mul(x[k], x[k]) : c(0));
      acc = s_.make(ir::Op::Add, {acc, sum(lanes)});
    }
    ir::TermId ms = s_.make(ir::Op::Div, {acc, c(n)});
    p.cand = mul(mul(x[i], s_.make(ir::Op::Rsqrt, {s_.make(ir::Op::Add, {ms, eps})})), w);
    std::vector<ir::TermId> sq;
    for (ir::TermId v : x) sq.push_back(s_.make(ir::Op::Pow, {v, c(2)}));
    ir::TermId rms = s_.make(ir::Op::Add, {s_.make(ir::Op::Div, {sum(sq), c(n)}), eps});
    p.ref = mul(mul(x[i], s_.make(ir::Op::Rsqrt, {rms})), w);
    return p;
  }

  // A row sum by atomic_add of per-block partials into a zeroed output.
  Pair atomic_row_sum(int n, int block) {
    Pair p;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, p, 1e6));
    std::vector<ir::TermId> partials{c(0)};
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> lanes;
      for (int k = t; k < t + block; ++k) lanes.push_back(k < n ? x[k] : c(0));
      partials.push_back(s_.make(ir::Op::Sum, lanes));
    }
    p.cand = s_.make(ir::Op::Sum, partials);  // atomic_add accumulates a commutative sum
    p.ref = sum(x);
    return p;
  }

 private:
  ir::TermId c(double v) { return s_.constant(ir::Constant::of_float(v)); }
  ir::TermId var(const std::string& name, int k, Pair& p, double bound = 1e6) {
    std::string full = name + "[" + std::to_string(k) + "]";
    bool seen = false;
    for (auto& [n, _] : p.finite_vars) seen = seen || n == full;
    if (!seen) p.finite_vars.push_back({full, bound});
    return s_.variable(full);
  }
  ir::TermId mul(ir::TermId a, ir::TermId b) { return s_.make(ir::Op::Mul, {a, b}); }
  ir::TermId sub(ir::TermId a, ir::TermId b) { return s_.make(ir::Op::Sub, {a, b}); }
  ir::TermId exp(ir::TermId a) { return s_.make(ir::Op::Exp, {a}); }
  ir::TermId sum(const std::vector<ir::TermId>& v) { return v.size() == 1 ? v[0] : s_.make(ir::Op::Sum, v); }
  ir::TermId torch_softmax(const std::vector<ir::TermId>& x, int i) {
    ir::TermId m = s_.make(ir::Op::AMax, x);
    std::vector<ir::TermId> e;
    for (ir::TermId v : x) e.push_back(exp(sub(v, m)));
    return s_.make(ir::Op::Div, {exp(sub(x[i], m)), sum(e)});
  }

  ir::TermStore& s_;
};

}  // namespace keq::bench
