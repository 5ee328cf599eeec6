// Term families for the real-semantics normal forms: each builds one output element of a
// candidate (blocked, masked, rescaled as a Triton kernel computes it) and of its reference (as
// torch computes it), as the frontends will produce them once masks are concrete. Buggy variants
// reproduce the bug patterns. Used by tests/normal_form_test.cc and nf_bench.cc.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <string>
#include <vector>

#include "ir/ir.h"

namespace keq::bench {

struct Pair {
  ir::TermId cand, ref;
};

class NfFamilies {
 public:
  explicit NfFamilies(ir::TermStore& s) : s_(s) {}

  // Every variable made so far, with its bound: inputs are finite (|v| <= bound), as torch.randn
  // and friends produce them.
  const absl::flat_hash_map<std::string, double>& domains() const { return domains_; }

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

  // Every element of an M x N x K tiled matmul: K in blocks of bk with the tail masked; the M
  // and N masks only decide which elements exist, so each element is one tiled dot.
  std::vector<Pair> tiled_matmul(int m, int n, int k, int bk) {
    std::vector<Pair> out;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        Pair p;
        std::vector<ir::TermId> flat;
        for (int q = 0; q < k; ++q) flat.push_back(mul(var2("a", i, q, p), var2("b", q, j, p)));
        ir::TermId acc = c(0);
        for (int t = 0; t < k; t += bk) {
          std::vector<ir::TermId> lanes;
          for (int q = t; q < t + bk; ++q) lanes.push_back(q < k ? flat[q] : c(0));
          acc = s_.make(ir::Op::Add, {acc, sum(lanes)});
        }
        p.cand = acc;
        p.ref = sum(flat);
        out.push_back(std::move(p));
      }
    return out;
  }

  // A matmul whose K is split between two programs, each adding its half with atomic_add into a
  // zeroed output.
  Pair k_split_dot(int k) {
    Pair p;
    std::vector<ir::TermId> flat, lo, hi;
    for (int q = 0; q < k; ++q) {
      flat.push_back(mul(var("a", q, p), var("b", q, p)));
      (q < k / 2 ? lo : hi).push_back(flat.back());
    }
    p.cand = s_.make(ir::Op::Sum, {c(0), sum(lo), sum(hi)});
    p.ref = sum(flat);
    return p;
  }

  // softmax(x) over a row of n, online with a scalar running max in blocks of `block`: every
  // output of the row. `masked_zero`: masked lanes load 0.0 instead of -inf (a bug when the row
  // has a tail).
  std::vector<Pair> online_softmax_row(int n, int block, bool masked_zero = false) {
    Pair unused;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, unused, 100));
    ir::TermId m = c(-INFINITY), l = c(0);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> lanes;
      for (int k = t; k < t + block; ++k)
        lanes.push_back(k < n ? x[k] : c(masked_zero ? 0 : -INFINITY));
      ir::TermId m_new = s_.make(ir::Op::MaxNum, {m, s_.make(ir::Op::TMax, lanes)});
      std::vector<ir::TermId> e;
      for (ir::TermId v : lanes) e.push_back(exp(sub(v, m_new)));
      l = s_.make(ir::Op::Add, {mul(l, exp(sub(m, m_new))), sum(e)});
      m = m_new;
    }
    std::vector<ir::TermId> ref = torch_softmax(x);
    std::vector<Pair> out;
    for (int i = 0; i < n; ++i)
      out.push_back({s_.make(ir::Op::Div, {exp(sub(x[i], m)), l}), ref[i]});
    return out;
  }
  Pair online_softmax(int n, int block, int i = 0, bool masked_zero = false) {
    return online_softmax_row(n, block, masked_zero)[i];
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
        l[lane] =
            s_.make(ir::Op::Add, {mul(l[lane], exp(sub(m[lane], m_new))), exp(sub(v, m_new))});
        m[lane] = m_new;
      }
    ir::TermId gm = s_.make(ir::Op::TMax, m);
    std::vector<ir::TermId> scaled;
    for (int lane = 0; lane < block; ++lane) scaled.push_back(mul(l[lane], exp(sub(m[lane], gm))));
    p.cand = s_.make(ir::Op::Div, {exp(sub(x[i], gm)), sum(scaled)});
    p.ref = torch_softmax(x)[i];
    return p;
  }

  // log_softmax written as x - m - log(sum exp(x - m)), blocked, against torch's: every output.
  std::vector<Pair> log_softmax_row(int n, int block) {
    Pair unused;
    std::vector<ir::TermId> x;
    for (int k = 0; k < n; ++k) x.push_back(var("x", k, unused, 100));
    std::vector<ir::TermId> maxes, sums;
    for (int t = 0; t < n; t += block)
      maxes.push_back(
          s_.make(ir::Op::TMax,
                  std::vector<ir::TermId>(x.begin() + t, x.begin() + std::min(n, t + block))));
    ir::TermId m = maxes.size() == 1 ? maxes[0] : s_.make(ir::Op::TMax, maxes);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> e;
      for (int k = t; k < std::min(n, t + block); ++k) e.push_back(exp(sub(x[k], m)));
      sums.push_back(sum(e));
    }
    ir::TermId log_total = s_.make(ir::Op::Log, {sums.size() == 1 ? sums[0] : sum(sums)});
    ir::TermId rm = s_.make(ir::Op::AMax, x);
    std::vector<ir::TermId> e;
    for (ir::TermId v : x) e.push_back(exp(sub(v, rm)));
    ir::TermId ref_log = s_.make(ir::Op::Log, {sum(e)});
    std::vector<Pair> out;
    for (int i = 0; i < n; ++i)
      out.push_back({sub(sub(x[i], m), log_total), sub(sub(x[i], rm), ref_log)});
    return out;
  }
  Pair log_softmax(int n, int block, int i = 0) { return log_softmax_row(n, block)[i]; }

  // LayerNorm: two-pass blocked mean and variance with masked tails, y = (x - mean) * rstd * w + b,
  // against torch's (x - mean) / sqrt(var + eps) * w + b. `unbiased` divides by n - 1 (a bug).
  std::vector<Pair> layernorm_row(int n, int block, bool unbiased = false) {
    Pair unused;
    std::vector<ir::TermId> x, w, b;
    for (int k = 0; k < n; ++k) {
      x.push_back(var("x", k, unused, 1e4));
      w.push_back(var("w", k, unused, 1e4));
      b.push_back(var("b", k, unused, 1e4));
    }
    ir::TermId eps = c(1e-5);
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
    ir::TermId var_c = s_.make(ir::Op::Div, {blocked_sum([&](int k) {
                                               ir::TermId d = sub(x[k], mean);
                                               return mul(d, d);
                                             }),
                                             c(unbiased ? n - 1 : n)});
    ir::TermId rstd = s_.make(ir::Op::Rsqrt, {s_.make(ir::Op::Add, {var_c, eps})});
    ir::TermId rmean = s_.make(ir::Op::Div, {sum(x), c(n)});
    std::vector<ir::TermId> sq;
    for (ir::TermId v : x) {
      ir::TermId d = sub(v, rmean);
      sq.push_back(mul(d, d));
    }
    ir::TermId rvar = s_.make(ir::Op::Div, {sum(sq), c(n)});
    ir::TermId den = s_.make(ir::Op::Sqrt, {s_.make(ir::Op::Add, {rvar, eps})});
    std::vector<Pair> out;
    for (int i = 0; i < n; ++i)
      out.push_back(
          {s_.make(ir::Op::Add, {mul(mul(sub(x[i], mean), rstd), w[i]), b[i]}),
           s_.make(ir::Op::Add, {mul(s_.make(ir::Op::Div, {sub(x[i], rmean), den}), w[i]), b[i]})});
    return out;
  }
  Pair layernorm(int n, int block, int i = 0, bool unbiased = false) {
    return layernorm_row(n, block, unbiased)[i];
  }

  // RMSNorm: x * rsqrt(mean(x^2) + eps) * w, blocked sum of squares, against torch's.
  std::vector<Pair> rmsnorm_row(int n, int block) {
    Pair unused;
    std::vector<ir::TermId> x, w;
    for (int k = 0; k < n; ++k) {
      x.push_back(var("x", k, unused, 1e4));
      w.push_back(var("w", k, unused, 1e4));
    }
    ir::TermId eps = c(1e-6), acc = c(0);
    for (int t = 0; t < n; t += block) {
      std::vector<ir::TermId> lanes;
      for (int k = t; k < t + block; ++k) lanes.push_back(k < n ? mul(x[k], x[k]) : c(0));
      acc = s_.make(ir::Op::Add, {acc, sum(lanes)});
    }
    ir::TermId rstd =
        s_.make(ir::Op::Rsqrt, {s_.make(ir::Op::Add, {s_.make(ir::Op::Div, {acc, c(n)}), eps})});
    std::vector<ir::TermId> sq;
    for (ir::TermId v : x) sq.push_back(s_.make(ir::Op::Pow, {v, c(2)}));
    ir::TermId rrstd = s_.make(
        ir::Op::Rsqrt, {s_.make(ir::Op::Add, {s_.make(ir::Op::Div, {sum(sq), c(n)}), eps})});
    std::vector<Pair> out;
    for (int i = 0; i < n; ++i)
      out.push_back({mul(mul(x[i], rstd), w[i]), mul(mul(x[i], rrstd), w[i])});
    return out;
  }
  Pair rmsnorm(int n, int block, int i = 0) { return rmsnorm_row(n, block)[i]; }

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
  ir::TermId var(const std::string& name, int k, Pair&, double bound = 1e6) {
    std::string full = name + "[" + std::to_string(k) + "]";
    domains_.try_emplace(full, bound);
    return s_.variable(full);
  }
  ir::TermId var2(const std::string& name, int r, int col, Pair&) {
    std::string full = name + "[" + std::to_string(r) + "," + std::to_string(col) + "]";
    domains_.try_emplace(full, 1e6);
    return s_.variable(full);
  }
  ir::TermId mul(ir::TermId a, ir::TermId b) { return s_.make(ir::Op::Mul, {a, b}); }
  ir::TermId sub(ir::TermId a, ir::TermId b) { return s_.make(ir::Op::Sub, {a, b}); }
  ir::TermId exp(ir::TermId a) { return s_.make(ir::Op::Exp, {a}); }
  ir::TermId sum(const std::vector<ir::TermId>& v) {
    return v.size() == 1 ? v[0] : s_.make(ir::Op::Sum, v);
  }
  std::vector<ir::TermId> torch_softmax(const std::vector<ir::TermId>& x) {
    ir::TermId m = s_.make(ir::Op::AMax, x);
    std::vector<ir::TermId> e;
    for (ir::TermId v : x) e.push_back(exp(sub(v, m)));
    ir::TermId total = sum(e);
    std::vector<ir::TermId> out;
    for (ir::TermId ev : e) out.push_back(s_.make(ir::Op::Div, {ev, total}));
    return out;
  }

  ir::TermStore& s_;
  absl::flat_hash_map<std::string, double> domains_;
};

}  // namespace keq::bench
