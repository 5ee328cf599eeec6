// The bound: which configurations keq verify checks (from the frontend's default_dims and
// scaled_dims: the default bound's configurations past each block size, every autotune config)
// and which it skips.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <set>

#include "frontends/python/python.h"
#include "ir/budget.h"
#include "verify/bound_sizes.h"
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
// `until_out_of_time`: a config that ran out of time ends the list (the default bound's sizes
// around the blocks, which are dropped then).
void more_autotune_configs(const std::string& ref_path, const std::string& cand_path, Options opt,
                           std::vector<Report>& reports, bool until_out_of_time = false) {
  if (!opt.every_autotune_config) return;
  const std::vector<std::string> sigs = reports[0].autotune_signatures;
  std::vector<std::string> same;
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
    opt.autotune_config = c;
    reports.push_back(verify(ref_path, cand_path, opt));
    reports.back().autotune_config = c;
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
  std::set<std::string> seen;  // both rounds of the bound can skip the same sizes
  for (const std::string& s : skipped)
    if (seen.insert(s).second)
      for (Report& r : kept) r.notes.push_back("bound: skipped " + s);
  return kept;
}

}  // namespace

namespace {

// Past this product of sizes a configuration the default bound would add is named in the notes
// instead of run (before its share of the time budget would stop it: online softmax over
// 2 x 65,537 with BLOCK 1024 takes 24 s).
constexpr int64_t kMaxElements = int64_t{1} << 18;

// No two of the sizes are equal (the bound traces a limit to sizes by value).
bool sizes_distinct(const torch::Dims& dims) {
  std::set<int64_t> seen;
  for (const auto& dim : dims)
    for (int64_t v : dim.second)
      if (!seen.insert(v).second) return false;
  return true;
}

// Some masked access of the candidate never had a lane masked off in any of these runs.
bool mask_never_false(const std::vector<Report>& all) {
  std::map<std::string, bool> off;
  for (const Report& r : all)
    for (const auto& [where, seen] : r.masks) off[where] = off[where] || seen.off;
  return std::any_of(off.begin(), off.end(), [](const auto& kv) { return !kv.second; });
}

int64_t elements(const torch::Dims& dims) {
  int64_t product = 1;
  for (const auto& entry : dims)
    for (int64_t x : entry.second) product *= x;
  return product;
}

// A configuration the default bound adds, and why (shown in its bound line).
struct SizeTry {
  torch::Dims dims;
  std::string why;
  size_t entry;  // which size it varies (in dims order, tuples flattened)
  // Sizes that leave the same tail, tried in turn where the reference or an assert rejects
  // dims (channels that must divide into groups): best first.
  std::vector<torch::Dims> instead = {};
  // The sizes whose product is the limit (a mask limit's feeding set); empty: the limit is no
  // product of sizes, and no other size may change either.
  std::vector<size_t> limit_sizes = {};
};

}  // namespace

namespace internal {

// The sizes around a block come from the first sizes both sides accepted, the file's scaled
// down: a conv's batch of 8 x 8 channels x 8 x 8 put out_channels at 2 * 32 + 1 past the cap,
// where the batch need not be 8.
std::optional<torch::Dims> others_halved(torch::Dims dims, const std::vector<size_t>& keep,
                                         int64_t cap) {
  if (keep.empty()) return std::nullopt;
  while (elements(dims) > cap) {
    int64_t* largest = nullptr;
    size_t k = 0;
    for (auto& entry : dims)
      for (int64_t& size : entry.second) {
        bool kept = std::find(keep.begin(), keep.end(), k++) != keep.end();
        if (!kept && size >= 4 && (!largest || size > *largest)) largest = &size;
      }
    if (!largest) return std::nullopt;
    *largest /= 2;
  }
  return dims;
}

// A reference that rejects v: channels that must divide into groups, heads into a width. The
// value it accepted says what it divides by.
std::vector<int64_t> same_tail(int64_t v, int64_t rest, int64_t block, int64_t target,
                               int64_t accepted) {
  int64_t first_block = target == block + 1 ? 1 : target == 2 * block + 1 ? 2 : 0;
  if (target != block - 1 && first_block == 0) return {};  // a loop's step: no other value
  int64_t lo = first_block * block, hi = lo + block;       // the product in (lo, hi)
  std::vector<int64_t> out;
  for (int64_t w = lo / rest + 1; w * rest < hi; ++w)
    if (w != v && w >= 2 && w * rest > lo) out.push_back(w);
  std::stable_sort(out.begin(), out.end(), [&](int64_t a, int64_t b) {
    int64_t ga = std::gcd(a, accepted), gb = std::gcd(b, accepted);
    if (ga != gb) return ga > gb;
    return std::abs(a - v) < std::abs(b - v);
  });
  if (out.size() > 3) out.resize(3);
  return out;
}

// A size too slow for its share is dropped rather than making the run UNKNOWN: the notes name it.
bool drop_if_slow(std::vector<Report>& all, size_t start, const std::string& named, double share,
                  std::vector<std::string>& skipped) {
  if (start >= all.size() || decided(all)) return false;
  bool slow =
      std::any_of(all.begin() + static_cast<ptrdiff_t>(start), all.end(),
                  [](const Report& r) { return r.out_of_time && r.verdict == Verdict::Unknown; });
  if (!slow) return false;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", share);
  skipped.push_back(named + ": not decided within its share of the time budget (" + seconds + ")");
  all.resize(start);
  return true;
}

}  // namespace internal

namespace {

using internal::others_halved;
using internal::same_tail;

// One size of a configuration: dims[d].second[j].
struct SizeEntry {
  size_t d, j;
};

// The sizes whose product is n: one size equal to n, else the smallest set of sizes whose
// product is n (a flattened index: rows * cols, or batch * out_features of a Linear's output,
// which skips in_features), by index; empty when none. Sets of up to 16 sizes are searched.
// Every set of sizes whose product is n, smallest first (then by index).
std::vector<std::vector<size_t>> feeding_sets(const std::vector<int64_t>& sizes, int64_t n) {
  size_t count = std::min<size_t>(sizes.size(), 16);
  std::vector<std::vector<size_t>> out;
  for (uint32_t set = 1; set < (1u << count); ++set) {
    int64_t product = 1;
    for (size_t k = 0; k < count && product <= n; ++k)
      if (set >> k & 1) product *= sizes[k];
    if (product != n) continue;
    out.emplace_back();
    for (size_t k = 0; k < count; ++k)
      if (set >> k & 1) out.back().push_back(k);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.size() < b.size(); });
  return out;
}

std::vector<size_t> feeding(const std::vector<int64_t>& sizes, int64_t n) {
  std::vector<std::vector<size_t>> sets = feeding_sets(sizes, n);
  return sets.empty() ? std::vector<size_t>{} : sets[0];
}

// The values a limit n is set to around a block B (unit BLOCK) or a loop's step s (unit STEP):
// B + 1, B - 1 and 2B + 1; a loop unrolled over s blocks also at n = s, one unrolled trip whose
// last block may be partial (an LLM LayerNorm counted 4 full blocks there).
std::vector<std::pair<int64_t, std::string>> limit_targets(int64_t block, const std::string& unit) {
  std::vector<std::pair<int64_t, std::string>> out = {
      {block + 1, unit + "+1"}, {block - 1, unit + "-1"}, {2 * block + 1, "2*" + unit + "+1"}};
  if (unit == "STEP") out.push_back({block, unit});
  return out;
}

using Limits = std::set<std::pair<int64_t, int64_t>>;  // (n, block extent), TorchState's
// The autotune config a limit was first seen in: a limit only some configs have (a BLOCK_M of
// 32 among configs of 128) is probed in that config, where the first config has none like it
// (a run there read the predicted limit as a coincidence, and a limit absent there as moved).
using LimitConfigs = std::map<std::pair<int64_t, int64_t>, size_t>;
size_t config_of(const LimitConfigs& configs, std::pair<int64_t, int64_t> limit) {
  auto it = configs.find(limit);
  return it == configs.end() ? 0 : it->second;
}

// The candidate's mask limits at `dims`, from running the programs alone (no proof); none
// where it does not run there. Remembered: the search below asks for the same sizes again.
// Bounded in runs and in seconds (a run of a convolution at a searched size can take one):
// past either, sizes not run yet have no limits, and out_of_time() says so.
class LimitProbe {
 public:
  // first_program_only: each launch runs its first program alone (host paths only).
  LimitProbe(const std::string& ref, const std::string& cand, double seconds, size_t max_bytes,
             bool first_program_only = false)
      : ref_(ref),
        cand_(cand),
        cand_class_(torch::model_classes(ref, cand).candidate),
        deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(seconds))),
        max_bytes_(max_bytes),
        first_program_only_(first_program_only) {}
  // The mask limits (or, with `steps`, the loop steps) at `dims`, autotuned kernels running
  // `config`; null where it did not run.
  const Limits* at(const torch::Dims& dims, bool steps = false, size_t config = 0) {
    const Probed* p = probed(dims, config);
    if (!p) return nullptr;
    return steps ? &p->steps : &p->masks;
  }
  // The ways the kernels' dynamic ifs went at `dims` (TorchState::branch_ways); null as above.
  const std::map<std::string, unsigned>* branches_at(const torch::Dims& dims) {
    const Probed* p = probed(dims);
    return p ? &p->branches : nullptr;
  }
  // The ways `if`s on concrete values and host loops went (TorchState::static_ways).
  const std::map<std::string, unsigned>* static_ways_at(const torch::Dims& dims) {
    const Probed* p = probed(dims);
    return p ? &p->static_ways : nullptr;
  }
  bool out_of_time() const { return out_of_time_; }

 private:
  struct Probed {
    Limits masks, steps;
    std::map<std::string, unsigned> branches, static_ways;
  };
  const Probed* probed(const torch::Dims& dims, size_t config = 0) {
    // The host-path search runs the config with the fewest lanes: its runs only reach the
    // host's choices, which no config changes (a kernel's own branch on a config's constexpr
    // is seen in that config alone, as it was in the first before).
    if (first_program_only_) config = torch::TorchState::kSmallestAutotuneConfig;
    auto [it, fresh] = seen_.try_emplace(dims_str(dims) + " #" + std::to_string(config));
    if (fresh && Clock::now() > deadline_) out_of_time_ = true;
    if (fresh && !out_of_time_ && runs_++ < kMaxRuns) try {
        // One run at a size the search grew can take longer than the whole share (the
        // interpreter over a level-2 pipeline's kernels): it stops at the deadline.
        ir::BudgetScope budget(deadline_, max_bytes_);
        ir::TermStore store;
        torch::TorchState st = torch::run_candidate(cand_, ref_, store, dims, false, cand_class_,
                                                    config, false, nullptr, first_program_only_)
                                   .state;
        it->second = Probed{st.mask_limits, st.loop_steps, st.branch_ways, st.static_ways};
      } catch (const ir::BudgetExceeded&) {
        out_of_time_ = true;
      } catch (const std::exception&) {
      }
    return it->second ? &*it->second : nullptr;
  }

  using Clock = std::chrono::steady_clock;
  static constexpr int kMaxRuns = 96;  // a bound on the search's cost, whatever the file
  std::string ref_, cand_, cand_class_;
  Clock::time_point deadline_;
  size_t max_bytes_;
  bool first_program_only_;
  std::map<std::string, std::optional<Probed>> seen_;
  int runs_ = 0;
  bool out_of_time_ = false;
};

// Whether the candidate run at `dims` has the `expected` limit (or loop step): false when it has
// others of that block and not it, true when it has it or no limit of that block (its
// configuration has no such block); nothing where the programs do not run there.
std::optional<bool> predicted_limit(LimitProbe& probe, const torch::Dims& dims,
                                    std::pair<int64_t, int64_t> expected, const std::string& unit,
                                    size_t config) {
  const Limits* at = probe.at(dims, unit == "STEP", config);
  if (!at) return std::nullopt;
  return at->count(expected) || std::none_of(at->begin(), at->end(), [&](const auto& l) {
           return l.second == expected.second;
         });
}

// Sizes around each block for the dimensions that feed a masked index (DESIGN.md): a limit n
// that a kernel compared a block of extent B with at `base` is traced back to the sizes whose
// product makes it (sizes are distinct, so a value names its dimension), and the last of them
// is set so the product lands at B + 1 (a one-lane tail, a second trip), B - 1 (one partial
// block) and 2B + 1 (a carried value read twice); a product of several sizes is rounded up to
// one that still leaves a tail. Sizes are distinct but products of them are not (an output's
// H_out * W_out of 6 beside 6 channels, N * C of 12 beside in_channels * H), so each set's
// first size that runs is run (probe): where the block's limits there do not hold the predicted
// one, the match was a coincidence and the next set is tried; a limit no set confirms goes to
// `unconfirmed`, for around_computed_limits.
std::vector<SizeTry> around_mask_limits(const torch::Dims& base, const Limits& limits,
                                        const LimitConfigs& configs, LimitProbe& probe,
                                        Limits& unconfirmed, const std::string& unit = "BLOCK") {
  std::vector<SizeEntry> entries;
  std::vector<int64_t> sizes;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j) {
      entries.push_back({d, j});
      sizes.push_back(base[d].second[j]);
    }
  std::vector<SizeTry> out;
  for (const auto& [n, block] : limits) {
    if (block < 2) continue;
    // The sets whose product is n, in turn: the first whose first size that runs makes the
    // predicted limit (or that no size of which runs) gives the sizes.
    bool found = false;
    for (const std::vector<size_t>& set : feeding_sets(sizes, n)) {
      SizeEntry e = entries[set.back()];  // the innermost of them
      int64_t rest = n / sizes[set.back()];
      std::vector<SizeTry> tries;
      std::optional<bool> real;
      for (const auto& [target, label] : limit_targets(block, unit)) {
        int64_t v = (target + rest - 1) / rest;
        while (rest > 1 && target != block && (v * rest) % block == 0) ++v;
        if (v < 2 || v == base[e.d].second[e.j]) continue;
        torch::Dims dims = base;
        dims[e.d].second[e.j] = v;
        if (!real)
          real =
              predicted_limit(probe, dims, {v * rest, block}, unit, config_of(configs, {n, block}));
        std::string why =
            base[e.d].first + " at " + label + ", " + unit + " " + std::to_string(block);
        if (set.size() > 1) why += " (a flattened index)";
        std::vector<torch::Dims> instead;
        for (int64_t w : same_tail(v, rest, block, target, base[e.d].second[e.j])) {
          instead.push_back(base);
          instead.back()[e.d].second[e.j] = w;
        }
        tries.push_back({std::move(dims), std::move(why), set.back(), std::move(instead), set});
      }
      if (real == false) continue;  // a coincidence of values: another set, or the search
      out.insert(out.end(), tries.begin(), tries.end());
      found = true;
      break;
    }
    if (!found && !feeding(sizes, n).empty()) unconfirmed.insert({n, block});
  }
  return out;
}

// A limit computed from a size rather than a product of sizes (a pooling's or convolution's
// output length, (L + 2p - d(k - 1) - 1) / s + 1) is found by running the candidate with that
// size grown: the limit of the same block that moved with it, and no product of sizes, is the
// size's function f. The size is then searched (growing, then halving the interval, f taken as
// non-decreasing) for f = BLOCK + 1, BLOCK - 1 and 2 BLOCK + 1 (limit_targets; with unit STEP,
// the same around a loop's step for the count it runs over); a target f steps over is left.
std::vector<SizeTry> around_computed_limits(LimitProbe& probe, const torch::Dims& base,
                                            const Limits& limits, const LimitConfigs& configs,
                                            const Limits& unconfirmed,
                                            const std::string& unit = "BLOCK") {
  const bool steps = unit == "STEP";
  std::vector<SizeEntry> entries;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j) entries.push_back({d, j});
  auto sizes_of = [&](const torch::Dims& dims) {
    std::vector<int64_t> out;
    for (SizeEntry e : entries) out.push_back(dims[e.d].second[e.j]);
    return out;
  };
  std::vector<SizeTry> out;
  for (const auto& [n, block] : limits) {
    if (block < 2 || (!feeding(sizes_of(base), n).empty() && !unconfirmed.count({n, block})))
      continue;
    const size_t config = config_of(configs, {n, block});
    // The size that moves the limit: each size grown in turn (2s + 1, then 8x that, ...) until
    // the limit moves: a count of blocks (cdiv(n, 1024)) stays put for a while. Every size takes
    // its small step before any its large one: a batch grown to 300 that never moves an output
    // length cost seconds of the search's share before the height was tried.
    std::vector<int64_t> grow(std::min<size_t>(entries.size(), 8));
    for (size_t k = 0; k < grow.size(); ++k)
      grow[k] = 2 * base[entries[k].d].second[entries[k].j] + 1;
    std::optional<size_t> mover;
    const Limits* grown = nullptr;
    for (bool more = true; more && !mover;) {
      more = false;
      for (size_t k = 0; k < grow.size() && !mover; ++k) {
        if (grow[k] <= 0) continue;  // done: it did not run, or grew past the cap
        torch::Dims dims = base;
        dims[entries[k].d].second[entries[k].j] = grow[k];
        const Limits* at = elements(dims) <= kMaxElements ? probe.at(dims, steps, config) : nullptr;
        if (at && !at->count({n, block})) mover = k, grown = at;
        grow[k] = at ? 8 * grow[k] + 1 : 0;
        more = more || grow[k] > 0;
      }
    }
    if (mover) {
      const size_t k = *mover;
      SizeEntry e = entries[k];
      auto with = [&](int64_t v) {
        torch::Dims dims = base;
        dims[e.d].second[e.j] = v;
        return dims;
      };
      const int64_t start = base[e.d].second[e.j];
      const int64_t s1 = (grow[k] - 1) / 8;
      // f(v): the one limit of this block at v that is no product of sizes with this one,
      // leaving out those that stayed where they were when the size grew (other dimensions').
      Limits fixed;
      std::set_intersection(limits.begin(), limits.end(), grown->begin(), grown->end(),
                            std::inserter(fixed, fixed.begin()));
      auto f = [&](int64_t v) -> std::optional<int64_t> {
        const Limits* at = probe.at(with(v), steps, config);
        if (!at) return std::nullopt;
        std::optional<int64_t> found;
        for (const auto& [m, b] : *at) {
          std::vector<size_t> made_by = feeding(sizes_of(with(v)), m);
          if (b != block || fixed.count({m, b}) ||
              std::find(made_by.begin(), made_by.end(), k) != made_by.end())
            continue;
          if (found) return std::nullopt;  // two candidates: not one function
          found = m;
        }
        return found;
      };
      // f is mostly affine in the size (an output length; a product with other sizes): its
      // values at start and at s1, where it first moved, predict where it reaches the target, and
      // two probes confirm the crossing (f(v - 1) < target <= f(v)) where the search takes a dozen
      // runs of the programs, each at a size up to the target's.
      auto predicted = [&](int64_t target) -> std::optional<int64_t> {
        std::optional<int64_t> f0 = f(start), f1 = f(s1);
        if (!f0 || !f1 || *f1 <= *f0 || *f0 >= target) return std::nullopt;
        int64_t rise = *f1 - *f0, run = s1 - start;
        int64_t v = start + ((target - *f0) * run + rise - 1) / rise;
        std::optional<int64_t> at = f(v), before = f(v - 1);
        if (at && before && *before < target && *at >= target) return v;
        return std::nullopt;
      };
      for (const auto& [target, label] : limit_targets(block, unit)) {
        int64_t lo = start, hi = start;  // f(lo) < target <= f(hi) once found
        if (std::optional<int64_t> v = predicted(target)) {
          hi = *v;
        } else {
          std::optional<int64_t> fh = f(hi);
          while (fh && *fh < target && hi < (int64_t{1} << 20))
            fh = f(hi = 2 * hi + 1), lo = hi / 2;
          if (!fh || *fh < target) break;
          while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            std::optional<int64_t> fm = f(mid);
            if (!fm) break;
            (*fm < target ? lo : hi) = mid;
          }
        }
        // Where no size makes f exactly the target (an output of 2H x 2W is never 257), the
        // nearest on the same side of the block boundary still ends in a partial block: the
        // first value past the target, or for BLOCK - 1 the last value before it.
        std::optional<int64_t> exact = f(hi);
        int64_t v = target < block ? hi - 1 : hi;
        std::optional<int64_t> fv = f(v);
        if (!exact || !fv || v <= start) continue;
        std::string at = label;
        if (*exact != target) {
          bool partial = *fv % block != 0 && *fv / block == target / block;
          if (!partial) continue;
          at = std::to_string(*fv) + " (the nearest to " + label + ")";
        } else {
          v = hi;
        }
        out.push_back({with(v),
                       base[e.d].first + " so a limit computed from it is at " + at + ", " + unit +
                           " " + std::to_string(block),
                       k});
      }
    }
  }
  return out;
}

// Sizes that flattened the model's structure, each size over 1 doubled in turn.
std::vector<std::pair<torch::Dims, std::string>> each_size_doubled(const torch::Dims& dims,
                                                                   const std::string& why) {
  std::vector<std::pair<torch::Dims, std::string>> out;
  for (size_t d = 0; d < dims.size(); ++d)
    for (size_t j = 0; j < dims[d].second.size(); ++j) {
      if (dims[d].second[j] <= 1) continue;
      torch::Dims more = dims;
      more[d].second[j] *= 2;
      out.push_back({std::move(more), (why.empty() ? "" : why + ", ") + dims[d].first +
                                          " doubled to keep the structure"});
    }
  return out;
}

// Sizes for a candidate whose assert wants a size divisible by its block (`N_CLASS %
// BLOCK_SIZE_N == 0` with a block of 1024): each size in turn a power of two up to 2^14, the
// others as they were, smallest first; then every size times 2^k at once (an assert on two).
constexpr const char* kPowerOfTwo =
    "a power of two: the candidate's assert rejected the sizes before";
std::vector<std::pair<torch::Dims, std::string>> powers_of_two(const torch::Dims& dims) {
  std::vector<std::pair<torch::Dims, std::string>> out;
  for (int64_t p = 2; p <= (int64_t{1} << 14); p *= 2)
    for (size_t d = 0; d < dims.size(); ++d)
      for (size_t j = 0; j < dims[d].second.size(); ++j) {
        if (dims[d].second[j] <= 1 || dims[d].second[j] >= p) continue;
        torch::Dims more = dims;
        more[d].second[j] = p;
        if (elements(more) <= kMaxElements)
          out.push_back({std::move(more), dims[d].first + " " + kPowerOfTwo});
      }
  for (int64_t p = 2;; p *= 2) {
    torch::Dims more = dims;
    for (auto& entry : more)
      for (int64_t& x : entry.second)
        if (x > 1) x *= p;
    if (elements(more) > kMaxElements) break;
    out.push_back({std::move(more), "every size times " + std::to_string(p) + ", " + kPowerOfTwo});
  }
  return out;
}

// Where no masked index was traced to a size: each size in turn past the largest block B
// (blocks are powers of two), B + 1, a one-lane tail and a second trip for every block in use.
std::vector<SizeTry> past_largest_block(const torch::Dims& base, int64_t block) {
  std::vector<SizeTry> out;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j) {
      torch::Dims dims = base;
      dims[d].second[j] = block + 1;
      out.push_back(
          {std::move(dims), base[d].first + " past BLOCK " + std::to_string(block), out.size()});
    }
  return out;
}

// Conditions in kernels that went one way at every configuration so far (a `pid >= stride:
// return` guard never true, which hid rows never written): each size in turn past the product of
// all the others, so that a program count or index passes any stride or size they make; kept
// where the programs, rerun there, take a condition its other way.
std::vector<SizeTry> past_other_sizes(const torch::Dims& base,
                                      const std::map<std::string, unsigned>& one_way,
                                      LimitProbe& probe) {
  std::vector<SizeTry> out;
  size_t entry = 0;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j, ++entry) {
      const int64_t size = base[d].second[j];
      if (size < 1) continue;
      torch::Dims dims = base;
      dims[d].second[j] = elements(base) / size + 1;
      if (dims[d].second[j] <= size || elements(dims) > kMaxElements) continue;
      const std::map<std::string, unsigned>* ways = probe.branches_at(dims);
      if (!ways) continue;
      for (const auto& [where, bits] : one_way) {
        auto it = ways->find(where);
        if (it == ways->end() || !(it->second & 3u & ~bits)) continue;
        out.push_back({std::move(dims),
                       base[d].first + " past the product of the other sizes (the condition at " +
                           where + " goes its other way there)",
                       entry});
        break;
      }
    }
  return out;
}

// Paths the candidate picks on concrete values (host Python choosing a block by the element
// count, a reduction run in stages `while m > 1`): every size doubled, all of them a step at a
// time, until the candidate, rerun there, takes an `if` another way, or a host loop another
// number of trips (none, one, several), than at the sizes before; the first such size of each is
// kept. A run's cost grows with its size even with one program a launch (a row of 24,576 walked
// by one program: 0.85 s), so the search has `seconds`, and a size stops doubling once one run
// took an eighth of them.
constexpr int64_t kMaxDoubledElements = int64_t{1} << 16;

std::vector<SizeTry> doubled_to_another_way(const torch::Dims& base, LimitProbe& probe,
                                            double seconds, std::vector<std::string>& cut_short) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  std::vector<SizeTry> out;
  const std::map<std::string, unsigned>* at_base = probe.static_ways_at(base);
  if (!at_base) return out;
  std::map<std::string, unsigned> known = *at_base;
  auto another_way = [&](const std::map<std::string, unsigned>& ways) -> std::string {
    for (const auto& [where, bits] : ways) {
      auto it = known.find(where);
      unsigned fresh = it == known.end() ? bits : bits & ~it->second;
      if (fresh & 3u) return "the condition at " + where + " goes another way there";
      if (fresh) return "the loop at " + where + " runs another number of trips there";
    }
    return "";
  };
  struct Doubling {
    size_t d, j, entry;
    torch::Dims dims;
    bool done = false;
  };
  std::vector<Doubling> each;
  size_t entry = 0;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j, ++entry)
      if (base[d].second[j] >= 1) each.push_back({d, j, entry, base});
  auto cut = [&](const Doubling& t) {
    cut_short.push_back(base[t.d].first + " past " + std::to_string(t.dims[t.d].second[t.j]));
  };
  for (bool any = true; any;) {
    any = false;
    for (Doubling& t : each) {
      if (t.done || elements(t.dims) * 2 > kMaxDoubledElements) continue;
      any = true;
      if (probe.out_of_time() || since(start) > seconds) {
        cut(t);
        t.done = true;
        continue;
      }
      int64_t& size = t.dims[t.d].second[t.j];
      size *= 2;
      const auto began = Clock::now();
      const std::map<std::string, unsigned>* ways = probe.static_ways_at(t.dims);
      std::string why = ways ? another_way(*ways) : "";
      if (why.empty()) {
        if (since(began) > seconds / 8 && elements(t.dims) * 2 <= kMaxDoubledElements) {
          cut(t);
          t.done = true;
        }
        continue;
      }
      for (const auto& [where, bits] : *ways) known[where] |= bits;
      out.push_back({t.dims,
                     base[t.d].first + " doubled to " + std::to_string(size) + " (" + why + ")",
                     t.entry});
      t.done = true;
    }
  }
  return out;
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
  std::optional<torch::Dims> accepted;           // the first sizes both sides ran with
  std::optional<torch::Dims> distinct;           // the first of them with no two sizes equal
  std::set<std::pair<int64_t, int64_t>> limits;  // the candidate's mask limits there (below)
  // `first` is the configuration's report for its first autotune config, when the caller ran it
  // already (a configuration is verified once: the shared --timeout is spent once).
  size_t not_checked = 0;      // configurations after a counterexample
  bool around_blocks = false;  // running the sizes around the blocks (below)
  bool second_round = false;   // the second round's sizes (below), within a share as well
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
      more_autotune_configs(ref_path, cand_path, opt, rs, second_round);
    } else {
      rs = {verify(ref_path, cand_path, first_config(opt))};
      more_autotune_configs(ref_path, cand_path, opt, rs, around_blocks);
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
  bool proportional = false;  // the first round ran the file's sizes scaled down
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
    size_t powers_rejected = 0;
    for (size_t t = 0; t < tries.size(); ++t) {
      // The second round can reach the first's sizes (both scaled down to keep a structure):
      // then the next larger ones, for a second configuration that differs (one group of 128
      // columns, the only one the first sizes have, hides which group a scale is stored for).
      if (accepted && dims_str(tries[t].first) == dims_str(*accepted)) continue;
      if (t > 0 && t + 1 < tries.size() && dims_str(tries[t].first) == dims_str(tries[t - 1].first))
        continue;  // the same sizes again (a file small enough that scaling leaves them)
      // Distinct sizes past what the bound runs elsewhere (a conv3d's 9 x 10 x 11 x 12 x 13 input
      // and 14 channels, whose reference spent the round's whole share before its LayerNorm
      // rejected them: LLMKernel L2 34) give way to the file's proportions.
      if (t + 1 < tries.size() && elements(tries[t].first) > kMaxElements) {
        skipped.push_back(dims_str(tries[t].first) + ": " +
                          std::to_string(elements(tries[t].first)) + " elements, past the " +
                          std::to_string(kMaxElements) + " it runs");
        continue;
      }
      opt.dims = tries[t].first;
      opt.stop_if_flattened = t + 1 < tries.size();
      Report probe = verify(ref_path, cand_path, first_config(opt));
      opt.stop_if_flattened = false;
      if (probe.not_started) {  // neither accepted nor rejected: the report says it was not run
        run(opt.dims, "not run: the --timeout was spent before it started", std::move(probe));
        break;
      }
      // Sizes the reference itself cannot run (a view into groups that do not divide) are the
      // bound's choice, not the user's file: try the next.
      bool rejected =
          probe.verdict == Verdict::Error || probe.assert_rejected || probe.reference_stopped;
      // Sizes that flatten the model's structure (one group in a GroupNorm hides a group bug)
      // are passed over while other sizes remain; the last try is kept, with a note.
      bool flat = !rejected && !probe.flattened.empty() &&
                  probe.verdict != Verdict::NotEquivalent;  // (the last try runs to a verdict)
      if (t + 1 < tries.size() && (rejected || flat)) {
        bool power = tries[t].second.find(kPowerOfTwo) != std::string::npos;
        if (probe.assert_rejected && power) ++powers_rejected;  // one note for them all, below
        if (probe.assert_rejected && !power)
          skipped.push_back(dims_str(opt.dims) + ": " + probe.reason);
        // Both small defaults rejected by an assert: before any larger floor multiplies every
        // size, the sizes where one of them (or all) is a power of two.
        if (probe.assert_rejected && !powered && t >= 1) {
          powered = true;
          auto more = powers_of_two(tries[0].first);
          tries.insert(tries.begin() + static_cast<ptrdiff_t>(t) + 1, more.begin(), more.end());
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
      if (flat)
        probe.notes.push_back("bound: no sizes tried keep the structure: " + probe.flattened[0]);
      if (!rejected && !accepted) {
        accepted = opt.dims;
        proportional = tries[t].second == scaled;
      }
      if (!rejected && !distinct && sizes_distinct(opt.dims)) distinct = opt.dims;
      run(opt.dims, tries[t].second, std::move(probe));
      break;
    }
    if (powers_rejected > 0)
      skipped.push_back(std::to_string(powers_rejected) +
                        " sizes with one (or every) size a power of two: the candidate's assert "
                        "rejected them");
    second_round = false;
    // Never the only configuration run: with none before it, dropping it would leave no verdict.
    if (first != 2 && round_start > 0 && round_start < all.size())
      internal::drop_if_slow(all, round_start, dims_str(all[round_start].dims) + " (second round)",
                             opt.timeout_s, skipped);
  }
  opt.timeout_s = full_timeout;
  auto finish = [&] {
    if (not_checked > 0)
      for (Report& r : all)
        if (r.verdict == Verdict::NotEquivalent)
          r.notes.push_back("bound: " + std::to_string(not_checked) +
                            " later configurations were not checked: a confirmed counterexample "
                            "decides the run");
    return with_skipped(std::move(all), skipped);
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
  LimitConfigs limit_configs, step_configs;  // (emplace keeps the first config's)
  for (const Report& r : all)                // every autotune config's launches at those sizes
    if (accepted && r.dims == *accepted)
      for (const auto& limit : r.mask_limits) {
        limits.insert(limit);
        limit_configs.emplace(limit, r.autotune_config);
      }
  // The search gets an eighth of --timeout, as each size around a block does (their floor of
  // 2 s aside: the search stops at its deadline, where a configuration runs to its end).
  const double probe_share = opt.timeout_s / 8;
  LimitProbe probe(ref_path, cand_path, probe_share, opt.max_memory_bytes);
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
          step_configs.emplace(step, r.autotune_config);
        }
  for (SizeTry& t : around_mask_limits(base, steps, step_configs, probe, unconfirmed_steps, "STEP"))
    around.push_back(std::move(t));
  for (SizeTry& t : around_computed_limits(probe, base, limits, limit_configs, unconfirmed))
    around.push_back(std::move(t));
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
  LimitProbe host_probe(ref_path, cand_path, host_share, opt.max_memory_bytes, true);
  std::vector<std::string> cut_short;
  for (SizeTry& t : doubled_to_another_way(base, host_probe, host_share, cut_short))
    around.push_back(std::move(t));
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
        if (elements(dims) > kMaxElements && !too_slow.count(entry))
          if (auto fewer = others_halved(dims, t.limit_sizes, kMaxElements))
            return try_size(*fewer, why + ", other sizes halved", t);
        if (elements(dims) > kMaxElements || too_slow.count(entry)) {
          skipped.push_back(named + ": " +
                            (too_slow.count(entry)
                                 ? "a smaller size of it ran out of time"
                                 : std::to_string(elements(dims)) + " elements, past the " +
                                       std::to_string(kMaxElements) + " it runs"));
          return true;
        }
        std::swap(opt, around_opt);
        size_t before = all.size();
        around_blocks = true;
        run(dims, why);
        around_blocks = false;
        std::swap(opt, around_opt);
        auto rejected =
            std::find_if(all.begin() + static_cast<ptrdiff_t>(before), all.end(),
                         [](const Report& r) { return r.reference_stopped || r.assert_rejected; });
        if (rejected != all.end()) {
          skipped.push_back(named + ": " + rejected->reason);
          all.resize(before);
          return false;
        }
        if (internal::drop_if_slow(all, before, named, around_opt.timeout_s, skipped))
          too_slow.insert(entry);
        return true;
      };
  for (const SizeTry& t : around) {
    if (try_size(t.dims, t.why, t)) continue;
    // Rejected: the nearest sizes that leave the same tail, until one runs.
    for (const torch::Dims& other : t.instead)
      if (try_size(other, t.why + ", the nearest size the reference accepts", t)) break;
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
