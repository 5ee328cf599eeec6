#include "verify/verify.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>

#include "ir/budget.h"
#include "verify/pipeline.h"

namespace keq::verify {

using namespace internal;

using ir::TermId;
using torch::Program;

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent:
      return "EQUIVALENT";
    case Verdict::NotEquivalent:
      return "NOT_EQUIVALENT";
    case Verdict::Unknown:
      return "UNKNOWN";
    case Verdict::Unsupported:
      return "UNSUPPORTED";
    case Verdict::Error:
      return "ERROR";
  }
  return "?";
}

int exit_code(Verdict v) {
  return static_cast<int>(v);
}

Verdict combine(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::NotEquivalent:
        return 4;
      case Verdict::Error:
        return 3;
      case Verdict::Unsupported:
        return 2;
      case Verdict::Unknown:
        return 1;
      case Verdict::Equivalent:
        return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

namespace {
Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options) {
  return Pipeline(ref_path, cand_path, options).run();
}
}  // namespace

Report verify(const std::string& ref_path, const std::string& cand_path, const Options& options) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(std::max(0.0, options.timeout_s)));
  if (options.deadline) deadline = std::min(deadline, *options.deadline);
  ir::BudgetScope budget(deadline, options.max_memory_bytes);
  try {
    return verify_configuration(ref_path, cand_path, options);
  } catch (const ir::BudgetExceeded& e) {
    Report r;
    r.bound = dims_str(options.dims) + (options.default_bound ? " (default bound)" : "");
    r.semantics = options.semantics;
    r.verdict = Verdict::Unknown;
    r.reason = std::string("stopped: ") + e.what() + " before this configuration was decided";
    r.out_of_time = !e.memory_exhausted;
    return r;
  } catch (const std::bad_alloc&) {
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Unknown;
    r.reason = "the memory budget was exhausted";
    return r;
  } catch (const std::runtime_error& e) {  // a rules folder that cannot be read, and the like
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Error;
    r.reason = e.what();
    return r;
  }
}

Report Pipeline::run() {
  struct Stage {
    bool (Pipeline::*run)();  // false: the report is final
    const char* name;         // for --timeout's watchdog (Options::stage)
  };
  static constexpr Stage kStages[] = {
      {&Pipeline::start, "start"},  // the configuration's share of the run's --timeout
      {&Pipeline::run_programs, "running the programs"},  // DESIGN.md's table if they cannot
      {&Pipeline::structure, "structure"},                // shapes, dtypes, memory findings
      {&Pipeline::dedup, "dedup"},                  // pairs equal up to renaming are checked once
      {&Pipeline::exhaustive, "exhaustive sweep"},  // --exhaustive: every value of one input
      {&Pipeline::set_aside_unfixed, "set-aside"},  // IEEE: pairs whose bits no one fixes
      {&Pipeline::probe, "probe"},                  // a few witness points before any proof
      {&Pipeline::early_threshold_cases, "case split"},   // sides that cut at other constants
      {&Pipeline::egraph, "e-graph"},                     // rewrites and normal forms
      {&Pipeline::witness_search, "witness search"},      // the residue, point by point
      {&Pipeline::threshold_cases, "case split"},         // branches cut at constants
      {&Pipeline::negligible_terms, "negligible terms"},  // sides apart by e^-1e30 alone
      {&Pipeline::smt, "Z3"},                             // what is left
  };
  for (const Stage& stage : kStages) {
    if (opt_.stage) opt_.stage->store(stage.name);
    double began = elapsed();
    bool go_on = true;
    try {
      go_on = (this->*stage.run)();
    } catch (const ir::BudgetExceeded& e) {
      // The report says where the time went: the stages so far and the one it stopped in.
      r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
      r_.verdict = Verdict::Unknown;
      r_.reason = std::string("stopped: ") + e.what() + " in the " + stage.name +
                  " stage, before this configuration was decided";
      r_.out_of_time = !e.memory_exhausted;
      r_.counterexample.reset();  // one not yet replayed in full is no verdict
      r_.stats.unknown = pairs_.size() + approximate_ - r_.stats.egraph_proved -
                         r_.stats.cases_proved - r_.stats.witness_refuted - r_.stats.smt_proved -
                         r_.stats.smt_refuted;
      r_.stats.seconds = elapsed();
      return once_each(std::move(r_));
    }
    r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
    if (!go_on) return once_each(std::move(r_));
  }
  conclude();
  return once_each(std::move(r_));
}

bool Pipeline::start() {
  // This configuration's budget: its own timeout, within what the whole run has left.
  if (opt_.deadline)
    opt_.timeout_s =
        std::min(opt_.timeout_s, std::chrono::duration<double>(*opt_.deadline - start_).count());
  r_.dims = opt_.dims;
  r_.bound = dims_str(opt_.dims) + (opt_.default_bound ? " (default bound)" : "");
  r_.nonfinite_inputs = opt_.nonfinite_inputs;
  r_.semantics = opt_.semantics;
  if (opt_.timeout_s > 0) return true;
  r_.verdict = Verdict::Unknown;
  r_.reason = "the run's --timeout was spent before this configuration started";
  r_.not_started = true;
  return false;
}

// What proved the elements, for an EQUIVALENT that is not all by exhaustion.
static std::string proved_how(const Stats& s) {
  std::string how = s.smt_proved ? "e-graph and Z3" : "e-graph";
  if (s.exhaustion_proved) how += ", " + std::to_string(s.exhaustion_proved) + " by exhaustion";
  if (s.cases_proved)  // stage_cases.cc: the e-graph and enclosures, piece by piece
    how += ", " + std::to_string(s.cases_proved) +
           " by a case split on the constants their branches compare with";
  return how == "e-graph" ? "every output element proved by the e-graph"
                          : "every output element proved (" + how + ")";
}

void Pipeline::conclude() {
  Report& r = r_;
  r.stats.unknown = pairs_.size() + approximate_ - r.stats.egraph_proved - r.stats.cases_proved -
                    r.stats.witness_refuted - r.stats.smt_proved - r.stats.smt_refuted;
  r.stats.seconds = elapsed();
  if (r.counterexample) return;
  if (r.stats.unknown == 0) {
    r.verdict = Verdict::Equivalent;
    size_t by_exhaustion = r.stats.exhaustion_proved, total = r.stats.deduped;
    if (by_exhaustion && by_exhaustion == total)
      r.reason = "every output element proved by exhaustion (every value of its input)";
    else
      r.reason = proved_how(r.stats);
    return;
  }
  r.verdict = Verdict::Unknown;
  r.out_of_time = r.stats.unknown > approximate_ && elapsed() > opt_.timeout_s;
  r.reason =
      std::to_string(r.stats.unknown) + " output pairs neither proved nor refuted" +
      (approximate_ ? "; " + std::to_string(approximate_) +
                          " depend on approximations or order (IEEE), first: " + approximate_why_
                    : "") +
      (r.stats.unknown == approximate_ ? ""
       : elapsed() > opt_.timeout_s    ? " before the timeout"
       : !opt_.use_smt
           ? " by the e-graph and the witness search (--no-smt)"
           : "; first reason: " + (smt_reason_.empty() ? negligible_why_ : smt_reason_));
}

std::string dims_str(const torch::Dims& dims) {
  std::string r;
  for (const auto& [n, v] : dims) {
    r += (r.empty() ? "" : ",") + n + "=";
    for (size_t k = 0; k < v.size(); ++k) r += (k ? "x" : "") + std::to_string(v[k]);
  }
  return r.empty() ? "the sizes as written" : r;
}

std::vector<std::string> coverage_warnings(const std::vector<Report>& reports) {
  std::map<std::string, torch::TorchState::MaskCoverage> all;
  for (const Report& r : reports)
    for (const auto& [where, seen] : r.masks) {
      all[where].on |= seen.on;
      all[where].off |= seen.off;
    }
  std::map<std::string, unsigned> loops;
  for (const Report& r : reports)
    for (const auto& [where, bits] : r.loops) loops[where] |= bits;
  std::vector<std::string> out;
  for (const auto& [where, seen] : all)
    if (!seen.on || !seen.off)
      out.push_back(where + ": mask " + (seen.on ? "never false" : "never true") + ": " +
                    (seen.on ? "no masked-off (tail) lane" : "no lane") +
                    " of this access was checked at this bound");
  for (const auto& [where, bits] : loops)
    if (!(bits & 4u))
      out.push_back(where +
                    ": loop never ran more than one trip: what it carries from one trip "
                    "to the next was not checked at this bound");
  return out;
}

}  // namespace keq::verify
