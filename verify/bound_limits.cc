// The default bound's sizes around the blocks: a limit a kernel compared a block with is traced
// to the sizes that make it (a product of sizes, or a function of one found by growing it), and
// those sizes are set so the limit lands at BLOCK + 1, BLOCK - 1 and 2 BLOCK + 1.
#include <algorithm>
#include <iterator>

#include "verify/bound_sizes.h"

namespace keq::verify::internal {

namespace {

// One size of a configuration: dims[d].second[j].
struct SizeEntry {
  size_t d, j;
};

// Every set of sizes whose product is n, smallest first (then by index). Sets of up to 16 sizes
// are searched.
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

// The sizes whose product is n: one size equal to n, else the smallest set of sizes whose
// product is n (a flattened index: rows * cols, or batch * out_features of a Linear's output,
// which skips in_features), by index; empty when none.
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

// Whether the candidate run at `dims` has the `expected` limit (or loop step): false when it has
// others of that block and not it, true when it has it or no limit of that block (its
// configuration has no such block), or the limit's value with another block: the host picked
// a block from the size (BLOCK_C = the channels rounded up to 64: at 65 channels the block is
// 128, at 129 it is 192, which tl.arange refuses; LLMKernel L2 91); nothing where the programs
// do not run there.
std::optional<bool> predicted_limit(LimitProbe& probe, const torch::Dims& dims,
                                    std::pair<int64_t, int64_t> expected, const std::string& unit,
                                    size_t config) {
  const Limits* at = probe.at(dims, unit == "STEP", config);
  if (!at) return std::nullopt;
  return std::any_of(at->begin(), at->end(),
                     [&](const auto& l) { return l.first == expected.first; }) ||
         std::none_of(at->begin(), at->end(),
                      [&](const auto& l) { return l.second == expected.second; });
}

}  // namespace

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
                                        Limits& unconfirmed, const std::string& unit) {
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
    // predicted limit (or that no size of which runs) gives the sizes, and so does every other
    // as small that does. Equal sizes make one value name several (the file's proportions: in
    // and out features both 128), and a probe cannot tell which feeds the mask where another
    // mask of the block has the predicted limit too (LLMKernel L2 88: the K mask answered for
    // in_features, and the group's channels, fed by out_features, never had a tail).
    size_t found = 0;  // the size of the sets that gave sizes
    for (const std::vector<size_t>& set : feeding_sets(sizes, n)) {
      if (found && set.size() > found) break;
      SizeEntry e = entries[set.back()];  // the innermost of them
      int64_t rest = n / sizes[set.back()];
      // The other sizes a multiple of the block: no value of this one leaves a tail (and the
      // search below for one that does never ended: 2 x 512 x 2 over a block of 1,024).
      if (rest % block == 0) continue;
      std::vector<SizeTry> tries;
      std::optional<bool> real;
      for (const auto& [target, label] : limit_targets(block, unit)) {
        int64_t v = (target + rest - 1) / rest;
        while (rest > 1 && target != block && (v * rest) % block == 0) ++v;
        if (v < 2 || v == base[e.d].second[e.j]) continue;
        torch::Dims dims = base;
        dims[e.d].second[e.j] = v;
        // A limit one size makes is the same with the other sizes halved, where the programs
        // run sooner: at full size a transposed conv 127 high spent the probe's whole time, and
        // the height, which a width's output length equal to it merely named, was taken as
        // confirmed (LLMKernel L2 50). Where the halved sizes do not run, the sizes as they are.
        if (!real && set.size() == 1)
          if (auto fewer = others_halved(dims, {set.back()}, elements(dims) / 8))
            real = predicted_limit(probe, *fewer, {v * rest, block}, unit,
                                   config_of(configs, {n, block}));
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
        // Or this size as it is and one other rounded up to a multiple of it: a reference that
        // wants one size divisible by another (Mamba2's `seq_length % block_len == 0`) rejects
        // every size of this tail while the other stays.
        for (const SizeEntry& o : entries) {
          int64_t other = dims[o.d].second[o.j];
          if ((o.d == e.d && o.j == e.j) || other % v == 0) continue;
          instead.push_back(dims);
          instead.back()[o.d].second[o.j] = (other + v - 1) / v * v;
        }
        tries.push_back(
            {std::move(dims), std::move(why), set.back(), std::move(instead), set, {n, block}});
      }
      if (real == false) continue;  // a coincidence of values: another set, or the search
      out.insert(out.end(), tries.begin(), tries.end());
      // A probe that ran at no size confirms nothing: the sizes are tried, and so are the other
      // sets and the search for a limit computed from a size.
      if (!real) {
        unconfirmed.insert({n, block});
        continue;
      }
      found = set.size();
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
                                            const Limits& unconfirmed, const std::string& unit) {
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
                       k,
                       {},
                       {},
                       {n, block}});
      }
    }
  }
  return out;
}

}  // namespace keq::verify::internal
