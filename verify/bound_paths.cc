// The default bound's sizes for paths the first runs did not take: past the largest block where
// no limit was traced, past the other sizes' product where a kernel's condition went one way,
// and doubled until host Python picks another path.
#include <algorithm>
#include <chrono>

#include "verify/bound_sizes.h"

namespace keq::verify::internal {

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

// Kernel loops that never ran a second trip (a loop over a GroupNorm group's channels in
// blocks, where the group is C / G: past the block only at a C that the reference accepts, a
// multiple of G): each size in turn multiplied by 2, 4, ..., 4096 (a multiple keeps whatever
// divides it), the others halved to stay under the cap, until such a loop runs several trips. A
// loop over a row's chunks of 4,096 (gpt-5's split softmax) needs a row of 4,097, 2,048 times the
// first sizes' 3; the probe's share of the time bounds the search.
std::vector<SizeTry> multiplied_to_more_trips(const torch::Dims& base,
                                              std::set<std::string> one_trip, LimitProbe& probe,
                                              double seconds) {
  using Clock = std::chrono::steady_clock;
  std::vector<SizeTry> out;
  std::set<size_t> done;  // sizes that took a loop to several trips, or cannot be halved under
  // Factor by factor, every size at each: the size a loop's count grows with is not known.
  for (int64_t factor = 2; factor <= 4096 && !one_trip.empty() && !probe.out_of_time();
       factor *= 2) {
    size_t entry = 0;
    for (size_t d = 0; d < base.size(); ++d)
      for (size_t j = 0; j < base[d].second.size(); ++j, ++entry) {
        if (one_trip.empty() || done.count(entry) || probe.out_of_time()) continue;
        torch::Dims dims = base;
        dims[d].second[j] *= factor;
        if (elements(dims) > kMaxElements) {
          std::optional<torch::Dims> fewer = others_halved(dims, {entry}, kMaxElements);
          if (!fewer) {
            done.insert(entry);
            continue;
          }
          dims = *fewer;
        }
        const auto start = Clock::now();
        const std::map<std::string, unsigned>* loops = probe.loops_at(dims);
        // A size whose run took an eighth of the search stops growing: 4,096 rows of programs
        // spent it all before the row reached its second chunk.
        if (std::chrono::duration<double>(Clock::now() - start).count() > seconds / 8)
          done.insert(entry);
        if (!loops) continue;  // rejected there (not a multiple of something): a larger one
        std::string covered;
        for (const auto& [where, bits] : *loops)
          if (bits & 4u && one_trip.erase(where)) covered += (covered.empty() ? "" : ", ") + where;
        if (covered.empty()) continue;
        out.push_back({dims,
                       base[d].first + " times " + std::to_string(factor) + " (the loop at " +
                           covered + " runs several trips there)",
                       entry});
        done.insert(entry);
      }
  }
  return out;
}

// Why `ways` (a run's conditions and loops, the ways each went) differ from `known`'s: a
// condition gone another way or a loop run another number of trips; "" where none.
static std::string another_way(const std::map<std::string, unsigned>& known,
                               const std::map<std::string, unsigned>& ways) {
  for (const auto& [where, bits] : ways) {
    auto it = known.find(where);
    unsigned fresh = it == known.end() ? bits : bits & ~it->second;
    if (fresh & 3u) return "the condition at " + where + " goes another way there";
    if (fresh) return "the loop at " + where + " runs another number of trips there";
  }
  return "";
}

// Paths the candidate picks on concrete values (host Python choosing a block by the element
// count, a reduction run in stages `while m > 1`): every size doubled, all of them a step at a
// time, until the candidate, rerun there, takes an `if` another way, or a host loop another
// number of trips (none, one, several), than at the sizes before; each such size is kept, and
// the doubling goes on (past `if BLOCK >= 16` at 12 channels, a cap min(next_power_of_2(C),
// 128) that drops channels past 128 goes its other way at 192: DLBlas L1 67). A run's cost grows
// with its size even with one program a launch (a row of 24,576 walked by one program: 0.85 s), so
// the search has `seconds`, and a size stops doubling once one run took an eighth of them.
constexpr int64_t kMaxDoubledElements = int64_t{1} << 16;

std::vector<SizeTry> doubled_to_another_way(const torch::Dims& base, LimitProbe& probe,
                                            double seconds, std::map<std::string, unsigned>& known,
                                            std::vector<std::string>& cut_short) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  std::vector<SizeTry> out;
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
      std::string why = ways ? another_way(known, *ways) : "";
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
    }
  }
  return out;
}

std::vector<SizeTry> equal_to_another_way(const torch::Dims& base, LimitProbe& probe,
                                          std::map<std::string, unsigned>& known) {
  struct Entry {
    size_t d, j, entry;
  };
  std::vector<Entry> sizes;
  size_t entry = 0;
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j, ++entry)
      if (base[d].second[j] >= 1) sizes.push_back({d, j, entry});
  std::vector<SizeTry> out;
  for (size_t a = 0; a < sizes.size(); ++a)
    for (size_t b = 0; b < sizes.size() && !probe.out_of_time(); ++b) {
      const int64_t to = base[sizes[b].d].second[sizes[b].j];
      torch::Dims dims = base;
      int64_t& size = dims[sizes[a].d].second[sizes[a].j];
      if (a == b || size == to) continue;
      size = to;
      const std::map<std::string, unsigned>* ways = probe.static_ways_at(dims);
      std::string why = ways ? another_way(known, *ways) : "";
      if (why.empty()) continue;
      for (const auto& [where, bits] : *ways) known[where] |= bits;
      out.push_back(
          {dims, base[sizes[a].d].first + " equal to " + base[sizes[b].d].first + " (" + why + ")",
           sizes[a].entry});
    }
  return out;
}

}  // namespace keq::verify::internal
