// Z3 in IEEE semantics: the floating-point theory over fp32, bit-precise.
//
// Only exact IEEE operations are encoded (round-to-nearest-even +, -, *, /, fma, sqrt; max/min
// with each framework's NaN and signed-zero rules; comparisons, select; casts to fp16 and bf16
// and back). Integers are bit-vectors of their width: +, -, *, comparisons, bit operations,
// shifts by constants, casts and bitcasts (a NaN's bits unconstrained). Approximations (exp, tanh,
// div.full, sqrt.approx, ...) and sums of three or more terms (whose order the programs do not fix)
// are outside the fragment: verify never sends them here. Equality is SMT-LIB's `=` on floats: the
// same bits, with its one NaN matching any NaN.
#include <z3++.h>

#include <bit>
#include <cmath>

#include "ir/smt_expr.h"
#include "smt/interrupt.h"
#include "smt/smt.h"

namespace keq::smt {

namespace {

using ir::Op;
using ir::TermId;

// The query's side of the IEEE encoding: constants, inputs with their ranges and facts; each
// op's own lines of math are its op-table row.
class FpEncoder final : public IeeeEncoding {
 public:
  FpEncoder(z3::context& c, const ir::TermStore& s, const std::function<VarRange(TermId)>& range)
      : c_(c), s_(s), range_(range), facts_(c) {
    c_.set_rounding_mode(z3::RNE);
  }

  z3::expr encode(TermId t) {
    if (auto it = memo_.find(t); it != memo_.end()) return it->second;
    z3::expr e = build(t);
    memo_.emplace(t, e);
    return e;
  }
  const z3::expr_vector& facts() const { return facts_; }
  const absl::flat_hash_map<TermId, z3::expr>& vars() const { return vars_; }
  z3::context& ctx() override { return c_; }

 private:
  z3::expr num(float v) { return c_.fpa_val(v); }

  z3::expr constant(const ir::Constant& k) {
    if (k.type == ir::Type::Bool) return c_.bool_val(k.i != 0);
    if (ir::is_int(k.type)) return c_.bv_val(k.i, width(k.type));
    float f = static_cast<float>(k.f);
    if (static_cast<double>(f) != k.f && !std::isnan(k.f))
      throw NotEncoded{"a constant that is not an fp32 value"};
    if (std::isnan(f)) return nan();
    if (std::isinf(f)) return c_.fpa_inf(f32(), f < 0);
    return num(f);
  }

  z3::expr variable(TermId t) {
    const ir::Variable& v = s_.variable_of(t);
    if (v.type == ir::Type::Bool) {
      z3::expr b = c_.bool_const(v.name.c_str());
      vars_.emplace(t, b);
      return b;
    }
    if (ir::is_int(v.type)) {
      z3::expr b = c_.bv_const(v.name.c_str(), width(v.type));
      vars_.emplace(t, b);
      return b;
    }
    z3::expr x = c_.fpa_const(v.name.c_str(), 8, 24);
    VarRange r = range_(t);
    if (!r.nonfinite) facts_.push_back(!x.mk_is_nan() && !x.mk_is_inf());
    if (std::isfinite(r.lo)) facts_.push_back(x >= num(static_cast<float>(r.lo)));
    if (std::isfinite(r.hi)) {
      z3::expr hi = num(static_cast<float>(r.hi));
      facts_.push_back(r.hi_open ? x < hi : x <= hi);
    }
    vars_.emplace(t, x);
    return x;
  }

  static unsigned width(ir::Type t) { return t == ir::Type::I32 ? 32 : 64; }

  // The ops whose encodings read integer operands as bit-vectors; the others assume floats.
  static bool takes_integers(Op op) {
    switch (op) {
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Neg:
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Eq:
      case Op::Ne:
      case Op::Select:
      case Op::Shl:
      case Op::Shr:
      case Op::LShr:
      case Op::BitAnd:
      case Op::BitOr:
      case Op::BitXor:
      case Op::CastI32:
      case Op::CastI64:
      case Op::CastF32:
      case Op::CastBool:
      case Op::BitcastF32:
      case Op::BitcastI32:
        return true;
      default:
        return false;
    }
  }

  z3::expr build(TermId t) {
    Op op = s_.op(t);
    if (op == Op::Const) return constant(s_.constant_of(t));
    if (op == Op::Var) return variable(t);
    const ir::OpInfo& info = ir::op_info(op);
    if (!info.smt_ieee) throw NotEncoded{"op " + std::string(info.name)};
    bool integers = ir::is_int(s_.type(t));
    for (TermId k : s_.children(t)) integers = integers || ir::is_int(s_.type(k));
    if (integers && !takes_integers(op))
      throw NotEncoded{"op " + std::string(info.name) + " on integers"};
    std::vector<z3::expr> kids;
    for (TermId k : s_.children(t)) kids.push_back(encode(k));
    return info.smt_ieee(*this, kids);
  }

  z3::context& c_;
  const ir::TermStore& s_;
  const std::function<VarRange(TermId)>& range_;
  z3::expr_vector facts_;
  absl::flat_hash_map<TermId, z3::expr> memo_, vars_;
};

double fp_value(const z3::model& m, const z3::expr& x) {
  if (x.is_bool()) return m.eval(x, true).is_true() ? 1 : 0;
  if (x.is_bv()) return static_cast<double>(bv_signed_value(m.eval(x, true)));
  std::optional<uint32_t> bits = fp32_bits(m, x);
  if (!bits) return NAN;
  return static_cast<double>(std::bit_cast<float>(*bits));
}

}  // namespace

Result check_equal_ieee(const ir::TermStore& store, TermId a, TermId b,
                        const std::function<VarRange(TermId)>& range, unsigned timeout_ms,
                        std::optional<TermId> assume) {
  z3::context c;
  InterruptAt guard(c, after_ms(timeout_ms));
  Result r;
  try {
    FpEncoder enc(c, store, range);
    z3::expr ea = enc.encode(a), eb = enc.encode(b);
    z3::params p(c);
    p.set("timeout", std::max(1u, timeout_ms));  // Z3 reads 0 as none
    p.set("rlimit", kQueryResourceLimit);        // deterministic: load cannot change the answer
    z3::solver s(c);
    s.set(p);
    s.add(enc.facts());
    if (assume) s.add(enc.encode(*assume));
    s.add(ea != eb);  // SMT-LIB equality: the same bits, one NaN
    switch (s.check()) {
      case z3::unsat:
        r.outcome = Outcome::Proved;
        return r;
      case z3::unknown:
        r.reason = why_unknown(s, "Z3 (floating point)");
        return r;
      case z3::sat: {
        z3::model m = s.get_model();
        for (const auto& [t, x] : enc.vars()) r.model[t] = fp_value(m, x);
        r.outcome = Outcome::Model;
        return r;
      }
    }
  } catch (const NotEncoded& e) {
    r.outcome = Outcome::Unsupported;
    r.reason = std::string("the Z3 floating-point encoding does not cover ") + e.what();
  } catch (const z3::exception& e) {
    r.reason = std::string("Z3: ") + e.msg();
  }
  return r;
}

}  // namespace keq::smt
