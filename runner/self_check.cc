// Every op's generated code against keq's evaluator: the op applied to sampled operands of each
// typing it takes, evaluated by the runner, and each point re-evaluated by ir::evaluate_ieee.
// IEEE-exact ops must agree bit for bit; approximations report how far the device is from the
// correctly rounded value (the evaluator's IEEE value for them).
#include <cmath>
#include <cstring>

#include "runner/runner.h"

namespace keq::runner {

namespace {

using ir::Op;
using ir::Signature;
using ir::TermId;
using ir::Type;

// The operand types to try an op at.
std::vector<std::vector<Type>> typings(const ir::OpInfo& info) {
  size_t n = info.variadic ? 3 : info.arity;
  auto same = [n](Type t) { return std::vector<Type>(n, t); };
  switch (info.sig) {
    case Signature::Leaf:
      return {};
    case Signature::SameNum:
      return {same(Type::F32), same(Type::I32)};
    case Signature::SameFloat:
      return {same(Type::F32)};
    case Signature::SameInt:
      return {same(Type::I32), same(Type::I64)};
    case Signature::Compare:
      return {same(Type::F32), same(Type::I32)};
    case Signature::Logic:
      return {same(Type::Bool)};
    case Signature::Select:
      return {{Type::Bool, Type::F32, Type::F32}, {Type::Bool, Type::I32, Type::I32}};
    case Signature::CastTo:
      return {{Type::F32}, {Type::I32}};
    case Signature::BitcastF2I:
    case Signature::FrexpExp:
      return {{Type::F32}};
    case Signature::BitcastI2F:
      return {{Type::I32}};
    case Signature::Ldexp:
      return {{Type::F32, Type::I32}};
  }
  return {};
}

InputFormat format_of(Type t) {
  switch (t) {
    case Type::F32:
      return InputFormat::F32;
    case Type::I32:
      return InputFormat::I32;
    case Type::I64:
      return InputFormat::I64;
    case Type::Bool:
      return InputFormat::Bool;
  }
  return InputFormat::F32;
}

// Distance in units in the last place between two fp32 values; NaN matches NaN only.
double ulps(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : static_cast<int64_t>(i);
  };
  return std::fabs(
      static_cast<double>(ordered(static_cast<float>(a)) - ordered(static_cast<float>(b))));
}

std::string describe(const ir::TermStore& s, const Check& c, const Point& p, double expected) {
  std::string out;
  for (size_t k = 0; k < c.inputs.size(); ++k)
    out += (k ? ", " : "") + s.variable_of(c.inputs[k].var).name + " = " +
           p.input(k, s.type(c.inputs[k].var)).str();
  return out + ": generated " + ir::Constant::of_float(p.lhs).str() + ", evaluator " +
         ir::Constant::of_float(expected).str();
}

}  // namespace

std::vector<OpAgreement> compare_with_evaluator(const RunOptions& opt, std::string* error) {
  ir::TermStore s;
  std::vector<Check> checks;
  std::vector<OpAgreement> rows;
  for (int k = 0; k < ir::kOpCount; ++k) {
    const ir::OpInfo& info = ir::op_info(static_cast<Op>(k));
    for (const std::vector<Type>& ts : typings(info)) {
      Check c;
      c.name = std::string(info.name);
      std::vector<TermId> args;
      std::string label;
      for (size_t j = 0; j < ts.size(); ++j) {
        TermId v =
            s.variable("x" + std::to_string(j) + "_" + std::string(ir::type_name(ts[j])), ts[j]);
        args.push_back(v);
        c.inputs.push_back({v, format_of(ts[j])});
        label += (j ? "," : "") + std::string(ir::type_name(ts[j]));
      }
      c.lhs = c.rhs = s.make(info.op, args);
      checks.push_back(c);
      OpAgreement row;
      row.op = info.op;
      row.operands = label;
      row.exact_expected = info.ieee_exact || info.normal_form == ir::NormalFormRole::Sum ||
                           info.normal_form == ir::NormalFormRole::Prod;
      rows.push_back(row);
    }
  }
  RunOptions o = opt;
  o.samples = o.points = static_cast<int>(std::max<uint64_t>(opt.points, 64));
  o.exhaustive = false;
  RunResult res = run(s, checks, o);
  if (!res.error.empty()) {
    if (error) *error = res.error;
    return {};
  }
  for (size_t k = 0; k < checks.size(); ++k) {
    OpAgreement& row = rows[k];
    for (const Point& p : res.checks[k].samples) {
      if (p.outcome != 2) continue;  // undefined for these operands
      ir::IeeeValue want;
      try {
        want = evaluate_at(s, checks[k], p, checks[k].lhs);
      } catch (const ir::EvalError&) {
        continue;
      }
      double expected = want.type == Type::F32 ? want.f : static_cast<double>(want.i);
      ++row.points;
      double d = want.type == Type::F32 ? ulps(p.lhs, expected) : (p.lhs == expected ? 0 : 1);
      if (d == 0) {
        ++row.agree;
        continue;
      }
      if (row.first_disagreement.empty())
        row.first_disagreement = describe(s, checks[k], p, expected);
      row.max_ulps = std::max(row.max_ulps, d);
    }
  }
  return rows;
}

}  // namespace keq::runner
