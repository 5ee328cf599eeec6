// Z3 in IEEE semantics: the floating-point theory over fp32, bit-precise.
//
// Only exact IEEE operations are encoded (round-to-nearest-even +, -, *, /, fma, sqrt; max/min
// with each framework's NaN and signed-zero rules; comparisons, select; casts to fp16 and bf16
// and back). Approximations (exp, tanh, div.full, sqrt.approx, ...) and sums of three or more
// terms (whose order the programs do not fix) are outside the fragment: verify never sends
// them here. Equality is SMT-LIB's `=` on floats: the same bits, with its one NaN matching any
// NaN.
#include <z3++.h>

#include <bit>
#include <cmath>

#include "smt/smt.h"

namespace keq::smt {

namespace {

using ir::Op;
using ir::TermId;

struct NotInFragment {
  std::string what;
};

class FpEncoder {
 public:
  FpEncoder(z3::context& c, const ir::TermStore& s, const std::function<VarRange(TermId)>& range)
      : c_(c), s_(s), range_(range), facts_(c), f32_(c.fpa_sort(8, 24)) {
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

 private:
  z3::expr num(float v) { return c_.fpa_val(v); }
  z3::expr nan() { return c_.fpa_nan(f32_); }
  z3::expr is_nan(const z3::expr& x) { return x.mk_is_nan(); }
  z3::expr rne() { return c_.fpa_rounding_mode(); }

  z3::expr constant(const ir::Constant& k) {
    if (k.type == ir::Type::Bool) return c_.bool_val(k.i != 0);
    if (k.type != ir::Type::F32) throw NotInFragment{"integer values"};
    float f = static_cast<float>(k.f);
    if (static_cast<double>(f) != k.f && !std::isnan(k.f))
      throw NotInFragment{"a constant that is not an fp32 value"};
    if (std::isnan(f)) return nan();
    if (std::isinf(f)) return c_.fpa_inf(f32_, f < 0);
    return num(f);
  }

  z3::expr variable(TermId t) {
    const ir::Variable& v = s_.variable_of(t);
    if (v.type == ir::Type::Bool) {
      z3::expr b = c_.bool_const(v.name.c_str());
      vars_.emplace(t, b);
      return b;
    }
    if (v.type != ir::Type::F32) throw NotInFragment{"integer inputs"};
    z3::expr x = c_.fpa_const(v.name.c_str(), 8, 24);
    VarRange r = range_(t);
    if (!r.nonfinite) facts_.push_back(!is_nan(x) && !x.mk_is_inf());
    if (std::isfinite(r.lo)) facts_.push_back(x >= num(static_cast<float>(r.lo)));
    if (std::isfinite(r.hi)) {
      z3::expr hi = num(static_cast<float>(r.hi));
      facts_.push_back(r.hi_open ? x < hi : x <= hi);
    }
    vars_.emplace(t, x);
    return x;
  }

  // max/min as both frameworks order values: -0 below +0; NaN wins (torch) or loses (maxnum).
  z3::expr pick(const z3::expr& a, const z3::expr& b, bool is_max, bool nan_wins) {
    z3::expr a_first = is_max ? a > b : a < b;
    z3::expr b_first = is_max ? b > a : b < a;
    // Equal values: only zeros can differ in bits; max takes +0, min takes -0.
    z3::expr a_negative(c_, Z3_mk_fpa_is_negative(c_, a));
    z3::expr a_zero_wins = is_max ? !a_negative : a_negative;
    z3::expr ordered = z3::ite(a_first, a, z3::ite(b_first, b, z3::ite(a_zero_wins, a, b)));
    if (nan_wins) return z3::ite(is_nan(a) || is_nan(b), nan(), ordered);
    return z3::ite(is_nan(a), b, z3::ite(is_nan(b), a, ordered));
  }

  z3::expr fold(std::span<const TermId> kids, bool is_max, bool nan_wins) {
    z3::expr acc = encode(kids[0]);
    for (size_t k = 1; k < kids.size(); ++k) acc = pick(acc, encode(kids[k]), is_max, nan_wins);
    return acc;
  }

  // Rounds through a narrower IEEE format and back (exact on the way back).
  z3::expr through(const z3::expr& x, unsigned ebits, unsigned sbits) {
    z3::expr narrow(c_, Z3_mk_fpa_to_fp_float(c_, rne(), x, c_.fpa_sort(ebits, sbits)));
    return z3::expr(c_, Z3_mk_fpa_to_fp_float(c_, rne(), narrow, f32_));
  }

  z3::expr build(TermId t) {
    auto kids = s_.children(t);
    auto k = [&](size_t i) { return encode(kids[i]); };
    if (s_.type(t) != ir::Type::F32 && s_.type(t) != ir::Type::Bool)
      throw NotInFragment{"integer values"};
    switch (s_.op(t)) {
      case Op::Const:
        return constant(s_.constant_of(t));
      case Op::Var:
        return variable(t);
      case Op::Add:
        return k(0) + k(1);
      case Op::Sub:
        return k(0) - k(1);
      case Op::Mul:
        return k(0) * k(1);
      case Op::Div:
        return k(0) / k(1);
      case Op::Neg:
        return -k(0);
      case Op::Abs:
        return z3::expr(c_, Z3_mk_fpa_abs(c_, k(0)));
      case Op::Fma:
        return z3::expr(c_, Z3_mk_fpa_fma(c_, rne(), k(0), k(1), k(2)));
      case Op::Sqrt:
        return z3::expr(c_, Z3_mk_fpa_sqrt(c_, rne(), k(0)));
      case Op::Sum:
      case Op::Prod:
        if (kids.size() > 2) throw NotInFragment{"a sum or product whose order is unspecified"};
        if (kids.size() == 1) return k(0);
        return s_.op(t) == Op::Sum ? k(0) + k(1) : k(0) * k(1);
      case Op::Max:
      case Op::AMax:
        return fold(kids, true, true);
      case Op::Min:
      case Op::AMin:
        return fold(kids, false, true);
      case Op::MaxNum:
      case Op::TMax:
        return fold(kids, true, false);
      case Op::MinNum:
      case Op::TMin:
        return fold(kids, false, false);
      case Op::Clamp:  // torch.clamp: max first, then min, NaN propagating
        return pick(pick(k(0), k(1), true, true), k(2), false, true);
      case Op::Lt:
        return k(0) < k(1);
      case Op::Le:
        return k(0) <= k(1);
      case Op::Gt:
        return k(0) > k(1);
      case Op::Ge:
        return k(0) >= k(1);
      case Op::Eq:
        return z3::fp_eq(k(0), k(1));
      case Op::Ne:
        return !z3::fp_eq(k(0), k(1));
      case Op::Select:
        return z3::ite(k(0), k(1), k(2));
      case Op::And:
        return k(0) && k(1);
      case Op::Or:
        return k(0) || k(1);
      case Op::Not:
        return !k(0);
      case Op::CastF32:
        if (s_.type(kids[0]) != ir::Type::F32) throw NotInFragment{"integer casts"};
        return k(0);
      case Op::CastF16:
        return through(k(0), 5, 11);
      case Op::CastBF16:
        return through(k(0), 8, 8);
      default:
        throw NotInFragment{"op " + std::string(ir::op_name(s_.op(t)))};
    }
  }

  z3::context& c_;
  const ir::TermStore& s_;
  const std::function<VarRange(TermId)>& range_;
  z3::expr_vector facts_;
  z3::sort f32_;
  absl::flat_hash_map<TermId, z3::expr> memo_, vars_;
};

double fp_value(z3::context& c, const z3::model& m, const z3::expr& x) {
  if (x.is_bool()) return m.eval(x, true).is_true() ? 1 : 0;
  z3::expr bits = m.eval(z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, x)), true);
  uint64_t u = 0;
  if (!Z3_get_numeral_uint64(c, bits, &u)) return NAN;  // NaN has no unique bits in SMT-LIB
  return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(u)));
}

}  // namespace

Result check_equal_ieee(const ir::TermStore& store, TermId a, TermId b,
                        const std::function<VarRange(TermId)>& range, unsigned timeout_ms) {
  z3::context c;
  Result r;
  try {
    FpEncoder enc(c, store, range);
    z3::expr ea = enc.encode(a), eb = enc.encode(b);
    z3::params p(c);
    p.set("timeout", timeout_ms);
    p.set("rlimit", kQueryResourceLimit);  // deterministic: load cannot change the answer
    z3::solver s(c);
    s.set(p);
    s.add(enc.facts());
    s.add(ea != eb);  // SMT-LIB equality: the same bits, one NaN
    switch (s.check()) {
      case z3::unsat:
        r.outcome = Outcome::Proved;
        return r;
      case z3::unknown:
        r.reason = "Z3 (floating point): " + s.reason_unknown();
        return r;
      case z3::sat: {
        z3::model m = s.get_model();
        for (const auto& [t, x] : enc.vars()) r.model[t] = fp_value(c, m, x);
        r.outcome = Outcome::Model;
        return r;
      }
    }
  } catch (const NotInFragment& e) {
    r.outcome = Outcome::Unsupported;
    r.reason = "the Z3 floating-point encoding does not cover " + e.what;
  } catch (const z3::exception& e) {
    r.reason = std::string("Z3: ") + e.msg();
  }
  return r;
}

}  // namespace keq::smt
