#include "verify/verify.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

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

// The verdict over every outcome of the candidate's comparisons of GPU timings (a hand-rolled
// autotuner's `if ms < best:`), each outcome a run of its own: keq cannot know which way the GPU
// goes, and a guessed outcome could hide a wrong configuration. Outcomes no timings can give
// (t1 < t2 and t2 < t1) are skipped. A counterexample counts only where keq can show the
// timings it needs are possible.
// `impossible`: how many outcomes no timings give were left out; none: only the first outcome ran.
Report every_timing_outcome(const std::vector<Report>& runs, std::optional<size_t> impossible) {
  std::vector<const Report*> possible;
  for (const Report& r : runs)
    if (r.timing_possible) possible.push_back(&r);
  auto with_note = [&](const Report& r, const std::string& note) {
    Report out = r;
    out.notes.push_back(note);
    return out;
  };
  const std::string outcomes =
      impossible
          ? "GPU timings: every outcome of the candidate's comparisons of torch.cuda.Event "
            "timings was checked: " +
                std::to_string(possible.size()) + " distinct programs verified" +
                (*impossible
                     ? ", " + std::to_string(*impossible) + " outcomes no timings give left out"
                     : "")
          : "GPU timings: the first outcome of the candidate's comparisons of "
            "torch.cuda.Event timings decides the configuration; the others were not run";
  for (const Report* r : possible)
    if (r->verdict == Verdict::NotEquivalent) {
      Report out = with_note(*r, outcomes);
      out.bound += "; GPU timings: " + r->timing_outcomes;
      if (r->timing_checked) return out;
      out.verdict = Verdict::Unknown;
      out.counterexample.reset();
      out.reason = "a counterexample when the GPU's timings go " + r->timing_outcomes +
                   ", outcomes keq cannot show possible (a comparison of a timing computed from "
                   "timings): " +
                   r->reason;
      return out;
    }
  for (const Report* r : possible)
    if (r->verdict != Verdict::Equivalent) {
      Report out = with_note(*r, outcomes);
      out.bound += "; GPU timings: " + r->timing_outcomes;
      return out;
    }
  return with_note(possible.empty() ? runs[0] : *possible[0], outcomes);
}

// What the candidate computes, exactly: its outputs' shapes, dtypes and terms (hash-consed in
// one store, so equal ids are equal terms), and its memory findings, or what stopped it.
std::string program_identity(const Program& p) {
  std::string id;
  for (const auto& t : p.outputs) {
    id += "|" + std::to_string(static_cast<int>(t->dtype)) + ":";
    for (int64_t d : t->shape) id += std::to_string(d) + "x";
    for (TermId e : t->elems) id += std::to_string(e) + ",";
  }
  for (const std::string& f : p.state.findings) id += "|" + f;
  id += "|" + std::to_string(p.state.findings_unlisted);
  return id;
}

// One outcome of the candidate's comparisons of GPU timings for each program they lead to
// (choosing among configurations that differ only in num_warps gives one program): the
// candidate alone, run under every outcome into one term store. Outcomes no timings can give
// are left out, and counted in `impossible`; a program's outcome is one keq can show possible
// where it has one.
std::vector<uint64_t> distinct_timing_outcomes(const std::string& ref_path,
                                               const std::string& cand_path, const Options& opt,
                                               size_t comparisons, size_t& impossible) {
  ir::TermStore store;
  const std::string cls =
      torch::model_classes(ref_path, cand_path, opt.ref_class, opt.cand_class).candidate;
  std::map<std::string, std::pair<uint64_t, bool>> programs;  // identity: (outcome, checked)
  for (uint64_t m = 0; m < (uint64_t{1} << comparisons); ++m) {
    python::TimingChoices timing(m);
    std::string id;
    try {
      id = program_identity(torch::run_candidate(
          cand_path, ref_path, store, opt.dims, opt.params_initial, cls, opt.autotune_config,
          opt.eval_mode, &timing, false, opt.any_inputs, opt.parameter_pairing));
    } catch (const Error& e) {  // what stops the candidate is part of what it does
      if (e.kind() == ErrorKind::Budget) throw;
      id = std::string("stopped: ") + e.what();
    }
    comparisons = std::max(comparisons, timing.undecided());
    if ((m >> timing.undecided()) != 0) continue;  // the outcome of m's low bits, run already
    if (!timing.possible()) {
      ++impossible;
      continue;
    }
    auto [it, fresh] = programs.try_emplace(id, m, !timing.derived());
    if (!fresh && !it->second.second && !timing.derived()) it->second = {m, true};
  }
  std::vector<uint64_t> outcomes;
  for (const auto& [id, rep] : programs) outcomes.push_back(rep.first);
  std::sort(outcomes.begin(), outcomes.end());
  return outcomes;
}

Report every_timing(const std::string& ref_path, const std::string& cand_path, Options options) {
  options.timing_choices = 0;
  std::vector<Report> runs = {Pipeline(ref_path, cand_path, options).run()};
  const size_t comparisons = runs[0].timing_comparisons;
  if (comparisons == 0) return runs[0];
  if (runs[0].verdict == Verdict::NotEquivalent && runs[0].timing_possible &&
      runs[0].timing_checked)
    return every_timing_outcome(runs, std::nullopt);  // decided: a pre-filter stops there
  size_t impossible = 0;
  std::vector<uint64_t> outcomes =
      distinct_timing_outcomes(ref_path, cand_path, options, comparisons, impossible);
  if (outcomes.empty()) {  // some timings give some outcome: keq's record is at fault, not the file
    Report r = runs[0];
    r.verdict = Verdict::Unknown;
    r.counterexample.reset();
    r.reason =
        "keq found no possible outcome of the candidate's comparisons of GPU timings "
        "(an internal defect: some timings give every program some outcome)";
    return r;
  }
  if (std::find(outcomes.begin(), outcomes.end(), 0) == outcomes.end()) runs.clear();
  for (uint64_t m : outcomes) {
    if (m == 0) continue;  // run first
    options.timing_choices = m;
    runs.push_back(Pipeline(ref_path, cand_path, options).run());
  }
  return every_timing_outcome(runs, impossible);
}

// Under a pairing, a counterexample that sets a candidate parameter no reference parameter pairs
// with (c<k>: a local nn.Linear whose weight __init__ copied into the registered one, or a
// parameter the reference has no use for) shows a difference at one value of it only: not
// evidence against the candidate, so that pairing's verdict is UNKNOWN.
Report only_paired_evidence(Report r) {
  if (r.verdict != Verdict::NotEquivalent || !r.counterexample) return r;
  for (const auto& [variable, value] : r.counterexample->inputs) {
    if (!torch::is_unpaired_parameter(variable)) continue;
    r.verdict = Verdict::Unknown;
    r.reason = "with the parameters paired by shape, the only counterexample found sets " +
               variable + ", a parameter of the candidate's own that pairs with none of the " +
               "reference's: a difference at one value of it is no evidence";
    r.counterexample.reset();
    std::erase_if(r.notes, [](const std::string& n) { return n.starts_with("counterexample:"); });
    return r;
  }
  return r;
}

// Where creation order does not pair the parameters, each pairing by shape is a run
// of its own: EQUIVALENT where one proves (the candidate holds the reference's weights that
// way), NOT_EQUIVALENT where every one has a counterexample (no such loading of the reference's
// weights makes them agree), the first other verdict otherwise.
Report every_pairing(const std::string& ref_path, const std::string& cand_path, Options options,
                     Report unpaired) {
  const auto pairings = unpaired.parameter_pairings;
  const std::string n = std::to_string(pairings.size());
  if (pairings.size() > kMaxParameterPairings) {
    unpaired.reason +=
        " (over " + std::to_string(kMaxParameterPairings) + " pairings by shape: none was tried)";
    return unpaired;
  }
  std::vector<Report> runs;
  for (const auto& pairing : pairings) {
    options.parameter_pairing = pairing;
    runs.push_back(only_paired_evidence(every_timing(ref_path, cand_path, options)));
    runs.back().parameter_pairing = pairing;
    if (runs.back().verdict == Verdict::Equivalent) {
      runs.back().notes.push_back("parameters: creation order does not pair them (" +
                                  unpaired.reason + "); pairing " + std::to_string(runs.size()) +
                                  " of the " + n + " by shape proves");
      return runs.back();
    }
  }
  auto other = std::find_if(runs.begin(), runs.end(),
                            [](const Report& r) { return r.verdict != Verdict::NotEquivalent; });
  Report out = other == runs.end() ? runs[0] : *other;
  const size_t refuted = std::count_if(runs.begin(), runs.end(), [](const Report& r) {
    return r.verdict == Verdict::NotEquivalent;
  });
  std::string tally = other != runs.end() ? std::to_string(refuted) + " of the " + n +
                                                " pairings by shape have a " +
                                                "counterexample; this report is pairing " +
                                                std::to_string(other - runs.begin() + 1) + "'s"
                      : runs.size() == 1 ? "the one pairing by shape has a counterexample"
                                         : "every one of the " + n +
                                               " pairings by shape has a counterexample; the one "
                                               "shown is pairing 1's";
  out.notes.push_back("parameters: creation order does not pair them (" + unpaired.reason + "); " +
                      tally);
  return out;
}

// Where no loading of the reference's weights fits the candidate's (a parameter sized by a
// constant the candidate hard-codes), the models as built are what KernelBench compares: each
// parameter holding what __init__ gives it, the seeded draws alike (--params initial). A
// counterexample there is a difference of those models; a proof there says nothing of other
// weights, so the verdict stays UNKNOWN.
Report as_built(const std::string& ref_path, const std::string& cand_path, Options options,
                Report unpaired) {
  options.params_initial = true;
  Report built = every_timing(ref_path, cand_path, options);
  if (built.verdict == Verdict::NotEquivalent && built.counterexample) {
    built.notes.push_back(
        "parameters: no loading of the reference's weights fits the candidate's (" +
        unpaired.reason +
        "); the counterexample is for the models as built: each parameter holds "
        "what __init__ gives it, as under --params initial");
    return built;
  }
  if (built.verdict == Verdict::Equivalent)
    unpaired.notes.push_back(
        "parameters: as built (--params initial) the models are equal at this "
        "configuration, which proves nothing for other weights");
  return unpaired;
}

Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options) {
  Report first = every_timing(ref_path, cand_path, options);
  if (first.parameters_unpaired && first.parameter_pairings.empty() && !options.params_initial)
    return as_built(ref_path, cand_path, options, std::move(first));
  if (first.parameter_pairings.empty() || !options.parameter_pairing.empty()) return first;
  return every_pairing(ref_path, cand_path, options, std::move(first));
}

}  // namespace

Report verify(const std::string& ref_path, const std::string& cand_path, const Options& options) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(std::max(0.0, options.timeout_s)));
  if (options.deadline) deadline = std::min(deadline, *options.deadline);
  ir::BudgetScope budget(deadline, options.max_memory_bytes);
  torch::NarrowRoundingScope rounding(options.round_once ? torch::NarrowRounding::Once
                                                         : torch::NarrowRounding::EachOp);
  try {
    Report r = verify_configuration(ref_path, cand_path, options);
    r.rounded_after_an_op = torch::rounded_after_an_op();
    return r;
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
      {&Pipeline::dedup, "dedup"},  // pairs equal up to renaming are checked once
      {&Pipeline::findings_counterexample, "findings"},   // where findings decided: a probe too
      {&Pipeline::inert_clamps, "inert clamps"},          // max(sum of exp(a - max a), c <= 1)
      {&Pipeline::exhaustive, "exhaustive sweep"},        // --exhaustive: every value of one input
      {&Pipeline::set_aside_unfixed, "set-aside"},        // IEEE: pairs whose bits no one fixes
      {&Pipeline::probe, "probe"},                        // a few witness points before any proof
      {&Pipeline::early_threshold_cases, "case split"},   // sides that cut at other constants
      {&Pipeline::arg_chains, "argmax chains"},           // running argmax against torch's
      {&Pipeline::egraph, "e-graph"},                     // rewrites and normal forms
      {&Pipeline::witness_search, "witness search"},      // the residue, point by point
      {&Pipeline::threshold_cases, "case split"},         // branches cut at constants
      {&Pipeline::branch_cases, "case split"},            // branches on the data
      {&Pipeline::negligible_terms, "negligible terms"},  // sides apart by e^-1e30 alone
      {&Pipeline::sentinel_extrema, "sentinels"},         // apart where values pass 1e30 alone
      {&Pipeline::smt, "Z3"},                             // what is left
  };
  for (const Stage& stage : kStages) {
    if (opt_.stage) opt_.stage->store(stage.name);
    double began = elapsed();
    bool go_on = true;
    try {
      go_on = (this->*stage.run)();
    } catch (const ir::BudgetExceeded& e) {
      if (decided_by_findings_) {  // the findings decided before this stage began
        r_ = *decided_by_findings_;
        r_.stats.seconds = elapsed();
        return finished();
      }
      // The report says where the time went: the stages so far and the one it stopped in.
      r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
      r_.verdict = Verdict::Unknown;
      r_.reason = std::string("stopped: ") + e.what() + " in the " + stage.name +
                  " stage, before this configuration was decided";
      r_.out_of_time = !e.memory_exhausted;
      r_.counterexample.reset();  // one not yet replayed in full is no verdict
      r_.stats.unknown = pairs_.size() + approximate_ - r_.stats.egraph_proved -
                         r_.stats.cases_proved - r_.stats.chains_proved - r_.stats.witness_refuted -
                         r_.stats.smt_proved - r_.stats.smt_refuted;
      r_.stats.seconds = elapsed();
      return finished();
    }
    r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
    if (!go_on) return finished();
    // Only where other autotune configs have findings to look at: otherwise the proofs follow
    // here, in this run (a stop would only run the programs again).
    if (opt_.structure_only && stage.run == &Pipeline::structure && r_.autotune_configs > 1 &&
        !decided_by_findings_) {
      r_.verdict = Verdict::Unknown;
      r_.reason = "only the findings were checked";
      r_.structure_only = true;
      r_.stats.seconds = elapsed();
      return finished();
    }
  }
  conclude();
  return finished();
}

// The report as the run left it, with what the candidate's comparisons of GPU timings did.
Report Pipeline::finished() {
  r_.timing_comparisons = timing_.undecided();
  r_.timing_outcomes = timing_.describe();
  r_.timing_possible = timing_.possible();
  r_.timing_checked = !timing_.derived();
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
  r_.eval_mode = opt_.eval_mode;
  r_.round_once = opt_.round_once;
  if (opt_.timeout_s > 0) return true;
  r_.verdict = Verdict::Unknown;
  r_.reason = "the run's --timeout was spent before this configuration started";
  r_.not_started = true;
  return false;
}

// What proved the elements, for an EQUIVALENT that is not all by exhaustion.
static std::string proved_how(const Stats& s) {
  // The e-graph is named when it proved something, or when nothing else did.
  bool others = s.smt_proved || s.exhaustion_proved || s.cases_proved || s.chains_proved;
  std::string how = s.egraph_proved || !others ? "e-graph" : "";
  auto add = [&](const std::string& part, const char* sep) {
    how += (how.empty() ? "" : sep) + part;
  };
  if (s.smt_proved) add("Z3", " and ");
  if (s.exhaustion_proved) add(std::to_string(s.exhaustion_proved) + " by exhaustion", ", ");
  if (s.cases_proved > s.branches_proved)  // stage_cases.cc: e-graph and enclosures, by piece
    add(std::to_string(s.cases_proved - s.branches_proved) +
            " by a case split on the constants their branches compare with",
        ", ");
  if (s.branches_proved)  // stage_cases.cc: the e-graph on each way the branches go
    add(std::to_string(s.branches_proved) + " by a case split on their branches' conditions", ", ");
  if (s.chains_proved)  // stage_chains.cc: argmax/argmin chains read as entry lists
    add(std::to_string(s.chains_proved) + " as argmax/argmin chains over the same entries", ", ");
  return how == "e-graph" ? "every output element proved by the e-graph"
                          : "every output element proved (" + how + ")";
}

void Pipeline::conclude() {
  Report& r = r_;
  r.stats.unknown = pairs_.size() + approximate_ - r.stats.egraph_proved - r.stats.cases_proved -
                    r.stats.chains_proved - r.stats.witness_refuted - r.stats.smt_proved -
                    r.stats.smt_refuted;
  r.stats.seconds = elapsed();
  if (r.counterexample) return;
  if (r.stats.unknown == 0) {
    r.verdict = Verdict::Equivalent;
    size_t by_exhaustion = r.stats.exhaustion_proved, total = r.stats.deduped;
    if (by_exhaustion && by_exhaustion == total)
      r.reason = "every output element proved by exhaustion (every value of its input)";
    else if (total == 0 && r.stats.pairs > 0)  // every pair was one term on both sides
      r.reason = "every output element proved: both sides build the same terms";
    else
      r.reason = proved_how(r.stats);
    return;
  }
  r.verdict = Verdict::Unknown;
  r.out_of_time = r.stats.unknown > approximate_ && elapsed() > opt_.timeout_s;
  // sentinel_extrema counts the pairs it names before Z3; a pair Z3 then proved (the sentinel
  // out of the inputs' reach) would make that count wrong, so Z3's reason stands then.
  const bool sentinels = !sentinel_why_.empty() && r.stats.smt_proved == 0;
  r.reason =
      std::to_string(r.stats.unknown) + " output pairs neither proved nor refuted" +
      (approximate_ ? "; " + std::to_string(approximate_) +
                          " depend on approximations or order (IEEE), first: " + approximate_why_
                    : "") +
      (r.stats.unknown == approximate_ ? ""
       : elapsed() > opt_.timeout_s    ? " before the timeout"
       : !opt_.use_smt                 ? " by the e-graph and the witness search (--no-smt)"
       : sentinels ? "; " + sentinel_why_ + (smt_reason_.empty() ? "" : "; Z3: " + smt_reason_)
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
  std::map<std::string, unsigned> branches;
  for (const Report& r : reports)
    for (const auto& [where, bits] : r.branches) branches[where] |= bits;
  // Bit 4: an evaluation that was a guard of a program id against the grid's extent, which no
  // size can take the other way; only the other evaluations' ways count.
  for (const auto& [where, bits] : branches)
    if ((bits & 3u) == 1u || (bits & 3u) == 2u)
      out.push_back(where + ": condition never " + (bits & 1u ? "false" : "true") +
                    ": the code its other way runs was not checked at this bound");
  // A kernel the candidate's host code never reached (a path for other ranks or dtypes), where
  // another ran: nothing of it was checked. Where none ran, a note says so (stage_programs.cc).
  std::map<std::string, torch::TorchState::KernelRun> kernels;
  bool any_ran = false;
  for (const Report& r : reports)
    for (const auto& [where, k] : r.kernels) {
      auto& seen = kernels.try_emplace(where, k).first->second;
      seen.ran |= k.ran;
      any_ran |= k.ran;
    }
  for (const auto& [where, k] : kernels)
    if (any_ran && !k.ran)
      out.push_back(where + ": @triton.jit " + k.name +
                    " never ran (launched or called): nothing of it was checked at this bound");
  return out;
}

}  // namespace keq::verify
