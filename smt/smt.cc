#include "smt/smt.h"

#include <gmpxx.h>
#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>

#include "ir/enclosure.h"
#include "ir/smt_expr.h"
#include "smt/interrupt.h"

namespace keq::smt {

namespace {

using ir::Op;
using ir::TermId;

// The query's side of the real encoding: constants, inputs with their ranges, facts, side
// conditions and the uninterpreted functions; each op's own lines of math are its op-table row.
class Encoder final : public RealEncoding {
 public:
  Encoder(z3::context& c, const ir::TermStore& s, const std::function<VarRange(TermId)>& range)
      : c_(c), s_(s), range_(range), facts_(c), conditions_(c) {}

  z3::expr encode(TermId t) {
    if (auto it = memo_.find(t); it != memo_.end()) return it->second;
    z3::expr e = build(t);
    memo_.emplace(t, e);
    return e;
  }
  const z3::expr_vector& facts() const { return facts_; }            // true of the functions
  const z3::expr_vector& conditions() const { return conditions_; }  // must hold for all inputs
  // conditions()[i] came from encoding term origins()[i].first, its origins()[i].second-th.
  const std::vector<std::pair<TermId, unsigned>>& origins() const { return origins_; }
  const absl::flat_hash_map<TermId, z3::expr>& vars() const { return vars_; }
  // Each application of an uninterpreted function, with the MPFR function it stands for (all
  // increasing), for model refinement.
  struct Application {
    MpfrFn real;
    z3::expr arg, value;
  };
  const std::vector<Application>& applications() const { return apps_; }
  // Whether the two terms' values are the same extended real.
  z3::expr equal(TermId a, const z3::expr& ea, TermId b, const z3::expr& eb) const {
    if (!infinities_.contains(a) && !infinities_.contains(b)) return ea == eb;
    return same(ea, infinity_of(a), eb, infinity_of(b));
  }

  z3::context& ctx() override { return c_; }
  Expr fresh(const char* prefix) override {
    return c_.real_const((prefix + std::to_string(n_++)).c_str());
  }
  Expr fresh_int(const char* prefix) override {
    return c_.int_const((prefix + std::to_string(n_++)).c_str());
  }
  unsigned operand_width(size_t i) override { return width(s_.type(s_.children(building_)[i])); }
  Expr fresh_bool(const char* prefix) override {
    return c_.bool_const((prefix + std::to_string(n_++)).c_str());
  }
  void fact(const Expr& e) override { facts_.push_back(e); }
  void condition(const Expr& e) override {
    unsigned k =
        origins_.empty() || origins_.back().first != building_ ? 0 : origins_.back().second + 1;
    origins_.emplace_back(building_, k);
    conditions_.push_back(e);
  }
  Expr apply(const char* name, const Expr& x, MpfrFn increasing) override {
    auto it = functions_.find(name);
    if (it == functions_.end())
      it = functions_.emplace(name, c_.function(name, c_.real_sort(), c_.real_sort())).first;
    z3::expr e = it->second(x);
    if (increasing) apps_.push_back({increasing, x, e});
    by_function_[name].push_back({x, e});
    return e;
  }

  // The laws of exp at this query's arguments (check_rule_real in smt.h), where it has at most
  // `max_apps` applications: f(u + v) = f(u) f(v) over every pair of them and 0, and f
  // increasing over all of those. exp2 and log2 are encoded through exp and log.
  void add_function_laws(size_t max_apps) {
    const std::pair<const char*, MpfrFn> kLaws[] = {{"exp", mpfr_exp}};
    for (auto [name, f] : kLaws) {
      std::vector<std::pair<z3::expr, z3::expr>> base = by_function_[name];
      if (base.empty() || base.size() > max_apps) continue;
      base.push_back({real(0), apply(name, real(0), f)});
      fact(base.back().second == 1);
      std::vector<std::pair<z3::expr, z3::expr>> all = base;
      for (size_t i = 0; i < base.size(); ++i)
        for (size_t j = i; j < base.size(); ++j) {
          z3::expr u = base[i].first + base[j].first;
          all.push_back({u, apply(name, u, f)});
          fact(all.back().second == base[i].second * base[j].second);
        }
      for (const auto& [u, v] : all) fact(v > 0);
      for (const auto& [u, v] : all)
        for (const auto& [w, z] : all)
          if (!z3::eq(u, w)) fact(z3::implies(u < w, v < z));
    }
  }

 private:
  z3::expr constant(TermId t) {
    const ir::Constant& k = s_.constant_of(t);
    if (ir::is_int(k.type)) ranges_.emplace(t, IntRange{k.i, k.i});
    if (k.type == ir::Type::F32 && std::isinf(k.f))
      infinities_.emplace(t, Infinity{c_.bool_val(k.f > 0), c_.bool_val(k.f < 0)});
    return constant(k);
  }
  z3::expr constant(const ir::Constant& k) {
    if (k.type == ir::Type::Bool) return c_.bool_val(k.i != 0);
    if (ir::is_int(k.type)) return c_.int_val(static_cast<int64_t>(k.i));
    if (std::isnan(k.f)) throw NotEncoded{"NaN constants"};
    if (std::isinf(k.f)) return c_.real_val(0);  // the value of an infinity (constant(TermId))
    int e = 0;  // a double is m * 2^e exactly, m an integer: an exact rational for Z3
    mpz_class m(std::ldexp(std::frexp(k.f, &e), 53)), p = 1;
    e -= 53;
    mpz_mul_2exp(p.get_mpz_t(), p.get_mpz_t(), static_cast<mp_bitcnt_t>(std::abs(e)));
    std::string text = e >= 0 ? mpz_class(m * p).get_str() : m.get_str() + "/" + p.get_str();
    return c_.real_val(text.c_str());
  }

  static unsigned width(ir::Type t) { return t == ir::Type::I32 ? 32 : ir::is_int(t) ? 64 : 0; }

  // A float lies in its input's range; an integer in its type's range and its input's within
  // that, which exact_range reads too.
  z3::expr variable(TermId t) {
    const ir::Variable& v = s_.variable_of(t);
    VarRange r = range_(t);
    if (ir::is_int(v.type)) {
      z3::expr x = c_.int_const(v.name.c_str());
      IntRange in = type_range(v.type);
      if (std::isfinite(r.lo) && r.lo > static_cast<double>(in.lo))
        in.lo = static_cast<__int128>(std::ceil(r.lo));
      if (std::isfinite(r.hi) && r.hi < static_cast<double>(in.hi))
        in.hi = static_cast<__int128>(r.hi_open && r.hi == std::floor(r.hi) ? r.hi - 1
                                                                            : std::floor(r.hi));
      facts_.push_back(x >= c_.int_val(static_cast<int64_t>(in.lo)) &&
                       x <= c_.int_val(static_cast<int64_t>(in.hi)));
      ranges_.emplace(t, in);
      vars_.emplace(t, x);
      return x;
    }
    z3::expr x =
        v.type == ir::Type::Bool ? c_.bool_const(v.name.c_str()) : c_.real_const(v.name.c_str());
    if (v.type != ir::Type::Bool) {
      if (std::isfinite(r.lo)) facts_.push_back(x >= constant(ir::Constant::of_float(r.lo)));
      if (std::isfinite(r.hi)) {
        z3::expr hi = constant(ir::Constant::of_float(r.hi));
        facts_.push_back(r.hi_open ? x < hi : x <= hi);
      }
    }
    vars_.emplace(t, x);
    return x;
  }

  z3::expr build(TermId t) {
    Op op = s_.op(t);
    if (op == Op::Const) return constant(t);
    if (op == Op::Var) return variable(t);
    const ir::OpInfo& info = ir::op_info(op);
    if (!info.smt_real) throw NotEncoded{"op " + std::string(info.name)};
    std::vector<z3::expr> kids;
    for (TermId k : s_.children(t)) kids.push_back(encode(k));
    building_ = t;  // the origin of the side conditions the row adds
    bool infinite = false;
    for (TermId k : s_.children(t)) infinite = infinite || infinities_.contains(k);
    if (infinite) return extended(t, op, info, kids);
    z3::expr r = info.smt_real(*this, kids);
    if (!ir::is_int(s_.type(t))) return r;
    // Wrapped only where the exact result's range can leave the type: a wrap costs Z3 a
    // modulus by 2^32, which index arithmetic and lane counts never need.
    IntRange exact = exact_range(t), type = type_range(s_.type(t));
    bool inside = exact.lo >= type.lo && exact.hi <= type.hi;
    ranges_.emplace(t, inside ? exact : type);
    return inside || !may_leave_range(op) ? r : int_wrap(r, width(s_.type(t)));
  }

  // Infinities come only from constants (-inf as a max's identity, a masked load's `other`):
  // a term that may be one is its real value (meaningful where finite) and whether it is +inf
  // or -inf. Max, min, select, +, -, neg, *, exp, exp2, cast.f32 and comparisons follow the
  // extended reals; they give no NaN (inf - inf is a side condition); any other op needs its
  // operands finite, also a side condition.
  struct Infinity {
    z3::expr pos, neg;
  };
  Infinity infinity_of(TermId t) const {
    auto it = infinities_.find(t);
    return it != infinities_.end() ? it->second : Infinity{c_.bool_val(false), c_.bool_val(false)};
  }
  static z3::expr finite(const Infinity& i) { return !i.pos && !i.neg; }
  // a < b and a == b over the extended reals.
  static z3::expr less(const z3::expr& a, const Infinity& ia, const z3::expr& b,
                       const Infinity& ib) {
    return (ia.neg && !ib.neg) || (!ia.pos && ib.pos) || (finite(ia) && finite(ib) && a < b);
  }
  static z3::expr same(const z3::expr& a, const Infinity& ia, const z3::expr& b,
                       const Infinity& ib) {
    return (ia.pos && ib.pos) || (ia.neg && ib.neg) || (finite(ia) && finite(ib) && a == b);
  }
  z3::expr extended(TermId t, Op op, const ir::OpInfo& info, const std::vector<z3::expr>& kids) {
    auto ks = s_.children(t);
    std::vector<Infinity> inf;
    for (TermId k : ks) inf.push_back(infinity_of(k));
    auto result = [&](z3::expr v, Infinity i) {
      infinities_.emplace(t, i);
      return v;
    };
    switch (op) {
      case Op::Max:
      case Op::MaxNum:
      case Op::AMax:
      case Op::TMax:
      case Op::Min:
      case Op::MinNum:
      case Op::AMin:
      case Op::TMin: {
        bool is_max = op == Op::Max || op == Op::MaxNum || op == Op::AMax || op == Op::TMax;
        z3::expr v = kids[0];
        Infinity i = inf[0];
        for (size_t k = 1; k < kids.size(); ++k) {
          // The infinity on the losing side is the identity; the winning one absorbs.
          const Infinity& j = inf[k];
          z3::expr lose_a = is_max ? i.neg : i.pos, lose_b = is_max ? j.neg : j.pos;
          z3::expr pick =
              is_max ? z3::ite(v >= kids[k], v, kids[k]) : z3::ite(v <= kids[k], v, kids[k]);
          v = z3::ite(lose_a, kids[k], z3::ite(lose_b, v, pick));
          i = is_max ? Infinity{i.pos || j.pos, i.neg && j.neg}
                     : Infinity{i.pos && j.pos, i.neg || j.neg};
        }
        return result(v, i);
      }
      case Op::Select:
        return result(
            z3::ite(kids[0], kids[1], kids[2]),
            {z3::ite(kids[0], inf[1].pos, inf[2].pos), z3::ite(kids[0], inf[1].neg, inf[2].neg)});
      case Op::Neg:
        return result(-kids[0], {inf[0].neg, inf[0].pos});
      case Op::CastF32:
        return result(kids[0], inf[0]);
      case Op::Add:
      case Op::Sum:
      case Op::Sub: {
        z3::expr v = kids[0];
        Infinity i = inf[0];
        for (size_t k = 1; k < kids.size(); ++k) {
          Infinity j = op == Op::Sub ? Infinity{inf[k].neg, inf[k].pos} : inf[k];
          condition(!(i.pos && j.neg) && !(i.neg && j.pos));  // inf - inf is NaN
          v = op == Op::Sub ? v - kids[k] : v + kids[k];
          i = {i.pos || j.pos, i.neg || j.neg};
        }
        return result(v, i);
      }
      case Op::Mul: {
        const z3::expr &a = kids[0], &b = kids[1];
        const Infinity &ia = inf[0], &ib = inf[1];
        auto positive = [](const z3::expr& v, const Infinity& i) {
          return i.pos || (finite(i) && v > 0);
        };
        auto negative = [](const z3::expr& v, const Infinity& i) {
          return i.neg || (finite(i) && v < 0);
        };
        condition(!(!finite(ia) && finite(ib) && b == 0) && !(!finite(ib) && finite(ia) && a == 0));
        z3::expr infinite = !finite(ia) || !finite(ib);
        z3::expr same_sign =
            (positive(a, ia) && positive(b, ib)) || (negative(a, ia) && negative(b, ib));
        return result(a * b, {infinite && same_sign, infinite && !same_sign});
      }
      case Op::Exp:
      case Op::Exp2: {  // exp(-inf) = 0, exp(+inf) = +inf
        z3::expr v = info.smt_real(*this, kids);
        return result(z3::ite(inf[0].neg, real(0), v), {inf[0].pos, c_.bool_val(false)});
      }
      case Op::Lt:
        return less(kids[0], inf[0], kids[1], inf[1]);
      case Op::Gt:
        return less(kids[1], inf[1], kids[0], inf[0]);
      case Op::Le:
        return !less(kids[1], inf[1], kids[0], inf[0]);
      case Op::Ge:
        return !less(kids[0], inf[0], kids[1], inf[1]);
      case Op::Eq:
        return same(kids[0], inf[0], kids[1], inf[1]);
      case Op::Ne:
        return !same(kids[0], inf[0], kids[1], inf[1]);
      default:
        for (const Infinity& i : inf) condition(finite(i));
        return info.smt_real(*this, kids);
    }
  }

  struct IntRange {
    __int128 lo, hi;
  };
  static IntRange type_range(ir::Type t) {
    return t == ir::Type::I32   ? IntRange{INT32_MIN, INT32_MAX}
           : t == ir::Type::I64 ? IntRange{INT64_MIN, INT64_MAX}
                                : IntRange{0, 1};  // a bool read as an integer
  }
  IntRange range_of(TermId t) const {
    auto it = ranges_.find(t);
    return it != ranges_.end() ? it->second : type_range(s_.type(t));
  }
  // The range of t's exact (unwrapped) integer result, from its operands' ranges; unbounded for
  // an op whose result interval arithmetic does not follow (a shift, a cast from i64).
  IntRange exact_range(TermId t) const {
    constexpr __int128 kUnbounded = static_cast<__int128>(1) << 100;
    auto kids = s_.children(t);
    auto clamp = [&](IntRange r) {
      return IntRange{std::max(r.lo, -kUnbounded), std::min(r.hi, kUnbounded)};
    };
    IntRange r = kids.empty() ? type_range(s_.type(t)) : range_of(kids[0]);
    switch (s_.op(t)) {
      case Op::Add:
      case Op::Sum:
        for (size_t k = 1; k < kids.size(); ++k)
          r = clamp({r.lo + range_of(kids[k]).lo, r.hi + range_of(kids[k]).hi});
        return r;
      case Op::Sub:
        return {r.lo - range_of(kids[1]).hi, r.hi - range_of(kids[1]).lo};
      case Op::Neg:
        return {-r.hi, -r.lo};
      case Op::Abs:
        return {r.lo > 0 ? r.lo : r.hi < 0 ? -r.hi : 0, std::max(-r.lo, r.hi)};
      case Op::Mul:
      case Op::Prod:
        for (size_t k = 1; k < kids.size(); ++k) {
          IntRange b = range_of(kids[k]);
          __int128 c[] = {r.lo * b.lo, r.lo * b.hi, r.hi * b.lo, r.hi * b.hi};
          r = clamp({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
        }
        return r;
      case Op::Select:
        return {std::min(range_of(kids[1]).lo, range_of(kids[2]).lo),
                std::max(range_of(kids[1]).hi, range_of(kids[2]).hi)};
      case Op::CastI32:
      case Op::CastI64:
        return ir::is_int(s_.type(kids[0])) || s_.type(kids[0]) == ir::Type::Bool
                   ? r
                   : type_range(s_.type(t));
      default:
        return may_leave_range(s_.op(t)) ? IntRange{-kUnbounded, kUnbounded}
                                         : type_range(s_.type(t));
    }
  }

  // Ops whose exact integer result can leave its type, which then wraps (integer division
  // cannot: MIN / -1 is a side condition).
  static bool may_leave_range(Op op) {
    switch (op) {
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Neg:
      case Op::Abs:
      case Op::Sum:
      case Op::Prod:
      case Op::Fma:
      case Op::Shl:
      case Op::LShr:
      case Op::CastI32:
        return true;
      default:
        return false;
    }
  }

  z3::context& c_;
  const ir::TermStore& s_;
  const std::function<VarRange(TermId)>& range_;
  z3::expr_vector facts_, conditions_;
  std::map<std::string, z3::func_decl> functions_;
  absl::flat_hash_map<TermId, z3::expr> memo_, vars_;
  absl::flat_hash_map<TermId, IntRange> ranges_;      // integer terms: where their values lie
  absl::flat_hash_map<TermId, Infinity> infinities_;  // terms that may be infinite
  std::vector<Application> apps_;
  std::map<std::string, std::vector<std::pair<z3::expr, z3::expr>>> by_function_;  // (arg, value)
  std::vector<std::pair<TermId, unsigned>> origins_;
  TermId building_{};
  int n_ = 0;
};

// An exact rational of a Z3 numeral, or nothing (an algebraic number, a non-numeral).
std::optional<mpq_class> rational_of(const z3::expr& v) {
  if (!v.is_numeral()) return std::nullopt;
  std::string text = numeral_text(v);
  if (text.find('.') != std::string::npos || text.find('?') != std::string::npos)
    return std::nullopt;
  mpq_class q(text);
  q.canonicalize();
  return q;
}

std::string rational_text(const mpq_class& q) {
  return q.get_den() == 1 ? q.get_num().get_str()
                          : q.get_num().get_str() + "/" + q.get_den().get_str();
}

// Where a model gave an uninterpreted function a value the real function does not take at the
// model's argument: the true enclosure there, as a fact (f increasing: f(arg rounded down)
// rounded down <= f(arg) <= f(arg rounded up) rounded up). Facts added this way are true, so an
// unsat answer after them is still a proof.
std::vector<z3::expr> refinements(const Encoder& enc, const z3::model& m) {
  std::vector<z3::expr> out;
  for (const auto& app : enc.applications()) {
    std::optional<mpq_class> arg = rational_of(m.eval(app.arg, true));
    std::optional<mpq_class> val = rational_of(m.eval(app.value, true));
    if (!arg || !val) continue;
    mpfr_t x, lo, hi;
    mpfr_inits2(200, x, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_q(x, arg->get_mpq_t(), MPFR_RNDD);
    app.real(lo, x, MPFR_RNDD);
    mpfr_set_q(x, arg->get_mpq_t(), MPFR_RNDU);
    app.real(hi, x, MPFR_RNDU);
    bool usable = mpfr_number_p(lo) && mpfr_number_p(hi);
    mpq_class qlo, qhi;
    if (usable) {
      mpfr_get_q(qlo.get_mpq_t(), lo);
      mpfr_get_q(qhi.get_mpq_t(), hi);
    }
    mpfr_clears(x, lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (!usable || (*val >= qlo && *val <= qhi)) continue;
    z3::context& c = app.arg.ctx();
    z3::expr at = app.arg == c.real_val(rational_text(*arg).c_str());
    out.push_back(z3::implies(at, app.value >= c.real_val(rational_text(qlo).c_str()) &&
                                      app.value <= c.real_val(rational_text(qhi).c_str())));
  }
  return out;
}

double value_of(const z3::expr& v) {
  std::string s = v.is_bool() ? (v.is_true() ? "1" : "0") : v.get_decimal_string(30);
  if (!s.empty() && s.back() == '?') s.pop_back();  // an algebraic number, rounded
  return std::strtod(s.c_str(), nullptr);
}

// The uninterpreted constants (inputs, fresh names) of e, into `out`; `seen` skips shared dags.
void constants_of(const z3::expr& e, absl::flat_hash_set<unsigned>& seen,
                  absl::flat_hash_set<unsigned>& out) {
  if (!seen.insert(e.id()).second || !e.is_app()) return;
  if (e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
    out.insert(e.decl().id());
    return;
  }
  for (unsigned i = 0; i < e.num_args(); ++i) constants_of(e.arg(i), seen, out);
}

// The facts that share constants with `goal`, transitively (the cone of influence). Dropping a
// fact only weakens the hypotheses, so an unsat answer stays a proof; a side condition about one
// group's variance no longer carries every other output's exp and rsqrt facts.
z3::expr_vector relevant_facts(const z3::expr_vector& facts, const z3::expr& goal) {
  std::vector<absl::flat_hash_set<unsigned>> uses(facts.size());
  for (unsigned i = 0; i < facts.size(); ++i) {
    absl::flat_hash_set<unsigned> seen;
    constants_of(facts[i], seen, uses[i]);
  }
  absl::flat_hash_set<unsigned> wanted, seen;
  constants_of(goal, seen, wanted);
  std::vector<bool> taken(facts.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (unsigned i = 0; i < facts.size(); ++i) {
      if (taken[i]) continue;
      bool shares = uses[i].empty();  // a ground fact: kept
      for (unsigned x : uses[i]) shares = shares || wanted.contains(x);
      if (!shares) continue;
      taken[i] = grew = true;
      wanted.insert(uses[i].begin(), uses[i].end());
    }
  }
  z3::expr_vector out(facts.ctx());
  for (unsigned i = 0; i < facts.size(); ++i)
    if (taken[i]) out.push_back(facts[i]);
  return out;
}

// The point where `cond` fails, when it fails at exactly one input within the ranges (a row's
// sum of |x| or of squares vanishes only where the whole row is zero): its value for every
// variable the query encodes, each a double. Nothing when it fails elsewhere too, at a point
// that is no double, or past the budget.
template <typename Budget>
std::optional<std::map<std::string, double>> only_failure(z3::context& c, const Encoder& enc,
                                                          const z3::expr& cond, Budget& budget) {
  z3::solver s(c);
  if (!budget(s)) return std::nullopt;
  s.add(enc.facts());
  s.add(!cond);
  if (s.check() != z3::sat) return std::nullopt;
  z3::model m = s.get_model();
  std::map<std::string, double> point;
  z3::expr_vector elsewhere(c);
  for (const auto& [t, x] : enc.vars()) {
    std::optional<mpq_class> q = x.is_real() ? rational_of(m.eval(x, true)) : std::nullopt;
    if (!q || mpq_class(q->get_d()) != *q) return std::nullopt;
    point[x.decl().name().str()] = q->get_d();
    elsewhere.push_back(x != c.real_val(rational_text(*q).c_str()));
  }
  z3::solver u(c);
  if (!budget(u)) return std::nullopt;
  u.add(enc.facts());
  u.add(!cond);
  u.add(z3::mk_or(elsewhere));
  if (u.check() != z3::unsat) return std::nullopt;
  return point;
}

// Whether a and b take the same extended real at `point` (rigorous enclosures, each one value:
// 0/0 is NaN on both sides of x / mean|x| and x * (n / sum|x|) at a zero row).
bool agree_at(const ir::TermStore& store, TermId a, TermId b,
              const std::map<std::string, double>& point) {
  auto env = [&](const ir::Variable& v) -> std::optional<ir::RealValue> {
    auto it = point.find(v.name);
    if (it == point.end()) return std::nullopt;
    return ir::RealValue::of(ir::Constant::of_float(it->second));
  };
  try {
    ir::Enclosure ea = ir::evaluate_enclosure(store, a, env),
                  eb = ir::evaluate_enclosure(store, b, env);
    return ea.is_point() && eb.is_point() && !ir::disjoint(ea, eb);
  } catch (const ir::EvalError&) {
    return false;
  }
}

}  // namespace

bool ProvedConditions::contains(std::pair<TermId, unsigned> c) const {
  std::lock_guard lock(mutex_);
  return proved_.contains(c);
}

void ProvedConditions::insert(std::pair<TermId, unsigned> c) {
  std::lock_guard lock(mutex_);
  proved_.insert(c);
}

void set_memory_limit(size_t bytes) {
  z3::set_param("memory_max_size", static_cast<int>(std::min<size_t>(bytes >> 20, INT32_MAX)));
}

namespace {

// A rule's queries see every function law up to this many applications of one function (the
// shipped rules have at most 4): the sums grow with its square, the order facts with its fourth
// power.
constexpr size_t kLawApplications = 8;

Result check(const ir::TermStore& store, TermId a, TermId b,
             const std::function<VarRange(TermId)>& range, unsigned timeout_ms,
             std::optional<TermId> assume, ProvedConditions* proved, bool rule) {
  z3::context c;
  InterruptAt guard(c, after_ms(timeout_ms));
  Result r;
  try {
    Encoder enc(c, store, range);
    z3::expr ea = enc.encode(a), eb = enc.encode(b);
    if (assume) enc.fact(enc.encode(*assume));
    if (rule) enc.add_function_laws(kLawApplications);
    // timeout_ms bounds the whole query, side conditions and refinements included: each check
    // gets what is left (a query of 8 refinements took 9 times its share, past --timeout).
    auto start = std::chrono::steady_clock::now();
    auto budget = [&](z3::solver& s) {
      double used =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (used >= timeout_ms) return false;
      z3::params p(c);
      // At least 1 ms: Z3 reads a timeout of 0 as none.
      p.set("timeout", static_cast<unsigned>(std::max(1.0, std::ceil(timeout_ms - used))));
      p.set("rlimit", kQueryResourceLimit);  // deterministic: load cannot change the answer
      s.set(p);
      return true;
    };
    const char* kSideCondition =
        "that a divisor, log or sqrt argument stays in its domain, a non-saturating cast's "
        "argument where it rounds finite, a shift amount below the width or bits a bitcast "
        "reads as a finite float";
    const std::string kTimeout = "Z3: timeout (the query's share of --timeout)";
    if (rule && !enc.conditions().empty()) {
      // Where both sides are defined; if nowhere, nothing is proved.
      r.within_domains = true;
      z3::solver s(c);
      if (!budget(s)) {
        r.reason = kTimeout;
        return r;
      }
      s.add(enc.facts());
      s.add(z3::mk_and(enc.conditions()));
      if (z3::check_result defined = s.check(); defined != z3::sat) {
        r.reason = defined == z3::unsat ? "Z3 found no input where both sides are defined"
                                        : why_unknown(s) +
                                              " (looking for an input where both "
                                              "sides are defined)";
        return r;
      }
      for (const z3::expr& cond : enc.conditions()) enc.fact(cond);
    }
    // Side conditions first: each must hold for every input, or nothing is proved.
    for (unsigned i = 0; i < enc.conditions().size() && !rule; ++i) {
      const z3::expr& cond = enc.conditions()[i];
      // A condition is a fact about one term for every input in range: proved once, it holds
      // in every query over the same store and ranges (not under `assume`, which narrows them).
      bool shared = proved && !assume;
      if (shared && proved->contains(enc.origins()[i])) continue;
      z3::solver s(c);
      if (!budget(s)) {
        r.reason = kTimeout;
        return r;
      }
      s.add(relevant_facts(enc.facts(), cond));
      s.add(!cond);
      switch (s.check()) {
        case z3::unsat:
          break;
        case z3::unknown:
          r.reason = why_unknown(s) + " (on a side condition: " + kSideCondition + ")";
          return r;
        case z3::sat:
          // A divisor zero at one input only: the two sides agree there, or nothing is proved;
          // elsewhere the condition holds, and the query goes on under it (a case split).
          if (auto point = only_failure(c, enc, cond, budget);
              point && agree_at(store, a, b, *point)) {
            enc.fact(cond);
            ++r.split_points;
            continue;  // not proved for every input: never shared
          }
          r.reason = std::string("Z3 could not show ") + kSideCondition;
          return r;
      }
      if (shared) proved->insert(enc.origins()[i]);
    }
    z3::solver s(c);
    s.add(enc.facts());
    s.add(!enc.equal(a, ea, b, eb));
    // A model may lean on values of exp & co. that the real functions do not take: refine with
    // the true values at its points and ask again, a few times.
    constexpr unsigned kRefinements = 8;
    for (;;) {
      if (!budget(s)) {
        r.reason = kTimeout;
        return r;
      }
      switch (s.check()) {
        case z3::unsat:
          r.outcome = Outcome::Proved;
          return r;
        case z3::unknown:
          r.reason = why_unknown(s);
          return r;
        case z3::sat:
          break;
      }
      z3::model m = s.get_model();
      std::vector<z3::expr> more = refinements(enc, m);
      if (more.empty()) {
        for (const auto& [t, x] : enc.vars()) r.model[t] = value_of(m.eval(x, true));
        r.outcome = Outcome::Model;
        return r;
      }
      if (r.refinements == kRefinements) {
        r.reason =
            "Z3's models kept giving exp or erf values the real functions do "
            "not take (refined " +
            std::to_string(kRefinements) + " times)";
        return r;
      }
      ++r.refinements;
      for (const z3::expr& f : more) s.add(f);
    }
  } catch (const NotEncoded& e) {
    r.outcome = Outcome::Unsupported;
    r.reason = std::string("the Z3 encoding does not cover ") + e.what();
  } catch (const z3::exception& e) {
    r.reason = std::string("Z3: ") + e.msg();
  }
  return r;
}

}  // namespace

Result check_equal(const ir::TermStore& store, TermId a, TermId b,
                   const std::function<VarRange(TermId)>& range, unsigned timeout_ms,
                   std::optional<TermId> assume, ProvedConditions* proved) {
  return check(store, a, b, range, timeout_ms, assume, proved, false);
}

Result check_rule_real(const ir::TermStore& store, TermId a, TermId b, unsigned timeout_ms,
                       std::optional<TermId> assume) {
  auto any = [](TermId) { return VarRange{}; };
  return check(store, a, b, any, timeout_ms, assume, nullptr, true);
}

}  // namespace keq::smt
