#include "ir/term.h"

#include <absl/container/inlined_vector.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "ir/budget.h"
#include "ir/evaluate.h"

namespace keq::ir {

TermStore::TermStore() : memo_(this) {}

TermId TermStore::intern(Op op, Type type, uint32_t payload, std::span<const TermId> children) {
  NodeView v{static_cast<uint32_t>(op), payload, children};
  return intern_hashed(type, v, memo_.hash_of(v));
}

TermId TermStore::intern_hashed(Type type, const NodeView& v, uint32_t hash) {
  auto [id, fresh] = memo_.find_or_insert(v, hash, static_cast<TermId>(nodes_.size()));
  if (!fresh) return id;
  nodes_.push_back(Node{static_cast<uint16_t>(v.op), type, v.payload,
                        static_cast<uint32_t>(children_.size()),
                        static_cast<uint32_t>(v.children.size())});
  children_.insert(children_.end(), v.children.begin(), v.children.end());
  return id;
}

void TermStore::make_each(Op op, std::span<const TermId> a, std::span<const TermId> b,
                          std::vector<TermId>& out) {
  constexpr size_t kAhead = 8;  // lookups in flight: enough to cover a miss, few enough to fit
  size_t n = std::min(a.size(), b.size());
  absl::InlinedVector<std::array<TermId, 2>, 128> kids(n);
  absl::InlinedVector<uint32_t, 128> hashes(n);
  absl::InlinedVector<Type, 128> types(n);
  for (size_t k = 0; k < n; ++k) {
    Budget::tick();
    kids[k] = {a[k], b[k]};
    std::array<Type, 2> ts{checked_type(a[k]), checked_type(b[k])};
    TypeResult r = result_type(op, ts);
    if (!r.type) throw TypeError(r.error);
    types[k] = *r.type;
    hashes[k] = memo_.hash_of(NodeView{static_cast<uint32_t>(op), 0, kids[k]});
    if (k < kAhead) memo_.prefetch(hashes[k]);
  }
  for (size_t k = 0; k < n; ++k) {
    if (k + kAhead < n) memo_.prefetch(hashes[k + kAhead]);
    out.push_back(
        intern_hashed(types[k], NodeView{static_cast<uint32_t>(op), 0, kids[k]}, hashes[k]));
  }
}

TermId TermStore::constant(const Constant& c) {
  auto& cands = constant_index_[c.key_bits()];
  for (uint32_t k : cands)
    if (constants_[k] == c) return intern(Op::Const, c.type, k, {});
  cands.push_back(static_cast<uint32_t>(constants_.size()));
  constants_.push_back(c);
  return intern(Op::Const, c.type, cands.back(), {});
}

TermId TermStore::variable(std::string_view name, Type type) {
  Budget::tick();
  auto [it, inserted] = variable_index_.try_emplace(std::string(name), variables_.size());
  if (inserted) variables_.push_back(Variable{std::string(name), type});
  const Variable& v = variables_[it->second];
  if (v.type != type)
    throw TypeError("variable " + v.name + " is " + std::string(type_name(v.type)) + ", not " +
                    std::string(type_name(type)));
  return intern(Op::Var, type, it->second, {});
}

// An operand's type; an id that names no term (a frontend's sentinel for memory nothing wrote,
// read by an op that did not define it first) is a TypeError, where it read past the nodes.
Type TermStore::checked_type(TermId t) const {
  if (t >= nodes_.size()) throw TypeError("an operand that is no term (memory nothing wrote?)");
  return type(t);
}

TermId TermStore::make(Op op, std::span<const TermId> children) {
  Budget::tick();
  absl::InlinedVector<Type, 8> ts;  // no allocation for the common few operands
  for (TermId c : children) ts.push_back(checked_type(c));
  TypeResult r = result_type(op, ts);
  if (!r.type) throw TypeError(r.error);
  return intern(op, *r.type, 0, children);
}

std::string TermStore::str(TermId t) const {
  switch (op(t)) {
    case Op::Const:
      return constant_of(t).str();
    case Op::Var:
      return variable_of(t).name;
    default:
      break;
  }
  std::string s = "(";
  s.append(op_name(op(t)));
  for (TermId c : children(t)) {
    s.push_back(' ');
    s.append(str(c));
  }
  s.push_back(')');
  return s;
}

std::string TermStore::str(TermId root, size_t max_chars) const {
  std::string out;
  auto rec = [&](auto& self, TermId t) -> void {
    if (out.size() > max_chars) return;
    switch (op(t)) {
      case Op::Const:
        out += constant_of(t).str();
        return;
      case Op::Var:
        out += variable_of(t).name;
        return;
      default:
        break;
    }
    out += '(';
    out.append(op_name(op(t)));
    for (TermId c : children(t)) {
      if (out.size() > max_chars) break;
      out += ' ';
      self(self, c);
    }
    out += ')';
  };
  rec(rec, root);
  if (out.size() > max_chars) out = out.substr(0, max_chars) + " ...";
  return out;
}

std::optional<Constant> parse_constant(std::string_view atom) {
  if (atom == "true") return Constant::of_bool(true);
  if (atom == "false") return Constant::of_bool(false);
  std::string body(atom);
  std::optional<Type> int_type;
  if (auto colon = body.rfind(':'); colon != std::string::npos) {
    int_type = type_by_name(body.substr(colon + 1));
    if (!int_type || !is_int(*int_type)) return std::nullopt;
    body.resize(colon);
  }
  if (body.empty()) return std::nullopt;
  if (!int_type) {
    if (body == "inf" || body == "+inf") return Constant::of_float(INFINITY);
    if (body == "-inf") return Constant::of_float(-INFINITY);
    if (body == "nan") return Constant::of_float(NAN);
  }
  char c0 = body[0] == '-' || body[0] == '+' ? (body.size() > 1 ? body[1] : 'x') : body[0];
  if (!isdigit(static_cast<unsigned char>(c0)) && c0 != '.') return std::nullopt;
  const char* b = body.c_str();
  char* end = nullptr;
  errno = 0;
  bool hex = body.find("0x") != std::string::npos || body.find("0X") != std::string::npos;
  bool looks_int = hex || body.find_first_of(".eE") == std::string::npos;
  if (int_type) {
    if (!looks_int) return std::nullopt;
    long long v = std::strtoll(b, &end, 0);
    if (*end || errno) return std::nullopt;
    if (*int_type == Type::I32 && (v < INT32_MIN || v > INT32_MAX)) return std::nullopt;
    return Constant::of_int(*int_type, v);
  }
  if (hex) {
    long long v = std::strtoll(b, &end, 0);
    if (*end || errno) return std::nullopt;
    return Constant::of_float(static_cast<double>(v));
  }
  // Float constants are values of the term language (fp32 in IEEE, reals in real semantics);
  // the literal is kept exactly as a double so folding can decide exactness.
  double v = std::strtod(b, &end);
  if (*end) return std::nullopt;
  return Constant::of_float(v);
}

TermId read_term(TermStore& store, const SExpr& e,
                 const absl::flat_hash_map<std::string, Type>& var_types) {
  if (e.is_atom()) {
    if (auto c = parse_constant(e.atom)) return store.constant(*c);
    std::string name = e.atom;
    Type t = Type::F32;
    if (auto it = var_types.find(name); it != var_types.end()) t = it->second;
    if (auto colon = name.rfind(':');
        colon != std::string::npos && name.find('[') == std::string::npos) {
      auto tt = type_by_name(name.substr(colon + 1));
      if (!tt) throw SyntaxError(e.pos, "unknown type in '" + name + "'");
      t = *tt;
      name.resize(colon);
    }
    if (name.empty() || name[0] == '?')
      throw SyntaxError(e.pos, "'" + e.atom + "' is not a variable name");
    try {
      return store.variable(name, t);
    } catch (const TypeError& err) {
      throw SyntaxError(e.pos, err.what());
    }
  }
  if (e.items.empty()) throw SyntaxError(e.pos, "empty list: expected (op operands...)");
  const SExpr& head = e.items[0];
  if (!head.is_atom()) throw SyntaxError(head.pos, "expected an op name");
  auto op = op_by_name(head.atom);
  if (!op) throw SyntaxError(head.pos, "unknown op '" + head.atom + "'");
  std::vector<TermId> kids;
  for (size_t k = 1; k < e.items.size(); ++k)
    kids.push_back(read_term(store, e.items[k], var_types));
  try {
    return store.make(*op, kids);
  } catch (const TypeError& err) {
    throw SyntaxError(e.pos, err.what());
  }
}

namespace {
IeeeValue apply_ieee(Op op, std::span<const TermId> kids, const IeeeMemo& memo) {
  std::vector<IeeeValue> args;
  args.reserve(kids.size());
  for (TermId c : kids) args.push_back(memo.at(c));
  return eval_ieee(op, args);
}
}  // namespace

IeeeValue evaluate_ieee(const TermStore& s, TermId t, const IeeeEnv& env) {
  IeeeMemo memo;
  return evaluate<IeeeValue>(s, t, env, apply_ieee, memo);
}

IeeeValue evaluate_ieee(const TermStore& s, TermId t, const IeeeTermEnv& env, IeeeMemo& memo) {
  return evaluate<IeeeValue>(s, t, env, apply_ieee, memo);
}

RealValue evaluate_real(const TermStore& s, TermId t, const RealEnv& env) {
  RealMemo memo;
  return evaluate_real(
      s, t, [&](TermId v) { return env(s.variable_of(v)); }, memo);
}

RealValue evaluate_real(const TermStore& s, TermId t, const RealTermEnv& env, RealMemo& memo) {
  // A value past MPFR's exponent range (exp(1e10)) would come back as inf or 0: refuse instead,
  // since replay must never confirm a difference that only the evaluator's range made.
  Real::widen_exponent_range();
  mpfr_clear_overflow();
  mpfr_clear_underflow();
  auto apply = [](Op op, std::span<const TermId> kids, auto& values) {
    std::vector<const RealValue*> args;
    args.reserve(kids.size());
    for (TermId c : kids) args.push_back(&values.at(c));
    RealValue out;
    eval_real(op, args, out);
    return out;
  };
  try {
    RealValue v = evaluate<RealValue>(s, t, env, apply, memo);
    if (mpfr_overflow_p() || mpfr_underflow_p())
      throw EvalError{"a real intermediate value is beyond the evaluator's exponent range"};
    return v;
  } catch (const EvalError&) {
    memo.clear();
    throw;
  }
}

}  // namespace keq::ir
