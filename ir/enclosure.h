// Rigorous enclosures of a term's real-semantics value at a point.
//
// Replay must never confirm a difference that only rounding made (a cancellation such as
// exp(2y) - 1 at y = -1e-650 fools any fixed precision). So replay evaluates both sides in
// interval arithmetic over MPFR with outward (directed) rounding: each float value is a set
// contained in [lo, hi] (extended reals), plus NaN when `nan` is set; ints and bools are
// integer ranges. A difference is evidence only when the two sets are disjoint.
//
// Every transfer function here is an over-approximation; an op without a precise transfer
// falls back to "any value", which can never confirm a difference. Ops whose real evaluation
// is exact (casts, comparisons, integer ops, picks) reuse the op table's evaluator on points.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <optional>
#include <string>

#include "ir/term.h"

namespace keq::ir {

struct Enclosure {
  Type type = Type::F32;
  // Floats: the value lies in [lo, hi] when `real` is set, or is NaN when `nan` is set.
  bool real = true;
  Real lo, hi;
  bool nan = false;
  // Floats: the value is surely a finite real, though a bound may be infinite (exp of an
  // unbounded finite value overflows MPFR's range; the value itself is finite over the reals).
  // Set by evaluate_enclosure_over from finite inputs and the ops that keep values finite.
  bool finite = false;
  // Ints and bools (0/1): the value lies in [ilo, ihi].
  int64_t ilo = 0, ihi = 0;

  static Enclosure point(const RealValue& v);
  static Enclosure of(const Constant& c) { return point(RealValue::of(c)); }
  static Enclosure any(Type t);  // every value of the type (and NaN for floats)
  bool is_point() const;         // exactly one value (NaN alone counts as one)
  // False when the enclosure is wide for a reason more bits cannot fix (an "any value"
  // fallback, infinite bounds, NaN beside reals): replay then stops raising the precision.
  bool narrows_with_precision() const;
  bool surely_finite() const;  // `finite`, or no NaN and finite bounds
  std::string str() const;
};

// True when no value lies in both enclosures (real semantics: NaN equals NaN, +0 equals -0).
bool disjoint(const Enclosure& a, const Enclosure& b);

// A lower bound on the distance between two disjoint finite enclosures, as text ("1.2e-650");
// "NaN on one side only" or "inf" when a special value decides.
std::string separation(const Enclosure& a, const Enclosure& b);

using EnclosureEnv = std::function<std::optional<RealValue>(const Variable&)>;
// Evaluates t at the working precision (Real::working_precision). Throws EvalError when a
// variable has no value.
Enclosure evaluate_enclosure(const TermStore& store, TermId t, const EnclosureEnv& env);
// The same with each variable ranging over an enclosure (its inputs' domain): what t can be for
// every input, e.g. a host value that does not depend on which inputs are drawn.
using EnclosureRangeEnv = std::function<std::optional<Enclosure>(const Variable&)>;
Enclosure evaluate_enclosure_over(const TermStore& store, TermId t, const EnclosureRangeEnv& env);
// The same, keeping every subterm's enclosure in `memo` for later calls with the same env (the
// shared subterms of many pairs, verify/shared_terms.h).
using EnclosureMemo = absl::flat_hash_map<TermId, Enclosure>;
Enclosure evaluate_enclosure_over(const TermStore& store, TermId t, const EnclosureRangeEnv& env,
                                  EnclosureMemo& memo);

}  // namespace keq::ir
