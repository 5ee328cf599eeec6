#include "ir/smt_expr.h"

#include <gmpxx.h>

#include <cmath>
#include <string>

namespace keq::smt {

Expr RealEncoding::quotient(const Expr& x, const Expr& y) {
  condition(y != 0);
  Expr q = fresh("q");
  fact(z3::implies(y != 0, q * y == x));
  return q;
}

Expr RealEncoding::exp(const Expr& x) {
  Expr e = apply("exp", x, mpfr_exp);
  fact(e > 0);
  return e;
}

Expr RealEncoding::log(const Expr& x) {
  Expr l = apply("log", x, nullptr);
  condition(x > 0);
  fact(z3::implies(x > 0, exp(l) == x));
  // Its sign, which Z3 cannot get from exp's facts at the query's arguments alone: a divisor
  // log 2 (log2's, or a literal taken as log2 e = 1 / ln 2) must be proved nonzero.
  fact(z3::implies(x > 1, l > 0));
  fact(z3::implies(x > 0 && x < 1, l < 0));
  return l;
}

namespace {

// 2^e as an exact rational.
Expr two_to(z3::context& c, int e) {
  mpz_class p = 1;
  mpz_mul_2exp(p.get_mpz_t(), p.get_mpz_t(), static_cast<mp_bitcnt_t>(std::abs(e)));
  std::string text = e >= 0 ? p.get_str() : "1/" + p.get_str();
  return c.real_val(text.c_str());
}

}  // namespace

Expr RealEncoding::round_to_format(const Expr& x, ir::FloatFormat f, ir::Overflow o) {
  const ir::FormatInfo& fi = ir::format_info(f);
  z3::context& c = ctx();
  const int emin = 1 - fi.bias, mant = fi.mant_bits, emax = std::ilogb(fi.max_finite);
  // max = units * 2^(emax - mant), units an integer of mant + 1 bits (448 = 14 * 32).
  const int64_t units = static_cast<int64_t>(std::ldexp(fi.max_finite, mant - emax));
  const Expr top_quantum = two_to(c, emax - mant);
  const Expr max = c.real_val(units) * top_quantum;
  Expr v = x;
  if (o == ir::Overflow::Saturate) {
    v = z3::ite(x > max, max, z3::ite(x < -max, -max, x));
  } else {
    // Overflow (to inf or NaN) starts past max + quantum/2; the tie there rounds to even, which
    // is max when its last bit is 0 (e4m3fn's 448: 464 -> 448) and past it otherwise.
    Expr edge = max + top_quantum / 2;
    condition(units % 2 == 0 ? (x <= edge && x >= -edge) : (x < edge && x > -edge));
  }
  // The quantum of v's binade, 2^(e - mant) on [2^e, 2^(e+1)) and 2^(emin - mant) below
  // 2^emin (subnormals), and n quanta: each branch linear.
  Expr abs_v = z3::ite(v >= 0, v, -v);
  Expr n = z3::to_real(fresh_int("n")), k = fresh_int("k");
  Expr q = top_quantum, r = n * top_quantum;
  for (int e = emax; e > emin; --e) {
    Expr below = abs_v < two_to(c, e), lower = two_to(c, e - 1 - mant);
    q = z3::ite(below, lower, q);
    r = z3::ite(below, n * lower, r);
  }
  // Nearest, ties to even.
  Expr twice_error = 2 * (v - r);
  fact(twice_error <= q && -twice_error <= q);
  fact(z3::implies(twice_error == q || -twice_error == q, n == 2 * z3::to_real(k)));
  return r;
}

Expr fp_abs(const Expr& x) {
  return Expr(x.ctx(), Z3_mk_fpa_abs(x.ctx(), x));
}

Expr fp_is_negative(const Expr& x) {
  return Expr(x.ctx(), Z3_mk_fpa_is_negative(x.ctx(), x));
}

Expr fp_fma(IeeeEncoding& e, const Expr& a, const Expr& b, const Expr& c) {
  return Expr(e.ctx(), Z3_mk_fpa_fma(e.ctx(), e.rne(), a, b, c));
}

Expr fp_sqrt(IeeeEncoding& e, const Expr& x) {
  return Expr(e.ctx(), Z3_mk_fpa_sqrt(e.ctx(), e.rne(), x));
}

Expr fp_round_through(IeeeEncoding& e, const Expr& x, unsigned ebits, unsigned sbits) {
  z3::context& c = e.ctx();
  Expr narrow(c, Z3_mk_fpa_to_fp_float(c, e.rne(), x, c.fpa_sort(ebits, sbits)));
  return Expr(c, Z3_mk_fpa_to_fp_float(c, e.rne(), narrow, e.f32()));
}

Expr fp_round_e4m3(IeeeEncoding& e, const Expr& x, bool saturate) {
  z3::context& c = e.ctx();
  auto f32 = [&](double v) { return c.fpa_val(static_cast<float>(v)); };
  auto mul = [&](const Expr& a, const Expr& b) { return Expr(c, Z3_mk_fpa_mul(c, e.rne(), a, b)); };
  Expr v = saturate ? fp_clamp(e, x, 448.0) : x;
  Expr normal = fp_round_through(e, v, 5, 4);
  // Subnormal range: v * 2^9 is exact, rounded to an integer (ties to even), scaled back.
  Expr quanta = Expr(c, Z3_mk_fpa_round_to_integral(c, e.rne(), mul(v, f32(512))));
  Expr rounded = z3::ite(fp_abs(v) < f32(1.0 / 64), mul(quanta, f32(1.0 / 512)), normal);
  if (saturate) return rounded;
  // Past 448 (465 and up, and +-inf) torch gives NaN; a NaN input stays NaN.
  return z3::ite(fp_abs(rounded) > f32(448), e.nan(), rounded);
}

Expr bv_shift_amount(const Expr& amount) {
  uint64_t k = 0;
  if (!amount.is_numeral_u64(k) || k >= amount.get_sort().bv_size())
    throw smt::NotEncoded{"a shift by an amount that is not a constant below the width"};
  return amount;
}

Expr bv_cast(IeeeEncoding& e, const Expr& x, unsigned width) {
  z3::context& c = e.ctx();
  if (x.is_bool()) return z3::ite(x, c.bv_val(1, width), c.bv_val(0, width));
  if (x.is_bv()) {
    unsigned from = x.get_sort().bv_size();
    return from >= width ? x.extract(width - 1, 0) : z3::sext(x, width - from);
  }
  const double top = std::ldexp(1.0, static_cast<int>(width) - 1);  // 2^31 or 2^63
  Expr hi = c.bv_val(width == 32 ? INT32_MAX : INT64_MAX, width);
  Expr lo = c.bv_val(width == 32 ? INT32_MIN : INT64_MIN, width);
  Expr rtz = z3::expr(c, Z3_mk_fpa_rtz(c));
  Expr truncated = z3::expr(c, Z3_mk_fpa_to_sbv(c, rtz, x, width));
  return z3::ite(x.mk_is_nan(), c.bv_val(0, width),
                 z3::ite(x >= c.fpa_val(static_cast<float>(top)), hi,
                         z3::ite(x <= c.fpa_val(static_cast<float>(-top)), lo, truncated)));
}

Expr fp_to_bits(IeeeEncoding& e, const Expr& x) {
  return z3::ite(x.mk_is_nan(), e.fresh_bits(32), x.mk_to_ieee_bv());
}

Expr fp_clamp(IeeeEncoding& e, const Expr& x, double max) {
  z3::context& c = e.ctx();
  Expr hi = c.fpa_val(static_cast<float>(max)), lo = c.fpa_val(static_cast<float>(-max));
  return z3::ite(x > hi, hi, z3::ite(x < lo, lo, x));
}

Expr fp_pick(IeeeEncoding& e, const Expr& a, const Expr& b, bool is_max, bool nan_wins) {
  Expr a_first = is_max ? a > b : a < b;
  Expr b_first = is_max ? b > a : b < a;
  // Equal values: only zeros can differ in bits; max takes +0, min takes -0.
  Expr a_zero_wins = is_max ? !fp_is_negative(a) : fp_is_negative(a);
  Expr ordered = z3::ite(a_first, a, z3::ite(b_first, b, z3::ite(a_zero_wins, a, b)));
  if (nan_wins) return z3::ite(a.mk_is_nan() || b.mk_is_nan(), e.nan(), ordered);
  return z3::ite(a.mk_is_nan(), b, z3::ite(b.mk_is_nan(), a, ordered));
}

std::optional<uint32_t> fp32_bits(const z3::model& m, const Expr& x) {
  Expr bits = m.eval(Expr(x.ctx(), Z3_mk_fpa_to_ieee_bv(x.ctx(), x)), true);
  uint64_t u = 0;
  if (!Z3_get_numeral_uint64(x.ctx(), bits, &u)) return std::nullopt;
  return static_cast<uint32_t>(u);
}

std::string numeral_text(const Expr& v) {
  return Z3_get_numeral_string(v.ctx(), v);
}

}  // namespace keq::smt
