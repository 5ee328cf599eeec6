// Comparisons, select and boolean logic. Every comparison with a NaN is false except !=.
#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

// The comparison on floats, integers or Z3 expressions (whose operators build the formula).
template <Op kOp, class T>
auto compare(const T& a, const T& b) {
  switch (kOp) {
    case Op::Lt:
      return a < b;
    case Op::Le:
      return a <= b;
    case Op::Gt:
      return a > b;
    case Op::Ge:
      return a >= b;
    case Op::Eq:
      return a == b;
    default:
      return a != b;
  }
}

template <Op kOp>
IeeeValue ieee_compare(IArgs a) {
  if (a[0].type != Type::F32) return bval(compare<kOp>(a[0].i, a[1].i));
  return bval(compare<kOp>(a[0].f, a[1].f));
}

template <Op kOp>
void real_compare(RArgs a, RealValue& out) {
  bool r;
  if (a[0]->type != Type::F32) {
    r = compare<kOp>(a[0]->i, a[1]->i);
  } else {
    mpfr_srcptr x = a[0]->f.get(), y = a[1]->f.get();
    switch (kOp) {
      case Op::Lt:
        r = mpfr_less_p(x, y);
        break;
      case Op::Le:
        r = mpfr_lessequal_p(x, y);
        break;
      case Op::Gt:
        r = mpfr_greater_p(x, y);
        break;
      case Op::Ge:
        r = mpfr_greaterequal_p(x, y);
        break;
      case Op::Eq:
        r = mpfr_equal_p(x, y);
        break;
      default:
        r = !mpfr_equal_p(x, y);
        break;
    }
  }
  set_int(out, Type::Bool, r);
}

// Which outcomes the comparison can have over two enclosures.
template <Op kOp>
Enclosure compare_enclosure(EArgs args) {
  const Enclosure &a = *args[0], &b = *args[1];
  if (a.type != Type::F32) {
    auto [al, ah, bl, bh] = std::tuple(a.ilo, a.ihi, b.ilo, b.ihi);
    switch (kOp) {
      case Op::Lt:
        return boolean(ah >= bl, al < bh);
      case Op::Le:
        return boolean(ah > bl, al <= bh);
      case Op::Gt:
        return boolean(al <= bh, ah > bl);
      case Op::Ge:
        return boolean(al < bh, ah >= bl);
      default: {
        bool may_equal = al <= bh && bl <= ah;
        bool must_equal = al == ah && bl == bh && al == bl;
        return kOp == Op::Eq ? boolean(!must_equal, may_equal) : boolean(may_equal, !must_equal);
      }
    }
  }
  bool t = false, f = a.nan || b.nan;  // every comparison with NaN is false, but !=
  if (kOp == Op::Ne) std::swap(t, f);
  if (a.real && b.real) {
    mpfr_srcptr al = a.lo.get(), ah = a.hi.get(), bl = b.lo.get(), bh = b.hi.get();
    bool may_t = false, may_f = false;
    switch (kOp) {
      case Op::Lt:
        may_t = mpfr_less_p(al, bh), may_f = mpfr_greaterequal_p(ah, bl);
        break;
      case Op::Le:
        may_t = mpfr_lessequal_p(al, bh), may_f = mpfr_greater_p(ah, bl);
        break;
      case Op::Gt:
        may_t = mpfr_greater_p(ah, bl), may_f = mpfr_lessequal_p(al, bh);
        break;
      case Op::Ge:
        may_t = mpfr_greaterequal_p(ah, bl), may_f = mpfr_less_p(al, bh);
        break;
      default: {
        bool may_equal = mpfr_lessequal_p(al, bh) && mpfr_lessequal_p(bl, ah);
        bool must_equal = mpfr_equal_p(al, ah) && mpfr_equal_p(bl, bh) && mpfr_equal_p(al, bl);
        may_t = kOp == Op::Eq ? may_equal : !must_equal;
        may_f = kOp == Op::Eq ? !must_equal : may_equal;
      }
    }
    t = t || may_t, f = f || may_f;
  }
  return boolean(f, t);
}

// IEEE equality is fp.eq (-0 = +0, NaN unequal to itself), not the same bits.
template <Op kOp>
smt::Expr compare_smt(const smt::Expr& a, const smt::Expr& b, bool ieee) {
  // IEEE equality of floats (-0 == +0, NaN unequal); integers and bools compare as values, and
  // z3's < on bit-vectors is the signed order keq's integers have.
  if (ieee && a.is_fpa() && kOp == Op::Eq) return z3::fp_eq(a, b);
  if (ieee && a.is_fpa() && kOp == Op::Ne) return !z3::fp_eq(a, b);
  return compare<kOp>(a, b);
}

template <Op kOp>
constexpr OpInfo compare_row(bool commutative) {
  return {
      .op = kOp,
      .arity = 2,
      .sig = Signature::Compare,
      .commutative = commutative,
      .ieee = ieee_compare<kOp>,
      .real = real_compare<kOp>,
      .interval = [](IvArgs) { return bool_interval(); },
      .enclosure = compare_enclosure<kOp>,
      .smt_real = [](smt::RealEncoding&, SArgs a) { return compare_smt<kOp>(a[0], a[1], false); },
      .smt_ieee = [](smt::IeeeEncoding&, SArgs a) { return compare_smt<kOp>(a[0], a[1], true); },
      .cuda = kOp == Op::Lt   ? "keq_lt"
              : kOp == Op::Le ? "keq_le"
              : kOp == Op::Gt ? "keq_gt"
              : kOp == Op::Ge ? "keq_ge"
              : kOp == Op::Eq ? "keq_eq"
                              : "keq_ne"};
}

const OpInfo kRows[] = {
    compare_row<Op::Lt>(false),
    compare_row<Op::Le>(false),
    compare_row<Op::Gt>(false),
    compare_row<Op::Ge>(false),
    compare_row<Op::Eq>(true),
    compare_row<Op::Ne>(true),
    {.op = Op::Select,
     .arity = 3,
     .sig = Signature::Select,
     .picks_operand = true,
     .ieee = KEQ_IEEE(return a[0].i ? a[1] : a[2];),
     .real = KEQ_REAL(const RealValue& p = a[0]->i ? *a[1] : *a[2]; out.type = p.type; out.i = p.i;
                      out.f = p.f;),
     .interval = KEQ_INTERVAL(Interval r = join(a[1], a[2]);
                              r.never_inf = a[1].no_inf() && a[2].no_inf(); return r;),
     .enclosure = KEQ_ENCLOSE(if (a[0]->ilo == a[0]->ihi) return a[0]->ilo ? *a[1] : *a[2];
                              return hull(*a[1], *a[2]);),
     .smt_real = KEQ_SMT_REAL(return z3::ite(a[0], a[1], a[2]);),
     .smt_ieee = KEQ_SMT_IEEE(return z3::ite(a[0], a[1], a[2]);),
     .cuda = "keq_select"},
    {.op = Op::And,
     .arity = 2,
     .sig = Signature::Logic,
     .commutative = true,
     .ieee = KEQ_IEEE(return bval(a[0].i && a[1].i);),
     .real = KEQ_REAL(set_int(out, Type::Bool, a[0]->i&& a[1]->i);),
     .interval = [](IvArgs) { return bool_interval(); },
     .enclosure = KEQ_ENCLOSE(return ints(Type::Bool, a[0]->ilo& a[1]->ilo, a[0]->ihi& a[1]->ihi);),
     .smt_real = KEQ_SMT_REAL(return a[0] && a[1];),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] && a[1];),
     .cuda = "keq_and"},
    {.op = Op::Or,
     .arity = 2,
     .sig = Signature::Logic,
     .commutative = true,
     .ieee = KEQ_IEEE(return bval(a[0].i || a[1].i);),
     .real = KEQ_REAL(set_int(out, Type::Bool, a[0]->i || a[1]->i);),
     .interval = [](IvArgs) { return bool_interval(); },
     .enclosure =
         KEQ_ENCLOSE(return ints(Type::Bool, a[0]->ilo | a[1]->ilo, a[0]->ihi | a[1]->ihi);),
     .smt_real = KEQ_SMT_REAL(return a[0] || a[1];),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] || a[1];),
     .cuda = "keq_or"},
    {.op = Op::Not,
     .arity = 1,
     .sig = Signature::Logic,
     .ieee = KEQ_IEEE(return bval(!a[0].i);),
     .real = KEQ_REAL(set_int(out, Type::Bool, !a[0]->i);),
     .interval = [](IvArgs) { return bool_interval(); },
     .enclosure = KEQ_ENCLOSE(return ints(Type::Bool, 1 - a[0]->ihi, 1 - a[0]->ilo);),
     .smt_real = KEQ_SMT_REAL(return !a[0];),
     .smt_ieee = KEQ_SMT_IEEE(return !a[0];),
     .cuda = "keq_not"},
};

}  // namespace

std::span<const OpInfo> logic_ops() {
  return kRows;
}

}  // namespace keq::ir::family
