#include "ir/op.h"

#include <absl/container/flat_hash_map.h>

#include <array>
#include <cstdlib>

#include "ir/ops/family.h"

namespace keq::ir {

namespace family {

int64_t wrap(Type t, uint64_t v) {
  if (t == Type::I32) return static_cast<int32_t>(static_cast<uint32_t>(v));
  return static_cast<int64_t>(v);
}

int64_t int_binop(Op op, Type t, int64_t a, int64_t b) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  int width = t == Type::I32 ? 32 : 64;
  auto need_divisor = [&] {
    if (b == 0) throw EvalError{"integer division by zero"};
    if (b == -1 && a == (t == Type::I32 ? INT32_MIN : INT64_MIN))
      throw EvalError{"integer division overflow"};
  };
  switch (op) {
    case Op::Add:
      return wrap(t, ua + ub);
    case Op::Sub:
      return wrap(t, ua - ub);
    case Op::Mul:
      return wrap(t, ua * ub);
    case Op::Max:
    case Op::MaxNum:
      return std::max(a, b);
    case Op::Min:
    case Op::MinNum:
      return std::min(a, b);
    case Op::DivC:
      need_divisor();
      return a / b;
    case Op::ModC:
      need_divisor();
      return a % b;
    case Op::FloorDiv: {
      need_divisor();
      int64_t q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    case Op::ModPy: {
      need_divisor();
      int64_t r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    case Op::Shl:
    case Op::Shr:
    case Op::LShr:
      if (b < 0 || b >= width) throw EvalError{"shift amount out of range"};
      if (op == Op::Shl) return wrap(t, ua << b);
      if (op == Op::Shr) return a >> b;
      return wrap(t, (t == Type::I32 ? (ua & 0xffffffffu) : ua) >> b);
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return a ^ b;
    default:
      throw EvalError{std::string("no integer form of ") + std::string(op_name(op))};
  }
}

IeeeValue ieee_via_real(Op op, IArgs a) {
  std::vector<RealValue> rs(a.size());
  std::vector<const RealValue*> ptrs(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    rs[k].type = a[k].type;
    rs[k].i = a[k].i;
    mpfr_set_flt(rs[k].f.get(), a[k].f, MPFR_RNDN);  // keeps the sign of zero, unlike reals
    ptrs[k] = &rs[k];
  }
  RealValue out;
  op_info(op).real(ptrs, out);
  if (out.type != Type::F32) return ival(out.type, out.i);
  return fval(mpfr_get_flt(out.f.get(), MPFR_RNDN));
}

IeeeValue ieee_num2(Op op, IArgs a, float (*f)(float, float)) {
  if (a[0].type == Type::F32) return fval(f(a[0].f, a[1].f));
  return ival(a[0].type, int_binop(op, a[0].type, a[0].i, a[1].i));
}

IeeeValue ieee_fold(Op op, IArgs a, float (*f)(float, float)) {
  IeeeValue acc = a[0];
  for (size_t k = 1; k < a.size(); ++k) {
    IeeeValue pair[2] = {acc, a[k]};
    acc = ieee_num2(op, pair, f);
  }
  return acc;
}

}  // namespace family

namespace {

constexpr std::string_view kNames[] = {
#define KEQ_OP_NAME(e, n) n,
    KEQ_OPS(KEQ_OP_NAME)
#undef KEQ_OP_NAME
};

struct Table {
  std::array<OpInfo, kOpCount> info{};
  absl::flat_hash_map<std::string_view, Op> by_name;
  // "tl.exp" -> Op::Exp
  absl::flat_hash_map<std::string_view, Op> by_spelling;
  std::vector<std::string_view> spellings;  // in table order

  Table() {
    std::array<bool, kOpCount> seen{};
    for (auto family : {family::arithmetic_ops, family::extremum_ops, family::logic_ops,
                        family::elementary_ops, family::rounding_ops, family::integer_ops})
      for (const OpInfo& row : family()) add(row, seen);
    for (int k = 0; k < kOpCount; ++k)
      if (!seen[k]) std::abort();  // every enumerator needs a row: caught by the first test run
  }

  void add(const OpInfo& row, std::array<bool, kOpCount>& seen) {
    int k = static_cast<int>(row.op);
    if (seen[k]) std::abort();  // one row per op
    seen[k] = true;
    OpInfo& info = this->info[k];
    info = row;
    info.name = kNames[k];
    // Casts, comparisons, logic, integer ops, bitcasts, frexp, ldexp and select compute their
    // defined results exactly.
    if (row.sig != Signature::SameFloat && row.sig != Signature::SameNum) info.real_exact = true;
    by_name[info.name] = row.op;
    std::string_view rest = row.spellings;
    while (!rest.empty()) {
      size_t end = rest.find(' ');
      std::string_view word = rest.substr(0, end);
      if (!word.empty()) {
        if (!by_spelling.emplace(word, row.op).second) std::abort();  // one op per spelling
        spellings.push_back(word);
      }
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

// "tl.exp" -> ("tl", "exp"): the language is everything before the last dot.
std::pair<std::string_view, std::string_view> split_spelling(std::string_view s) {
  size_t dot = s.rfind('.');
  return {s.substr(0, dot), s.substr(dot + 1)};
}

}  // namespace

const OpInfo& op_info(Op op) {
  return table().info[static_cast<int>(op)];
}

std::optional<Op> op_by_name(std::string_view name) {
  auto it = table().by_name.find(name);
  if (it == table().by_name.end() || it->second == Op::Const || it->second == Op::Var)
    return std::nullopt;
  return it->second;
}

std::optional<Op> op_spelled(std::string_view language, std::string_view name) {
  for (std::string_view s : table().spellings) {
    auto [lang, n] = split_spelling(s);
    if (lang == language && n == name) return table().by_spelling.at(s);
  }
  return std::nullopt;
}

std::vector<std::pair<std::string_view, Op>> ops_spelled(std::string_view language) {
  std::vector<std::pair<std::string_view, Op>> out;
  for (std::string_view s : table().spellings) {
    auto [lang, n] = split_spelling(s);
    if (lang == language) out.emplace_back(n, table().by_spelling.at(s));
  }
  return out;
}

TypeResult result_type(Op op, std::span<const Type> ts) {
  const OpInfo& info = op_info(op);
  auto fail = [&](const std::string& why) {
    return TypeResult{std::nullopt, std::string(info.name) + ": " + why};
  };
  size_t n = ts.size();
  if (info.variadic ? n < info.arity : n != info.arity)
    return fail("expects " + std::string(info.variadic ? "at least " : "") +
                std::to_string(info.arity) + " operands, got " + std::to_string(n));
  auto all_same = [&](size_t from) {
    for (size_t k = from + 1; k < n; ++k)
      if (ts[k] != ts[from]) return false;
    return true;
  };
  switch (info.sig) {
    case Signature::Leaf:
      return fail("is a leaf");
    case Signature::SameNum:
      if (ts[0] == Type::Bool || !all_same(0)) return fail("operands must share one numeric type");
      return {ts[0], {}};
    case Signature::SameFloat:
      for (Type t : ts)
        if (t != Type::F32) return fail("operands must be f32");
      return {Type::F32, {}};
    case Signature::SameInt:
      if (!is_int(ts[0]) || !all_same(0)) return fail("operands must share one integer type");
      return {ts[0], {}};
    case Signature::Compare:
      if (ts[0] == Type::Bool || !all_same(0)) return fail("operands must share one numeric type");
      return {Type::Bool, {}};
    case Signature::Logic:
      for (Type t : ts)
        if (t != Type::Bool) return fail("operands must be bool");
      return {Type::Bool, {}};
    case Signature::Select:
      if (ts[0] != Type::Bool || ts[1] != ts[2]) return fail("expects (bool, T, T)");
      return {ts[1], {}};
    case Signature::CastTo:
      return {info.cast_result, {}};
    case Signature::BitcastF2I:
      if (ts[0] != Type::F32) return fail("operand must be f32");
      return {Type::I32, {}};
    case Signature::BitcastI2F:
      if (ts[0] != Type::I32) return fail("operand must be i32");
      return {Type::F32, {}};
    case Signature::FrexpExp:
      if (ts[0] != Type::F32) return fail("operand must be f32");
      return {Type::I32, {}};
    case Signature::Ldexp:
      if (ts[0] != Type::F32 || !is_int(ts[1])) return fail("expects (f32, int)");
      return {Type::F32, {}};
  }
  return fail("unknown signature");
}

bool real_eval_exact(Op op) {
  return op_info(op).real_exact;
}

IeeeValue eval_ieee(Op op, std::span<const IeeeValue> args) {
  return op_info(op).ieee(args);
}
void eval_real(Op op, std::span<const RealValue* const> args, RealValue& out) {
  op_info(op).real(args, out);
  // Real semantics has one zero: without this, recip(neg 0) and recip(0) would differ.
  if (out.type == Type::F32 && mpfr_zero_p(out.f.get())) mpfr_set_zero(out.f.get(), 1);
}

}  // namespace keq::ir
