#include "verify/known_constants.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace keq::verify::internal {
namespace {

using ir::Op;
using ir::TermId;

// Each constant as exact ops on 2: `op` of 2, then its reciprocal where `reciprocal`.
struct KnownConstant {
  const char* name;
  double value;
  Op op;
  bool reciprocal;
};
constexpr KnownConstant kKnown[] = {
    {"log2(e)", 1.4426950408889634, Op::Log, true},
    {"ln(2)", 0.6931471805599453, Op::Log, false},
    {"sqrt(2)", 1.4142135623730951, Op::Sqrt, false},
    {"1/sqrt(2)", 0.7071067811865476, Op::Rsqrt, false},
};

// The distance from c to the next fp32 value away from zero: one ulp at c's binade.
double fp32_ulp(double c) {
  float f = static_cast<float>(c);
  return std::nextafter(f, 2 * f) - f;
}

std::optional<size_t> known(double v) {
  for (size_t k = 0; k < std::size(kKnown); ++k)
    if (std::fabs(std::fabs(v) - kKnown[k].value) <= fp32_ulp(kKnown[k].value)) return k;
  return std::nullopt;
}

TermId exact(ir::TermStore& s, const KnownConstant& c, bool negative) {
  TermId t = s.make(c.op, {s.constant(ir::Constant::of_float(2))});
  if (c.reciprocal) t = s.make(Op::Recip, {t});
  return negative ? s.make(Op::Neg, {t}) : t;
}

}  // namespace

std::vector<std::string> take_known_constants(ir::TermStore& s, std::vector<TermId>& roots) {
  // Children are made before their parents, so one pass in id order rebuilds every term that
  // holds a known constant, without recursion (sums of 16k elements are that deep).
  size_t n = s.size();
  std::vector<TermId> to(n);
  std::vector<std::string> taken;
  std::vector<TermId> kids;
  bool any = false;
  for (TermId t = 0; t < n; ++t) {
    to[t] = t;
    if (s.op(t) == Op::Const) {
      const ir::Constant& c = s.constant_of(t);
      if (c.type != ir::Type::F32 || !std::isfinite(c.f)) continue;
      if (auto k = known(c.f)) {
        to[t] = exact(s, kKnown[*k], c.f < 0);
        char line[160];
        std::snprintf(line, sizeof line, "the constant %.9g is taken as %s%s (within one fp32 ulp)",
                      c.f, c.f < 0 ? "-" : "", kKnown[*k].name);
        taken.push_back(line);
        any = true;
      }
      continue;
    }
    if (!any) continue;
    bool changed = false;
    kids.clear();
    for (TermId c : s.children(t)) {
      kids.push_back(to[c]);
      changed |= to[c] != c;
    }
    if (changed) to[t] = s.make(s.op(t), kids);  // after the loop: make may move the children
  }
  if (any)
    for (TermId& r : roots)
      if (r < n) r = to[r];  // else a sentinel (an element never written)
  return taken;
}

}  // namespace keq::verify::internal
