#include "frontends/python/integers.h"

#include <mpfr.h>

#include <cmath>
#include <limits>

namespace keq::python {
namespace {
using K = Value::Kind;

IntegerResult ok(Ref v) {
  return {std::move(v), std::nullopt};
}
IntegerResult program_error(std::string m) {
  return {nullptr, IntegerFailure{std::move(m), true}};
}
IntegerResult too_large(const std::string& what) {
  return {nullptr, IntegerFailure{what + " has more than " + std::to_string(kMaxIntegerBits) +
                                      " bits (size limit)",
                                  false}};
}

size_t bits(const mpz_class& z) {
  return mpz_sizeinbase(z.get_mpz_t(), 2);
}

// Correctly rounded x / y as a double (Python's int / int), or nothing on overflow.
std::optional<double> true_divide(const mpz_class& x, const mpz_class& y) {
  mpq_class q(x, y);
  q.canonicalize();
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_q(r, q.get_mpq_t(), MPFR_RNDN);
  double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  if (std::isinf(d)) return std::nullopt;
  return d;
}

// The fast path: both fit int64 and so does the result.
std::optional<int64_t> small_binop(const std::string& op, int64_t x, int64_t y) {
  int64_t r;
  if (op == "+") return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional(r);
  if (op == "-") return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional(r);
  if (op == "*") return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional(r);
  if (op == "&") return x & y;
  if (op == "|") return x | y;
  if (op == "^") return x ^ y;
  return std::nullopt;
}

}  // namespace

bool is_integer(const Ref& v) {
  return v->kind == K::Int || v->kind == K::Bool || v->kind == K::BigInt;
}

bool is_number(const Ref& v) {
  return is_integer(v) || v->kind == K::Float;
}

mpz_class as_mpz(const Ref& v) {
  if (v->kind == K::BigInt) return *v->big;
  mpz_class z;
  mpz_set_si(z.get_mpz_t(), v->i);  // int64 is long on the platforms keq builds for
  return z;
}

Ref big_or_small(const mpz_class& z) {
  if (mpz_fits_slong_p(z.get_mpz_t())) return integer(mpz_get_si(z.get_mpz_t()));
  auto v = std::make_shared<Value>();
  v->kind = K::BigInt;
  v->big = std::make_shared<const mpz_class>(z);
  return v;
}

IntegerResult integer_binop(const std::string& op, const Ref& a, const Ref& b) {
  if (a->kind != K::BigInt && b->kind != K::BigInt)
    if (auto r = small_binop(op, a->i, b->i)) return ok(integer(*r));
  mpz_class x = as_mpz(a), y = as_mpz(b);
  if (op == "/") {
    if (y == 0) return program_error("ZeroDivisionError: division by zero");
    auto d = true_divide(x, y);
    if (!d) return program_error("OverflowError: integer division result too large for a float");
    return ok(floating(*d));
  }
  if (op == "//" || op == "%") {
    if (y == 0) return program_error("ZeroDivisionError: integer division or modulo by zero");
    mpz_class r;
    if (op == "//")
      mpz_fdiv_q(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());  // floor, as Python
    else
      mpz_fdiv_r(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());  // the divisor's sign
    return ok(big_or_small(r));
  }
  if (op == "**") {
    if (y < 0) {
      if (x == 0)
        return program_error("ZeroDivisionError: 0.0 cannot be raised to a negative power");
      double d = std::pow(integer_to_double(a).value_or(HUGE_VAL), y.get_d());
      return ok(floating(d));
    }
    if (x == 0 || x == 1 || y == 0) return ok(integer(y == 0 ? 1 : x.get_si()));
    if (x == -1) return ok(integer(mpz_odd_p(y.get_mpz_t()) ? -1 : 1));
    if (bits(y) > 32 || (bits(x) - 1) * y.get_ui() >= kMaxIntegerBits)
      return too_large("the integer power");
    mpz_class r;
    mpz_pow_ui(r.get_mpz_t(), x.get_mpz_t(), y.get_ui());
    return ok(big_or_small(r));
  }
  if (op == "<<" || op == ">>") {
    if (y < 0) return program_error("ValueError: negative shift count");
    if (op == ">>") {
      if (bits(y) > 32) return ok(integer(x < 0 ? -1 : 0));
      mpz_class r;
      mpz_fdiv_q_2exp(r.get_mpz_t(), x.get_mpz_t(), y.get_ui());  // floor, as Python
      return ok(big_or_small(r));
    }
    if (x == 0) return ok(integer(0));
    if (bits(y) > 32 || bits(x) + y.get_ui() > kMaxIntegerBits) return too_large("the shift");
    mpz_class r;
    mpz_mul_2exp(r.get_mpz_t(), x.get_mpz_t(), y.get_ui());
    return ok(big_or_small(r));
  }
  mpz_class r;
  if (op == "+")
    r = x + y;
  else if (op == "-")
    r = x - y;
  else if (op == "*")
    r = x * y;
  else if (op == "&")
    mpz_and(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  else if (op == "|")
    mpz_ior(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  else if (op == "^")
    mpz_xor(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  else
    return {nullptr, IntegerFailure{"operator " + op + " on integers", false}};
  if (bits(r) > kMaxIntegerBits) return too_large("the integer result");
  return ok(big_or_small(r));
}

IntegerResult integer_negate(const Ref& a) {
  mpz_class r = -as_mpz(a);
  return ok(big_or_small(r));
}

IntegerResult integer_invert(const Ref& a) {
  mpz_class r = -as_mpz(a) - 1;  // ~x == -x - 1 for Python's unbounded integers
  return ok(big_or_small(r));
}

std::optional<int> compare_numbers(const Ref& a, const Ref& b) {
  bool af = a->kind == K::Float, bf = b->kind == K::Float;
  if (af && bf) {
    if (std::isnan(a->f) || std::isnan(b->f)) return std::nullopt;
    return (a->f > b->f) - (a->f < b->f);
  }
  if (!af && !bf) {
    if (a->kind != K::BigInt && b->kind != K::BigInt) return (a->i > b->i) - (a->i < b->i);
    return cmp(as_mpz(a), as_mpz(b)) < 0 ? -1 : cmp(as_mpz(a), as_mpz(b)) > 0 ? 1 : 0;
  }
  // Exactly, as CPython: 2**53 + 1 > 2.0**53.
  const Ref& f = af ? a : b;
  const Ref& n = af ? b : a;
  if (std::isnan(f->f)) return std::nullopt;
  int c;
  if (std::isinf(f->f)) {
    c = f->f > 0 ? -1 : 1;  // the integer against the float
  } else {
    int s = mpz_cmp_d(as_mpz(n).get_mpz_t(), f->f);
    c = (s > 0) - (s < 0);
  }
  return af ? -c : c;
}

std::optional<double> integer_to_double(const Ref& v) {
  if (v->kind != K::BigInt) return static_cast<double>(v->i);  // round to nearest even
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_z(r, v->big->get_mpz_t(), MPFR_RNDN);
  double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  if (std::isinf(d)) return std::nullopt;
  return d;
}

std::string integer_str(const Ref& v) {
  if (v->kind != K::BigInt) return std::to_string(v->i);
  return v->big->get_str();
}

}  // namespace keq::python
