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

// x truncated toward zero, as a Z3 integer (Z3's real-to-int is the floor).
Expr truncated_int(const Expr& x) {
  auto floor = [](const Expr& v) { return Expr(v.ctx(), Z3_mk_real2int(v.ctx(), v)); };
  return z3::ite(x >= 0, floor(x), -floor(-x));
}

// 2^e as an exact rational.
Expr two_to(z3::context& c, int e) {
  mpz_class p = 1;
  mpz_mul_2exp(p.get_mpz_t(), p.get_mpz_t(), static_cast<mp_bitcnt_t>(std::abs(e)));
  std::string text = e >= 0 ? p.get_str() : "1/" + p.get_str();
  return c.real_val(text.c_str());
}

}  // namespace

std::pair<Expr, Expr> RealEncoding::round_binades(const Expr& v, int emin, int emax, int mant) {
  z3::context& c = ctx();
  // The quantum of v's binade, 2^(e - mant) on [2^e, 2^(e+1)) and 2^(emin - mant) below
  // 2^emin (subnormals), and n quanta: each branch linear. The magnitude's bits are
  // (e - emin) * 2^mant + n there (n = 2^(mant+1) carries into the next binade's field).
  Expr abs_v = z3::ite(v >= 0, v, -v);
  Expr k = fresh_int("k"), n_int = fresh_int("n"), n = z3::to_real(n_int);
  auto field = [&](int e) { return c.int_val(static_cast<int64_t>(e - emin) << mant) + n_int; };
  Expr q = two_to(c, emax - mant), r = n * q, bits = field(emax);
  for (int e = emax; e > emin; --e) {
    Expr below = abs_v < two_to(c, e), lower = two_to(c, e - 1 - mant);
    q = z3::ite(below, lower, q);
    r = z3::ite(below, n * lower, r);
    bits = z3::ite(below, field(e - 1), bits);
  }
  // Nearest, ties to even.
  Expr twice_error = 2 * (v - r);
  fact(twice_error <= q && -twice_error <= q);
  fact(z3::implies(twice_error == q || -twice_error == q, n_int == 2 * k));
  return {r, bits};
}

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
  return round_binades(v, emin, emax, mant).first;
}

Expr RealEncoding::truncate_to_int(const Expr& x, unsigned width) {
  z3::context& c = ctx();
  const int64_t top = width == 32 ? INT32_MAX : INT64_MAX, bottom = -top - 1;
  return z3::ite(x >= c.real_val(top), c.int_val(top),
                 z3::ite(x <= c.real_val(bottom), c.int_val(bottom), truncated_int(x)));
}

Expr RealEncoding::fp32_bits_of(const Expr& x) {
  z3::context& c = ctx();
  Expr magnitude = round_binades(z3::ite(x >= 0, x, -x), -126, 127, 23).second;
  // Past the largest binade the magnitude's bits pass inf's (0x7f800000): rounding overflows.
  Expr inf = c.int_val(0x7f800000);
  magnitude = z3::ite(magnitude > inf, inf, magnitude);
  Expr negative = z3::ite(x == 0, fresh_bool("zero_sign"), x < 0);
  return z3::ite(negative, magnitude - c.int_val(int64_t{1} << 31), magnitude);
}

Expr RealEncoding::real_of_fp32_bits(const Expr& bits) {
  z3::context& c = ctx();
  Expr magnitude_bits = z3::mod(bits, c.int_val(int64_t{1} << 31));
  condition(magnitude_bits < c.int_val(0x7f800000));
  Expr exponent = magnitude_bits / c.int_val(1 << 23);
  Expr mantissa = z3::to_real(z3::mod(magnitude_bits, c.int_val(1 << 23)));
  // Field 0 holds subnormals (mantissa * 2^-149); field E, (2^23 + mantissa) * 2^(E - 150).
  Expr magnitude = mantissa * two_to(c, -149);
  for (int e = 254; e >= 1; --e)
    magnitude = z3::ite(exponent == e, (two_to(c, 23) + mantissa) * two_to(c, e - 150), magnitude);
  return z3::ite(bits < 0, -magnitude, magnitude);
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

Expr bv_shift(ir::Op op, const Expr& x, const Expr& amount) {
  switch (op) {
    case ir::Op::Shl:
      return z3::shl(x, amount);
    case ir::Op::Shr:
      return z3::ashr(x, amount);
    default:
      return z3::lshr(x, amount);
  }
}

Expr bits_op(ir::Op op, const Expr& x, const Expr& y) {
  switch (op) {
    case ir::Op::BitAnd:
      return x.is_bool() ? x && y : x & y;
    case ir::Op::BitOr:
      return x.is_bool() ? x || y : x | y;
    default:
      return x.is_bool() ? x != y : x ^ y;
  }
}

Expr bv_resize(const Expr& x, unsigned width) {
  z3::context& c = x.ctx();
  if (x.is_bool()) return z3::ite(x, c.bv_val(1, width), c.bv_val(0, width));
  unsigned from = x.get_sort().bv_size();
  return from >= width ? x.extract(width - 1, 0) : z3::sext(x, width - from);
}

Expr real_to_integer(ir::Op op, const Expr& x) {
  auto floor = [](const Expr& v) { return z3::to_real(Expr(v.ctx(), Z3_mk_real2int(v.ctx(), v))); };
  switch (op) {
    case ir::Op::Floor:
      return floor(x);
    case ir::Op::Ceil:
      return -floor(-x);
    case ir::Op::Trunc:
      return z3::to_real(truncated_int(x));
    case ir::Op::RoundAway:
      return z3::ite(x >= 0, floor(x + Expr(x.ctx().real_val(1, 2))),
                     -floor(-x + Expr(x.ctx().real_val(1, 2))));
    default: {  // half to even: floor(x + 1/2), one less at a tie that lands on an odd integer
      Expr up = floor(x + x.ctx().real_val(1, 2));
      Expr tie = up - x == x.ctx().real_val(1, 2);
      Expr odd = Expr(x.ctx(), Z3_mk_real2int(x.ctx(), up / 2)) * 2 !=
                 Expr(x.ctx(), Z3_mk_real2int(x.ctx(), up));
      return z3::ite(tie && odd, up - 1, up);
    }
  }
}

Expr fp_to_integer(IeeeEncoding& e, ir::Op op, const Expr& x) {
  z3::context& c = e.ctx();
  Z3_ast mode = op == ir::Op::Floor       ? Z3_mk_fpa_rtn(c)
                : op == ir::Op::Ceil      ? Z3_mk_fpa_rtp(c)
                : op == ir::Op::Trunc     ? Z3_mk_fpa_rtz(c)
                : op == ir::Op::RoundAway ? Z3_mk_fpa_rna(c)
                                          : Z3_mk_fpa_rne(c);
  return Expr(c, Z3_mk_fpa_round_to_integral(c, Expr(c, mode), x));
}

Expr real_fmod(RealEncoding& e, const Expr& x, const Expr& y) {
  Expr q = e.quotient(x, y);
  return x - y * z3::to_real(truncated_int(q));
}

Expr bv_low_byte(const Expr& x, bool is_signed) {
  Expr byte = bv_resize(x, 32).extract(7, 0);
  return is_signed ? z3::sext(byte, 24) : z3::zext(byte, 24);
}

Expr int_wrap(const Expr& v, unsigned width) {
  z3::context& c = v.ctx();
  Expr half = c.int_val(static_cast<uint64_t>(1) << (width - 1));
  Expr modulus = width == 64 ? c.int_val("18446744073709551616") : c.int_val(int64_t{1} << width);
  return z3::mod(v + half, modulus) - half;
}

Expr bv_cast(IeeeEncoding& e, const Expr& x, unsigned width) {
  z3::context& c = e.ctx();
  if (x.is_bool() || x.is_bv()) return bv_resize(x, width);
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

int64_t bv_signed_value(const Expr& numeral) {
  uint64_t u = 0;
  numeral.is_numeral_u64(u);
  unsigned w = numeral.get_sort().bv_size();
  return w == 64 ? static_cast<int64_t>(u) : static_cast<int64_t>(u << (64 - w)) >> (64 - w);
}

std::string numeral_text(const Expr& v) {
  return Z3_get_numeral_string(v.ctx(), v);
}

}  // namespace keq::smt
