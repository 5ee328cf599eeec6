// The op table is complete and agrees with itself: every op has every part of its meaning, or a
// stated reason for leaving one out; each IEEE SMT encoding computes the same bits as the op's
// evaluator; the extremum family's facts are what its evaluators do; spellings resolve.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "ir/ir.h"
#include "ir/smt_expr.h"

namespace keq::ir {
namespace {

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (int k = 0; k < kOpCount; ++k) ops.push_back(static_cast<Op>(k));
  return ops;
}

TEST(OpTable, EveryOpHasEachPartOrSaysWhyNot) {
  for (Op op : all_ops()) {
    const OpInfo& info = op_info(op);
    SCOPED_TRACE(std::string(info.name));
    EXPECT_EQ(info.op, op);
    EXPECT_FALSE(info.name.empty());
    EXPECT_NE(info.ieee, nullptr);
    EXPECT_NE(info.real, nullptr);
    // Exactly one of the part and the reason it is missing.
    EXPECT_NE(info.interval == nullptr, info.no_interval.empty());
    EXPECT_NE(info.enclosure == nullptr, info.no_enclosure.empty());
    EXPECT_NE(info.smt_real == nullptr, info.no_smt_real.empty());
    EXPECT_NE(info.smt_ieee == nullptr, info.no_smt_ieee.empty());
    EXPECT_NE(info.cuda.empty(), info.no_cuda.empty()) << info.name;
    if (info.sig != Signature::Leaf) {
      EXPECT_GE(info.arity, 1);
    }
    Op expected = info.sig == Signature::Leaf ? Op::Const : op;
    EXPECT_EQ(op_by_name(info.name).value_or(Op::Const), expected);
  }
}

TEST(OpTable, SpellingsResolveToTheirRows) {
  EXPECT_EQ(op_spelled("tl", "sqrt"), Op::SqrtApprox);  // sqrt.approx.f32
  EXPECT_EQ(op_spelled("tl", "sqrt_rn"), Op::Sqrt);
  EXPECT_EQ(op_spelled("libdevice", "sqrt"), Op::Sqrt);
  EXPECT_EQ(op_spelled("libdevice", "rint"), Op::Round);
  EXPECT_EQ(op_spelled("torch", "reciprocal"), Op::Recip);
  EXPECT_EQ(op_spelled("tl", "maximum"), Op::MaxNum);
  EXPECT_FALSE(op_spelled("tl", "tanh"));  // Triton has no tl.tanh
  for (std::string_view language : {"torch", "tl", "libdevice"})
    for (auto [name, op] : ops_spelled(language)) {
      EXPECT_EQ(op_spelled(language, name), op) << language << "." << name;
      EXPECT_FALSE(op_info(op).variadic) << name;
    }
}

// The family facts the layers read are what the evaluators do.
TEST(OpTable, ExtremumFamilyFactsMatchTheEvaluators) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto eval = [](Op op, float a, float b) {
    IeeeValue args[2] = {IeeeValue{Type::F32, a, 0}, IeeeValue{Type::F32, b, 0}};
    return eval_ieee(op, args).f;
  };
  int extrema = 0;
  for (Op op : all_ops()) {
    const OpInfo& info = op_info(op);
    if (!info.is_extremum()) continue;
    ++extrema;
    SCOPED_TRACE(std::string(info.name));
    EXPECT_TRUE(info.picks_operand);
    EXPECT_EQ(eval(op, 1, 2), info.is_max ? 2 : 1);
    EXPECT_EQ(std::signbit(eval(op, -0.0f, 0.0f)), !info.is_max);  // max(-0, 0) = 0
    EXPECT_EQ(std::isnan(eval(op, nan, 1)), info.nan_policy == NanPolicy::Propagate);
    EXPECT_EQ(std::isnan(eval(op, 1, nan)), info.nan_policy == NanPolicy::Propagate);
  }
  EXPECT_EQ(extrema, 8);
}

// Z3 evaluates an op's IEEE encoding at constant operands; the bits must be the evaluator's.
class Constants final : public smt::IeeeEncoding {
 public:
  z3::context& ctx() override { return c; }
  z3::context c;
};

// i32 operands for the integer ops, as many as the float ones: edges, shift amounts, fp32 fields.
const int64_t kInts[] = {0,   1,        -1,         2,         23,        31,         127,
                         255, 0x7FFFFF, 0x7F800000, INT32_MIN, INT32_MAX, 0x3F800000, 32};

std::vector<IeeeValue> operands(const OpInfo& info, size_t n, const std::vector<float>& f,
                                const std::vector<size_t>& pick) {
  std::vector<IeeeValue> out;
  bool ints = info.sig == Signature::SameInt || info.sig == Signature::BitcastI2F;
  for (size_t k = 0; k < n; ++k) {
    bool is_bool = info.sig == Signature::Logic || (info.sig == Signature::Select && k == 0);
    if (is_bool)
      out.push_back(IeeeValue{Type::Bool, 0, static_cast<int64_t>(pick[k] % 2)});
    else if (ints)
      out.push_back(IeeeValue{Type::I32, 0, kInts[pick[k] % std::size(kInts)]});
    else
      out.push_back(IeeeValue{Type::F32, f[pick[k]], 0});
  }
  return out;
}

TEST(OpTable, IeeeEncodingsComputeTheEvaluatorsBits) {
  const std::vector<float> values = {0.0f,  -0.0f,  1.0f,   -1.0f,   1.5f,     -2.25f,    0.1f,
                                     3e38f, -3e38f, 1e-40f, 65520.f, INFINITY, -INFINITY, NAN};
  int checked = 0;
  Constants enc;  // one context: making one per evaluation is what would cost time
  enc.c.set_rounding_mode(z3::RNE);
  z3::solver empty(enc.c);
  ASSERT_EQ(empty.check(), z3::sat);
  z3::model m = empty.get_model();
  for (Op op : all_ops()) {
    const OpInfo& info = op_info(op);
    if (!info.smt_ieee) continue;
    SCOPED_TRACE(std::string(info.name));
    size_t n = info.variadic ? 2 : info.arity;
    std::vector<size_t> pick(n, 0);
    for (;;) {
      std::vector<IeeeValue> args = operands(info, n, values, pick);
      std::vector<smt::Expr> exprs;
      for (const IeeeValue& v : args)
        exprs.push_back(v.type == Type::Bool ? enc.c.bool_val(v.i != 0)
                        : is_int(v.type)     ? enc.c.bv_val(v.i, 32)
                                             : enc.c.fpa_val(v.f));
      std::optional<IeeeValue> want;
      std::optional<smt::Expr> got;
      try {  // a shift out of range is undefined: the evaluator throws, the encoding refuses
        want = eval_ieee(op, args);
        got = info.smt_ieee(enc, exprs);
      } catch (const EvalError&) {
      } catch (const smt::NotEncoded&) {
      }
      // A bitcast of NaN reads bits keq does not model (the encoding leaves them free).
      bool nan_bits = op == Op::BitcastI32 && std::isnan(args[0].f);
      if (!want || !got || nan_bits) {
        EXPECT_EQ(want.has_value(), got.has_value())
            << "evaluator and encoding disagree on defined";
      } else if (is_int(want->type)) {
        uint64_t bits = 0;
        ASSERT_TRUE(m.eval(*got, true).is_numeral_u64(bits));
        uint64_t mask = want->type == Type::I64 ? ~uint64_t{0} : 0xFFFFFFFFu;
        EXPECT_EQ(bits, static_cast<uint64_t>(want->i) & mask)
            << args[0].i << (n > 1 ? ", " + std::to_string(args[1].i) : "");
      } else if (want->type == Type::Bool) {
        EXPECT_EQ(m.eval(*got, true).is_true(), want->i != 0);
      } else if (std::isnan(want->f)) {
        EXPECT_TRUE(m.eval(got->mk_is_nan(), true).is_true()) << "NaN expected";
      } else {
        EXPECT_EQ(smt::fp32_bits(m, *got), std::bit_cast<uint32_t>(want->f))
            << args[0].f << (n > 1 ? ", " + std::to_string(args[1].f) : "");
      }
      ++checked;
      size_t k = 0;  // next operand tuple
      while (k < n && ++pick[k] == values.size()) pick[k++] = 0;
      if (k == n) break;
    }
  }
  EXPECT_GT(checked, 3000);
}

// An approximate op is pinned to its GPU lowering only where keq's lowering gave the same bits as
// every framework op that the IR op stands for, on every input measured on the H200
// (tests/fixtures/gpu/measure_lowerings.py wrote lowerings.txt).
TEST(OpTable, PinnedLoweringsAreTheMeasuredOnes) {
  std::ifstream in(std::string(KEQ_SOURCE_DIR) + "/tests/fixtures/gpu/lowerings.txt");
  ASSERT_TRUE(in) << "tests/fixtures/gpu/lowerings.txt";
  std::stringstream text;
  text << in.rdbuf();
  auto zero = [&](const std::string& line) {
    return text.str().find(line + ": 0 differ") != std::string::npos;
  };
  struct Measured {
    Op op;
    std::vector<std::string> same;  // lines that must read 0 differ for the op to be pinned
  };
  const Measured rows[] = {
      {Op::DivFull, {"div: tl./ vs keq.div.full"}},
      {Op::SqrtApprox, {"sqrt: tl.sqrt vs keq.sqrt"}},
      {Op::Log, {"log: tl.log vs keq.log", "log: torch.log vs keq.log"}},
      {Op::Log2, {"log2: tl.log2 vs keq.log2", "log2: torch.log2 vs keq.log2"}},
      {Op::Exp, {"exp: tl.exp vs keq.exp", "exp: torch.exp vs keq.exp"}},
      {Op::Exp2, {"exp2: tl.exp2 vs keq.exp2", "exp2: torch.exp2 vs keq.exp2"}},
      {Op::Rsqrt, {"rsqrt: tl.rsqrt vs keq.rsqrt", "rsqrt: torch.rsqrt vs keq.rsqrt"}},
      {Op::Tanh, {"tanh: libdevice.tanh vs keq.tanh", "tanh: torch.tanh vs keq.tanh"}},
      {Op::Erf, {"erf: tl.math.erf vs keq.erf", "erf: torch.erf vs keq.erf"}},
      {Op::Sigmoid,
       {"sigmoid: tl.sigmoid vs keq.sigmoid", "sigmoid: torch.sigmoid vs keq.sigmoid"}},
      {Op::Log1p, {"log1p: libdevice.log1p vs keq.log1p", "log1p: torch.log1p vs keq.log1p"}},
      {Op::Expm1, {"expm1: libdevice.expm1 vs keq.expm1", "expm1: torch.expm1 vs keq.expm1"}},
  };
  for (const Measured& m : rows) {
    bool all_same = true;
    for (const std::string& line : m.same) all_same &= zero(line);
    EXPECT_EQ(op_info(m.op).gpu_pinned, all_same) << op_name(m.op);
  }
  for (Op op : all_ops()) {
    if (op_info(op).gpu_pinned) {
      EXPECT_FALSE(op_info(op).ieee_exact) << op_name(op);
    }
  }
}

}  // namespace
}  // namespace keq::ir
