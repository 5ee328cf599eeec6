#include "ir/smt_expr.h"

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
