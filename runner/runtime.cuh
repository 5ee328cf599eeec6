// keq's runtime for generated checks (runner/): one function per op of the op table (its `cuda`
// field), a sweep over inputs, and the driver that prints results. The same text compiles with
// nvcc (the device path: the intrinsics and PTX instructions that torch and Triton emit) and with
// a host C++ compiler (the CPU fallback: software that computes what keq's evaluator computes).
//
// Values: float is IEEE fp32; double stands for a real in real semantics (an approximation whose
// differences are only reported: real verdicts come from rigorous evaluation on the CPU);
// int32_t, int64_t and bool are integers and booleans.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define KEQ_HD __host__ __device__ inline
#define KEQ_GLOBAL __global__
#else
#define KEQ_HD inline
#endif

// The device path of a function; the host path (also used by nvcc's host side) otherwise.
#if defined(__CUDA_ARCH__)
#define KEQ_ON_DEVICE 1
#else
#define KEQ_ON_DEVICE 0
#endif

// ---- bits ------------------------------------------------------------------------------------

KEQ_HD uint32_t keq_bits(float x) {
#if KEQ_ON_DEVICE
  return __float_as_uint(x);
#else
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
#endif
}
KEQ_HD float keq_float(uint32_t b) {
#if KEQ_ON_DEVICE
  return __uint_as_float(b);
#else
  float x;
  std::memcpy(&x, &b, 4);
  return x;
#endif
}
KEQ_HD uint64_t keq_bits(double x) {
#if KEQ_ON_DEVICE
  return static_cast<uint64_t>(__double_as_longlong(x));
#else
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
#endif
}
KEQ_HD double keq_double(uint64_t b) {
#if KEQ_ON_DEVICE
  return __longlong_as_double(static_cast<long long>(b));
#else
  double x;
  std::memcpy(&x, &b, 8);
  return x;
#endif
}
template <class T>
KEQ_HD bool keq_isnan(T x) {
  return x != x;
}
template <class T>
KEQ_HD bool keq_signbit(T x) {
  return std::signbit(x);
}

// ---- narrow formats ------------------------------------------------------------------------
// Rounding to nearest even into a format with `mant` fraction bits, smallest normal exponent
// `emin` and largest finite value `max`; overflow 0: to +-inf, 1: to NaN (torch's e4m3fn),
// 2: saturate to +-max (Triton's satfinite, +-inf included). Exact for doubles and floats.
enum : int { kKeqOverflowInf = 0, kKeqOverflowNaN = 1, kKeqOverflowSat = 2 };

KEQ_HD double keq_round_format(double x, int mant, int emin, double max, int overflow) {
  if (keq_isnan(x)) return x;
  if (overflow == kKeqOverflowSat) x = x > max ? max : (x < -max ? -max : x);
  double a = std::fabs(x);
  if (a == 0 || std::isinf(a)) return overflow == kKeqOverflowNaN && std::isinf(a) ? NAN : x;
  // The leading bit's exponent from the bits (a double subnormal lies far below every emin).
  int lead = static_cast<int>(keq_bits(a) >> 52) - 1023;
  if (lead < emin) lead = emin;
  int q = lead - mant;  // the quantum is 2^q; scaling by powers of two is exact
  // a * 2^-q < 2^(mant + 2): adding and removing 2^52 rounds it to an integer, ties to even.
  double scaled = a * keq_double(static_cast<uint64_t>(1023 - q) << 52);
  double r = ((scaled + 0x1p52) - 0x1p52) * keq_double(static_cast<uint64_t>(1023 + q) << 52);
  if (r > max) {
    if (overflow == kKeqOverflowNaN) return NAN;
    r = INFINITY;
  }
  return std::copysign(r, x);
}

// The formats: (mant, emin, max).
#define KEQ_F16 10, -14, 65504.0
#define KEQ_BF16 7, -126, 3.3895313892515355e38
#define KEQ_E4M3 3, -6, 448.0
#define KEQ_E5M2 2, -14, 57344.0

KEQ_HD float keq_cast_f16(float x) {
#if KEQ_ON_DEVICE
  return __half2float(__float2half_rn(x));
#else
  return static_cast<float>(keq_round_format(x, KEQ_F16, kKeqOverflowInf));
#endif
}
KEQ_HD float keq_cast_bf16(float x) {
#if KEQ_ON_DEVICE
  return __bfloat162float(__float2bfloat16_rn(x));
#else
  return static_cast<float>(keq_round_format(x, KEQ_BF16, kKeqOverflowInf));
#endif
}
// torch's casts into fp8 are software (round to nearest even; e4m3fn: NaN past 464 and for
// +-inf; e5m2: inf); Triton's are the satfinite PTX instruction, emitted here as it emits it.
KEQ_HD float keq_cast_e4m3(float x) {
  return static_cast<float>(keq_round_format(x, KEQ_E4M3, kKeqOverflowNaN));
}
KEQ_HD float keq_cast_e5m2(float x) {
  return static_cast<float>(keq_round_format(x, KEQ_E5M2, kKeqOverflowInf));
}
#if KEQ_ON_DEVICE
// An fp8 byte pair's low byte, decoded exactly.
__device__ inline float keq_decode_e4m3(uint32_t b) {
  b &= 0xff;
  float sign = (b & 0x80) ? -1.0f : 1.0f;
  uint32_t e = (b >> 3) & 0xf, m = b & 7;
  if (e == 0xf && m == 7) return __uint_as_float(0x7fc00000u);
  if (e == 0) return sign * ldexpf(static_cast<float>(m), -9);
  return sign * ldexpf(static_cast<float>(8 + m), static_cast<int>(e) - 10);
}
__device__ inline float keq_decode_e5m2(uint32_t b) {
  return __half2float(__ushort_as_half(static_cast<unsigned short>((b & 0xff) << 8)));
}
#endif
KEQ_HD float keq_cast_e4m3_sat(float x) {
#if KEQ_ON_DEVICE && __CUDA_ARCH__ >= 890
  unsigned short r;
  asm("{cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;}\n" : "=h"(r) : "f"(0.0f), "f"(x));
  return keq_decode_e4m3(r);
#else
  return static_cast<float>(keq_round_format(x, KEQ_E4M3, kKeqOverflowSat));
#endif
}
KEQ_HD float keq_cast_e5m2_sat(float x) {
#if KEQ_ON_DEVICE && __CUDA_ARCH__ >= 890
  unsigned short r;
  asm("{cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;}\n" : "=h"(r) : "f"(0.0f), "f"(x));
  return keq_decode_e5m2(r);
#else
  return static_cast<float>(keq_round_format(x, KEQ_E5M2, kKeqOverflowSat));
#endif
}
// Real semantics: the exact rounding of the (approximated) real.
KEQ_HD double keq_cast_f16(double x) {
  return keq_round_format(x, KEQ_F16, kKeqOverflowInf);
}
KEQ_HD double keq_cast_bf16(double x) {
  return keq_round_format(x, KEQ_BF16, kKeqOverflowInf);
}
KEQ_HD double keq_cast_e4m3(double x) {
  return keq_round_format(x, KEQ_E4M3, kKeqOverflowNaN);
}
KEQ_HD double keq_cast_e5m2(double x) {
  return keq_round_format(x, KEQ_E5M2, kKeqOverflowInf);
}
KEQ_HD double keq_cast_e4m3_sat(double x) {
  return keq_round_format(x, KEQ_E4M3, kKeqOverflowSat);
}
KEQ_HD double keq_cast_e5m2_sat(double x) {
  return keq_round_format(x, KEQ_E5M2, kKeqOverflowSat);
}
// Integers into a narrow format round once, from the exact integer (exact in double below 2^53).
#define KEQ_INT_CASTS(NAME, R)                           \
  KEQ_HD R NAME(int32_t i) {                             \
    return static_cast<R>(NAME(static_cast<double>(i))); \
  }                                                      \
  KEQ_HD R NAME(int64_t i) {                             \
    return static_cast<R>(NAME(static_cast<double>(i))); \
  }
KEQ_INT_CASTS(keq_cast_f16, float)
KEQ_INT_CASTS(keq_cast_bf16, float)
KEQ_INT_CASTS(keq_cast_e4m3, float)
KEQ_INT_CASTS(keq_cast_e5m2, float)
KEQ_INT_CASTS(keq_cast_e4m3_sat, float)
KEQ_INT_CASTS(keq_cast_e5m2_sat, float)

// ---- arithmetic ----------------------------------------------------------------------------
// fp32 with explicit rounding on the device: no contraction into fma, whatever the flags.
KEQ_HD float keq_add(float a, float b) {
#if KEQ_ON_DEVICE
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
KEQ_HD float keq_sub(float a, float b) {
#if KEQ_ON_DEVICE
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
KEQ_HD float keq_mul(float a, float b) {
#if KEQ_ON_DEVICE
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
KEQ_HD float keq_div(float a, float b) {
#if KEQ_ON_DEVICE
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
// Triton's fp32 `/`: div.full.f32, an approximation (up to 2 ulp). The CPU has no such
// instruction: it computes the correctly rounded quotient, as keq's evaluator does.
KEQ_HD float keq_div_full(float a, float b) {
#if KEQ_ON_DEVICE
  float r;
  asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return a / b;
#endif
}
KEQ_HD float keq_recip(float a) {
#if KEQ_ON_DEVICE
  return __frcp_rn(a);
#else
  return 1.0f / a;
#endif
}
KEQ_HD float keq_fma(float a, float b, float c) {
#if KEQ_ON_DEVICE
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
KEQ_HD double keq_add(double a, double b) {
  return a + b;
}
KEQ_HD double keq_sub(double a, double b) {
  return a - b;
}
KEQ_HD double keq_mul(double a, double b) {
  return a * b;
}
KEQ_HD double keq_div(double a, double b) {
  return a / b;
}
KEQ_HD double keq_div_full(double a, double b) {
  return a / b;
}
KEQ_HD double keq_recip(double a) {
  return 1.0 / a;
}
KEQ_HD double keq_fma(double a, double b, double c) {
  return std::fma(a, b, c);
}
template <class T>
KEQ_HD T keq_neg(T a) {
  return -a;
}
template <class T>
KEQ_HD T keq_abs(T a) {
  return std::fabs(a);
}
// Integers wrap (two's complement), as the evaluator's.
#define KEQ_INT_ARITH(T, U)                                       \
  KEQ_HD T keq_add(T a, T b) {                                    \
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); \
  }                                                               \
  KEQ_HD T keq_sub(T a, T b) {                                    \
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b)); \
  }                                                               \
  KEQ_HD T keq_mul(T a, T b) {                                    \
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b)); \
  }                                                               \
  KEQ_HD T keq_neg(T a) {                                         \
    return static_cast<T>(U(0) - static_cast<U>(a));              \
  }                                                               \
  KEQ_HD T keq_abs(T a) {                                         \
    return a < 0 ? keq_neg(a) : a;                                \
  }
KEQ_INT_ARITH(int32_t, uint32_t)
KEQ_INT_ARITH(int64_t, uint64_t)

// ---- extrema -------------------------------------------------------------------------------
// -0 orders below +0 in both frameworks; torch's max/min propagate NaN, maxnum/minnum drop it.
template <class T>
KEQ_HD T keq_pick(T a, T b, bool is_max) {
  if (a == b) return keq_signbit(a) == is_max ? b : a;
  return (a > b) == is_max ? a : b;
}
template <class T>
KEQ_HD T keq_max(T a, T b) {
  if (keq_isnan(a)) return a;
  if (keq_isnan(b)) return b;
  return keq_pick(a, b, true);
}
template <class T>
KEQ_HD T keq_min(T a, T b) {
  if (keq_isnan(a)) return a;
  if (keq_isnan(b)) return b;
  return keq_pick(a, b, false);
}
template <class T>
KEQ_HD T keq_maxnum(T a, T b) {
  if (keq_isnan(a)) return b;
  if (keq_isnan(b)) return a;
  return keq_pick(a, b, true);
}
template <class T>
KEQ_HD T keq_minnum(T a, T b) {
  if (keq_isnan(a)) return b;
  if (keq_isnan(b)) return a;
  return keq_pick(a, b, false);
}
#define KEQ_INT_EXTREMA(T)        \
  KEQ_HD T keq_max(T a, T b) {    \
    return a > b ? a : b;         \
  }                               \
  KEQ_HD T keq_min(T a, T b) {    \
    return a < b ? a : b;         \
  }                               \
  KEQ_HD T keq_maxnum(T a, T b) { \
    return a > b ? a : b;         \
  }                               \
  KEQ_HD T keq_minnum(T a, T b) { \
    return a < b ? a : b;         \
  }                               \
  KEQ_HD bool keq_signbit(T a) {  \
    return a < 0;                 \
  }
KEQ_INT_EXTREMA(int32_t)
KEQ_INT_EXTREMA(int64_t)
template <class T>
KEQ_HD T keq_clamp(T x, T lo, T hi) {
  return keq_min(keq_max(x, lo), hi);
}

// ---- comparisons and logic -----------------------------------------------------------------
template <class T>
KEQ_HD bool keq_lt(T a, T b) {
  return a < b;
}
template <class T>
KEQ_HD bool keq_le(T a, T b) {
  return a <= b;
}
template <class T>
KEQ_HD bool keq_gt(T a, T b) {
  return a > b;
}
template <class T>
KEQ_HD bool keq_ge(T a, T b) {
  return a >= b;
}
template <class T>
KEQ_HD bool keq_eq(T a, T b) {
  return a == b;
}
template <class T>
KEQ_HD bool keq_ne(T a, T b) {
  return a != b;
}
template <class T>
KEQ_HD T keq_select(bool c, T a, T b) {
  return c ? a : b;
}
KEQ_HD bool keq_and(bool a, bool b) {
  return a && b;
}
KEQ_HD bool keq_or(bool a, bool b) {
  return a || b;
}
KEQ_HD bool keq_not(bool a) {
  return !a;
}

// ---- integer division, modulo, shifts: undefined where the evaluator throws ---------------
template <class T>
KEQ_HD bool keq_bad_divisor(T a, T b, bool& undefined) {
  T min = static_cast<T>(static_cast<T>(1) << (sizeof(T) * 8 - 1));
  if (b == 0 || (b == -1 && a == min)) undefined = true;
  return undefined;
}
template <class T>
KEQ_HD T keq_div_c(T a, T b, bool& u) {
  return keq_bad_divisor(a, b, u) ? T(0) : a / b;
}
template <class T>
KEQ_HD T keq_mod_c(T a, T b, bool& u) {
  return keq_bad_divisor(a, b, u) ? T(0) : a % b;
}
template <class T>
KEQ_HD T keq_floordiv(T a, T b, bool& u) {
  if (keq_bad_divisor(a, b, u)) return 0;
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T>
KEQ_HD T keq_mod_py(T a, T b, bool& u) {
  if (keq_bad_divisor(a, b, u)) return 0;
  T r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <class T>
KEQ_HD bool keq_bad_shift(T b, bool& undefined) {
  if (b < 0 || b >= static_cast<T>(sizeof(T) * 8)) undefined = true;
  return undefined;
}
template <class T>
KEQ_HD T keq_shl(T a, T b, bool& u) {
  using U = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;
  return keq_bad_shift(b, u) ? T(0) : static_cast<T>(static_cast<U>(a) << b);
}
template <class T>
KEQ_HD T keq_shr(T a, T b, bool& u) {
  return keq_bad_shift(b, u) ? T(0) : static_cast<T>(a >> b);
}
template <class T>
KEQ_HD T keq_lshr(T a, T b, bool& u) {
  using U = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;
  return keq_bad_shift(b, u) ? T(0) : static_cast<T>(static_cast<U>(a) >> b);
}
template <class T>
KEQ_HD T keq_band(T a, T b) {
  return a & b;
}
template <class T>
KEQ_HD T keq_bor(T a, T b) {
  return a | b;
}
template <class T>
KEQ_HD T keq_bxor(T a, T b) {
  return a ^ b;
}
KEQ_HD float keq_fmod(float a, float b) {
  return std::fmod(a, b);
}
KEQ_HD double keq_fmod(double a, double b) {
  return std::fmod(a, b);
}
template <class T>
KEQ_HD T keq_remainder(T a, T b) {  // torch.remainder: the sign of the divisor
  T m = std::fmod(a, b);
  if (m != 0 && !keq_isnan(m) && ((m < 0) != (b < 0))) m = keq_add(m, b);
  return m;
}

// ---- elementary functions ------------------------------------------------------------------
// On the device: the libdevice function torch calls (expf, logf, ...), or the PTX instruction
// where keq pins the lowering (sqrt.approx for Triton's sqrt). These are approximations: the
// CPU computes the correctly rounded fp32 of the exact function (through double), which is what
// keq's evaluator takes as their IEEE value.
#if KEQ_ON_DEVICE
#define KEQ_LIBM(NAME, DEV, EXPR) \
  KEQ_HD float NAME(float x) {    \
    return DEV(x);                \
  }                               \
  KEQ_HD double NAME(double x) {  \
    return EXPR;                  \
  }
#else
#define KEQ_LIBM(NAME, DEV, EXPR)                            \
  KEQ_HD double NAME(double x) {                             \
    return EXPR;                                             \
  }                                                          \
  KEQ_HD float NAME(float f) {                               \
    return static_cast<float>(NAME(static_cast<double>(f))); \
  }
#endif
KEQ_LIBM(keq_exp, expf, std::exp(x))
KEQ_LIBM(keq_exp2, exp2f, std::exp2(x))
KEQ_LIBM(keq_log, logf, std::log(x))
KEQ_LIBM(keq_log2, log2f, std::log2(x))
KEQ_LIBM(keq_log1p, log1pf, std::log1p(x))
KEQ_LIBM(keq_expm1, expm1f, std::expm1(x))
KEQ_LIBM(keq_rsqrt, rsqrtf, 1.0 / std::sqrt(x))
KEQ_LIBM(keq_tanh, tanhf, std::tanh(x))
KEQ_LIBM(keq_erf, erff, std::erf(x))
KEQ_LIBM(keq_sin, sinf, std::sin(x))
KEQ_LIBM(keq_cos, cosf, std::cos(x))
KEQ_HD double keq_sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
KEQ_HD float keq_sigmoid(float x) {
#if KEQ_ON_DEVICE
  return __fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-x)));
#else
  return static_cast<float>(keq_sigmoid(static_cast<double>(x)));
#endif
}
KEQ_HD float keq_pow(float a, float b) {
#if KEQ_ON_DEVICE
  return powf(a, b);
#else
  return static_cast<float>(std::pow(static_cast<double>(a), static_cast<double>(b)));
#endif
}
KEQ_HD double keq_pow(double a, double b) {
  return std::pow(a, b);
}
KEQ_HD float keq_sqrt(float x) {
#if KEQ_ON_DEVICE
  return __fsqrt_rn(x);
#else
  return std::sqrt(x);
#endif
}
KEQ_HD double keq_sqrt(double x) {
  return std::sqrt(x);
}
KEQ_HD float keq_sqrt_approx(float x) {  // Triton's tl.sqrt: measured, flushing subnormals
#if KEQ_ON_DEVICE
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return std::sqrt(x);
#endif
}
KEQ_HD double keq_sqrt_approx(double x) {
  return std::sqrt(x);
}

// ---- rounding to integers, frexp, ldexp ----------------------------------------------------
template <class T>
KEQ_HD T keq_floor(T x) {
  return std::floor(x);
}
template <class T>
KEQ_HD T keq_ceil(T x) {
  return std::ceil(x);
}
template <class T>
KEQ_HD T keq_round(T x) {  // half to even
  return std::rint(x);
}
template <class T>
KEQ_HD T keq_round_away(T x) {  // half away from zero
  return std::round(x);
}
template <class T>
KEQ_HD T keq_trunc(T x) {
  return std::trunc(x);
}
template <class T>
KEQ_HD T keq_frexp_mant(T x) {
  int e;
  return std::isfinite(x) ? std::frexp(x, &e) : x;
}
template <class T>
KEQ_HD int32_t keq_frexp_exp(T x) {
  int e = 0;
  if (std::isfinite(x) && x != 0) std::frexp(x, &e);
  return e;
}
template <class T, class I>
KEQ_HD T keq_ldexp(T x, I e) {
  I c = e < -100000 ? -100000 : (e > 100000 ? 100000 : e);
  return std::ldexp(x, static_cast<int>(c));
}

// ---- casts ---------------------------------------------------------------------------------
template <class T>
KEQ_HD float keq_cast_f32(T x) {
  return static_cast<float>(x);  // round to nearest from integers
}
KEQ_HD double keq_cast_f32(double x) {
  return x;
}
// fp32 to integers: truncation toward zero, saturating, NaN to 0 (both frameworks).
template <class I, class T>
KEQ_HD I keq_float_to_int(T x) {
  if (keq_isnan(x)) return 0;
  const double lo = -std::ldexp(1.0, static_cast<int>(sizeof(I) * 8 - 1));
  if (x <= lo) return static_cast<I>(lo);
  if (x >= -lo)  // the largest I, built unsigned: 1 << 63 in int64_t is undefined behaviour
    return static_cast<I>((static_cast<unsigned long long>(1) << (sizeof(I) * 8 - 1)) - 1);
  return static_cast<I>(std::trunc(x));
}
KEQ_HD int32_t keq_cast_i32(float x) {
  return keq_float_to_int<int32_t>(x);
}
KEQ_HD int32_t keq_cast_i32(double x) {
  return keq_float_to_int<int32_t>(x);
}
KEQ_HD int32_t keq_cast_i32(int32_t x) {
  return x;
}
KEQ_HD int32_t keq_cast_i32(int64_t x) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(x)));
}
KEQ_HD int32_t keq_cast_i32(bool x) {
  return x;
}
KEQ_HD int64_t keq_cast_i64(float x) {
  return keq_float_to_int<int64_t>(x);
}
KEQ_HD int64_t keq_cast_i64(double x) {
  return keq_float_to_int<int64_t>(x);
}
KEQ_HD int64_t keq_cast_i64(int32_t x) {
  return x;
}
KEQ_HD int64_t keq_cast_i64(int64_t x) {
  return x;
}
KEQ_HD int64_t keq_cast_i64(bool x) {
  return x;
}
// int8 and uint8: the low byte of torch's saturating int32 conversion (ints: their low byte).
template <class T>
KEQ_HD int32_t keq_cast_i8(T x) {
  return static_cast<int8_t>(static_cast<uint8_t>(static_cast<uint32_t>(keq_cast_i32(x))));
}
template <class T>
KEQ_HD int32_t keq_cast_u8(T x) {
  return static_cast<uint8_t>(static_cast<uint32_t>(keq_cast_i32(x)));
}
template <class T>
KEQ_HD bool keq_cast_bool(T x) {
  return x != 0;
}
KEQ_HD int32_t keq_bitcast_i32(float x) {
  return static_cast<int32_t>(keq_bits(x));
}
// A real is materialized as fp32 before its bits exist (the evaluator's real semantics).
KEQ_HD int32_t keq_bitcast_i32(double x) {
  return static_cast<int32_t>(keq_bits(static_cast<float>(x)));
}
KEQ_HD float keq_bitcast_f32(int32_t b) {
  return keq_float(static_cast<uint32_t>(b));
}

// ---- inputs --------------------------------------------------------------------------------

KEQ_HD uint64_t keq_mix(uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// The value of a narrow format's bit pattern, as fp32 (exact).
KEQ_HD float keq_from_f16_bits(uint32_t b) {
  uint32_t s = (b >> 15) & 1, e = (b >> 10) & 0x1f, m = b & 0x3ff;
  float sign = s ? -1.0f : 1.0f;
  if (e == 0x1f) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(static_cast<float>(m), -24);
  return sign * std::ldexp(static_cast<float>(1024 + m), static_cast<int>(e) - 25);
}
KEQ_HD float keq_from_bf16_bits(uint32_t b) {
  return keq_float((b & 0xffff) << 16);
}
KEQ_HD float keq_from_e4m3_bits(uint32_t b) {
  float sign = (b & 0x80) ? -1.0f : 1.0f;
  uint32_t e = (b >> 3) & 0xf, m = b & 7;
  if (e == 0xf && m == 7) return NAN;
  if (e == 0) return sign * std::ldexp(static_cast<float>(m), -9);
  return sign * std::ldexp(static_cast<float>(8 + m), static_cast<int>(e) - 10);
}
KEQ_HD float keq_from_e5m2_bits(uint32_t b) {
  return keq_from_f16_bits((b & 0xff) << 8);
}
// A random fp32: raw bits, or a value of moderate magnitude (most rules' interesting region).
KEQ_HD float keq_random_f32(uint64_t r) {
  if ((r & 3) == 0) return keq_float(static_cast<uint32_t>(r >> 32));
  uint32_t mant = static_cast<uint32_t>(r >> 8) & 0x7fffff;
  int e = static_cast<int>((r >> 40) % 61) - 30;
  float v = std::ldexp(1.0f + static_cast<float>(mant) * 0x1p-23f, e);
  return (r >> 63) ? -v : v;
}

// ---- an optimization barrier ---------------------------------------------------------------
// Each side's value passes through it, so that the compiler cannot fold a comparison it can
// prove (select(!c, a, b) against select(c, b, a)) and remove the evaluation being timed.
#if KEQ_ON_DEVICE
#define KEQ_OPAQUE(T, C)         \
  KEQ_HD T keq_opaque(T x) {     \
    asm volatile("" : "+" C(x)); \
    return x;                    \
  }
KEQ_OPAQUE(float, "f")
KEQ_OPAQUE(double, "d")
KEQ_OPAQUE(int32_t, "r")
KEQ_OPAQUE(int64_t, "l")
#else
#define KEQ_OPAQUE(T, C)         \
  KEQ_HD T keq_opaque(T x) {     \
    asm volatile("" : "+" C(x)); \
    return x;                    \
  }
KEQ_OPAQUE(float, "x")
KEQ_OPAQUE(double, "x")
KEQ_OPAQUE(int32_t, "r")
KEQ_OPAQUE(int64_t, "r")
#endif
KEQ_HD bool keq_opaque(bool b) {
  return keq_opaque(static_cast<int32_t>(b)) != 0;
}

// ---- the sweep -----------------------------------------------------------------------------
// A check C provides: kVars; kReal; using Result (the sides' type);
//   KEQ_HD static void inputs(uint64_t i, uint64_t seed, uint64_t* v);  // each input's bits
//   KEQ_HD static int eval(const uint64_t* v, Result& lhs, Result& rhs);  // kKeq* below
enum : int { kKeqSkipped = 0, kKeqUndefined = 1, kKeqSame = 2, kKeqDiffers = 3 };

// Same bits, any NaN matching any NaN (IEEE); for reals, a relative difference is measured and
// only NaN against a number, or a large difference, is a candidate for the rigorous check.
KEQ_HD int keq_compare(float a, float b) {
  if (keq_isnan(a) || keq_isnan(b)) return keq_isnan(a) && keq_isnan(b) ? kKeqSame : kKeqDiffers;
  return keq_bits(a) == keq_bits(b) ? kKeqSame : kKeqDiffers;
}
KEQ_HD double keq_difference(double a, double b) {
  if (keq_isnan(a) || keq_isnan(b)) return keq_isnan(a) && keq_isnan(b) ? 0 : INFINITY;
  if (a == b) return 0;
  double scale = std::fmax(std::fabs(a), std::fabs(b));
  if (std::isinf(scale)) return INFINITY;
  return std::fabs(a - b) / (scale < 1e-300 ? 1e-300 : scale);
}
// The largest relative difference between numbers (NaN against a number, or an infinity, is
// counted as a difference but not measured).
KEQ_HD double keq_finite_max(double m, double d) {
  return d < INFINITY && d > m ? d : m;
}
template <class T>
KEQ_HD double keq_difference(T a, T b) {
  return a == b ? 0 : INFINITY;
}
KEQ_HD int keq_compare(double a, double b) {
  return keq_difference(a, b) > 1e-9 ? kKeqDiffers : kKeqSame;
}
template <class T>
KEQ_HD int keq_compare_int(T a, T b) {
  return a == b ? kKeqSame : kKeqDiffers;
}
KEQ_HD int keq_compare(int32_t a, int32_t b) {
  return keq_compare_int(a, b);
}
KEQ_HD int keq_compare(int64_t a, int64_t b) {
  return keq_compare_int(a, b);
}
KEQ_HD int keq_compare(bool a, bool b) {
  return keq_compare_int(a, b);
}

constexpr int kKeqExamples = 8;
struct KeqTally {
  unsigned long long tried, skipped, undefined, differs, first;
  unsigned long long max_diff_bits;  // of a nonnegative double: ordered as an integer
  unsigned long long examples[kKeqExamples];
  unsigned int n_examples;
};

#ifdef __CUDACC__
template <class C>
__global__ void keq_sweep_kernel(uint64_t count, uint64_t seed, KeqTally* out) {
  uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long skipped = 0, undefined = 0, diffs = 0, first = ~0ull;
  double max_diff = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    uint64_t v[C::kVars > 0 ? C::kVars : 1];
    typename C::Result l, r;
    C::inputs(i, seed, v);
    int o = C::eval(v, l, r);
    skipped += o == kKeqSkipped;
    undefined += o == kKeqUndefined;
    if (o < kKeqSame) continue;
    if (C::kReal) max_diff = keq_finite_max(max_diff, keq_difference(l, r));
    if (o == kKeqDiffers) {
      ++diffs;
      if (i < first) first = i;
      if (diffs <= 2) {  // a few examples per thread, claimed in arrival order
        unsigned slot = atomicAdd(&out->n_examples, 1u);
        if (slot < kKeqExamples) out->examples[slot] = i;
      }
    }
  }
  // Warp totals, one atomic per warp.
  for (int o = 16; o > 0; o /= 2) {
    skipped += __shfl_down_sync(0xffffffffu, skipped, o);
    undefined += __shfl_down_sync(0xffffffffu, undefined, o);
    diffs += __shfl_down_sync(0xffffffffu, diffs, o);
    first = min(first, __shfl_down_sync(0xffffffffu, first, o));
    max_diff = fmax(max_diff, __shfl_down_sync(0xffffffffu, max_diff, o));
  }
  if ((threadIdx.x & 31) == 0) {
    if (skipped) atomicAdd(&out->skipped, skipped);
    if (undefined) atomicAdd(&out->undefined, undefined);
    if (diffs) {
      atomicAdd(&out->differs, diffs);
      atomicMin(&out->first, first);
    }
    if (max_diff > 0)
      atomicMax(&out->max_diff_bits, static_cast<unsigned long long>(keq_bits(max_diff)));
  }
}

template <class C>
__global__ void keq_eval_kernel(const uint64_t* idx, int n, uint64_t seed, double* vals) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  uint64_t v[C::kVars > 0 ? C::kVars : 1];
  typename C::Result l, r;
  C::inputs(idx[k], seed, v);
  int o = C::eval(v, l, r);
  double* row = vals + static_cast<size_t>(k) * (C::kVars + 3);
  for (int j = 0; j < C::kVars; ++j) row[j] = keq_double(v[j]);  // the bits, carried as is
  row[C::kVars] = static_cast<double>(l);
  row[C::kVars + 1] = static_cast<double>(r);
  row[C::kVars + 2] = o;
}

#define KEQ_CUDA_CHECK(e)                                                                    \
  do {                                                                                       \
    cudaError_t err_ = (e);                                                                  \
    if (err_ != cudaSuccess) {                                                               \
      std::printf("error cuda %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::exit(3);                                                                          \
    }                                                                                        \
  } while (0)
#endif

// The line naming where the checks run.
inline void keq_print_device() {
#ifdef __CUDACC__
  cudaDeviceProp prop;
  KEQ_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount);
#else
  std::printf("device CPU, %u threads\n", std::thread::hardware_concurrency());
#endif
}

// Sweeps [0, count) on the device (or on every CPU thread), then evaluates the examples found and
// a sample of inputs and prints them; lines are read by runner/runner.cc.
template <class C>
void keq_run(int id, uint64_t count, uint64_t seed, int samples) {
  KeqTally t{};
  t.first = ~0ull;
  double ms = 0;
#ifdef __CUDACC__
  KeqTally* d;
  KEQ_CUDA_CHECK(cudaMalloc(&d, sizeof(KeqTally)));
  KEQ_CUDA_CHECK(cudaMemcpy(d, &t, sizeof t, cudaMemcpyHostToDevice));
  int sms = 0;
  KEQ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  keq_sweep_kernel<C><<<sms * 16, 256>>>(count, seed, d);
  cudaEventRecord(stop);
  KEQ_CUDA_CHECK(cudaEventSynchronize(stop));
  KEQ_CUDA_CHECK(cudaGetLastError());
  float elapsed = 0;
  cudaEventElapsedTime(&elapsed, start, stop);
  ms = elapsed;
  KEQ_CUDA_CHECK(cudaMemcpy(&t, d, sizeof t, cudaMemcpyDeviceToHost));
  cudaFree(d);
#else
  auto start = std::chrono::steady_clock::now();
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  std::vector<KeqTally> part(threads, t);
  std::vector<double> part_max(threads, 0);
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < threads; ++w)
    pool.emplace_back([&, w] {
      KeqTally& p = part[w];
      for (uint64_t i = w; i < count; i += threads) {
        uint64_t v[C::kVars > 0 ? C::kVars : 1];
        typename C::Result l, r;
        C::inputs(i, seed, v);
        int o = C::eval(v, l, r);
        p.skipped += o == kKeqSkipped;
        p.undefined += o == kKeqUndefined;
        if (o < kKeqSame) continue;
        if (C::kReal) part_max[w] = keq_finite_max(part_max[w], keq_difference(l, r));
        if (o == kKeqDiffers) {
          if (p.differs < 2 && p.n_examples < kKeqExamples) p.examples[p.n_examples++] = i;
          ++p.differs;
          if (i < p.first) p.first = i;
        }
      }
    });
  for (auto& th : pool) th.join();
  double max_diff = 0;
  for (unsigned w = 0; w < threads; ++w) {
    const KeqTally& p = part[w];
    t.skipped += p.skipped, t.undefined += p.undefined, t.differs += p.differs;
    if (p.first < t.first) t.first = p.first;
    for (unsigned k = 0; k < p.n_examples && t.n_examples < kKeqExamples; ++k)
      t.examples[t.n_examples++] = p.examples[k];
    max_diff = std::fmax(max_diff, part_max[w]);
  }
  t.max_diff_bits = keq_bits(max_diff);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
#endif
  t.tried = count;
  std::printf(
      "check %d tried %llu skipped %llu undefined %llu differs %llu max_diff %.17g ms %.3f\n", id,
      t.tried, t.skipped, t.undefined, t.differs, keq_double(t.max_diff_bits), ms);
  // The points to print: the first difference, the others found, then a spread sample.
  std::vector<uint64_t> idx;
  if (t.differs) idx.push_back(t.first);
  for (unsigned k = 0; k < t.n_examples && k < kKeqExamples; ++k)
    if (t.examples[k] != t.first) idx.push_back(t.examples[k]);
  size_t n_found = idx.size();
  for (int k = 0; k < samples && count > 0; ++k)
    idx.push_back(count <= static_cast<uint64_t>(samples) ? k % count
                                                          : keq_mix(seed ^ (k * 7919ull)) % count);
  const int width = C::kVars + 3;
  std::vector<double> vals(idx.size() * width);
#ifdef __CUDACC__
  uint64_t* didx;
  double* dvals;
  KEQ_CUDA_CHECK(cudaMalloc(&didx, idx.size() * 8 + 8));
  KEQ_CUDA_CHECK(cudaMalloc(&dvals, vals.size() * 8 + 8));
  KEQ_CUDA_CHECK(cudaMemcpy(didx, idx.data(), idx.size() * 8, cudaMemcpyHostToDevice));
  if (!idx.empty())
    keq_eval_kernel<C><<<(static_cast<int>(idx.size()) + 127) / 128, 128>>>(
        didx, static_cast<int>(idx.size()), seed, dvals);
  KEQ_CUDA_CHECK(cudaMemcpy(vals.data(), dvals, vals.size() * 8, cudaMemcpyDeviceToHost));
  cudaFree(didx);
  cudaFree(dvals);
#else
  for (size_t k = 0; k < idx.size(); ++k) {
    uint64_t v[C::kVars > 0 ? C::kVars : 1];
    typename C::Result l, r;
    C::inputs(idx[k], seed, v);
    int o = C::eval(v, l, r);
    double* row = vals.data() + k * width;
    for (int j = 0; j < C::kVars; ++j) row[j] = keq_double(v[j]);  // the bits, carried as is
    row[C::kVars] = static_cast<double>(l);
    row[C::kVars + 1] = static_cast<double>(r);
    row[C::kVars + 2] = o;
  }
#endif
  for (size_t k = 0; k < idx.size(); ++k) {
    const double* row = vals.data() + k * width;
    std::printf("%s %d %llu %d", k < n_found ? "example" : "sample", id,
                static_cast<unsigned long long>(idx[k]), static_cast<int>(row[C::kVars + 2]));
    for (int j = 0; j < C::kVars + 2; ++j)
      std::printf(" %016llx", static_cast<unsigned long long>(keq_bits(row[j])));
    std::printf("\n");
  }
  std::fflush(stdout);
}
