// The bound: which configurations keq verify checks (from the frontend's default_dims and
// scaled_dims: the default bound's configurations past each block size, every autotune config)
// and which it skips.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <functional>
#include <set>

#include "frontends/python/python.h"
#include "verify/verify.h"

namespace keq::verify {

namespace {

// A confirmed counterexample decides the run (NOT_EQUIVALENT outranks every other verdict):
// the configurations after it are not checked, which keeps keq fast as a pre-filter.
bool decided(const std::vector<Report>& reports) {
  return std::any_of(reports.begin(), reports.end(),
                     [](const Report& r) { return r.verdict == Verdict::NotEquivalent; });
}

// The reports of every autotune config after the first, which the caller already has.
void more_autotune_configs(const std::string& ref_path, const std::string& cand_path, Options opt,
                           std::vector<Report>& reports) {
  if (!opt.every_autotune_config) return;
  const std::vector<std::string> sigs = reports[0].autotune_signatures;
  std::vector<std::string> same;
  for (size_t c = 1; c < reports[0].autotune_configs && !decided(reports); ++c) {
    // A config whose constexprs an earlier one already had is the same program: checked once.
    if (c < sigs.size()) {
      auto earlier = std::find(sigs.begin(), sigs.begin() + c, sigs[c]);
      if (earlier != sigs.begin() + c) {
        same.push_back(std::to_string(c + 1) + " as " + std::to_string(earlier - sigs.begin() + 1));
        continue;
      }
    }
    opt.autotune_config = c;
    reports.push_back(verify(ref_path, cand_path, opt));
  }
  if (same.empty()) return;
  std::string list;
  for (const std::string& s : same) list += (list.empty() ? "" : ", ") + s;
  for (Report& r : reports)
    r.notes.push_back(
        "autotune: configs with the constexprs of an earlier one were checked once "
        "(num_warps and num_stages change nothing keq models): " +
        list);
}

Options first_config(Options opt) {
  if (opt.every_autotune_config) opt.autotune_config = 0;
  return opt;
}

}  // namespace

namespace {

// The default bound chooses sizes both sides accept and says so (DESIGN.md's table): a
// configuration an assert rejects is left out and named in the others' notes; when every one
// was rejected, they stay, and the verdict is UNKNOWN "no configuration both sides accept".
std::vector<Report> with_skipped(std::vector<Report> all, std::vector<std::string> skipped) {
  std::vector<Report> kept;
  for (Report& r : all) {
    if (r.assert_rejected || r.reference_stopped)
      skipped.push_back(r.bound + ": " + r.reason);
    else
      kept.push_back(std::move(r));
  }
  if (kept.empty()) {
    for (Report& r : all)
      if (r.assert_rejected && r.verdict == Verdict::Unknown)
        r.reason = "no configuration both sides accept; " + r.reason;
    return all;
  }
  for (Report& r : kept)
    for (const std::string& s : skipped) r.notes.push_back("bound: skipped " + s);
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
  std::vector<Report> all;
  std::vector<std::string> skipped;  // configurations an assert rejected, with why
  std::set<int64_t> blocks;
  std::optional<torch::Dims> accepted;  // the first sizes both sides ran with
  // `first` is the configuration's report for its first autotune config, when the caller ran it
  // already (a configuration is verified once: the shared --timeout is spent once).
  size_t not_checked = 0;  // configurations after a counterexample
  auto run = [&](const torch::Dims& dims, const std::string& why = "",
                 std::optional<Report> first = std::nullopt) {
    if (decided(all)) {
      ++not_checked;
      return;
    }
    opt.dims = dims;
    std::vector<Report> rs;
    if (first) {
      rs.push_back(std::move(*first));
      more_autotune_configs(ref_path, cand_path, opt, rs);
    } else {
      rs = verify_every_autotune_config(ref_path, cand_path, opt);
    }
    for (Report& r : rs) {
      blocks.insert(r.blocks.begin(), r.blocks.end());
      if (!why.empty() && r.bound.find(" (default bound)") != std::string::npos)
        r.bound.replace(r.bound.find(" (default bound)"), 16, " (default bound, " + why + ")");
    }
    all.insert(all.end(), rs.begin(), rs.end());
  };
  // Distinct small sizes first; where the model rejects them (a kernel wider than the input,
  // channels that must divide into groups), larger ones, then the file's own proportions.
  for (int64_t first : {2, 5}) {
    if (decided(all)) {
      ++not_checked;
      continue;
    }
    int64_t budget = first == 2 ? 4096 : 16384;
    std::vector<torch::Dims> tries = {
        torch::default_dims(ref_path, first), torch::default_dims(ref_path, first + 4),
        torch::scaled_dims(ref_path, budget, 1), torch::scaled_dims(ref_path, budget, 8),
        torch::scaled_dims(ref_path, budget, 32)};
    for (size_t t = 0; t < tries.size(); ++t) {
      opt.dims = tries[t];
      Report probe = verify(ref_path, cand_path, first_config(opt));
      // Sizes the reference itself cannot run (a view into groups that do not divide) are the
      // bound's choice, not the user's file: try the next.
      bool rejected =
          probe.verdict == Verdict::Error || probe.assert_rejected || probe.reference_stopped;
      // Sizes that flatten the model's structure (one group in a GroupNorm hides a group bug)
      // are passed over while other sizes remain; the last try is kept, with a note.
      bool flat = !rejected && !probe.flattened.empty() &&
                  probe.verdict != Verdict::NotEquivalent;  // a counterexample holds anyway
      if (t + 1 < tries.size() && (rejected || flat)) {
        if (probe.assert_rejected) skipped.push_back(dims_str(opt.dims) + ": " + probe.reason);
        if (flat) skipped.push_back(dims_str(opt.dims) + ": it flattens " + probe.flattened[0]);
        continue;
      }
      if (flat)
        probe.notes.push_back("bound: no sizes tried keep the structure: " + probe.flattened[0]);
      if (!rejected && !accepted) accepted = opt.dims;
      run(opt.dims, t >= 2 ? "the file's sizes scaled down" : "", std::move(probe));
      break;
    }
  }
  auto finish = [&] {
    if (not_checked > 0)
      for (Report& r : all)
        if (r.verdict == Verdict::NotEquivalent)
          r.notes.push_back("bound: " + std::to_string(not_checked) +
                            " later configurations were not checked: a confirmed counterexample "
                            "decides the run");
    return with_skipped(std::move(all), skipped);
  };
  if (blocks.empty()) return finish();
  // Past the largest block B (blocks are powers of two): B + 1 leaves a one-lane tail and makes
  // a second trip for every block size in use.
  int64_t past = *blocks.rbegin() + 1;
  // Around the first sizes both sides accepted (a group size that divides its dimension).
  torch::Dims base = accepted ? *accepted : torch::default_dims(ref_path, 2);
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j) {
      torch::Dims dims = base;
      dims[d].second[j] = past;
      int64_t product = 1;
      for (const auto& [name, v] : dims)
        for (int64_t x : v) product *= x;
      if (product <= 32768) run(dims, base[d].first + " past BLOCK " + std::to_string(past - 1));
    }
  return finish();
}

}  // namespace keq::verify
