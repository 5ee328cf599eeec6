#include "ir/value.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace keq::ir {

std::string_view type_name(Type t) {
  switch (t) {
    case Type::F32:
      return "f32";
    case Type::I32:
      return "i32";
    case Type::I64:
      return "i64";
    case Type::Bool:
      return "bool";
  }
  return "?";
}

std::optional<Type> type_by_name(std::string_view s) {
  for (Type t : {Type::F32, Type::I32, Type::I64, Type::Bool})
    if (type_name(t) == s) return t;
  return std::nullopt;
}

std::string_view semantics_name(Semantics s) {
  return s == Semantics::Real ? "real" : "ieee";
}
std::optional<Semantics> semantics_by_name(std::string_view s) {
  if (s == "real") return Semantics::Real;
  if (s == "ieee") return Semantics::Ieee;
  return std::nullopt;
}

const FormatInfo& format_info(FloatFormat f) {
  static const FormatInfo kInfo[] = {
      {8, 23, 127, 3.4028234663852886e38},  // f32
      {5, 10, 15, 65504.0},                 // f16
      {8, 7, 127, 3.3895313892515355e38},   // bf16
      {4, 3, 7, 448.0},                     // e4m3fn: exponent 15 is normal, S.1111.111 is NaN
      {5, 2, 15, 57344.0},                  // e5m2
  };
  return kInfo[static_cast<int>(f)];
}

uint64_t Constant::key_bits() const {
  if (type != Type::F32) return static_cast<uint64_t>(i);
  if (std::isnan(f)) return 0x7ff8000000000000ull;
  uint64_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

std::string Constant::str() const {
  switch (type) {
    case Type::Bool:
      return i ? "true" : "false";
    case Type::I32:
      return std::to_string(i) + ":i32";
    case Type::I64:
      return std::to_string(i) + ":i64";
    case Type::F32:
      break;
  }
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  if (f == std::floor(f) && std::fabs(f) < 1e15) {
    std::string s = std::to_string(static_cast<int64_t>(f));
    return (f == 0 && std::signbit(f)) ? "-0" : s;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", f);  // round-trips exactly
  return buf;
}

bool same_value(const Constant& a, const Constant& b, Semantics s) {
  if (a.type != b.type) return false;
  if (a.type != Type::F32) return a.i == b.i;
  if (std::isnan(a.f) || std::isnan(b.f)) return std::isnan(a.f) && std::isnan(b.f);
  if (s == Semantics::Real) return a.f == b.f;  // +0 == -0
  return a.key_bits() == b.key_bits();
}

std::optional<double> Real::exact_double() const {
  if (mpfr_nan_p(v_) || mpfr_inf_p(v_) || mpfr_zero_p(v_)) return mpfr_get_d(v_, MPFR_RNDN);
  if (mpfr_min_prec(v_) > 53) return std::nullopt;
  mpfr_exp_t e = mpfr_get_exp(v_);
  if (e > 1024 || e < -1021 - 52) return std::nullopt;  // beyond double's range
  double d = mpfr_get_d(v_, MPFR_RNDN);
  if (mpfr_cmp_d(v_, d) != 0) return std::nullopt;  // a subnormal that lost bits
  return d;
}

std::string Real::str() const {
  if (auto d = exact_double()) return Constant::of_float(*d).str();
  char* s = nullptr;
  mpfr_asprintf(&s, "%.30Rg", v_);
  std::string out(s);
  mpfr_free_str(s);
  return out;
}

double round_to_format(mpfr_srcptr x, FloatFormat f, Overflow o) {
  const FormatInfo& fi = format_info(f);
  if (mpfr_nan_p(x)) return std::numeric_limits<double>::quiet_NaN();
  bool neg = mpfr_signbit(x);
  double sign = neg ? -1.0 : 1.0;
  double inf = std::numeric_limits<double>::infinity();
  auto overflow = [&]() -> double {
    switch (o) {
      case Overflow::Inf:
        return sign * inf;
      case Overflow::NaN:
        return std::numeric_limits<double>::quiet_NaN();
      case Overflow::Saturate:
        return sign * fi.max_finite;
    }
    return 0;
  };
  if (mpfr_inf_p(x)) return overflow();
  if (mpfr_zero_p(x)) return sign * 0.0;
  // x = m * 2^e with m in [0.5, 1): the quantum is 2^(e - 1 - mant) for normals, and the
  // subnormal quantum 2^(emin - mant) below the normal range.
  const long emin = 1 - fi.bias;
  long e = mpfr_get_exp(x);
  long q = std::max(e - 1 - fi.mant_bits, emin - fi.mant_bits);
  mpfr_t y;
  mpfr_init2(y, mpfr_get_prec(x) + 64);
  mpfr_mul_2si(y, x, -q, MPFR_RNDN);  // exact
  mpfr_rint(y, y, MPFR_RNDN);         // ties to even
  mpfr_mul_2si(y, y, q, MPFR_RNDN);   // exact
  double r = mpfr_get_d(y, MPFR_RNDN);
  mpfr_clear(y);
  if (std::fabs(r) > fi.max_finite) return overflow();
  if (r == 0) return sign * 0.0;
  return r;
}

double round_to_format(double x, FloatFormat f, Overflow o) {
  Real r(x);
  return round_to_format(r.get(), f, o);
}

IeeeValue IeeeValue::of(const Constant& c) {
  IeeeValue v;
  v.type = c.type;
  if (c.type == Type::F32)
    v.f = static_cast<float>(c.f);
  else
    v.i = c.i;
  return v;
}

Constant IeeeValue::to_constant() const {
  if (type == Type::F32) return Constant::of_float(f);
  return Constant::of_int(type, i);
}

RealValue RealValue::of(const Constant& c) {
  RealValue v;
  v.type = c.type;
  if (c.type == Type::F32)
    mpfr_set_d(v.f.get(), c.f == 0 ? 0.0 : c.f, MPFR_RNDN);  // real semantics: one zero
  else
    v.i = c.i;
  return v;
}

std::optional<Constant> RealValue::to_constant() const {
  if (type != Type::F32) return Constant::of_int(type, i);
  auto d = f.exact_double();
  if (!d) return std::nullopt;
  return Constant::of_float(*d);
}

std::string RealValue::str() const {
  if (type == Type::F32) return f.str();
  return Constant::of_int(type, i).str();
}

}  // namespace keq::ir
