// The op table: every scalar op of keq's term language, defined once.
//
// An entry gives the op's name (as written in s-expressions), arity, typing rule, concrete
// evaluation in each semantics, and flags the e-graph and SMT layers read. Everything that needs
// to know about ops (term reader/printer, evaluator, e-graph language, rule parser) goes through
// this table, so adding an op is one entry here plus its tests.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ir/value.h"

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
  X(Exp, "exp") X(Exp2, "exp2") X(Log, "log") X(Log2, "log2") X(Sqrt, "sqrt") X(SqrtApprox, "sqrt.approx") X(Rsqrt, "rsqrt") \
  X(Recip, "recip") X(Pow, "pow") X(Tanh, "tanh") X(Erf, "erf") X(Sigmoid, "sigmoid")          \
  X(Floor, "floor") X(Ceil, "ceil") X(Round, "round") X(Trunc, "trunc") X(Clamp, "clamp")      \
  X(CastF32, "cast.f32") X(CastF16, "cast.f16") X(CastBF16, "cast.bf16")                       \
  X(CastE4M3, "cast.e4m3") X(CastE4M3Sat, "cast.e4m3.sat")                                     \
  X(CastE5M2, "cast.e5m2") X(CastE5M2Sat, "cast.e5m2.sat")                                     \
  X(CastI32, "cast.i32") X(CastI64, "cast.i64") X(CastBool, "cast.bool")                       \
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

using IeeeFn = IeeeValue (*)(std::span<const IeeeValue> args);  // throws EvalError
using RealFn = void (*)(std::span<const RealValue* const> args, RealValue& out);

struct OpInfo {
  Op op;
  std::string_view name;
  uint8_t arity;  // exact arity, or the minimum when variadic
  bool variadic;  // n-ary: sum, prod, amax, ...
  Signature sig;
  Type cast_result;  // for CastTo
  bool ieee_exact;   // IEEE evaluation is bit-exact in every framework (else an approximation)
  bool commutative;  // operand order does not matter (binary or n-ary)
  IeeeFn ieee;
  RealFn real;
};

const OpInfo& op_info(Op op);
std::optional<Op> op_by_name(std::string_view name);
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
