// Integers and bits: C and Python division and modulo (and their float kin fmod and torch's
// remainder), shifts, bit operations, casts to integers and bool, bitcasts, frexp and ldexp.
// Integers wrap at their width; a float cast to an integer truncates toward zero and
// saturates, NaN giving 0.
//
// Integers are bit-vectors in the IEEE encoding and Z3 integers in the real one (smt_expr.h).
// Away from points their enclosures are "any value" except where noted: replay evaluates them
// exactly at points, which is where it needs them.
#include <bit>
#include <cstring>
#include <limits>

#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

int64_t saturate_to_int(Type t, mpfr_srcptr x) {
  if (mpfr_nan_p(x)) return 0;
  const int64_t lo = t == Type::I32 ? INT32_MIN : INT64_MIN;
  const int64_t hi = t == Type::I32 ? INT32_MAX : INT64_MAX;
  if (mpfr_cmp_si(x, lo) <= 0) return lo;
  if (t == Type::I32 ? mpfr_cmp_si(x, hi) >= 0 : mpfr_cmp_d(x, 9223372036854775807.0) >= 0)
    return hi;
  return mpfr_get_si(x, MPFR_RNDZ);
}

int mpfr_remainder_torch(mpfr_ptr o, mpfr_srcptr a, mpfr_srcptr b, mpfr_rnd_t r) {
  Real m;
  mpfr_fmod(m.get(), a, b, r);  // torch: fmod, then add b when the signs differ
  if (!mpfr_zero_p(m.get()) && !mpfr_nan_p(m.get()) && (mpfr_sgn(m.get()) < 0) != (mpfr_sgn(b) < 0))
    mpfr_add(m.get(), m.get(), b, r);
  return mpfr_set(o, m.get(), r);
}

// fmod and torch's remainder of two points: fmod is exact when MPFR says so.
template <bool kRemainder>
Enclosure modulo_enclosure(EArgs args) {
  const Enclosure &a = *args[0], &b = *args[1];
  if (!a.is_point() || !b.is_point() || !a.real || !b.real) return Enclosure::any(Type::F32);
  Real m;
  if (mpfr_fmod(m.get(), a.lo.get(), b.lo.get(), MPFR_RNDN) != 0 || mpfr_nan_p(m.get()))
    return Enclosure::any(Type::F32);
  Enclosure r = floats(true, false);
  bool shift =
      kRemainder && !mpfr_zero_p(m.get()) && (mpfr_sgn(m.get()) < 0) != (mpfr_sgn(b.lo.get()) < 0);
  mpfr_set(r.lo.get(), m.get(), MPFR_RNDN);
  mpfr_set(r.hi.get(), m.get(), MPFR_RNDN);
  if (shift) {
    mpfr_add(r.lo.get(), m.get(), b.lo.get(), MPFR_RNDD);
    mpfr_add(r.hi.get(), m.get(), b.lo.get(), MPFR_RNDU);
  }
  return r;
}

Enclosure cast_bool_enclosure(EArgs args) {
  const Enclosure& a = *args[0];
  if (a.type != Type::F32) return boolean(a.ilo <= 0 && a.ihi >= 0, !(a.ilo == 0 && a.ihi == 0));
  bool may_zero = contains_zero(a);
  bool may_nonzero = a.nan || (a.real && !(mpfr_zero_p(a.lo.get()) && mpfr_zero_p(a.hi.get())));
  return boolean(may_zero, may_nonzero);
}

Enclosure ldexp_enclosure(EArgs args) {
  const Enclosure &a = *args[0], &e = *args[1];
  if (e.ilo != e.ihi) return Enclosure::any(Type::F32);
  Enclosure r = floats(a.real, a.nan);
  if (!r.real) return r;
  mpfr_mul_2si(r.lo.get(), a.lo.get(), e.ilo, MPFR_RNDD);
  mpfr_mul_2si(r.hi.get(), a.hi.get(), e.ilo, MPFR_RNDU);
  return r;
}

constexpr std::string_view kAnyAwayFromPoints = "any value away from points";
constexpr std::string_view kNoIntervals = "integer results are not tracked by the intervals";
constexpr std::string_view kNoReal =
    "not yet in the real encoding (a real's binade, or 2 to an integer power)";
constexpr std::string_view kNoIeee = "integer values are outside the floating-point encoding";

// Bit operations and shifts on bit-vectors (bools for the bit operations on bools). In IEEE
// semantics a shift amount must be a constant below the width; the real encoding proves the
// amount in range, as it proves a divisor nonzero.
template <Op kOp>
smt::Expr int_smt(smt::IeeeEncoding&, SArgs a) {
  if (kOp == Op::Shl || kOp == Op::Shr || kOp == Op::LShr)
    return smt::bv_shift(kOp, a[0], smt::bv_shift_amount(a[1]));
  return smt::bits_op(kOp, a[0], a[1]);
}

// Over the reals integers are Z3 integers (smt_expr.h): division by a constant and masks of
// contiguous bits are linear there; other bit operations go through bit-vectors.
smt::Expr pow2(z3::context& c, unsigned k) {
  return c.int_val(static_cast<uint64_t>(1) << k);
}

// f(2^k) for the shift amount k: one term for a constant, a choice among the width's otherwise.
template <typename F>
smt::Expr by_shift_amount(const smt::Expr& k, unsigned width, F f) {
  if (uint64_t n = 0; k.is_numeral_u64(n) && n < width) return f(static_cast<unsigned>(n));
  smt::Expr r = f(0);
  for (unsigned n = 1; n < width; ++n) r = z3::ite(k == static_cast<int>(n), f(n), r);
  return r;
}

// x & m for a constant m of contiguous bits below the sign bit (0xFF, 0x7F800000): its field.
std::optional<smt::Expr> masked_field(const smt::Expr& x, const smt::Expr& m) {
  uint64_t v = 0;
  if (!m.is_numeral_u64(v) || v == 0 || v >= (uint64_t{1} << 62)) return std::nullopt;
  unsigned lo = std::countr_zero(v), len = std::countr_one(v >> lo);
  if ((v >> lo) >> len) return std::nullopt;  // not contiguous
  z3::context& c = x.ctx();
  return z3::mod(x / pow2(c, lo), pow2(c, len)) * pow2(c, lo);
}

template <Op kOp>
smt::Expr int_smt_real(smt::RealEncoding& e, SArgs a) {
  const smt::Expr &x = a[0], &y = a[1];
  z3::context& c = e.ctx();
  const unsigned width = e.operand_width(0);
  if (kOp == Op::BitAnd || kOp == Op::BitOr || kOp == Op::BitXor) {
    if (x.is_bool()) return smt::bits_op(kOp, x, y);
    if (kOp == Op::BitAnd) {
      std::optional<smt::Expr> field = masked_field(x, y);
      if (!field) field = masked_field(y, x);
      if (field) return *field;
    }
    return z3::bv2int(smt::bits_op(kOp, z3::int2bv(width, x), z3::int2bv(width, y)), true);
  }
  if (kOp == Op::Shl || kOp == Op::Shr || kOp == Op::LShr) {
    e.condition(y >= 0 && y < static_cast<int>(width));
    // Z3's div by a positive constant is the floor: an arithmetic shift. A logical one shifts
    // the unsigned value. The query wraps what leaves the range.
    smt::Expr u = kOp == Op::LShr ? z3::mod(x, pow2(c, width - 1) * 2) : x;
    return by_shift_amount(
        y, width, [&](unsigned k) { return kOp == Op::Shl ? x * pow2(c, k) : u / pow2(c, k); });
  }
  // The evaluator's integer division: undefined at 0 and for MIN / -1 (which overflows).
  e.condition(y != 0);
  e.condition(!(x == c.int_val(width == 32 ? INT32_MIN : INT64_MIN) && y == -1));
  // Z3's div is Euclidean: the floor for a positive divisor.
  smt::Expr floor_q = z3::ite(y > 0, x / y, (-x) / (-y));
  smt::Expr trunc_q = z3::ite((x >= 0) == (y > 0), floor_q, -z3::ite(y > 0, (-x) / y, x / (-y)));
  switch (kOp) {
    case Op::FloorDiv:
      return floor_q;
    case Op::ModPy:
      return x - y * floor_q;
    case Op::DivC:
      return trunc_q;
    default:  // ModC
      return x - y * trunc_q;
  }
}

// Python's and C's modulo of integer ranges: the result's magnitude is below the divisor's, its
// sign the divisor's (Python) or the dividend's (C); a nonnegative dividend below every positive
// divisor is its own remainder. A divisor range holding 0 (undefined there) gives any value.
template <bool kPython>
Enclosure int_modulo_enclosure(EArgs args) {
  const Enclosure &a = *args[0], &b = *args[1];
  Enclosure r = Enclosure::any(a.type);
  constexpr int64_t kLowest = std::numeric_limits<int64_t>::min() + 1;
  if ((b.ilo <= 0 && b.ihi >= 0) || b.ilo < kLowest) return r;
  if (b.ilo > 0 && a.ilo >= 0 && a.ihi < b.ilo) {
    r.ilo = a.ilo, r.ihi = a.ihi;
    return r;
  }
  int64_t m = std::max(b.ilo < 0 ? -b.ilo : b.ilo, b.ihi < 0 ? -b.ihi : b.ihi) - 1;
  if (kPython) {
    r.ilo = b.ilo > 0 ? 0 : -m;
    r.ihi = b.ilo > 0 ? m : 0;
  } else {
    r.ilo = a.ilo >= 0 ? 0 : -m;
    r.ihi = a.ihi <= 0 ? 0 : m;
  }
  return r;
}

// `cuda`: the runtime function; `may_fail`: undefined for some operands (division by zero,
// shifts out of range), where the evaluator throws.
template <Op kOp>
constexpr OpInfo int_row(std::string_view cuda, bool may_fail, bool commutative = false) {
  constexpr bool kDivision =
      kOp == Op::DivC || kOp == Op::ModC || kOp == Op::FloorDiv || kOp == Op::ModPy;
  return {.op = kOp,
          .arity = 2,
          .sig = Signature::SameInt,
          .commutative = commutative,
          .ieee = ieee_int2<kOp>,
          .real = real_int2<kOp>,
          .no_interval = kNoIntervals,
          .enclosure = kOp == Op::ModPy  ? int_modulo_enclosure<true>
                       : kOp == Op::ModC ? int_modulo_enclosure<false>
                                         : nullptr,
          .no_enclosure = kOp == Op::ModPy || kOp == Op::ModC ? "" : kAnyAwayFromPoints,
          .smt_real = int_smt_real<kOp>,
          .smt_ieee = kDivision ? nullptr : int_smt<kOp>,
          .no_smt_ieee = kDivision ? "integer division (undefined at zero)" : "",
          .cuda = cuda,
          .cuda_may_fail = may_fail};
}

template <Op kOp, Type kType>
constexpr OpInfo to_int_row() {
  return {.op = kOp,
          .arity = 1,
          .sig = Signature::CastTo,
          .cast_result = kType,
          .ieee =
              [](IArgs a) {
                if (a[0].type != Type::F32)
                  return ival(kType, kType == Type::I32 ? wrap(kType, a[0].i) : a[0].i);
                Real r(static_cast<double>(a[0].f));
                return ival(kType, saturate_to_int(kType, r.get()));
              },
          .real =
              [](RArgs a, RealValue& out) {
                if (a[0]->type != Type::F32)
                  return set_int(out, kType, kType == Type::I32 ? wrap(kType, a[0]->i) : a[0]->i);
                set_int(out, kType, saturate_to_int(kType, a[0]->f.get()));
              },
          // Truncation toward zero, NaN to 0: a bool stays [0, 1], an int in range keeps its
          // interval.
          .interval =
              [](IvArgs a) {
                const double lo_t = kType == Type::I32 ? INT32_MIN : -0x1p63;
                const double hi_t = kType == Type::I32 ? INT32_MAX : 0x1p63;
                Interval r = a[0];
                bool nan = r.nan;
                r.nan = false;
                r.never_inf = true;
                r.lo_strict = false;
                // Past the type a float saturates but an integer wraps: then anything.
                if (!r.empty_range() && (r.lo < lo_t || r.hi > hi_t)) r.lo = lo_t, r.hi = hi_t;
                r.lo = r.empty_range() ? 0 : std::trunc(r.lo);
                r.hi = r.empty_range() ? 0 : std::trunc(r.hi);
                if (nan) r.lo = std::min(r.lo, 0.0), r.hi = std::max(r.hi, 0.0);
                return r;
              },
          .enclosure =
              [](EArgs a) {
                if (a[0]->type == Type::F32) return exact_monotone(kOp, *a[0]);
                Enclosure any = Enclosure::any(kType);  // a range past the type wraps
                if (a[0]->ilo < any.ilo || a[0]->ihi > any.ihi) return any;
                return ints(kType, a[0]->ilo, a[0]->ihi);
              },
          // An integer is itself (the query wraps an i64 into i32); a float truncates.
          .smt_real = [](smt::RealEncoding& e, SArgs a) -> smt::Expr {
            z3::context& c = e.ctx();
            if (a[0].is_bool()) return z3::ite(a[0], c.int_val(1), c.int_val(0));
            if (a[0].is_int()) return a[0];
            return e.truncate_to_int(a[0], kType == Type::I32 ? 32 : 64);
          },
          .smt_ieee = [](smt::IeeeEncoding& e,
                         SArgs a) { return smt::bv_cast(e, a[0], kType == Type::I32 ? 32 : 64); },
          .cuda = kType == Type::I32 ? "keq_cast_i32" : "keq_cast_i64"};
}

// int8 and uint8 (SEMANTICS-FACTS.md, tests/fixtures/gpu/int8_casts.txt): torch converts a
// float through a saturating int32 and keeps the low byte, as an int does; the value is an i32
// term in the byte's range. (Triton saturates to 16 bits first: its frontend clamps before.)
template <bool kSigned>
int64_t low_byte(int64_t v) {
  auto b = static_cast<uint8_t>(static_cast<uint64_t>(v));
  return kSigned ? static_cast<int8_t>(b) : b;
}

template <Op kOp, bool kSigned>
constexpr OpInfo to_byte_row() {
  return {.op = kOp,
          .arity = 1,
          .sig = Signature::CastTo,
          .cast_result = Type::I32,
          .ieee =
              [](IArgs a) {
                if (a[0].type != Type::F32) return ival(Type::I32, low_byte<kSigned>(a[0].i));
                Real r(static_cast<double>(a[0].f));
                return ival(Type::I32, low_byte<kSigned>(saturate_to_int(Type::I32, r.get())));
              },
          .real =
              [](RArgs a, RealValue& out) {
                if (a[0]->type != Type::F32)
                  return set_int(out, Type::I32, low_byte<kSigned>(a[0]->i));
                set_int(out, Type::I32,
                        low_byte<kSigned>(saturate_to_int(Type::I32, a[0]->f.get())));
              },
          // Truncation toward zero where the operand lies in the byte's range; past it, any byte.
          .interval =
              [](IvArgs a) {
                const double lo = kSigned ? -128 : 0, hi = kSigned ? 127 : 255;
                Interval r = a[0];
                bool inside = !r.empty_range() && !r.nan && r.lo > lo - 1 && r.hi < hi + 1;
                r.nan = false;
                r.never_inf = true;
                r.lo_strict = false;
                r.lo = inside ? std::trunc(r.lo) : lo;
                r.hi = inside ? std::trunc(r.hi) : hi;
                return r;
              },
          .enclosure =
              [](EArgs a) {
                const int64_t lo = kSigned ? -128 : 0, hi = kSigned ? 127 : 255;
                if (a[0]->type == Type::F32) {
                  if (a[0]->nan || !a[0]->real || mpfr_cmp_si(a[0]->lo.get(), lo - 1) <= 0 ||
                      mpfr_cmp_si(a[0]->hi.get(), hi + 1) >= 0)
                    return ints(Type::I32, lo, hi);
                  return exact_monotone(kOp, *a[0]);
                }
                if (a[0]->ilo < lo || a[0]->ihi > hi) return ints(Type::I32, lo, hi);
                return ints(Type::I32, a[0]->ilo, a[0]->ihi);
              },
          .smt_real =
              [](smt::RealEncoding& e, SArgs a) {
                z3::context& c = e.ctx();
                smt::Expr i = a[0].is_bool()  ? z3::ite(a[0], c.int_val(1), c.int_val(0))
                              : a[0].is_int() ? a[0]
                                              : e.truncate_to_int(a[0], 32);
                smt::Expr byte = z3::mod(i, c.int_val(256));
                return kSigned ? z3::ite(byte >= 128, byte - 256, byte) : byte;
              },
          .smt_ieee = [](smt::IeeeEncoding& e,
                         SArgs a) { return smt::bv_low_byte(smt::bv_cast(e, a[0], 32), kSigned); },
          .cuda = kSigned ? "keq_cast_i8" : "keq_cast_u8"};
}

const OpInfo kRows[] = {
    int_row<Op::DivC>("keq_div_c", true),
    int_row<Op::ModC>("keq_mod_c", true),
    int_row<Op::FloorDiv>("keq_floordiv", true),
    int_row<Op::ModPy>("keq_mod_py", true),
    {.op = Op::FMod,
     .arity = 2,
     .sig = Signature::SameFloat,
     .spellings = "libdevice.fmod",
     .ieee = KEQ_IEEE(return fval(std::fmod(a[0].f, a[1].f));),
     .real = real_float2<mpfr_fmod>,
     .no_interval = "not yet bounded",
     .enclosure = modulo_enclosure<false>,
     .smt_real = KEQ_SMT_REAL(return smt::real_fmod(e, a[0], a[1]);),
     .no_smt_ieee = "not yet encoded (Z3's fp.rem rounds the quotient to even, fmod truncates)",
     .cuda = "keq_fmod"},
    {.op = Op::Remainder,
     .arity = 2,
     .sig = Signature::SameFloat,
     .ieee = KEQ_IEEE(float m = std::fmod(a[0].f, a[1].f);
                      if (m != 0 && !std::isnan(m) && ((m < 0) != (a[1].f < 0))) m += a[1].f;
                      return fval(m);),
     .real = real_float2<mpfr_remainder_torch>,
     .no_interval = "not yet bounded",
     .enclosure = modulo_enclosure<true>,
     .smt_real = KEQ_SMT_REAL(smt::Expr m = smt::real_fmod(e, a[0], a[1]);
                              return z3::ite(m != 0 && ((m < 0) != (a[1] < 0)), m + a[1], m);),
     .no_smt_ieee = "not yet encoded",
     .cuda = "keq_remainder"},
    int_row<Op::Shl>("keq_shl", true),
    int_row<Op::Shr>("keq_shr", true),
    int_row<Op::LShr>("keq_lshr", true),
    int_row<Op::BitAnd>("keq_band", false, true),
    int_row<Op::BitOr>("keq_bor", false, true),
    int_row<Op::BitXor>("keq_bxor", false, true),
    to_int_row<Op::CastI32, Type::I32>(),
    to_int_row<Op::CastI64, Type::I64>(),
    to_byte_row<Op::CastI8, true>(),
    to_byte_row<Op::CastU8, false>(),
    {.op = Op::CastBool,
     .arity = 1,
     .sig = Signature::CastTo,
     .cast_result = Type::Bool,
     .ieee = KEQ_IEEE(return bval(a[0].type == Type::F32 ? a[0].f != 0 : a[0].i != 0);),
     .real =
         KEQ_REAL(set_int(out, Type::Bool,
                          a[0]->type == Type::F32 ? !mpfr_zero_p(a[0]->f.get()) : a[0]->i != 0);),
     .interval = [](IvArgs) { return bool_interval(); },
     .enclosure = cast_bool_enclosure,
     .smt_real = KEQ_SMT_REAL(if (a[0].is_bool()) return a[0]; return a[0] != 0;),
     .smt_ieee =
         KEQ_SMT_IEEE(if (a[0].is_bool()) return a[0];
                      if (a[0].is_bv()) return a[0] != e.ctx().bv_val(0, a[0].get_sort().bv_size());
                      return !a[0].mk_is_zero();),
     .cuda = "keq_cast_bool"},
    {.op = Op::BitcastI32,
     .arity = 1,
     .sig = Signature::BitcastF2I,
     .ieee = KEQ_IEEE(uint32_t b; std::memcpy(&b, &a[0].f, 4);
                      return ival(Type::I32, static_cast<int32_t>(b));),
     // A real is materialized as fp32 before its bits exist.
     .real = KEQ_REAL(float f = mpfr_get_flt(a[0]->f.get(), MPFR_RNDN); uint32_t b;
                      std::memcpy(&b, &f, 4); set_int(out, Type::I32, static_cast<int32_t>(b));),
     .no_interval = kNoIntervals,
     .no_enclosure = kAnyAwayFromPoints,
     .smt_real = KEQ_SMT_REAL(return e.fp32_bits_of(a[0]);),
     .smt_ieee = KEQ_SMT_IEEE(return smt::fp_to_bits(e, a[0]);),
     .cuda = "keq_bitcast_i32"},
    {.op = Op::BitcastF32,
     .arity = 1,
     .sig = Signature::BitcastI2F,
     .ieee = KEQ_IEEE(uint32_t b = static_cast<uint32_t>(a[0].i); float f; std::memcpy(&f, &b, 4);
                      return fval(f);),
     .real = KEQ_REAL(uint32_t b = static_cast<uint32_t>(a[0]->i); float f; std::memcpy(&f, &b, 4);
                      mpfr_set_d(set_float(out), f, MPFR_RNDN);),
     .no_interval = "not yet: any fp32 value or NaN",
     .no_enclosure = kAnyAwayFromPoints,
     .smt_real = KEQ_SMT_REAL(return e.real_of_fp32_bits(a[0]);),
     .smt_ieee = KEQ_SMT_IEEE(return a[0].mk_from_ieee_bv(e.f32());),
     .cuda = "keq_bitcast_f32"},
    // frexp: x = mant * 2^exp with |mant| in [0.5, 1); zero, inf and NaN give (x, 0).
    {.op = Op::FrexpMant,
     .arity = 1,
     .sig = Signature::SameFloat,
     .real_exact = true,
     .ieee = KEQ_IEEE(int e; float m = std::frexp(a[0].f, &e);
                      if (!std::isfinite(a[0].f)) m = a[0].f; return fval(m);),
     .real = KEQ_REAL(mpfr_ptr o = set_float(out); mpfr_srcptr x = a[0]->f.get();
                      if (!mpfr_regular_p(x)) {
                        mpfr_set(o, x, MPFR_RNDN);
                        return;
                      } mpfr_exp_t e;
                      mpfr_frexp(&e, o, x, MPFR_RNDN);),
     .no_interval = "not yet bounded",
     .no_enclosure = kAnyAwayFromPoints,
     .no_smt_real = kNoReal,
     .no_smt_ieee = "not yet encoded",
     .cuda = "keq_frexp_mant"},
    {.op = Op::FrexpExp,
     .arity = 1,
     .sig = Signature::FrexpExp,
     .ieee = KEQ_IEEE(int e = 0; if (std::isfinite(a[0].f)) std::frexp(a[0].f, &e);
                      return ival(Type::I32, e);),
     .real =
         KEQ_REAL(mpfr_srcptr x = a[0]->f.get();
                  int64_t e = mpfr_regular_p(x) ? mpfr_get_exp(x) : 0; set_int(out, Type::I32, e);),
     .no_interval = kNoIntervals,
     .no_enclosure = kAnyAwayFromPoints,
     .no_smt_real = kNoReal,
     .no_smt_ieee = kNoIeee,
     .cuda = "keq_frexp_exp"},
    {.op = Op::Ldexp,
     .arity = 2,
     .sig = Signature::Ldexp,
     .ieee = KEQ_IEEE(return fval(std::ldexp(
         a[0].f, static_cast<int>(std::clamp<int64_t>(a[1].i, -100000, 100000))));),
     .real = KEQ_REAL(mpfr_mul_2si(set_float(out), a[0]->f.get(), a[1]->i, MPFR_RNDN);),
     .no_interval = "not yet bounded",
     .enclosure = ldexp_enclosure,
     .no_smt_real = kNoReal,
     .no_smt_ieee = kNoIeee,
     .cuda = "keq_ldexp"},
};

}  // namespace

std::span<const OpInfo> integer_ops() {
  return kRows;
}

}  // namespace keq::ir::family
