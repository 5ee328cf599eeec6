// Types, exact constants and concrete values in both semantics.
//
// A float term's value is an fp32 value in IEEE semantics and an extended real in real semantics.
// Narrow formats (fp16, bf16, fp8) are not separate types: a cast rounds into the format's value
// set, and the result is a float like any other. This matches how both frameworks compute narrow
// arithmetic (in fp32, rounding the result), and keeps one float type in every layer.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/error.h"

namespace keq::ir {

enum class Type : uint8_t { F32, I32, I64, Bool };
std::string_view type_name(Type t);
std::optional<Type> type_by_name(std::string_view s);
inline bool is_int(Type t) {
  return t == Type::I32 || t == Type::I64;
}

enum class Semantics : uint8_t { Real, Ieee };
std::string_view semantics_name(Semantics s);
std::optional<Semantics> semantics_by_name(std::string_view s);

// Narrow float formats reachable by casts, and what a cast does past the largest finite value.
enum class FloatFormat : uint8_t { F32, F16, BF16, E4M3FN, E5M2 };
enum class Overflow : uint8_t {
  Inf,       // IEEE: round to +-inf (fp16, bf16, torch e5m2)
  NaN,       // torch float8_e4m3fn: values rounding past 448, and +-inf, become NaN
  Saturate,  // Triton satfinite fp8: clamp to +-max finite, even for +-inf
};
struct FormatInfo {
  int exp_bits, mant_bits, bias;
  double max_finite;
};
const FormatInfo& format_info(FloatFormat f);

// An exact constant. Floats hold the exact value as a double (every fp32 value is one);
// real-semantics constant folding only produces values that a double holds exactly.
struct Constant {
  Type type = Type::F32;
  double f = 0;
  int64_t i = 0;  // ints, and bools as 0/1

  static Constant of_float(double v) { return {Type::F32, v, 0}; }
  static Constant of_int(Type t, int64_t v) { return {t, 0, v}; }
  static Constant of_bool(bool b) { return {Type::Bool, 0, b ? 1 : 0}; }
  // Identity for hash-consing: bit-exact (so -0 and +0 are distinct constants, NaNs are one).
  uint64_t key_bits() const;
  friend bool operator==(const Constant& a, const Constant& b) {
    return a.type == b.type && a.key_bits() == b.key_bits();
  }
  std::string str() const;  // re-readable by the s-expression term reader
};
// Equality of values under a semantics: real identifies +0/-0 and all NaNs; IEEE compares bits
// but any NaN matches any NaN.
bool same_value(const Constant& a, const Constant& b, Semantics s);

// A high-precision real for real-semantics evaluation (MPFR, 256 bits). Results of + - * are
// exact at the depths keq builds; every rounding is reported through `inexact()` so constant
// folding folds only exact results.
class Real {
 public:
  static constexpr mpfr_prec_t kPrecision = 256;
  // The precision new Reals get; replay raises it to tell real differences from rounding.
  static mpfr_prec_t& working_precision() {
    static thread_local mpfr_prec_t p = kPrecision;
    return p;
  }
  // Widens this thread's MPFR exponent range to the most MPFR allows (about 2^+-4.6e18, from
  // 2^+-1.07e9): a witness point such as scores at -2e9 makes softmax's exp(-1e9), which the
  // default range flushes and the evaluators then refuse as no evidence. Idempotent.
  static void widen_exponent_range() {
    static thread_local const bool widened =
        (mpfr_set_emin(mpfr_get_emin_min()), mpfr_set_emax(mpfr_get_emax_max()), true);
    (void)widened;
  }
  // Raises the working precision for a scope (exceptions included).
  class PrecisionScope {
   public:
    explicit PrecisionScope(mpfr_prec_t p) : saved_(working_precision()) {
      working_precision() = p;
    }
    ~PrecisionScope() { working_precision() = saved_; }
    PrecisionScope(const PrecisionScope&) = delete;
    PrecisionScope& operator=(const PrecisionScope&) = delete;

   private:
    mpfr_prec_t saved_;
  };
  Real() { mpfr_init2(v_, working_precision()), mpfr_set_zero(v_, 1); }
  explicit Real(double d) : Real() { mpfr_set_d(v_, d, MPFR_RNDN); }
  Real(const Real& o) : Real() { mpfr_set(v_, o.v_, MPFR_RNDN); }
  Real& operator=(const Real& o) {
    mpfr_set(v_, o.v_, MPFR_RNDN);
    return *this;
  }
  ~Real() { mpfr_clear(v_); }
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  // The value as a double when a double holds it exactly.
  std::optional<double> exact_double() const;
  double approx_double() const { return mpfr_get_d(v_, MPFR_RNDN); }
  std::string str() const;

 private:
  mpfr_t v_;
};

// Rounds x to nearest-even in format f, then applies the overflow rule. Exact: the result is a
// value of the format, returned as a double.
double round_to_format(mpfr_srcptr x, FloatFormat f, Overflow o);
double round_to_format(double x, FloatFormat f, Overflow o);

// Concrete values. `f` is meaningful for floats, `i` for ints and bools.
struct IeeeValue {
  Type type = Type::F32;
  float f = 0;
  int64_t i = 0;
  static IeeeValue of(const Constant& c);
  Constant to_constant() const;
};
struct RealValue {
  Type type = Type::F32;
  Real f;
  int64_t i = 0;
  static RealValue of(const Constant& c);
  std::optional<Constant> to_constant() const;  // none when the real is no double
  std::string str() const;
};

// Evaluation failed: integer division by zero, a bitcast of a non-fp32 real, and the like.
// Operands of the wrong types for an op: a term file's mistake, or (from a frontend) keq's bug.
struct TypeError : Error {
  explicit TypeError(const std::string& what) : Error(ErrorKind::Internal, what) {}
};

struct EvalError : Error {
  explicit EvalError(const std::string& what) : Error(ErrorKind::Evaluation, what) {}
};

}  // namespace keq::ir
