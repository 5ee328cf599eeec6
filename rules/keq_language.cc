#include "rules/keq_language.h"

#include <array>
#include <cmath>
#include <vector>

#include "rules/magnitude.h"

namespace keq::rules {

using ir::Op;

KeqLanguage::KeqLanguage(ir::TermStore* store, ir::Semantics sem)
    : store_(store),
      sem_(sem),
      nfs_(std::make_unique<NormalForms>()),
      magnitude_(std::make_unique<MagnitudeCache>()) {}
KeqLanguage::~KeqLanguage() = default;
KeqLanguage::KeqLanguage(KeqLanguage&&) noexcept = default;

void KeqLanguage::set_normal_form_element_terms(size_t terms) {
  nfs_ = std::make_unique<NormalForms>(std::max(kWideTerms, terms), terms);
}

std::string KeqLanguage::node_str(OpCode op, uint32_t payload) const {
  switch (static_cast<Op>(op)) {
    case Op::Const:
      return store_->constant_at(payload).str();
    case Op::Var:
      return store_->variable_at(payload).name;
    default:
      return std::string(ir::op_name(static_cast<Op>(op)));
  }
}

namespace {

// Folds op over constant operands; none when the result would not be exact in the semantics.
std::optional<ir::Constant> fold(Op op, std::span<const ir::Constant> args, ir::Semantics sem) {
  try {
    if (sem == ir::Semantics::Ieee) {
      if (!ir::op_info(op).ieee_exact) return std::nullopt;  // approximations have no one value
      std::vector<ir::IeeeValue> vs;
      for (const auto& c : args) vs.push_back(ir::IeeeValue::of(c));
      return ir::eval_ieee(op, vs).to_constant();
    }
    std::vector<ir::RealValue> vs(args.size());
    std::vector<const ir::RealValue*> ptrs;
    for (size_t k = 0; k < args.size(); ++k) {
      vs[k] = ir::RealValue::of(args[k]);
      ptrs.push_back(&vs[k]);
    }
    ir::RealValue out;
    mpfr_clear_flags();
    ir::eval_real(op, ptrs, out);
    if (mpfr_overflow_p() || mpfr_underflow_p()) return std::nullopt;
    // 1 + 1e-300 rounds to 1 even at 256 bits: only unrounded results fold.
    if (out.type == ir::Type::F32 && mpfr_inexflag_p() && !ir::real_eval_exact(op))
      return std::nullopt;
    return out.to_constant();
  } catch (const ir::EvalError&) {
    return std::nullopt;  // division by zero and the like stay unfolded
  }
}

// A comparison every value of its operands settles the same way (true only: a NaN would make
// it false, and then only the intervals' NaN flags would say so). Sound in both semantics: the
// intervals enclose every value, fp32 rounding included.
std::optional<bool> decided_by_intervals(Op op, const Interval& a, const Interval& b) {
  if (a.nan || b.nan || a.empty_range() || b.empty_range()) return std::nullopt;
  auto below = [](const Interval& x, const Interval& y) {  // every x < every y
    return x.hi < y.lo || (x.hi == y.lo && y.lo_strict);
  };
  if ((op == Op::Lt && below(a, b)) || (op == Op::Gt && below(b, a))) return true;
  if ((op == Op::Le && a.hi <= b.lo) || (op == Op::Ge && b.hi <= a.lo)) return true;
  return std::nullopt;
}

}  // namespace

KeqLanguage::Data KeqLanguage::make(const Graph& g, EClassId node, egraph::ENode n) const {
  Data d = make_facts(g, node, n);
  if (!normal_forms_on()) return d;
  if (d.type == ir::Type::Bool) {
    d.nf = comparison_form(g, node, n, d);
    return d;
  }
  d.nf = normal_form(g, node, n, d, [&](EClassId c) { return g.data(c).nf; });
  d.anf = abstract_form(g, node, n, d);
  return d;
}

NfId KeqLanguage::operand_form(const Graph& g, EClassId child) const {
  const Data& c = g.data(child);
  if (c.anf != kNoNf) return c.anf;
  // class_atom's precondition, as the normal forms' own fallback checks it.
  if (c.nf != kNoNf && c.range.finite() && nfs_->num_terms(c.nf) > kWideOperandTerms &&
      nfs_->has_products(c.nf))
    return nfs_->class_atom(g.find(child));
  return c.nf;
}

NfId KeqLanguage::abstract_form(const Graph& g, EClassId node, egraph::ENode n,
                                const Data& d) const {
  bool differs = false;
  for (EClassId c : n.children) differs = differs || operand_form(g, c) != g.data(c).nf;
  if (!differs) return kNoNf;
  NfId a = normal_form(g, node, n, d, [&](EClassId c) { return operand_form(g, c); });
  return a == d.nf || a == kNoNf || nfs_->is_class_atom(a) ? kNoNf : a;
}

// A comparison of two values with normal forms (finite reals: no NaN) is one of their
// difference with 0, which is the same for every positive multiple of it: 1 + k z > c and
// z > (c - 1) / k (k > 0) meet. A constant difference decides it.
NfId KeqLanguage::comparison_form(const Graph& g, EClassId node, egraph::ENode n, Data& d) const {
  Op op = static_cast<Op>(n.op);
  if (op != Op::Lt && op != Op::Le && op != Op::Gt && op != Op::Ge && op != Op::Eq && op != Op::Ne)
    return kNoNf;
  NfId a = g.data(n.children[0]).nf, b = g.data(n.children[1]).nf;
  // Integers have forms only where they are exact (in their type's range): an i32 index and
  // the i64 it was cast from compare alike (a gather's `label.to(tl.int32) == k`).
  ir::Type t = g.data(n.children[0]).type;
  if (a == kNoNf || b == kNoNf || (t != ir::Type::F32 && !ir::is_int(t))) return kNoNf;
  bool less = op == Op::Lt || op == Op::Le;
  NfId diff = less ? nfs_->sub(b, a) : nfs_->sub(a, b);  // kinds 0, 1: diff > 0, diff >= 0
  uint32_t kind = op == Op::Lt || op == Op::Gt   ? 0
                  : op == Op::Le || op == Op::Ge ? 1
                  : op == Op::Eq                 ? 2
                                                 : 3;
  if (auto c = nfs_->constant_value(diff)) {
    bool v = kind == 0 ? *c > 0 : kind == 1 ? *c >= 0 : kind == 2 ? *c == 0 : *c != 0;
    d.constant = ir::Constant::of_bool(v);
    d.const_source = node;
    return kNoNf;
  }
  return nfs_->comparison(diff, kind);
}

namespace {

// What an op's result is as fp32 numbers, from its children's kinds.
Fp32Kind fp32_kind(const KeqLanguage::Graph& g, Op op, std::span<const EClassId> kids) {
  auto value = [&](size_t k) { return g.data(kids[k]).fp32 == Fp32Kind::Value; };
  auto all_values = [&](size_t from) {
    for (size_t k = from; k < kids.size(); ++k)
      if (!value(k)) return false;
    return true;
  };
  switch (op) {
    case Op::BitcastF32:
    case Op::CastF16:
    case Op::CastBF16:
    case Op::CastE4M3:
    case Op::CastE4M3Sat:
    case Op::CastE5M2:
    case Op::CastE5M2Sat:
      return Fp32Kind::Value;
    // One of the operands, its sign flipped, or (floor and the like) fewer of its bits.
    case Op::Abs:
    case Op::Neg:
    case Op::Max:
    case Op::Min:
    case Op::MaxNum:
    case Op::MinNum:
    case Op::AMax:
    case Op::AMin:
    case Op::TMax:
    case Op::TMin:
    case Op::Clamp:
    case Op::Floor:
    case Op::Ceil:
    case Op::Trunc:
    case Op::Round:
      return all_values(0) ? Fp32Kind::Value : Fp32Kind::Unknown;
    case Op::Select:
      return all_values(1) ? Fp32Kind::Value : Fp32Kind::Unknown;
    case Op::Div:
    case Op::DivFull:
      return all_values(0) ? Fp32Kind::Quotient : Fp32Kind::Unknown;
    default:
      return Fp32Kind::Unknown;
  }
}

}  // namespace

KeqLanguage::Data KeqLanguage::make_facts(const Graph& g, EClassId node, egraph::ENode n) const {
  Op op = static_cast<Op>(n.op);
  Data d;
  if (op == Op::Const) {
    ir::Constant c = store_->constant_at(n.payload);
    if (sem_ == ir::Semantics::Ieee && c.type == ir::Type::F32)
      c = ir::Constant::of_float(static_cast<float>(c.f));  // an IEEE literal is its fp32 value
    if (c.type == ir::Type::F32 && (static_cast<float>(c.f) == c.f || std::isnan(c.f)))
      d.fp32 = Fp32Kind::Value;
    d.constant = c;
    d.type = c.type;
    d.const_source = node;
    d.range = c.type == ir::Type::Bool || ir::is_int(c.type)
                  ? Interval::point(static_cast<double>(c.i))
                  : Interval::point(c.f);
    return d;
  }
  if (op == Op::Var) {
    d.type = store_->variable_at(n.payload).type;
    auto it = domains_.find(n.payload);
    if (it != domains_.end()) d.range = it->second;
    if (fp32_vars_.contains(n.payload)) d.fp32 = Fp32Kind::Value;
    return d;
  }
  std::vector<Interval> ranges;
  std::vector<ir::Constant> consts;
  std::vector<ir::Type> types;
  bool all_const = true;
  for (EClassId c : n.children) {
    const Data& cd = g.data(c);
    types.push_back(cd.type);
    ranges.push_back(cd.range);
    if (cd.constant)
      consts.push_back(*cd.constant);
    else
      all_const = false;
  }
  d.type = ir::result_type(op, types).type.value_or(ir::Type::F32);
  d.range = ir::interval_of(op, ranges, sem_);
  d.fp32 = fp32_kind(g, op, n.children);
  // A range that is one infinity, without NaN, is that constant: -inf - m for a finite m, as a
  // masked -inf lane computes, is -inf, and exp of it folds to 0.
  if (d.type == ir::Type::F32 && !d.range.nan && !d.range.never_inf && d.range.lo == d.range.hi &&
      std::isinf(d.range.lo)) {
    d.constant = ir::Constant::of_float(d.range.lo);
    d.const_source = node;
  }
  if (op == Op::Mul && g.find(n.children[0]) == g.find(n.children[1]))
    d.range.meet(ir::interval_square(ranges[0], sem_));  // x * x >= 0, which intervals alone miss
  if (sem_ == ir::Semantics::Real && d.type == ir::Type::F32 &&
      (op == Op::Div || op == Op::DivFull || op == Op::Mul))
    if (auto r = ratio_interval(g, n, *magnitude_))
      d.range.meet(*r);  // max-abs scaling (magnitude.h)
  if (!all_const && ranges.size() == 2 && types[0] == ir::Type::F32)
    if (auto decided = decided_by_intervals(op, ranges[0], ranges[1])) {
      d.constant = ir::Constant::of_bool(*decided);  // xlogy's t > 0 for a softmax's t
      d.const_source = node;
    }
  if (all_const) {
    d.constant = fold(op, consts, sem_);
    if (d.constant) {
      d.const_source = node;
      if (d.constant->type == ir::Type::F32) d.range.meet(Interval::point(d.constant->f));
    }
  }
  return d;
}

egraph::DidMerge KeqLanguage::merge(Graph&, EClassId cls, Data& into, Data& from) {
  egraph::DidMerge did;
  // Both forms are right. A class atom is the weakest normal form; otherwise the newer form
  // wins (a re-made node sees its children's latest forms), a bounded number of times.
  bool weak_from = from.nf != kNoNf && nfs_->is_class_atom(from.nf);
  bool weak_into = into.nf != kNoNf && nfs_->is_class_atom(into.nf);
  merge_forms(cls, into.nf, into.nf_changes, from.nf, !weak_from && weak_into, weak_from, did);
  merge_forms(cls, into.anf, into.anf_changes, from.anf, false, false, did);
  if (into.constant && from.constant && !ir::same_value(*into.constant, *from.constant, sem_)) {
    if (!canary_) {
      canary_ =
          "merged distinct constants " + into.constant->str() + " and " + from.constant->str();
      canary_nodes_ = {into.const_source, from.const_source};
    }
  } else if (!into.constant && from.constant) {
    into.constant = from.constant;
    into.const_source = from.const_source;
    did.into_changed = true;
  } else if (into.constant && !from.constant) {
    did.from_changed = true;
  }
  if (from.fp32 > into.fp32) {
    into.fp32 = from.fp32;
    did.into_changed = true;
  } else if (into.fp32 > from.fp32) {
    did.from_changed = true;
  }
  Interval before = from.range, mine = into.range;
  if (into.range.meet(from.range)) did.into_changed = true;
  // Two sound enclosures of one class's values intersect: none left (and no NaN) means a merge
  // or an enclosure was wrong. Like distinct constants, it stops the run and no proof is used.
  if (!mine.empty_range() && !before.empty_range() && into.range.empty_range() && !into.range.nan &&
      !canary_) {
    canary_ = "merged classes whose ranges are disjoint, " + mine.str() + " and " + before.str();
    canary_nodes_ = {egraph::kNoClass, egraph::kNoClass};
  }
  Interval merged = into.range;
  if (merged.lo != before.lo || merged.hi != before.hi || merged.nan != before.nan)
    did.from_changed = true;
  return did;
}

// One kind of form (normal or abstract) of two merging classes: `into` keeps its own when from
// has none or the same; otherwise it adopts from's (always when it has none or `prefer`, never
// when `keep`, else up to kMaxNfChanges times). The form not kept is still registered, so
// classes with it merge into this one. from's parents were made without a form for it when it
// had none (an `and` with a constant true before it met its comparison): they see one now.
void KeqLanguage::merge_forms(EClassId cls, NfId& into, uint8_t& changes, NfId from, bool prefer,
                              bool keep, egraph::DidMerge& did) {
  if (from == kNoNf && into != kNoNf) did.from_changed = true;
  if (from == kNoNf || from == into) return;
  bool adopt = into == kNoNf || (!keep && (prefer || changes < kMaxNfChanges));
  nf_pending_.push_back({adopt ? into : from, cls});
  if (adopt) {
    into = from;
    ++changes;
    did.into_changed = true;
  } else {
    did.from_changed = true;
  }
}

void KeqLanguage::modify(Graph& g, EClassId c) {
  if (normal_forms_on()) {
    register_nf(g, g.data(c).nf, c);
    register_nf(g, g.data(c).anf, c);
    while (!nf_pending_.empty()) {
      auto [nf, cls] = nf_pending_.back();
      nf_pending_.pop_back();
      register_nf(g, nf, cls);
    }
  }
  const Data& d = g.data(c);
  if (!d.constant) return;
  ir::Constant k = *d.constant;
  EClassId source = d.const_source;
  uint32_t payload = store_->payload(store_->constant(k));
  EClassId leaf = g.add(static_cast<OpCode>(Op::Const), payload, {});
  // Explanations name the folded node, so the step reads "(+ 1 1) = 2 by constant-fold".
  EClassId from = source != egraph::kNoClass ? source : c;
  g.union_classes(from, leaf, {egraph::Justification::Kind::Analysis, kConstantFold});
}

void KeqLanguage::register_nf(Graph& g, NfId nf, EClassId cls) {
  if (nf == kNoNf) return;
  // An integer class registers its value tagged with its type: integers of one type with one
  // value merge; cast.i32 b and cast.i64 b, which share a value, do not.
  if (ir::Type t = g.data(cls).type; ir::is_int(t)) nf = nfs_->typed(nf, static_cast<uint32_t>(t));
  if (nf == kNoNf) return;
  auto [it, inserted] = nf_class_.try_emplace(nf, cls);
  if (inserted) return;
  EClassId other = g.find(it->second);
  if (other != g.find(cls))
    g.union_classes(other, cls, {egraph::Justification::Kind::Analysis, kNormalForm});
}

NfId KeqLanguage::normal_form(const Graph& g, EClassId node, egraph::ENode n, const Data& d,
                              const std::function<NfId(EClassId)>& child_form) const {
  auto fallback = [&] { return d.range.finite() ? nfs_->class_atom(g.find(node)) : kNoNf; };
  if (d.type == ir::Type::Bool) return kNoNf;
  // Integers are exact while they stay inside their type (no wrap) and where doubles hold them.
  const double limit = d.type == ir::Type::I32 ? INT32_MAX : 0x1p53;
  if (ir::is_int(d.type) && !(d.range.finite() && d.range.lo >= -limit && d.range.hi <= limit))
    return kNoNf;
  Op op = static_cast<Op>(n.op);
  auto kid = [&](size_t k) { return child_form(n.children[k]); };
  auto kid_range = [&](size_t k) -> const Interval& { return g.data(n.children[k]).range; };
  NfId r = kNoNf;
  if (op == Op::Const) {
    ir::Constant c = store_->constant_at(n.payload);
    if (ir::is_int(c.type)) return nfs_->constant(mpq_class(static_cast<long>(c.i)));
    return std::isfinite(c.f) ? nfs_->constant(mpq_class(c.f)) : kNoNf;
  }
  if (op == Op::CastF32 || op == Op::CastI32 || op == Op::CastI64) {
    // A bool is the 0/1 value of its class; an integer keeps its value (the result's range was
    // checked above, and an int becomes its exact real); float truncation stays an atom.
    // A comparison's 0/1 is named by its comparison form, so two comparisons that agree give
    // one value before (or without) their classes merging; other bools by their class.
    ir::Type from = g.data(n.children[0]).type;
    if (from == ir::Type::Bool)
      r = kid(0) != kNoNf ? nfs_->indicator(kid(0)) : nfs_->class_atom(g.find(n.children[0]));
    const Interval& in = g.data(n.children[0]).range;
    if (ir::is_int(from) && in.finite() && in.lo >= -limit && in.hi <= limit) r = kid(0);
    if (from == ir::Type::F32 && op == Op::CastF32) r = kid(0);
    return r != kNoNf ? r : fallback();
  }
  // A select whose condition is settled is the branch it takes (the comparison's constant comes
  // from the intervals at creation), so a sum of them has its form from the start.
  if (op == Op::Select)
    if (const auto& c = g.data(n.children[0]).constant; c && c->type == ir::Type::Bool)
      return kid(c->i != 0 ? 1 : 2) != kNoNf ? kid(c->i != 0 ? 1 : 2) : fallback();
  const ir::OpInfo& info = ir::op_info(op);
  using Role = ir::NormalFormRole;
  switch (info.normal_form) {
    case Role::Add:
      r = nfs_->add(kid(0), kid(1));
      break;
    case Role::Sub:
      r = nfs_->sub(kid(0), kid(1));
      break;
    case Role::Neg:
      r = nfs_->neg(kid(0));
      break;
    case Role::Sum: {
      std::vector<NfId> parts;
      for (size_t k = 0; k < n.children.size(); ++k) parts.push_back(kid(k));
      r = nfs_->sum(parts);
      break;
    }
    case Role::Mul:
      r = nfs_->mul(kid(0), kid(1));
      break;
    case Role::Prod:
      r = kid(0);
      for (size_t k = 1; k < n.children.size(); ++k) r = nfs_->mul(r, kid(k));
      break;
    case Role::Fma:
      r = nfs_->add(nfs_->mul(kid(0), kid(1)), kid(2));
      break;
    case Role::Quotient:  // a / b = a * b^-1 for b finite and never 0
      if (kid_range(1).nonzero() && kid_range(1).finite())
        r = nfs_->mul(kid(0), nfs_->recip(kid(1)));
      break;
    case Role::Recip:
      if (kid_range(0).nonzero() && kid_range(0).finite()) r = nfs_->recip(kid(0));
      break;
    case Role::Exp:
      r = nfs_->exp(kid(0));
      break;
    case Role::Pow: {  // x^k for a small natural k is a product; others stay atoms
      const Data& e = g.data(n.children[1]);
      if (e.constant && e.constant->f >= 1 && e.constant->f <= 4 &&
          e.constant->f == std::floor(e.constant->f)) {
        r = kid(0);
        for (int k = 1; k < static_cast<int>(e.constant->f); ++k) r = nfs_->mul(r, kid(0));
      }
      break;
    }
    case Role::Extremum: {
      std::vector<NfId> members;
      // A constant member that another member's range already passes is never the result:
      // max(|x|, 0) = |x|, the padding of a masked absolute maximum (the other members have
      // normal forms, so they are finite and not NaN). max(-inf, x) = x is one case of it.
      auto passed = [&](size_t k) {
        const Data& cd = g.data(n.children[k]);
        if (!cd.constant || cd.constant->type == ir::Type::Bool) return false;
        double c = cd.constant->type == ir::Type::F32 ? cd.constant->f
                                                      : static_cast<double>(cd.constant->i);
        if (c == (info.is_max ? -INFINITY : INFINITY)) return true;
        for (size_t j = 0; j < n.children.size(); ++j) {
          const Data& other = g.data(n.children[j]);  // not a constant: those may go too
          const Interval& r = other.range;
          if (j != k && !other.constant && !r.nan && !r.empty_range() &&
              (info.is_max ? r.lo >= c : r.hi <= c))
            return true;
        }
        return false;
      };
      for (size_t k = 0; k < n.children.size(); ++k)
        if (!passed(k)) members.push_back(kid(k));
      r = nfs_->extremum(members, info.is_max);
      break;
    }
    case Role::Atom:
      break;
  }
  return r != kNoNf ? r : fallback();
}

std::string KeqLanguage::nf_str(NfId nf) const {
  return nfs_->str(nf, [](uint32_t cls) { return "c" + std::to_string(cls); });
}

std::optional<OpCode> KeqLanguage::op_named(std::string_view name, size_t arity) const {
  auto op = ir::op_by_name(name);
  if (!op) return std::nullopt;
  const ir::OpInfo& info = ir::op_info(*op);
  if (info.variadic ? arity < info.arity : arity != info.arity) return std::nullopt;
  return static_cast<OpCode>(*op);
}

std::optional<std::pair<OpCode, uint32_t>> KeqLanguage::leaf(std::string_view atom) {
  auto c = ir::parse_constant(atom);
  if (!c) return std::nullopt;
  return std::pair<OpCode, uint32_t>{static_cast<OpCode>(Op::Const),
                                     store_->payload(store_->constant(*c))};
}

namespace {

struct Fact {
  const char* name;
  bool (Interval::*test)() const;
};
constexpr Fact kFacts[] = {
    {"finite", &Interval::finite},          {"not-nan", &Interval::not_nan},
    {"nonzero", &Interval::nonzero},        {"positive", &Interval::positive},
    {"negative", &Interval::negative},      {"nonneg", &Interval::nonneg},
    {"nonpos", &Interval::nonpos},          {"e4m3-range", &Interval::within_e4m3},
    {"e5m2-range", &Interval::within_e5m2}, {"ue8m0-range", &Interval::within_ue8m0},
};

// (in-FORMAT ?x): x is one of the narrow format's values, as a cast into it (or into a format
// whose values it holds: fp8 values are fp16 and bf16 values) leaves it, or a constant that is.
struct FormatFact {
  const char* name;
  ir::FloatFormat format;
  std::array<Op, 6> casts;  // the casts whose results lie in the format (repeats pad)
};
constexpr FormatFact kFormatFacts[] = {
    {"in-f16",
     ir::FloatFormat::F16,
     {Op::CastF16, Op::CastE4M3, Op::CastE4M3Sat, Op::CastE5M2, Op::CastE5M2Sat, Op::CastF16}},
    {"in-bf16",
     ir::FloatFormat::BF16,
     {Op::CastBF16, Op::CastE4M3, Op::CastE4M3Sat, Op::CastE5M2, Op::CastE5M2Sat, Op::CastBF16}},
    {"in-e4m3",
     ir::FloatFormat::E4M3FN,
     {Op::CastE4M3, Op::CastE4M3Sat, Op::CastE4M3, Op::CastE4M3, Op::CastE4M3, Op::CastE4M3}},
    {"in-e5m2",
     ir::FloatFormat::E5M2,
     {Op::CastE5M2, Op::CastE5M2Sat, Op::CastE5M2, Op::CastE5M2, Op::CastE5M2, Op::CastE5M2}},
};

}  // namespace

std::vector<std::string> KeqLanguage::condition_names() {
  std::vector<std::string> out;
  for (const Fact& f : kFacts) out.push_back(f.name);
  for (const FormatFact& f : kFormatFacts) out.push_back(f.name);
  out.push_back("f32-binade");
  out.push_back("exp-sum");
  out.push_back("const");
  out.push_back("le");
  out.push_back("lt");
  return out;
}

std::optional<KeqLanguage::Condition> KeqLanguage::condition(std::string_view name,
                                                             std::span<const uint32_t> vars,
                                                             std::string* error) const {
  auto want = [&](size_t n) {
    if (vars.size() == n) return true;
    *error = "condition " + std::string(name) + " takes " + std::to_string(n) + " variable(s)";
    return false;
  };
  for (const Fact& f : kFacts) {
    if (name != f.name) continue;
    if (!want(1)) return std::nullopt;
    uint32_t v = vars[0];
    auto test = f.test;
    return [v, test](const Graph& g, std::span<const EClassId> s) {
      return (g.data(s[v]).range.*test)();
    };
  }
  for (const FormatFact& f : kFormatFacts) {
    if (name != f.name) continue;
    if (!want(1)) return std::nullopt;
    uint32_t v = vars[0];
    const FormatFact* fact = &f;
    return [v, fact](const Graph& g, std::span<const EClassId> s) {
      if (const auto& c = g.data(s[v]).constant) {
        if (c->type != ir::Type::F32) return false;
        double r = ir::round_to_format(c->f, fact->format, ir::Overflow::Inf);
        return r == c->f || (std::isnan(r) && std::isnan(c->f));
      }
      for (Op cast : fact->casts)
        if (!g.class_nodes_with_op(s[v], static_cast<OpCode>(cast)).empty()) return true;
      return false;
    };
  }
  // (f32-binade ?x): rounding x to fp32 (as a bitcast of it does) keeps floor(log2 |x|) and
  // whether |x| is a power of two. An fp32 value is its own rounding. A quotient a / c of fp32
  // values is never in [2^k (1 - 2^-25), 2^k) or (2^k, 2^k (1 + 2^-24)], where rounding moves it
  // onto 2^k (x in fp32's normal range, as ue8m0-range makes it): with integer significands
  // A, C < 2^24 and a / c = 2^e A / C, that needs an integer j with 0 < |A - 2^j C| <= 2^j C
  // 2^-24 < 2^j; for j <= 0, A - 2^j C is a multiple of 2^j, and for j > 0 a nonzero integer,
  // yet at most 2^j C 2^-24 < 1, as 2^j C is within a factor 1 + 2^-24 of A < 2^24
  // (tests/rule_check_test.cc checks it exactly for 11-bit significands).
  if (name == "f32-binade") {
    if (!want(1)) return std::nullopt;
    uint32_t v = vars[0];
    return [v](const Graph& g, std::span<const EClassId> s) {
      return g.data(s[v]).fp32 != Fp32Kind::Unknown;
    };
  }
  // (exp-sum ?x): x's class holds a sum one of whose operands is an exp or a multiple of one:
  // a running sum of exponentials, where a log of it is worth folding with what is added to it
  // (log-add-exp). Only where a rule fires: unrestricted, log-add-exp made a log for every
  // addend beside a log, and Liger's kl_div spent 31 s in the e-graph where it had spent 1.3.
  if (name == "exp-sum") {
    if (!want(1)) return std::nullopt;
    uint32_t v = vars[0];
    return [v](const Graph& g, std::span<const EClassId> s) {
      auto has_exp = [&](EClassId c) {
        if (!g.class_nodes_with_op(c, static_cast<OpCode>(Op::Exp)).empty()) return true;
        for (EClassId m : g.class_nodes_with_op(c, static_cast<OpCode>(Op::Mul)))
          for (EClassId k : g.view(m).children)
            if (!g.class_nodes_with_op(k, static_cast<OpCode>(Op::Exp)).empty()) return true;
        return false;
      };
      for (Op sum : {Op::Add, Op::Sum})
        for (EClassId n : g.class_nodes_with_op(s[v], static_cast<OpCode>(sum)))
          for (EClassId k : g.view(n).children)
            if (has_exp(k)) return true;
      return false;
    };
  }
  if (name == "const") {
    if (!want(1)) return std::nullopt;
    uint32_t v = vars[0];
    return [v](const Graph& g, std::span<const EClassId> s) {
      return g.data(s[v]).constant.has_value();
    };
  }
  if (name == "le") {  // every value of the first is <= every value of the second, no NaN
    if (!want(2)) return std::nullopt;
    uint32_t v = vars[0], w = vars[1];
    return [v, w](const Graph& g, std::span<const EClassId> s) {
      const Interval &a = g.data(s[v]).range, &b = g.data(s[w]).range;
      return !a.nan && !b.nan && !a.empty_range() && !b.empty_range() && a.hi <= b.lo;
    };
  }
  if (name == "lt") {  // every value of the first is < every value of the second, no NaN
    if (!want(2)) return std::nullopt;
    uint32_t v = vars[0], w = vars[1];
    return [v, w](const Graph& g, std::span<const EClassId> s) {
      const Interval &a = g.data(s[v]).range, &b = g.data(s[w]).range;
      return !a.nan && !b.nan && !a.empty_range() && !b.empty_range() &&
             (a.hi < b.lo || (a.hi == b.lo && b.lo_strict));
    };
  }
  std::string known;
  for (const auto& n : condition_names()) known += (known.empty() ? "" : ", ") + n;
  *error = "unknown condition '" + std::string(name) + "' (known: " + known + ")";
  return std::nullopt;
}

EClassId TermAdder::add(ir::TermId root) {
  KeqLanguage::Graph& g = g_;
  const ir::TermStore& s = g.lang().store();
  auto& done = done_;
  std::vector<std::pair<ir::TermId, bool>> stack{{root, false}};
  std::vector<EClassId> kids;
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (done.contains(t)) continue;
    if (!expanded && !s.children(t).empty()) {
      stack.push_back({t, true});
      for (ir::TermId c : s.children(t)) stack.push_back({c, false});
      continue;
    }
    kids.clear();
    for (ir::TermId c : s.children(t)) kids.push_back(done.at(c));
    done[t] = g.add(static_cast<OpCode>(s.op(t)), s.payload(t), kids);
  }
  return done.at(root);
}

ir::TermId to_term(ir::TermStore& store, const egraph::RecExpr& e) {
  std::vector<ir::TermId> ids(e.nodes.size());
  for (size_t k = 0; k < e.nodes.size(); ++k) {
    const auto& n = e.nodes[k];
    Op op = static_cast<Op>(n.op);
    if (op == Op::Const) {
      ids[k] = store.constant(store.constant_at(n.payload));
    } else if (op == Op::Var) {
      const ir::Variable& v = store.variable_at(n.payload);
      ids[k] = store.variable(v.name, v.type);
    } else {
      std::vector<ir::TermId> kids;
      for (uint32_t c : n.children) kids.push_back(ids[c]);
      ids[k] = store.make(op, kids);
    }
  }
  return ids.back();
}

}  // namespace keq::rules
