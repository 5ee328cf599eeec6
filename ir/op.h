// The op table: every scalar op of keq's term language, and everything each op means.
//
// An op's entry (an `OpInfo` row in its family's file under ir/ops/: arithmetic, extremum,
// logic, elementary, rounding, integer) gives its name in s-expressions and its spellings in
// torch and Triton source, arity, typing rule, concrete evaluation in both semantics, interval
// and enclosure transfer, normal-form role, real and IEEE SMT encodings, and the family facts
// that the layers read instead of listing ops (picks an operand, extremum with a NaN policy).
// Where an entry leaves a transfer or an encoding out, it says why in a `no_*` field; a test
// (tests/op_table_test.cc) fails for an op with neither. Adding an op is one row, its spelling
// and its tests: docs/architecture.md walks through one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/value.h"

namespace z3 {
class expr;
}
namespace keq::smt {
using Expr = z3::expr;
class RealEncoding;
class IeeeEncoding;
}  // namespace keq::smt

namespace keq::ir {

// X(enumerator, "name")
// clang-format off
#define KEQ_OPS(X)                                                                             \
  X(Const, "const") X(Var, "var")                                                              \
  X(Add, "+") X(Sub, "-") X(Mul, "*") X(Div, "/") X(DivFull, "div.full") X(Neg, "neg") X(Abs, "abs") X(Fma, "fma")    \
  X(Max, "max") X(Min, "min") X(MaxNum, "maxnum") X(MinNum, "minnum")                          \
  X(Sum, "sum") X(Prod, "prod") X(AMax, "amax") X(AMin, "amin") X(TMax, "tmax") X(TMin, "tmin") \
  X(DivC, "div.c") X(ModC, "mod.c") X(FloorDiv, "floordiv") X(ModPy, "mod.py")                 \
  X(FMod, "fmod") X(Remainder, "remainder")                                                    \
  X(Lt, "<") X(Le, "<=") X(Gt, ">") X(Ge, ">=") X(Eq, "==") X(Ne, "!=")                       \
  X(Select, "select") X(And, "and") X(Or, "or") X(Not, "not")                                  \
  X(Exp, "exp") X(Exp2, "exp2") X(Log, "log") X(Log2, "log2") X(Log1p, "log1p") X(Expm1, "expm1") X(Sqrt, "sqrt") X(SqrtApprox, "sqrt.approx") X(Rsqrt, "rsqrt") \
  X(Recip, "recip") X(Pow, "pow") X(Tanh, "tanh") X(Erf, "erf") X(Sigmoid, "sigmoid") X(Sin, "sin") X(Cos, "cos")          \
  X(Floor, "floor") X(Ceil, "ceil") X(Round, "round") X(RoundAway, "round.away") X(Trunc, "trunc") X(Clamp, "clamp")      \
  X(CastF32, "cast.f32") X(CastF16, "cast.f16") X(CastBF16, "cast.bf16")                       \
  X(CastE4M3, "cast.e4m3") X(CastE4M3Sat, "cast.e4m3.sat")                                     \
  X(CastE5M2, "cast.e5m2") X(CastE5M2Sat, "cast.e5m2.sat")                                     \
  X(CastI32, "cast.i32") X(CastI64, "cast.i64") X(CastI8, "cast.i8") X(CastU8, "cast.u8") X(CastBool, "cast.bool") \
  X(BitcastI32, "bitcast.i32") X(BitcastF32, "bitcast.f32")                                    \
  X(Shl, "shl") X(Shr, "shr") X(LShr, "lshr") X(BitAnd, "band") X(BitOr, "bor") X(BitXor, "bxor") \
  X(FrexpMant, "frexp.mant") X(FrexpExp, "frexp.exp") X(Ldexp, "ldexp")
// clang-format on

enum class Op : uint16_t {
#define KEQ_OP_ENUM(e, n) e,
  KEQ_OPS(KEQ_OP_ENUM)
#undef KEQ_OP_ENUM
      kCount
};
inline constexpr int kOpCount = static_cast<int>(Op::kCount);

// How an op's operands and result are typed.
enum class Signature : uint8_t {
  Leaf,        // const, var
  SameNum,     // all operands one numeric type (f32 or int); result that type
  SameFloat,   // all operands f32; result f32
  SameInt,     // all operands one int type; result that type
  Compare,     // two operands of one numeric type; result bool
  Logic,       // bools; result bool
  Select,      // (bool, T, T) -> T
  CastTo,      // any non-bool or bool operand -> the op's fixed result type
  BitcastF2I,  // f32 -> i32
  BitcastI2F,  // i32 -> f32
  FrexpExp,    // f32 -> i32
  Ldexp,       // (f32, int) -> f32
};

struct Interval;   // ir/interval.h
struct Enclosure;  // ir/enclosure.h

using IeeeFn = IeeeValue (*)(std::span<const IeeeValue> args);  // throws EvalError
using RealFn = void (*)(std::span<const RealValue* const> args, RealValue& out);
using IntervalFn = Interval (*)(std::span<const Interval> args);  // real semantics
using EnclosureFn = Enclosure (*)(std::span<const Enclosure* const> args);
using SmtRealFn = smt::Expr (*)(smt::RealEncoding&, std::span<const smt::Expr> args);
using SmtIeeeFn = smt::Expr (*)(smt::IeeeEncoding&, std::span<const smt::Expr> args);

// What an extremum does with a NaN operand: torch's max propagates it, maxnum (Triton's
// maximum, libdevice's fmax) returns the other operand.
enum class NanPolicy : uint8_t { NotExtremum, Propagate, Drop };

// How the normal forms (rules/normal_form.h) read an op; Atom: as an opaque class.
enum class NormalFormRole : uint8_t {
  Atom,
  Add,
  Sub,
  Neg,
  Sum,
  Mul,
  Prod,
  Fma,
  Quotient,
  Recip,
  Exp,
  Pow,
  Extremum
};

struct OpInfo {
  Op op = Op::Const;
  std::string_view name;  // filled in from KEQ_OPS
  uint8_t arity = 0;      // exact arity, or the minimum when variadic
  bool variadic = false;  // n-ary: sum, prod, amax, ...
  Signature sig = Signature::Leaf;
  Type cast_result = Type::F32;  // for CastTo
  bool ieee_exact = true;        // IEEE evaluation is bit-exact in every framework
  bool commutative = false;      // operand order does not matter (binary or n-ary)
  // Real evaluation computes the defined result exactly whatever the operands (casts and
  // rounding ops round by definition; picks pick). Else exact only when MPFR reports no rounding.
  bool real_exact = false;
  bool picks_operand = false;  // the result is an operand or its sign: nothing rounds
  bool stays_nonneg = false;   // a result >= 0 over the reals is >= 0 in fp32 too
  bool is_max = false;         // extremum family: max (else min)
  NanPolicy nan_policy = NanPolicy::NotExtremum;
  NormalFormRole normal_form = NormalFormRole::Atom;
  // Source spellings, space-separated: "torch.exp tl.exp libdevice.exp". torch.X is the
  // elementwise function and tensor method; tl.X also tl.math.X; libdevice.X every libdevice
  // module path.
  std::string_view spellings;
  IeeeFn ieee = nullptr;
  RealFn real = nullptr;
  IntervalFn interval = nullptr;  // null: any value, for the reason in no_interval
  std::string_view no_interval;
  EnclosureFn enclosure = nullptr;  // away from points; null: any value, see no_enclosure
  std::string_view no_enclosure;
  SmtRealFn smt_real = nullptr;  // null: outside the real encoding, for the reason given
  std::string_view no_smt_real;
  SmtIeeeFn smt_ieee = nullptr;  // null: outside the IEEE encoding, for the reason given
  std::string_view no_smt_ieee;
  // Generated CUDA and C++ (runner/): the runtime function (runner/runtime.cuh) that computes
  // the op, overloaded on float (IEEE: the GPU intrinsic with explicit rounding, or the
  // hardware approximation for an approximate op), double (real semantics, approximated) and
  // the integer types; variadic ops fold it left. Null for leaves, with the reason in no_cuda.
  std::string_view cuda;
  std::string_view no_cuda;
  // The function takes a trailing `bool& undefined`: the op is undefined for some operands
  // (integer division by zero, a shift out of range), where the evaluator throws.
  bool cuda_may_fail = false;
  // For an op that is not ieee_exact: its CUDA lowering gave the same bits as every framework
  // op the IR op stands for, on every input measured on the H200
  // (tests/fixtures/gpu/lowerings.txt), so its GPU bits are the programs' bits.
  bool gpu_pinned = false;

  bool is_extremum() const { return nan_policy != NanPolicy::NotExtremum; }
};

const OpInfo& op_info(Op op);
std::optional<Op> op_by_name(std::string_view name);
// The op a source language spells `name` ("exp" in language "tl"), from the rows' spellings.
std::optional<Op> op_spelled(std::string_view language, std::string_view name);
// Every (name, op) a language spells, in table order.
std::vector<std::pair<std::string_view, Op>> ops_spelled(std::string_view language);
inline std::string_view op_name(Op op) {
  return op_info(op).name;
}

// The result type of `op` on operands of these types, or an error message.
struct TypeResult {
  std::optional<Type> type;
  std::string error;
};
TypeResult result_type(Op op, std::span<const Type> operand_types);

// True when real-semantics evaluation of op computes its defined result exactly whatever the
// operands (casts and rounding ops round by definition; min, max, select pick an operand).
// For the other ops a result is exact only when MPFR reports no rounding.
bool real_eval_exact(Op op);

// Concrete evaluation of one op. Throws EvalError.
IeeeValue eval_ieee(Op op, std::span<const IeeeValue> args);
void eval_real(Op op, std::span<const RealValue* const> args, RealValue& out);

}  // namespace keq::ir
