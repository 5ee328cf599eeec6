// The small Z3 vocabulary an op's SMT encodings are written in (Alive2's smt::expr style).
//
// Each op's entry in the op table (ir/ops/) gives its real and IEEE encodings as a few lines of
// math over `Expr` (z3::expr, whose operators are already the math), the floating-point helpers
// below (which z3++ lacks, so no op entry calls Z3's C API), and the query it is part of:
// `RealEncoding` or `IeeeEncoding`, which smt/ implements. The wrapper sits with ir, below
// every other layer, for the reason Alive2 puts smt below its IR: an op's encoding is part of
// what the op means.
#pragma once

#include <mpfr.h>
#include <z3++.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "ir/error.h"
#include "ir/op.h"
#include "ir/value.h"

namespace keq::smt {

using Expr = z3::expr;

// Thrown by an encoding for an input outside the fragment it covers ("a sum of three terms").
struct NotEncoded : Error {  // caught inside smt/, where it becomes an Unsupported outcome
  explicit NotEncoded(const std::string& what) : Error(ErrorKind::Unsupported, what) {}
};

using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// Real semantics: exact over the reals. Division-like ops state their side conditions, which the
// query proves for every input before it trusts an answer.
class RealEncoding {
 public:
  virtual ~RealEncoding() = default;
  virtual z3::context& ctx() = 0;
  virtual Expr fresh(const char* prefix) = 0;       // a new real constant
  virtual Expr fresh_int(const char* prefix) = 0;   // a new integer constant
  virtual Expr fresh_bool(const char* prefix) = 0;  // a new bool constant
  virtual void fact(const Expr& e) = 0;             // true of every input (and of the functions)
  virtual void condition(const Expr& e) = 0;        // must be proved for every input first
  // f(x) for an uninterpreted real function named `name`. With `increasing`, the MPFR function
  // it stands for: a model that gives f a value the real function does not take is refined.
  virtual Expr apply(const char* name, const Expr& x, MpfrFn increasing) = 0;

  Expr real(int v) { return ctx().real_val(v); }
  // x / y as the q with q * y = x, once y != 0 is proved: Z3's own x/0 is some arbitrary value.
  Expr quotient(const Expr& x, const Expr& y);
  Expr exp(const Expr& x);  // an increasing function, > 0
  // The l with exp(l) = x, once x > 0 is proved, with its sign (> 0 for x > 1): exp2 and log2
  // are encoded through log(2), so the real rule exp2(a) = exp(a * log 2) is an identity.
  Expr log(const Expr& x);
  // x rounded to nearest, ties to even, into a narrow format's values (fp16, bf16, e4m3fn,
  // e5m2). Saturate clamps to the largest finite value first; otherwise the cast's overflow
  // (inf or NaN, which reals do not hold) is a side condition: x stays where it rounds finite.
  Expr round_to_format(const Expr& x, ir::FloatFormat f, ir::Overflow o);

  // Integers are Z3 integers in their width's signed range: a row computes the exact result
  // and the query wraps it into the range where it can leave it, so linear arithmetic decides
  // them; bit operations other than masks go through bit-vectors. (Z3 4.8's bridge from
  // bit-vectors to reals did not show trunc(-x) = -trunc(x) in 10 s.)
  // The width of the i-th operand of the term being encoded: 32 or 64, 0 for floats and bools.
  virtual unsigned operand_width(size_t i) = 0;
  // x, a real, truncated toward zero and saturated into `width` bits (cast.i32, cast.i64).
  Expr truncate_to_int(const Expr& x, unsigned width);
  // The fp32 bits a bitcast reads, as a signed i32: x rounded to nearest even into fp32 (past
  // the largest finite value, inf's bits). Zero's sign is not a real's: either zero's bits.
  Expr fp32_bits_of(const Expr& x);
  // The real an fp32 bit pattern (a signed i32) holds; that it holds no inf or NaN is a side
  // condition.
  Expr real_of_fp32_bits(const Expr& bits);

 private:
  // x rounded to nearest even into a format with `mant` mantissa bits and exponents emin..emax
  // (unbounded above: the caller states overflow): the value and its magnitude's bits as an
  // integer for x >= 0 (biased exponent field and mantissa field), which a carry out of the
  // mantissa moves into the next binade by itself.
  std::pair<Expr, Expr> round_binades(const Expr& x, int emin, int emax, int mant);
};

// IEEE semantics: fp32 in Z3's floating-point theory, round to nearest even.
class IeeeEncoding {
 public:
  virtual ~IeeeEncoding() = default;
  virtual z3::context& ctx() = 0;
  z3::sort f32() { return ctx().fpa_sort(8, 24); }
  Expr nan() { return ctx().fpa_nan(f32()); }
  Expr rne() { return ctx().fpa_rounding_mode(); }
  // Bits no formula constrains (a NaN's payload, which keq does not model), new at each call.
  Expr fresh_bits(unsigned width) {
    return ctx().bv_const(("unmodelled_bits!" + std::to_string(fresh_++)).c_str(), width);
  }

 private:
  unsigned fresh_ = 0;
};

// IEEE semantics: integers as bit-vectors of their width (i32, i64; wrapping as keq's integers
// do). A shift amount must be a constant below the width (past it the hardware and LLVM differ).
Expr bv_shift_amount(const Expr& amount);
// Shifts and bit operations of bit-vectors (and of bools, for the bit operations).
Expr bv_shift(ir::Op op, const Expr& x, const Expr& amount);
Expr bits_op(ir::Op op, const Expr& x, const Expr& y);
// A bool or an integer as an integer of `width` bits (sign-extended or truncated).
Expr bv_resize(const Expr& x, unsigned width);
// floor, ceil, trunc, round (half to even) and round.away (half away from zero) of a real, and
// of an fp32 (Z3's fp.roundToIntegral in the matching rounding mode).
Expr real_to_integer(ir::Op op, const Expr& x);
Expr fp_to_integer(IeeeEncoding& e, ir::Op op, const Expr& x);
// fmod over the reals: x - y * trunc(x / y), once y != 0 is proved.
Expr real_fmod(RealEncoding& e, const Expr& x, const Expr& y);
// A byte of an i32's low 8 bits, sign- or zero-extended back to 32 (cast.i8, cast.u8).
Expr bv_low_byte(const Expr& x, bool is_signed);
// A Z3 integer reduced into the signed range of `width` bits (two's complement wrap).
Expr int_wrap(const Expr& v, unsigned width);
// A float (truncated toward zero, saturating, NaN giving 0), a bool or an integer as an integer
// of `width` bits: keq's cast.i32 and cast.i64.
Expr bv_cast(IeeeEncoding& e, const Expr& x, unsigned width);
// fp32 bits, as a bitcast reads them: a NaN's bits are unconstrained.
Expr fp_to_bits(IeeeEncoding& e, const Expr& x);

Expr fp_abs(const Expr& x);
Expr fp_is_negative(const Expr& x);
Expr fp_fma(IeeeEncoding& e, const Expr& a, const Expr& b, const Expr& c);
Expr fp_sqrt(IeeeEncoding& e, const Expr& x);
// x rounded through a narrower IEEE format (ebits, sbits) and back to fp32, which is exact.
Expr fp_round_through(IeeeEncoding& e, const Expr& x, unsigned ebits, unsigned sbits);
// x rounded into float8_e4m3fn and back to fp32: torch's cast (NaN past 464 and for +-inf) or,
// with `saturate`, Triton's satfinite one. e4m3fn has no IEEE sort (no infinities, max 448):
// normals round through (_ FloatingPoint 5 4), which has its 3 mantissa bits and more exponent
// range, and below 2^-6 the quantum is fixed at 2^-9.
Expr fp_round_e4m3(IeeeEncoding& e, const Expr& x, bool saturate);
// x clamped to [-max, max] (NaN passes through): what a saturating cast does before rounding.
Expr fp_clamp(IeeeEncoding& e, const Expr& x, double max);
// max/min as both frameworks order fp32 values: -0 below +0; NaN wins (torch's max) or loses
// (maxnum, Triton's maximum).
Expr fp_pick(IeeeEncoding& e, const Expr& a, const Expr& b, bool is_max, bool nan_wins);

// A model's value of an fp32 term as its bits; none for NaN (SMT-LIB has one NaN, no bits).
std::optional<uint32_t> fp32_bits(const z3::model& m, const Expr& x);
// A bit-vector numeral's value as a signed integer of its width.
int64_t bv_signed_value(const Expr& numeral);
// A numeral's exact text ("3/4", or a decimal ending in '?' for an algebraic number).
std::string numeral_text(const Expr& v);

}  // namespace keq::smt
