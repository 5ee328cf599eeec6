// keq rules check: real rules about the bits of an fp32 value, proved by exhaustion. Internal to
// verify/.
//
// A rule of one variable ?s, conditioned on (f32-binade ?s) and (ue8m0-range ?s), whose sides
// read s only as `(bitcast.i32 s)` (the bits of s rounded to fp32) and as `(log2 s)` under floor
// or ceil, has the same sides at s and at s rounded to fp32: the bitcast sees that rounding by
// definition, and f32-binade says rounding keeps floor(log2 s) and whether s is a power of two,
// hence ceil(log2 s) too. So it holds for every real s it covers when it holds for every fp32
// value in [2^-126, 2^127]: about 2^31 of them, each side evaluated exactly (integers, bits, and
// floor and ceil of log2 read from the exponent of a double).
#pragma once

#include <cstdint>
#include <string>

#include "verify/rule_terms.h"

namespace keq::verify::internal {

struct Fp32Sweep {
  enum class Outcome { NotApplicable, Proved, Refuted, Unknown } outcome = Outcome::NotApplicable;
  std::string detail;  // why not applicable or unknown; the differing input when refuted
  uint64_t inputs = 0;
};

Fp32Sweep sweep_fp32_values(ir::TermStore& s, const rules::KeqRule& r, const RuleTerms& t);

}  // namespace keq::verify::internal
