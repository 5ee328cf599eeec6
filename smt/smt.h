// Z3 on what the e-graph and the witness search leave: real semantics, one query per pair.
//
// The encoding is exact over a finite fragment. Inputs are finite reals in their ranges; every
// op keeps values finite (division, log, sqrt, rsqrt and recip only with side conditions that Z3
// must first prove for all inputs); exp, log, erf, exp2, log2 are uninterpreted functions with
// true facts about them (exp > 0, exp(log y) = y, -1 < erf < 1); sigmoid and tanh are defined
// through exp. So unsat is a proof; sat gives a model that the caller must replay, after
// refinement: where a model gives exp (exp2, log2, erf) a value the real function does not take
// at the model's argument, the true enclosure there is added as a fact and Z3 asked again. Anything
// outside the fragment (casts, integer division, -inf constants, pow) is Unsupported.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <functional>
#include <optional>
#include <string>

#include "ir/ir.h"

namespace keq::smt {

enum class Outcome { Proved, Model, Unknown, Unsupported };

struct VarRange {
  double lo = -INFINITY, hi = INFINITY;
  bool hi_open = false;
  bool nonfinite = false;  // +-inf and NaN too (IEEE encoding only; the real one is finite)
};

struct Result {
  Outcome outcome = Outcome::Unknown;
  std::string reason;                             // for Unknown and Unsupported
  absl::flat_hash_map<ir::TermId, double> model;  // variable term -> value, for Model
  unsigned refinements = 0;  // rounds of true function values added after models leaned on UFs
};

// Is a == b for every input? `range` gives each variable's range.
// Z3 resource units (rlimit) per query: the binding limit, so an answer never depends on how
// loaded the machine is; the wall-clock timeout stays as a guard behind it.
inline constexpr unsigned kQueryResourceLimit = 20'000'000;

// Z3's own memory ceiling (its global memory_max_size), so a query past the run's budget
// fails inside Z3 as "unknown" rather than growing past it. 0: none. Call before queries run.
void set_memory_limit(size_t bytes);

// `assume`, a bool term, restricts the inputs (a rule's conditions, for `keq rules check`).
Result check_equal(const ir::TermStore& store, ir::TermId a, ir::TermId b,
                   const std::function<VarRange(ir::TermId)>& range, unsigned timeout_ms,
                   std::optional<ir::TermId> assume = std::nullopt);

// The same in IEEE semantics (smt_ieee.cc): fp32 in Z3's floating-point theory, equal meaning
// the same bits with any NaN matching any NaN. Exact IEEE operations only: approximations and
// sums of three or more terms are Unsupported (their bits or order are not fixed).
Result check_equal_ieee(const ir::TermStore& store, ir::TermId a, ir::TermId b,
                        const std::function<VarRange(ir::TermId)>& range, unsigned timeout_ms,
                        std::optional<ir::TermId> assume = std::nullopt);

}  // namespace keq::smt
