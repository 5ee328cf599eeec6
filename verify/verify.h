// keq verify's pipeline for one configuration: frontends, shape check, findings, pair dedup, the
// e-graph stage, the witness search with replay, Z3 (real or floating-point encoding, with model
// refinement), and the verdict, in real or IEEE semantics.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontends/triton/program.h"
#include "runner/runner.h"

namespace keq::verify {

enum class Verdict { Equivalent, NotEquivalent, Unknown, Unsupported, Error };
const char* verdict_name(Verdict v);  // EQUIVALENT, NOT_EQUIVALENT, ...
int exit_code(Verdict v);             // 0, 1, 2, 3, 4
// DESIGN.md: any NOT_EQUIVALENT wins, otherwise any UNKNOWN (UNSUPPORTED and ERROR rank above
// UNKNOWN, since nothing was checked).
Verdict combine(Verdict a, Verdict b);

struct Options {
  torch::Dims dims;
  bool default_bound = false;  // dims came from default_dims (the report says so)
  // The default bound's probes: sizes that flatten the model's structure stop the configuration
  // once both programs ran (UNKNOWN, Report::flattened says why), since other sizes are tried.
  bool stop_if_flattened = false;
  bool params_initial = false;
  // The default bound: Z3's time in one configuration before the others run (0: all it has).
  // A configuration whose queries ran out of it is run again at the end (Report::smt_deferred).
  double smt_slice_s = 0;
  bool eval_mode = false;  // --eval: both models after .eval()
  // --ref-class, --cand-class: the classes compared, where the user names them
  // (torch::model_classes chooses otherwise).
  std::string ref_class, cand_class;
  bool use_egraph = true;
  bool normal_forms = true;  // the e-graph's real-semantics normal forms (off: to measure them)
  bool use_smt = true;       // --no-smt: the e-graph and the witness search alone
  double timeout_s = 60;     // for this configuration (and no later than `deadline`)
  // The whole run's end (keq verify --timeout): configurations share it.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // The resident memory a configuration may use before it stops with UNKNOWN "memory budget"
  // (0: no ceiling). keq verify's default: 8 GiB (--max-memory).
  size_t max_memory_bytes = size_t{8} << 30;
  uint64_t seed = 1;
  size_t witness_points = 200;    // per unproved pair
  size_t jobs = 1;                // Z3 queries run at once (--jobs)
  bool nonfinite_inputs = false;  // float inputs may be +-inf and NaN too
  bool any_inputs = false;        // --any-inputs: float inputs any finite value of their dtype
  // --round-once: fp16, bf16 and fp8 values round only at explicit conversions, writes and the
  // outputs (torch::NarrowRounding::Once), not after each op.
  bool round_once = false;
  ir::Semantics semantics = ir::Semantics::Real;
  size_t autotune_config = 0;  // which config autotuned kernels run (0-based)
  // Bit k: the outcome of the k-th comparison of GPU timings keq cannot decide (verify() runs
  // every outcome; see python::TimingChoices).
  uint64_t timing_choices = 0;
  bool every_autotune_config = true;  // verify_every_autotune_config: all, or autotune_config
  // Where kernels are autotuned, stop once the programs ran and their shapes and memory findings
  // were checked (the default bound looks at every autotune config that way before proving any).
  bool structure_only = false;
  // The candidate's parameters paired by one of Report::parameter_pairings (empty: by creation
  // order, as DESIGN.md says).
  std::vector<torch::ParameterAlias> parameter_pairing;
  // --exhaustive (IEEE): pairs of one input element evaluated at every value of its format, on
  // `device` (generated code: runner/).
  bool exhaustive = false;
  runner::Device device = runner::Device::Cpu;
  std::string cuda_arch = "native";
  // Where the run is: each stage stores its name (a string literal) here, for keq verify's
  // watchdog, which reports it if the run overruns --timeout. Null: not tracked.
  std::atomic<const char*>* stage = nullptr;
  // --explain: the output and element whose proof to print (the e-graph's rewrite chain).
  std::optional<std::pair<size_t, std::vector<int64_t>>> explain;
  // Earlier autotune configs of these sizes proved EQUIVALENT, with their outputs' terms
  // (Report::terms): a config whose programs build exactly those terms has that proof.
  struct ProvenTerms {
    size_t autotune_config;
    std::shared_ptr<const std::vector<uint64_t>> terms;
  };
  std::vector<ProvenTerms> proven_terms;
};

struct Counterexample {
  size_t output = 0;
  std::vector<int64_t> index;
  std::vector<std::pair<std::string, std::string>> inputs;  // the variables that matter
  std::string ref_value, cand_value, difference;
  std::string found_by;  // "witness search (constant-guided)", ...
  // What each tensor in `inputs` is: "in0: forward's argument `predictions`".
  std::vector<std::string> names;
};

struct Stats {
  size_t pairs = 0, deduped = 0, egraph_proved = 0, witness_refuted = 0, unknown = 0;
  size_t exhaustion_proved = 0;  // --exhaustive: pairs with no differing input
  size_t cases_proved = 0;       // by the case splits (stage_cases.cc)
  size_t branches_proved = 0;    // of those: on the conditions of the data's branches
  size_t chains_proved = 0;      // as argmax/argmin chains over the same entries (arg_chain.h)
  size_t smt_queries = 0, smt_proved = 0, smt_refuted = 0, smt_refinements = 0;
  double smt_seconds = 0;
  size_t egraph_nodes = 0, egraph_iterations = 0;
  std::string egraph_stop;
  size_t witness_points = 0;
  double seconds = 0;
  std::vector<std::pair<std::string, double>> stage_seconds;  // where the time went, in order
};

struct Report {
  Verdict verdict = Verdict::Unknown;
  std::string reason;  // why, in one line
  std::string bound;   // the configuration checked (sizes, and autotune configs used)
  std::string ref_class = "Model", cand_class = "ModelNew";  // torch::model_classes's
  size_t autotune_configs = 0;  // the most configs any autotuned kernel has (0: none autotuned)
  std::vector<std::string> autotune_signatures;  // TorchState's: equal ones are one program
  size_t autotune_config = 0;                    // the config autotuned kernels ran (0-based)
  // With several autotune configs: both programs' outputs written out exactly (verify/
  // terms_key.h), for later configs of these sizes to compare theirs with.
  std::shared_ptr<const std::vector<uint64_t>> terms;
  // Comparisons of GPU timings keq could not decide in this run, the outcomes it took, and
  // whether some timings give them all (`timing_checked` false: one read a computed timing).
  size_t timing_comparisons = 0;
  std::string timing_outcomes;
  bool timing_possible = true, timing_checked = true;
  // UNKNOWN because creation order does not pair the parameters: the pairings by shape, order
  // kept, that verify() then tries (torch::parameter_pairings).
  std::vector<std::vector<torch::ParameterAlias>> parameter_pairings;
  bool parameters_unpaired = false;  // UNKNOWN because creation order does not pair them
  bool smt_deferred = false;         // a Z3 query ran out of Options::smt_slice_s
  // The pairing this report's run used (empty: creation order), for --repro.
  std::vector<torch::ParameterAlias> parameter_pairing;
  // TorchState::parameter_objects of each side, for --repro: which of keq's parameters each
  // torch Parameter holds.
  std::vector<int64_t> ref_parameter_objects, cand_parameter_objects;
  bool nonfinite_inputs = false;  // checked with +-inf and NaN inputs too
  bool eval_mode = false;         // Options::eval_mode: both models ran after .eval() (for --repro)
  bool round_once = false;        // Options::round_once (for --repro: torch rounds after each op)
  // Some op's fp16, bf16 or fp8 result was rounded where --round-once would not round it
  // (torch::rounded_after_an_op): a counterexample here may come from where rounding happens.
  bool rounded_after_an_op = false;
  ir::Semantics semantics = ir::Semantics::Real;
  std::optional<Counterexample> counterexample;
  std::vector<std::string> findings;  // memory findings, file:line first
  int64_t findings_unlisted = 0;      // more of them, counted (TorchState::kMostListedFindings)
  // Found at the file's own sizes, which keq does not run (int32 offsets that wrap there): they
  // do not decide this configuration's verdict, which covers its bound.
  std::vector<std::string> file_size_findings;
  std::vector<std::string> notes;
  std::vector<std::string> flattened;  // structure these sizes flatten (TorchState::flattened) //
                                       // assumptions the verdict depends on
  std::vector<std::string> coverage;   // masks whose true or false lanes never ran at this bound
  std::string explanation;             // for Options::explain: how that element was settled
  std::map<std::string, torch::TorchState::MaskCoverage> masks;  // by file:line:col
  std::map<std::string, unsigned> loops;     // trip counts that ran, by file:line:col
  std::map<std::string, unsigned> branches;  // ways kernels' dynamic ifs went (1, 2)
  // The candidate file's @triton.jit functions by where they are defined: name, whether they ran.
  std::map<std::string, torch::TorchState::KernelRun> kernels;
  std::set<int64_t> blocks;                           // the block sizes the kernels' launches used
  std::set<std::pair<int64_t, int64_t>> mask_limits;  // TorchState's: (n, block extent)
  std::set<std::pair<int64_t, int64_t>> loop_steps;   // TorchState's: (end, step)
  bool cannot_run = false;          // NOT_EQUIVALENT because the candidate raises or does not parse
  bool assert_rejected = false;     // UNKNOWN because an assert in either file rejects the sizes
  bool reference_asserted = false;  // ... and that assert is the reference's
  bool reference_stopped = false;   // the reference raised or stopped at these sizes
  bool size_limited = false;        // UNSUPPORTED: these sizes pass keq's limits (elements, grid)
  bool bad_input = false;    // ERROR at any sizes: a file unreadable, or without what keq reads
  bool not_started = false;  // UNKNOWN because the run's --timeout was spent before it
  // UNKNOWN because Options::structure_only stopped it after the findings (none decided it).
  bool structure_only = false;
  bool out_of_time = false;  // UNKNOWN because the timeout came first
  torch::Dims dims;          // the configuration's sizes (empty: as the file writes them)
  Stats stats;
};

Report verify(const std::string& ref_path, const std::string& cand_path, const Options& options);
// verify() for options.autotune_config = 0, then for every further config of the candidate's
// autotuned kernels (the autotuner may pick any): one report each. With every_autotune_config
// off, verify() for options.autotune_config alone.
std::vector<Report> verify_every_autotune_config(const std::string& ref_path,
                                                 const std::string& cand_path, Options options);

// keq verify's default bound, all of it: two configurations of distinct small sizes
// (default_dims from 2 and from 5; sizes a model rejects are raised, then replaced by
// scaled_dims of at most 4096 and 16384 elements, with floors 1, 8 and 32; sizes that flatten
// the model's structure, such as one channel per group, are passed over after running the
// programs only, and the first of them is tried with each size doubled in turn), then sizes around
// the blocks for the dimensions that feed a masked index: each limit a kernel compared a block
// of indices with (TorchState::mask_limits) is traced back to the sizes that make it, and those
// go to BLOCK + 1, BLOCK - 1 and 2 * BLOCK + 1 (mask tails, partial tiles, second and third
// trips); a limit that is no product of sizes (a pooling's output length) is traced by running
// the programs with each size grown, and the size that moves it searched for those values; a
// kernel loop stepping past one block (TorchState::loop_steps) adds the same around its step;
// where no limit is traced, each size in turn at the largest BLOCK + 1. Those run
// smallest first, each within an eighth of the timeout (at least 2 s); one that does not finish
// there, the larger sizes of its dimension, and sizes multiplying past 262144 are named in the
// notes, not run. Every autotune config of each.
// Throws ir::SyntaxError when REF cannot be read.
std::vector<Report> verify_default_bound(const std::string& ref_path, const std::string& cand_path,
                                         Options options);

// IEEE semantics: what term t's bits depend on that keq does not model bit for bit, or "".
// `unfixed` holds the terms the frontends know the frameworks round otherwise
// (torch::TorchState::ieee_unfixed); memo caches subterms across calls.
// With `pinned_ok`, ops whose GPU lowering keq pins (op table's gpu_pinned) count as fixed: their
// bits are the GPU's (memo must then be used with pinned_ok alone).
std::string ieee_approximation(const ir::TermStore& s, ir::TermId t,
                               const std::map<ir::TermId, std::string>& unfixed,
                               absl::flat_hash_map<ir::TermId, std::string>& memo,
                               bool pinned_ok = false);
// A configuration's sizes as the report prints them ("batch_size=2,dim=3").
std::string dims_str(const torch::Dims& dims);
std::string to_text(const Report& r);
// A Python script that rebuilds the deciding counterexample's inputs and parameters at its
// configuration and runs both models, for the user to run (keq never runs it); empty when the
// report has no counterexample.
std::string repro_script(const std::string& ref_path, const std::string& cand_path,
                         const Report& r);
// keq's version, the rules' fingerprint, the semantics and the framework versions modelled.
std::string provenance(const Options& opt);
inline constexpr const char* kKeqVersion = "0.3.0";
inline constexpr const char* kModelledFrameworks = "torch 2.11.0, Triton 3.6.0, CPython 3.11";
// Several configurations: the overall verdict and the deciding configuration's reason on the
// first line (what a loop reading one line needs), `provenance` next, then every configuration's
// verdict and bound, then the deciding configuration in full.
std::string to_text(const std::vector<Report>& reports, Verdict overall,
                    const std::string& provenance);
// The first report whose verdict is the overall one: its evidence decides.
size_t deciding_report(const std::vector<Report>& reports, Verdict overall);
// A NOT_EQUIVALENT whose counterexample went through fp16, bf16 or fp8 values rounded after
// each op (Report::rounded_after_an_op): the deciding configuration again under --round-once
// (`options` as keq verify ran, within its deadline), and what that gives, in the deciding
// report's reason and notes. A user then knows whether the difference is where the formats
// round or in the math. Nothing is run for other verdicts, for IEEE semantics, nor without the
// e-graph.
void check_under_round_once(const std::string& ref_path, const std::string& cand_path,
                            std::vector<Report>& reports, Verdict overall, Options options);
// A counterexample's inputs in index order, blocks of one value compressed axis by axis from
// the last ("in0[0, 0..511] = 0", "in0[0..1, 0..3, 0..4] = 0").
std::vector<std::string> input_lines(const std::vector<std::pair<std::string, std::string>>& in);
// Masks whose true or false lanes ran in none of the configurations: what the bound missed.
std::vector<std::string> coverage_warnings(const std::vector<Report>& reports);
// The reports of one run as JSON in the schema of verify/keq.proto (message VerifyRun).
std::string to_json(const std::string& ref_path, const std::string& cand_path,
                    const std::vector<Report>& reports, Verdict overall,
                    const std::string& provenance = "");

// keq rules check: each rule under the semantics it declares (verify/rule_check.cc says how).
struct RuleVerdict {
  std::string name, where;  // where: file:line:col
  ir::Semantics holds = ir::Semantics::Real;
  enum class Outcome { Proved, Refuted, Unknown } outcome = Outcome::Unknown;
  std::string detail;  // how it was proved, the counterexample, or why unknown
};
std::vector<RuleVerdict> check_rules(const std::vector<std::string>& files, unsigned timeout_ms);

// keq rules validate: each rule evaluated by generated code (runner/) on many inputs. IEEE
// rules: the same bits; real rules: candidates measured in doubles, decided by rigorous
// evaluation (disjoint enclosures) on the CPU.
struct RuleValidation {
  std::string name, where;
  ir::Semantics holds = ir::Semantics::Real;
  std::string not_run;  // why the rule was not validated (a condition with no term form)
  std::string inputs;   // "f16 x f16, all" / "f32, sampled"
  uint64_t tried = 0, skipped = 0, undefined = 0;
  uint64_t mismatches = 0;  // IEEE: differing bits; real: confirmed by rigorous evaluation
  uint64_t flagged = 0, replayed = 0;  // real: inputs the doubles flagged; points replayed
  double max_difference = 0;           // real: the largest relative difference of the doubles
  double ms = 0;                       // the sweep on the device
  bool approximate = false;  // IEEE with an op whose device bits are one library's approximation
  std::vector<std::string> counterexamples;
  // The device against keq's evaluator, on the bit-exact sides of the points it returned.
  size_t evaluator_points = 0, evaluator_disagreements = 0;
  std::string evaluator_note;
};
struct ValidateOptions {
  runner::RunOptions run;
  std::optional<runner::InputFormat> format;  // for fp32 variables the rule does not restrict
};
struct ValidationRun {
  std::vector<RuleValidation> rules;
  double compile_s = 0;
  std::string compiler, device, error;
};
ValidationRun validate_rules(const std::vector<std::string>& files, const ValidateOptions& opt);

}  // namespace keq::verify
