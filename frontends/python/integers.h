// Python integers are unbounded: host arithmetic that leaves 64 bits continues in GMP, as
// CPython would, so `(2**64 + 1) % 7` is 3 and `2**63` is positive. Small values stay int64
// (Value::Kind::Int); larger ones are Value::Kind::BigInt. A big integer that reaches a size, an
// index or a kernel argument is past keq's limits (UNSUPPORTED "size limit"), never truncated.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>

#include "frontends/python/value.h"

namespace keq::python {

// Integers past this many bits are refused as a size limit (CPython would compute them, but no
// kernel argument can be one, and 10**(10**9) would take the machine's memory).
inline constexpr size_t kMaxIntegerBits = 1 << 16;

Ref big_or_small(const mpz_class& z);  // Int when it fits int64, else BigInt
mpz_class as_mpz(const Ref& v);        // Int, Bool or BigInt
bool is_integer(const Ref& v);         // Int, Bool or BigInt
bool is_number(const Ref& v);          // an integer or a Float

// `a op b` for two integers (+ - * // % ** << >> & | ^ and true division /). Errors that
// Python raises come back through `fail(message, is_error)`: is_error false means a keq limit.
struct IntegerFailure {
  std::string message;
  bool program_error;  // ZeroDivisionError, ValueError, OverflowError: the program's own error
};
struct IntegerResult {
  Ref value;
  std::optional<IntegerFailure> failure;
};
IntegerResult integer_binop(const std::string& op, const Ref& a, const Ref& b);
IntegerResult integer_negate(const Ref& a);
IntegerResult integer_invert(const Ref& a);

// Python's exact comparison of an integer with a float or another integer: <0, 0, >0, or
// nothing when the float is NaN (every ordering is false).
std::optional<int> compare_numbers(const Ref& a, const Ref& b);
// float(int), correctly rounded as CPython does; nothing when it overflows a double.
std::optional<double> integer_to_double(const Ref& v);
std::string integer_str(const Ref& v);

}  // namespace keq::python
