// DESIGN.md, real semantics: a literal within one fp32 ulp of a well-known constant is that
// constant (an assumption the report lists). Kernels write exp(x) as exp2(x * 1.4426950408889634)
// and x / sqrt(2) as x * 0.7071067811865476; torch's kernels hold the same constants in fp32. Over
// the reals the rounded literals differ from the constants they stand for, so without this a
// correct rewrite would be refuted by a 1e-12 difference. Internal to verify/.
#pragma once

#include <string>
#include <vector>

#include "ir/term.h"

namespace keq::verify::internal {

// Rewrites `roots` in place: every fp32 constant within one fp32 ulp of log2 e, ln 2, sqrt 2 or
// 1/sqrt 2 becomes that constant, built from exact ops on 2 ((recip (log 2)), (log 2), (sqrt 2),
// (rsqrt 2)). Returns one line per constant replaced, for the report's assumptions. pi and
// sqrt(2/pi) stay as their fp32 values: the term language has no exact pi (both sides' literals
// of them round to one fp32 value, so they still meet).
std::vector<std::string> take_known_constants(ir::TermStore& s, std::vector<ir::TermId>& roots);

}  // namespace keq::verify::internal
