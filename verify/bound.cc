// The bound: which configurations keq verify checks (every autotune config; the default bound's
// rounds of small and scaled sizes, then the sizes the searches in bound_limits.cc and
// bound_paths.cc add) and which it skips, named in the notes.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "verify/bound_sizes.h"
#include "verify/verify.h"

namespace keq::verify {

using namespace internal;

namespace {

// The reports of every autotune config after the first, which the caller already has.
// `until_out_of_time`: a config that ran out of time ends the list (the default bound's sizes
// around the blocks, which are dropped then).
// `only`: the configs to run besides the first (all where null); `left_out` counts the others.
void more_autotune_configs(const std::string& ref_path, const std::string& cand_path, Options opt,
                           std::vector<Report>& reports, bool until_out_of_time = false,
                           const std::set<size_t>* only = nullptr, size_t* left_out = nullptr) {
  if (!opt.every_autotune_config) return;
  const std::vector<std::string> sigs = reports[0].autotune_signatures;
  std::vector<std::string> same;
  // The proofs so far, for configs that build the same terms (Pipeline::proved_by_earlier_config);
  // their terms are let go at the end.
  auto add_proven = [&](const Report& r) {
    if (r.verdict == Verdict::Equivalent && r.terms)
      opt.proven_terms.push_back({r.autotune_config, r.terms});
  };
  for (const Report& r : reports) add_proven(r);
  struct Release {
    std::vector<Report>& reports;
    ~Release() {
      for (Report& r : reports) r.terms.reset();
    }
  } release{reports};
  for (size_t c = 1; c < reports[0].autotune_configs && !decided(reports); ++c) {
    if (until_out_of_time && reports.back().out_of_time) break;
    // A config whose constexprs an earlier one already had is the same program: checked once.
    if (c < sigs.size()) {
      auto earlier = std::find(sigs.begin(), sigs.begin() + c, sigs[c]);
      if (earlier != sigs.begin() + c) {
        same.push_back(std::to_string(c + 1) + " as " + std::to_string(earlier - sigs.begin() + 1));
        continue;
      }
    }
    // Not a config the caller asked for (a program checked once above is not counted).
    if (only && !only->count(c)) {
      if (left_out) ++*left_out;
      continue;
    }
    opt.autotune_config = c;
    reports.push_back(verify(ref_path, cand_path, opt));
    reports.back().autotune_config = c;
    add_proven(reports.back());
  }
  if (same.empty()) return;
  std::string list;
  for (const std::string& s : same) list += (list.empty() ? "" : ", ") + s;
  for (Report& r : reports)
    r.notes.push_back(
        "autotune: configs with the constexprs of an earlier one were checked once "
        "(num_warps and num_stages change nothing keq models; a config the autotuner skips "
        "runs as the first it keeps): " +
        list);
}

// Before any proof at the first sizes both sides accept: every other autotune config's programs,
// run for their findings alone (an output nothing wrote, an out-of-bounds read). A config whose
// grid is sized for another's blocks (LLMKernel L3 4) showed its finding only after config 1's
// proof had spent the whole --timeout. Each gets an eighth of it; null when none has a finding.
std::optional<Report> finding_in_other_configs(const std::string& ref_path,
                                               const std::string& cand_path, Options opt,
                                               const Report& first) {
  if (!opt.every_autotune_config) return std::nullopt;
  const std::vector<std::string>& sigs = first.autotune_signatures;
  opt.structure_only = true;
  opt.timeout_s = std::max(2.0, opt.timeout_s / 8);
  for (size_t c = 1; c < first.autotune_configs; ++c) {
    if (c < sigs.size() && std::find(sigs.begin(), sigs.begin() + c, sigs[c]) != sigs.begin() + c)
      continue;  // the same program as an earlier config
    opt.autotune_config = c;
    Report r = verify(ref_path, cand_path, opt);
    r.autotune_config = c;
    if (r.verdict == Verdict::NotEquivalent) return r;
  }
  return std::nullopt;
}

Options first_config(Options opt) {
  if (opt.every_autotune_config) opt.autotune_config = 0;
  return opt;
}

// The default bound chooses sizes both sides accept and says so (DESIGN.md's table): a
// configuration an assert rejects is left out and named in the others' notes; when every one
// was rejected, they stay, and the verdict is UNKNOWN "no configuration both sides accept".
// Sizes the bound chose past keq's limits (a scaled-down conv3d input of 16.8M elements where
// smaller sizes had run: KernelBench L2 61 against itself) are left out the same way.
std::vector<Report> with_skipped(std::vector<Report> all, std::vector<std::string> skipped,
                                 const torch::Dims& file) {
  auto at_file_sizes = [&](const Report& r) {
    return r.dims.empty() || dims_str(r.dims) == dims_str(file);
  };
  std::vector<Report> kept;
  for (Report& r : all) {
    if (r.assert_rejected || r.reference_stopped || r.size_limited)
      skipped.push_back(r.bound + ": " + r.reason);
    else
      kept.push_back(std::move(r));
  }
  std::set<std::string> seen;  // both rounds of the bound can skip the same sizes
  if (kept.empty()) {
    // The sizes left out say where sizes both accept may be (a reference asserting its hidden
    // size is 16 heads of 128: the file's own sizes, past what keq runs).
    for (Report& r : all) {
      if (r.assert_rejected && r.verdict == Verdict::Unknown)
        r.reason =
            "no configuration both sides accept among the sizes tried (--dims sets "
            "others); " +
            r.reason;
      // The reference raising at sizes the bound chose says nothing of the file, which may run
      // at its own (past keq's limits, so not run): not an ERROR the user's file earned.
      if (r.reference_stopped && r.verdict == Verdict::Error && !at_file_sizes(r)) {
        r.verdict = Verdict::Unknown;
        r.reason =
            "no configuration both sides accept among the sizes tried (--dims sets others); " +
            r.reason + " (at sizes the bound chose, not the file's own)";
      }
      std::set<std::string> noted;
      for (const std::string& s : skipped)
        if (s.rfind(r.bound + ":", 0) != 0 && noted.insert(s).second)
          r.notes.push_back("bound: skipped " + s);  // (its own sizes are the verdict's)
    }
    return all;
  }
  for (const std::string& s : skipped)
    if (seen.insert(s).second)
      for (Report& r : kept) r.notes.push_back("bound: skipped " + s);
  return kept;
}

}  // namespace

std::vector<Report> verify_every_autotune_config(const std::string& ref_path,
                                                 const std::string& cand_path, Options opt) {
  std::vector<Report> reports{verify(ref_path, cand_path, first_config(opt))};
  more_autotune_configs(ref_path, cand_path, opt, reports);
  return reports;
}

std::vector<Report> verify_default_bound(const std::string& ref_path, const std::string& cand_path,
                                         Options opt) {
  opt.default_bound = true;
  // the bound's probes run the programs too
  torch::NarrowRoundingScope rounding(opt.round_once ? torch::NarrowRounding::Once
                                                     : torch::NarrowRounding::EachOp);
  const std::string cand_class =
      torch::model_classes(ref_path, cand_path, opt.ref_class, opt.cand_class).candidate;
  std::vector<Report> all;
  std::vector<std::string> skipped;  // configurations an assert rejected, with why
  std::set<int64_t> blocks;
  std::optional<torch::Dims> accepted;           // the first sizes both sides ran with
  std::optional<torch::Dims> distinct;           // the first of them with no two sizes equal
  std::set<std::pair<int64_t, int64_t>> limits;  // the candidate's mask limits there (below)
  // `first` is the configuration's report for its first autotune config, when the caller ran it
  // already (a configuration is verified once: the shared --timeout is spent once).
  size_t not_checked = 0;       // configurations after a counterexample
  bool around_blocks = false;   // running the sizes around the blocks (below)
  bool second_round = false;    // the second round's sizes (below), within a share as well
  size_t configs_left_out = 0;  // around a limit, autotune configs that did not make it
  auto run = [&](const torch::Dims& dims, const std::string& why = "",
                 std::optional<Report> first = std::nullopt,
                 const std::set<size_t>* only = nullptr) {
    if (decided(all)) {
      ++not_checked;
      return;
    }
    opt.dims = dims;
    std::vector<Report> rs;
    if (first) {
      rs.push_back(std::move(*first));
      more_autotune_configs(ref_path, cand_path, opt, rs, second_round);
    } else {
      rs = {verify(ref_path, cand_path, first_config(opt))};
      more_autotune_configs(ref_path, cand_path, opt, rs, around_blocks || second_round, only,
                            &configs_left_out);
    }
    for (Report& r : rs) {
      blocks.insert(r.blocks.begin(), r.blocks.end());
      if (!why.empty() && r.bound.find(" (default bound)") != std::string::npos)
        r.bound.replace(r.bound.find(" (default bound)"), 16, " (default bound, " + why + ")");
    }
    all.insert(all.end(), rs.begin(), rs.end());
  };
  // Distinct small sizes first; where the model rejects them (a kernel wider than the input,
  // channels that must divide into groups), larger ones, then the file's own proportions. The
  // second round's larger sizes get a share of the time budget, as each size around a block
  // does: a GEMM + GroupNorm whose first sizes were proved in 9 s was UNKNOWN at the second's
  // (in_features 256) after the whole --timeout, with no size around a block run.
  const double full_timeout = opt.timeout_s;
  // Z3's slice of one configuration: a query that needs longer waits until every configuration
  // has run (rerun_deferred, below). A layernorm's first sizes, a power of two where no lane is
  // masked, spent the whole --timeout in Z3, and the next sizes, where witness search shows
  // the masked lanes' bug at once, never ran (DLBlas L2 64).
  opt.smt_slice_s = std::max(2.0, full_timeout / 6);
  bool proportional = false;          // the first round ran the file's sizes scaled down
  std::set<std::string> past_limits;  // sizes a probe found past keq's limits (size_limited)
  for (int64_t first : {2, 5}) {
    if (decided(all)) {
      ++not_checked;
      continue;
    }
    size_t round_start = all.size();
    second_round = first != 2;
    opt.timeout_s = second_round ? std::max(2.0, full_timeout / 4) : full_timeout;
    int64_t budget = first == 2 ? 4096 : 16384;
    const std::string scaled = "the file's sizes scaled down";
    std::vector<std::pair<torch::Dims, std::string>> tries = {
        {torch::default_dims(ref_path, first), ""},
        {torch::default_dims(ref_path, first + 4), ""},
        {torch::scaled_dims(ref_path, budget, 1), scaled},
        {torch::scaled_dims(ref_path, budget, 8), scaled},
        {torch::scaled_dims(ref_path, budget, 32), scaled},
        // Last, larger sizes up to the file's own: a candidate asserting that rows come in
        // groups of 128 (vLLM's fused SiLU-and-quantize) accepts none of the smaller ones.
        {torch::scaled_dims(ref_path, 65536, 32), scaled},
        {torch::scaled_dims(ref_path, 262144, 32), scaled}};
    bool doubled = false;  // the first sizes that flatten were tried with each size doubled
    bool powered = false;  // sizes a power of two were added where asserts rejected the first
    bool kept = false;     // sizes at the file's values were added where it rejected proportions
    int proportions_rejected = 0;  // by the reference
    size_t powers_rejected = 0, multiples_rejected = 0;
    for (size_t t = 0; t < tries.size(); ++t) {
      // The second round can reach the first's sizes (both scaled down to keep a structure):
      // then the next larger ones, for a second configuration that differs (one group of 128
      // columns, the only one the first sizes have, hides which group a scale is stored for).
      if (accepted && dims_str(tries[t].first) == dims_str(*accepted)) continue;
      if (t > 0 && t + 1 < tries.size() && dims_str(tries[t].first) == dims_str(tries[t - 1].first))
        continue;  // the same sizes again (a file small enough that scaling leaves them)
      if (!all.empty() && past_limits.count(dims_str(tries[t].first))) continue;
      // Distinct sizes past what the bound runs elsewhere (a conv3d's 9 x 10 x 11 x 12 x 13 input
      // and 14 channels, whose reference spent the round's whole share before its LayerNorm
      // rejected them: LLMKernel L2 34) give way to the file's proportions. The proportions
      // themselves are scaled to a budget already; a product of every size overstates them
      // (a GEMM + GroupNorm's 16 x 128 x 128 and 4 groups), and the cap passed all of them
      // over for the last, the largest (LLMKernel L2 88: the whole --timeout building it).
      const bool proportions = tries[t].second == scaled;
      if (!proportions && t + 1 < tries.size() && elements(tries[t].first) > kMaxElements) {
        skipped.push_back(dims_str(tries[t].first) + ": " +
                          std::to_string(elements(tries[t].first)) + " elements, past the " +
                          std::to_string(kMaxElements) + " it runs");
        continue;
      }
      // The proportions' own measure, the inputs' sizes, past the cap where a floor of 32 kept
      // them there: passed over while a configuration has run or a try remains (KernelBench L2
      // 23 against itself spent its second round's whole share building a 32 x 3 x 24 x 32 x
      // 32 conv3d input, then dropped it).
      if (proportions && (t + 1 < tries.size() || !all.empty())) {
        int64_t inputs = torch::input_product(ref_path, tries[t].first);
        if (inputs > kMaxElements) {
          skipped.push_back(dims_str(tries[t].first) + ": its inputs' sizes multiply to " +
                            std::to_string(inputs) + ", past the " + std::to_string(kMaxElements) +
                            " it runs");
          continue;
        }
      }
      opt.dims = tries[t].first;
      // The first round's probe stops after the findings where kernels are autotuned: whether
      // both sides accept these sizes is known by then, and the proofs come after every
      // autotune config's findings (below).
      opt.stop_if_flattened = t + 1 < tries.size();
      opt.structure_only = !second_round;
      Report probe = verify(ref_path, cand_path, first_config(opt));
      opt.structure_only = false;
      opt.stop_if_flattened = false;
      // No sizes help a file keq cannot read or that lacks ModelNew: the bound stops there
      // (it went on to its largest sizes, running the reference until the --timeout).
      if (probe.bad_input) return {std::move(probe)};
      if (probe.not_started) {  // neither accepted nor rejected: the report says it was not run
        run(opt.dims, "not run: the --timeout was spent before it started", std::move(probe));
        break;
      }
      // Sizes the reference itself cannot run (a view into groups that do not divide) are the
      // bound's choice, not the user's file: try the next.
      bool rejected = probe.verdict == Verdict::Error || probe.assert_rejected ||
                      probe.reference_stopped || probe.size_limited;
      // Sizes that flatten the model's structure (one group in a GroupNorm hides a group bug)
      // are passed over while other sizes remain; the last try is kept, with a note.
      bool flat = !rejected && !probe.flattened.empty() &&
                  probe.verdict != Verdict::NotEquivalent;  // (the last try runs to a verdict)
      if (t + 1 < tries.size() && (rejected || flat)) {
        bool power = tries[t].second.find(kPowerOfTwo) != std::string::npos;
        bool multiple = tries[t].second.find(kMultipleOfConstant) != std::string::npos ||
                        tries[t].second.find(kAtFileValue) != std::string::npos;
        if (probe.assert_rejected && power) ++powers_rejected;  // one note for them all, below
        if ((probe.assert_rejected || probe.reference_stopped) && multiple) ++multiples_rejected;
        if ((probe.assert_rejected || probe.size_limited) && !power && !multiple)
          skipped.push_back(dims_str(opt.dims) + ": " + probe.reason);
        if (probe.size_limited) past_limits.insert(dims_str(opt.dims));
        // Both small defaults rejected by an assert: before any larger floor multiplies every
        // size, the sizes where one of them (or all) is a power of two; and where the reference
        // rejected them (its assert, or torch's: MultiheadAttention's heads), first those where
        // one (or all) is a multiple of a constant the file keeps (its 12 heads: LLMKernel L3 50
        // took the file's proportions, a sequence of 64, instead of an embedding of 12, and spent
        // its --timeout there).
        const bool by_reference = probe.reference_stopped || probe.reference_asserted;
        if ((probe.assert_rejected || by_reference) && !powered && t >= 1) {
          powered = true;
          NamedDims more;
          if (probe.assert_rejected) more = powers_of_two(tries[0].first);
          if (by_reference) {
            auto multiples =
                multiples_of(tries[0].first, torch::fixed_constants(ref_path), second_round);
            more.insert(more.begin(), multiples.begin(), multiples.end());
          }
          // Then small sizes that divide as the file's do (a pooling window of 16 over 8192
          // features: the distinct sizes put a window of 5 over 4), before the proportions.
          auto divisible = divisible_as_the_file(tries[0].first, torch::file_dims(ref_path));
          more.insert(more.end(), divisible.begin(), divisible.end());
          tries.insert(tries.begin() + static_cast<ptrdiff_t>(t) + 1, more.begin(), more.end());
        }
        // The file's proportions rejected by the reference too, at floors of 1 and 8: sizes it
        // needs as the file writes them (LeNet's 32 x 32 image for its view(-1, 400)), the
        // others small. The proportions with a floor of 32 kept the batch at 32 as well, and
        // running the programs there took the whole --timeout (LLMKernel L3 4).
        if (by_reference && tries[t].second == scaled) ++proportions_rejected;
        if (proportions_rejected == 2 && !kept) {
          kept = true;
          auto at_file = at_file_values(tries[0].first, torch::file_dims(ref_path));
          tries.insert(tries.begin() + static_cast<ptrdiff_t>(t) + 1, at_file.begin(),
                       at_file.end());
        }
        if (flat) skipped.push_back(dims_str(opt.dims) + ": it flattens " + probe.flattened[0]);
        // One size too small flattens most often (channels as few as the groups): each size
        // doubled in turn, before any larger floor multiplies them all.
        if (flat && !doubled) {
          doubled = true;
          auto more = each_size_doubled(opt.dims, tries[t].second);
          tries.insert(tries.begin() + static_cast<ptrdiff_t>(t) + 1, more.begin(), more.end());
        }
        continue;
      }
      if (!rejected && !accepted) {
        accepted = opt.dims;
        proportional = tries[t].second == scaled;
      }
      if (!rejected && !distinct && sizes_distinct(opt.dims)) distinct = opt.dims;
      const size_t before = all.size();
      const std::string flat_what = flat ? probe.flattened[0] : "";
      std::optional<Report> found;
      if (probe.structure_only) found = finding_in_other_configs(ref_path, cand_path, opt, probe);
      if (found)
        run(opt.dims, tries[t].second, std::move(found));
      else if (probe.structure_only)
        run(opt.dims, tries[t].second);  // the proofs, config by config
      else
        run(opt.dims, tries[t].second, std::move(probe));
      if (flat)
        for (size_t r = before; r < all.size(); ++r)
          all[r].notes.push_back("bound: no sizes tried keep the structure: " + flat_what);
      break;
    }
    if (powers_rejected > 0)
      skipped.push_back(std::to_string(powers_rejected) +
                        " sizes with one (or every) size a power of two: an assert rejected them");
    if (multiples_rejected > 0)
      skipped.push_back(std::to_string(multiples_rejected) +
                        " sizes with one (or every) size a multiple of a constant the file keeps, "
                        "or some at the file's value: an assert or the reference rejected them");
    second_round = false;
    // Never the only configuration run: with none before it, dropping it would leave no verdict.
    if (first != 2 && round_start > 0 && round_start < all.size())
      internal::drop_if_slow(all, round_start, dims_str(all[round_start].dims) + " (second round)",
                             opt.timeout_s, skipped);
  }
  opt.timeout_s = full_timeout;
  // No sizes tried were accepted, and the file's own were not tried: where they are past what
  // keq runs, the note says so (a reference asserting 16 heads of 128 accepts only its own).
  if (!accepted && !all.empty()) {
    torch::Dims file = torch::file_dims(ref_path);
    if (int64_t inputs = torch::input_product(ref_path, file); inputs > kMaxElements)
      skipped.push_back("the file's own sizes " + dims_str(file) +
                        ": its inputs' sizes multiply to " + std::to_string(inputs) +
                        ", past the " + std::to_string(kMaxElements) + " it runs");
  }
  std::string at_defaults;  // sizes the model always builds at its defaults: a note
  for (const std::string& name : torch::sizes_at_defaults(ref_path))
    at_defaults += (at_defaults.empty() ? "" : ", ") + name;
  if (!at_defaults.empty())
    at_defaults = "bound: " + at_defaults +
                  " kept as the file writes them: Model's __init__ takes them as defaults that "
                  "get_init_inputs() does not pass";
  // The configurations whose Z3 queries ran out of their slice, again with the run's time left
  // (the whole --timeout's deadline bounds each): a proof or a counterexample replaces the
  // report; otherwise it stays, with a note.
  auto rerun_deferred = [&] {
    for (Report& r : all) {
      if (decided(all)) return;
      if (!r.smt_deferred) continue;
      Options again = opt;
      again.dims = r.dims;
      again.autotune_config = r.autotune_config;
      again.every_autotune_config = false;
      again.smt_slice_s = 0;
      again.timeout_s = full_timeout;
      again.stop_if_flattened = again.structure_only = false;
      Report second = verify(ref_path, cand_path, again);
      if (second.verdict != Verdict::Equivalent && second.verdict != Verdict::NotEquivalent) {
        r.notes.push_back("Z3: its queries here ran out of their slice of --timeout (" +
                          std::to_string(static_cast<int>(opt.smt_slice_s)) +
                          " s) and were run again after the other configurations, undecided");
        continue;
      }
      second.bound = r.bound;
      second.notes.push_back(
          "Z3: run again after the other configurations, its queries here "
          "having run out of their slice of --timeout");
      r = std::move(second);
    }
  };
  auto finish = [&] {
    rerun_deferred();
    if (configs_left_out > 0)
      for (Report& r : all)
        r.notes.push_back(
            "bound: sizes around a limit ran the autotune configs whose blocks make it, and "
            "the first (" +
            std::to_string(configs_left_out) + " runs of other configs left out)");
    if (not_checked > 0)
      for (Report& r : all)
        if (r.verdict == Verdict::NotEquivalent)
          r.notes.push_back("bound: " + std::to_string(not_checked) +
                            " later configurations were not checked: a confirmed counterexample "
                            "decides the run");
    std::vector<Report> reports = with_skipped(std::move(all), skipped, torch::file_dims(ref_path));
    if (!at_defaults.empty())
      for (Report& r : reports) r.notes.push_back(at_defaults);
    return reports;
  };
  // Once a counterexample decides the run, searching sizes around the blocks (which runs the
  // programs at each size tried) would only be thrown away.
  if (blocks.empty() || decided(all)) return finish();
  // Around the first sizes both sides accepted (a group size that divides its dimension), the
  // first with no two sizes equal where a round ran such: a limit is traced to the sizes whose
  // product makes it by value, so sizes the file's proportions scaled to 1, 1, 1, 4095 named the
  // batch for an out_channels limit of 1 (and every run there was slow); the output channels
  // were never taken past their block (LLMKernel L1 76).
  if (distinct && std::any_of(all.begin(), all.end(), [&](const Report& r) {
        return r.dims == *distinct;  // (a second round too slow is dropped)
      }))
    accepted = distinct;
  torch::Dims base = accepted ? *accepted : torch::default_dims(ref_path, 2);
  // Every autotune config a limit (or loop step) was seen in: the first is where a probe looks
  // for it, and sizes around it run them all (and the first config), not every config. A conv's
  // bounds checks give each config limits of its own (rows of 128 or of 256 pixels span
  // different input rows): LLMKernel L1 80's 28 sizes ran all 5 configs each, 140
  // configurations, past the 60 s.
  LimitConfigs limit_configs, step_configs;
  for (const Report& r : all)  // every autotune config's launches at those sizes
    if (accepted && r.dims == *accepted)
      for (const auto& limit : r.mask_limits) {
        limits.insert(limit);
        limit_configs[limit].insert(r.autotune_config);
      }
  // The search gets an eighth of --timeout, as each size around a block does (their floor of
  // 2 s aside: the search stops at its deadline, where a configuration runs to its end).
  const double probe_share = opt.timeout_s / 8;
  if (opt.stage) opt.stage->store("size search");  // the watchdog names it, not the last stage
  LimitProbe probe(ref_path, cand_path, cand_class, probe_share, opt.deadline,
                   opt.max_memory_bytes);
  Limits unconfirmed, unconfirmed_steps;
  std::vector<SizeTry> around = around_mask_limits(base, limits, limit_configs, probe, unconfirmed);
  // A loop stepping past one block (unrolled over several) has its own tail: sizes around the
  // step, for the steps no block already gives.
  std::set<std::pair<int64_t, int64_t>> steps;
  for (const Report& r : all)
    if (accepted && r.dims == *accepted)
      for (const auto& step : r.loop_steps)
        if (!limits.count(step)) {
          steps.insert(step);
          step_configs[step].insert(r.autotune_config);
        }
  for (SizeTry& t : around_mask_limits(base, steps, step_configs, probe, unconfirmed_steps, "STEP"))
    around.push_back(std::move(t));
  const size_t computed_from = around.size();
  for (SizeTry& t : around_computed_limits(probe, base, limits, limit_configs, unconfirmed))
    around.push_back(std::move(t));
  // Two limits of one block can share a value at the first sizes: a pooling's H_out * W_out of
  // 4 beside a height of 4 (DLBlas L1 42), where the height's own bounds check confirmed the
  // match and the output's limit was never searched. The other distinct sizes trace them again,
  // for the blocks the first searched no computed limit for.
  std::set<int64_t> searched;
  for (size_t k = computed_from; k < around.size(); ++k) searched.insert(around[k].limit.second);
  for (const Report& r : all) {
    if (!sizes_distinct(r.dims) || r.dims == base || r.dims.size() != base.size()) continue;
    Limits again, none;
    LimitConfigs again_configs;
    for (const auto& limit : r.mask_limits)
      if (!searched.count(limit.second)) {
        again.insert(limit);
        again_configs[limit].insert(r.autotune_config);
      }
    for (SizeTry& t : around_computed_limits(probe, r.dims, again, again_configs, none))
      around.push_back(std::move(t));
    break;
  }
  // A loop over a count computed from the sizes (cdiv(n, BLOCK) blocks, unrolled by 4): its
  // steps' tails are searched the same way.
  for (SizeTry& t :
       around_computed_limits(probe, base, steps, step_configs, unconfirmed_steps, "STEP"))
    around.push_back(std::move(t));
  if (probe.out_of_time()) {
    char share[32];
    std::snprintf(share, sizeof share, "%.2f s", probe_share);
    skipped.push_back(std::string("sizes around limits computed from sizes: the search for them "
                                  "stopped at its share of the time budget (") +
                      share + ")");
  }
  if (around.empty()) around = past_largest_block(base, *blocks.rbegin());
  std::map<std::string, unsigned> one_way;  // the kernels' conditions, the ways they went
  for (const Report& r : all)
    for (const auto& [where, bits] : r.branches) one_way[where] |= bits;
  // Both ways taken, or only guards of a program id against its grid (bit 4, no way): nothing to
  // search for.
  std::erase_if(one_way,
                [](const auto& kv) { return (kv.second & 3u) == 3u || !(kv.second & 3u); });
  if (!one_way.empty())
    for (SizeTry& t : past_other_sizes(base, one_way, probe)) around.push_back(std::move(t));
  // Host paths: runs of each launch's first program alone (the host's choices do not depend on
  // the other programs), within a sixteenth of the search's share: most sizes change nothing,
  // and every run pays it.
  const double host_share = probe_share / 16;
  LimitProbe host_probe(ref_path, cand_path, cand_class, host_share, opt.deadline,
                        opt.max_memory_bytes, true);
  std::vector<std::string> cut_short;
  if (const std::map<std::string, unsigned>* at_base = host_probe.static_ways_at(base)) {
    std::map<std::string, unsigned> known = *at_base;
    // Equal sizes first: a few runs at the first sizes, where doubling spends the rest.
    for (SizeTry& t : equal_to_another_way(base, host_probe, known)) around.push_back(std::move(t));
    for (SizeTry& t : doubled_to_another_way(base, host_probe, host_share, known, cut_short))
      around.push_back(std::move(t));
  }
  if (!cut_short.empty()) {
    std::string which;
    for (const std::string& c : cut_short) which += (which.empty() ? "" : ", ") + c;
    skipped.push_back("sizes " + which +
                      " in the search for paths the candidate picks by size (an if, a host "
                      "loop's trips): runs there take more than its share of the time budget");
  }
  // Smallest first; each gets a share of the time budget, and a size that does not finish in
  // its share is named in the notes, with the larger sizes of that dimension after it.
  std::stable_sort(around.begin(), around.end(), [](const SizeTry& a, const SizeTry& b) {
    return elements(a.dims) < elements(b.dims);
  });
  std::set<std::string> seen;
  for (const Report& r : all) seen.insert(dims_str(r.dims));
  std::set<size_t> too_slow;  // entries whose size ran out of its share
  Options around_opt = opt;
  around_opt.timeout_s = std::max(2.0, opt.timeout_s / 8);
  // One size around a block: false where the reference or an assert rejected it (its reports
  // are dropped, and named in the notes).
  std::function<bool(const torch::Dims&, const std::string&, const SizeTry&)> try_size =
      [&](const torch::Dims& dims, const std::string& why, const SizeTry& t) {
        size_t entry = t.entry;
        if (!seen.insert(dims_str(dims)).second) return true;
        std::string named = dims_str(dims) + " (" + why + ")";
        bool rejected_smaller = false;
        if (elements(dims) > kMaxElements && !too_slow.count(entry)) {
          // Where the reference rejects the halved sizes (a width of 9 halved to 4 under a
          // kernel 7 wide: LLMKernel L1 56), those sizes are kept and others halved instead.
          // The notes of the rejected halvings go once one runs.
          std::vector<size_t> keep = t.limit_sizes;
          const size_t notes = skipped.size();
          for (int tries = 0; tries < 3; ++tries) {
            auto fewer = others_halved(dims, keep, kMaxElements);
            if (!fewer) break;
            if (try_size(*fewer, why + ", other sizes halved", t)) {
              if (tries > 0) skipped.resize(notes);
              return true;
            }
            rejected_smaller = true;
            std::vector<size_t> halved = changed_sizes(dims, *fewer);
            keep.insert(keep.end(), halved.begin(), halved.end());
          }
        }
        if (elements(dims) > kMaxElements || too_slow.count(entry)) {
          skipped.push_back(named + ": " +
                            (too_slow.count(entry)
                                 ? "a smaller size of it ran out of time"
                                 : std::to_string(elements(dims)) + " elements, past the " +
                                       std::to_string(kMaxElements) + " it runs"));
          // Every smaller form the reference rejected: so would it these sizes, and the sizes
          // tried instead get their turn (Mamba2's sequence, a multiple of a block_len of 129).
          return !rejected_smaller;
        }
        std::swap(opt, around_opt);
        size_t before = all.size();
        around_blocks = true;
        const std::set<size_t>* made_in = configs_of(limit_configs, t.limit);
        run(dims, why, std::nullopt, made_in ? made_in : configs_of(step_configs, t.limit));
        around_blocks = false;
        std::swap(opt, around_opt);
        auto rejected = std::find_if(
            all.begin() + static_cast<ptrdiff_t>(before), all.end(), [](const Report& r) {
              return r.reference_stopped || r.assert_rejected || r.size_limited;
            });
        if (rejected != all.end()) {
          skipped.push_back(named + ": " + rejected->reason);
          all.resize(before);
          return false;
        }
        if (internal::drop_if_slow(all, before, named, around_opt.timeout_s, skipped)) {
          // Once: the other sizes halved to an eighth of the elements. A channel count past a
          // block of 256 beside the first sizes' spatial ones made a conv too slow to run in
          // its share, and the loop's second trip, where KernelBench L2 43's offsets go wrong,
          // went unchecked.
          const std::string retry = ", other sizes halved: the first sizes ran out of time";
          if (why.find(retry) == std::string::npos)
            if (auto fewer = others_halved(dims, t.limit_sizes, elements(dims) / 8))
              return try_size(*fewer, why + retry, t);
          too_slow.insert(entry);
        }
        return true;
      };
  for (const SizeTry& t : around) {
    if (try_size(t.dims, t.why, t)) continue;
    // Rejected: the nearest sizes that leave the same tail, until one runs. Those rejected
    // too are one note, not one each (Mamba2's block_len of 129 tried 14).
    const size_t notes = skipped.size();
    for (const torch::Dims& other : t.instead) {
      SizeTry kept = t;  // what the alternative changed stays when the other sizes are halved
      std::vector<size_t> changed = changed_sizes(t.dims, other);
      kept.limit_sizes.insert(kept.limit_sizes.end(), changed.begin(), changed.end());
      if (try_size(other, t.why + ", the nearest size the reference accepts", kept)) break;
    }
    if (skipped.size() > notes + 2) {
      const std::string first = skipped[notes];
      const size_t n = skipped.size() - notes;
      skipped.resize(notes);
      skipped.push_back(std::to_string(n) + " sizes tried instead of " + dims_str(t.dims) + " (" +
                        t.why + "), the first " + first);
    }
  }
  // Kernel loops the sizes so far left at one trip: sizes multiplied until they run several,
  // searched by a probe of their own (the first one's share of the time may be spent).
  std::set<std::string> one_trip = loops_never_twice(all);
  if (!one_trip.empty() && !decided(all)) {
    if (opt.stage) opt.stage->store("size search");
    LimitProbe trips_probe(ref_path, cand_path, cand_class, probe_share, opt.deadline,
                           opt.max_memory_bytes);
    for (const SizeTry& t : multiplied_to_more_trips(base, one_trip, trips_probe, probe_share))
      try_size(t.dims, t.why, t);
  }
  // A mask still never false, where the reference took only the file's proportions (a LayerNorm
  // over out_channels that must equal a conv's output width rejects distinct sizes, and each
  // size around a block alone): KernelBench's sizes and their halvings are powers of two, where
  // a block of next_power_of_2(n) lanes masks none off. Three quarters of a halving keep the
  // proportions (LLMKernel L2 34: a width of 12 in 16 lanes).
  // Sizes that flatten the structure (16 groups scaled to 1: a LayerNorm) are passed over.
  if (proportional && !decided(all) && mask_never_false(all))
    for (int64_t budget : {4096, 16384}) {
      torch::Dims dims = torch::scaled_dims(ref_path, budget, 1, true);
      if (seen.count(dims_str(dims))) continue;
      const size_t before = all.size();
      around_opt.stop_if_flattened = true;
      try_size(dims, "the file's sizes at three quarters of a halving: a mask never false",
               SizeTry{dims, "", SIZE_MAX});
      around_opt.stop_if_flattened = false;
      auto flat = std::find_if(all.begin() + static_cast<ptrdiff_t>(before), all.end(),
                               [](const Report& r) { return !r.flattened.empty(); });
      if (flat == all.end()) break;
      skipped.push_back(dims_str(dims) + " (three quarters of a halving): it flattens " +
                        flat->flattened[0]);
      all.resize(before);
    }
  return finish();
}

}  // namespace keq::verify
