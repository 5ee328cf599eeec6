// keq verify's second look at a NOT_EQUIVALENT that went through narrow formats: the deciding
// configuration under --round-once. torch rounds a bf16 tensor after every op; a kernel that
// computes in fp32 and rounds at its store differs from it by an ulp or so, which keq reports,
// rightly, under the frameworks' semantics. Whether the two agree once rounding happens in one
// place only tells a user if the counterexample is a matter of rounding or of the math.
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "verify/verify.h"

namespace keq::verify {

namespace {

// A counterexample in the values alone (not a run that raised, nor a memory finding, which
// rounding cannot explain).
bool decided_by_values(const Report& r) {
  return r.counterexample && !r.cannot_run && r.findings.empty() && r.findings_unlisted == 0;
}

// What the run under --round-once gave: for the verdict line, and for the notes.
std::pair<std::string, std::string> outcome(const Report& again) {
  switch (again.verdict) {
    case Verdict::Equivalent:
      return {"EQUIVALENT under --round-once",
              "EQUIVALENT: the difference is only where fp16, bf16 or fp8 values round (torch "
              "after each op), not in what is computed"};
    case Verdict::NotEquivalent:
      return {"NOT_EQUIVALENT under --round-once too",
              "NOT_EQUIVALENT too: not only a matter of where values round"};
    default:
      return {std::string(verdict_name(again.verdict)) + " under --round-once",
              std::string(verdict_name(again.verdict)) + ": " + again.reason};
  }
}

}  // namespace

void check_under_round_once(const std::string& ref_path, const std::string& cand_path,
                            std::vector<Report>& reports, Verdict overall, Options options) {
  // Without the e-graph (--no-egraph, a pre-filter's run) the check could rarely prove anything.
  if (overall != Verdict::NotEquivalent || options.round_once || !options.use_egraph ||
      options.semantics != ir::Semantics::Real || reports.empty())
    return;
  Report& decider = reports[deciding_report(reports, overall)];
  if (!decided_by_values(decider) || !decider.rounded_after_an_op) return;
  // The same configuration and the same pairing of parameters, one autotune config (the
  // deciding one), and no more time than a quarter of keq verify's.
  options.round_once = true;
  options.dims = decider.dims;
  options.autotune_config = decider.autotune_config;
  options.every_autotune_config = false;
  options.parameter_pairing = decider.parameter_pairing;
  options.stop_if_flattened = false;
  options.structure_only = false;
  options.smt_slice_s = 0;
  options.timeout_s = std::max(2.0, options.timeout_s / 4);
  if (options.deadline && std::chrono::steady_clock::now() >= *options.deadline) return;
  Report again = verify(ref_path, cand_path, options);
  auto [brief, full] = outcome(again);
  decider.reason += "; at this configuration " + brief;
  decider.notes.push_back("this configuration under --round-once: " + full);
}

}  // namespace keq::verify
