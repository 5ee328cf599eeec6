// The default bound's size arithmetic: distinctness, element counts, sizes that leave the same
// tail, other sizes halved under a cap, and the tries of its first rounds.
#include "verify/bound_sizes.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

namespace keq::verify::internal {

bool decided(const std::vector<Report>& reports) {
  return std::any_of(reports.begin(), reports.end(),
                     [](const Report& r) { return r.verdict == Verdict::NotEquivalent; });
}

bool sizes_distinct(const torch::Dims& dims) {
  std::set<int64_t> seen;
  for (const auto& dim : dims)
    for (int64_t v : dim.second)
      if (!seen.insert(v).second) return false;
  return true;
}

bool mask_never_false(const std::vector<Report>& all) {
  std::map<std::string, bool> off;
  for (const Report& r : all)
    for (const auto& [where, seen] : r.masks) off[where] = off[where] || seen.off;
  return std::any_of(off.begin(), off.end(), [](const auto& kv) { return !kv.second; });
}

std::set<std::string> loops_never_twice(const std::vector<Report>& all) {
  std::map<std::string, unsigned> trips;  // bits: 1 none, 2 one, 4 several (loop_trips)
  for (const Report& r : all)
    for (const auto& [where, bits] : r.loops) trips[where] |= bits;
  std::set<std::string> out;
  for (const auto& [where, bits] : trips)
    if (!(bits & 4u)) out.insert(where);
  return out;
}

int64_t elements(const torch::Dims& dims) {
  int64_t product = 1;
  for (const auto& entry : dims)
    for (int64_t x : entry.second) product *= x;
  return product;
}

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

std::vector<size_t> changed_sizes(const torch::Dims& from, const torch::Dims& to) {
  std::vector<size_t> out;
  size_t k = 0;
  for (size_t d = 0; d < from.size() && d < to.size(); ++d)
    for (size_t j = 0; j < from[d].second.size(); ++j, ++k)
      if (j < to[d].second.size() && from[d].second[j] != to[d].second[j]) out.push_back(k);
  return out;
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

NamedDims each_size_doubled(const torch::Dims& dims, const std::string& why) {
  NamedDims out;
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

NamedDims powers_of_two(const torch::Dims& dims) {
  NamedDims out;
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

NamedDims multiples_of(const torch::Dims& dims, const std::vector<int64_t>& constants,
                       bool second) {
  NamedDims out;
  auto add = [&](torch::Dims more, const std::string& what, int64_t c) {
    if (elements(more) <= kMaxElements)
      out.push_back({std::move(more), what + " " + kMultipleOfConstant + " " + std::to_string(c) +
                                          ": the reference rejected the sizes before"});
  };
  for (int64_t c : constants) {
    for (int64_t k : second ? std::vector<int64_t>{3} : std::vector<int64_t>{1, 2})
      for (size_t d = 0; d < dims.size(); ++d)
        for (size_t j = 0; j < dims[d].second.size(); ++j) {
          if (dims[d].second[j] <= 1 || dims[d].second[j] == c * k) continue;
          torch::Dims more = dims;
          more[d].second[j] = c * k;
          add(std::move(more), dims[d].first, c);
        }
    torch::Dims every = dims;
    int64_t next = second ? 3 : 1;
    for (auto& entry : every)
      for (int64_t& x : entry.second)
        if (x > 1) x = c * next++;
    add(std::move(every), "every size", c);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return elements(a.first) < elements(b.first);
  });
  if (second) {  // then the first round's, where none of those is accepted
    NamedDims first = multiples_of(dims, constants);
    out.insert(out.end(), first.begin(), first.end());
  }
  return out;
}

NamedDims divisible_as_the_file(const torch::Dims& dims, const torch::Dims& file) {
  struct Size {
    size_t d, j;
    int64_t file_value;
  };
  std::vector<Size> sizes;
  for (size_t d = 0; d < dims.size() && d < file.size(); ++d)
    for (size_t j = 0; j < dims[d].second.size() && j < file[d].second.size(); ++j)
      if (file[d].first == dims[d].first && dims[d].second[j] > 1 && file[d].second[j] > 1)
        sizes.push_back({d, j, file[d].second[j]});
  std::stable_sort(sizes.begin(), sizes.end(),
                   [](const Size& a, const Size& b) { return a.file_value < b.file_value; });
  torch::Dims more = dims;
  bool divides = false;
  int64_t last = 1;
  for (size_t k = 0; k < sizes.size(); ++k) {
    int64_t step = 1;  // what the chosen sizes of its file divisors make it a multiple of
    for (size_t i = 0; i < k; ++i)
      if (sizes[i].file_value < sizes[k].file_value &&
          sizes[k].file_value % sizes[i].file_value == 0) {
        step = std::lcm(step, more[sizes[i].d].second[sizes[i].j]);
        divides = true;
      }
    int64_t v = (last / step + 1) * step;
    if (v < 2) v = 2;
    more[sizes[k].d].second[sizes[k].j] = last = v;
  }
  if (!divides || more == dims || elements(more) > kMaxElements) return {};
  return {{std::move(more), kDivisibleAsTheFile}};
}

NamedDims at_file_values(const torch::Dims& dims, const torch::Dims& file) {
  NamedDims out;
  std::set<int64_t> values;
  for (const auto& [name, vs] : file)
    for (int64_t v : vs)
      if (v > 1) values.insert(v);
  // Every size at value v, or one name's alone (a hidden size of 2048 the weights fix, beside a
  // batch of 2048 the reference does not need: both at the file's value were past keq's limit).
  auto at_value = [&](int64_t v, const std::string* only) {
    torch::Dims more = dims;
    std::string names;
    for (size_t d = 0; d < more.size() && d < file.size(); ++d)
      for (size_t j = 0; j < more[d].second.size() && j < file[d].second.size(); ++j)
        if (file[d].first == more[d].first && file[d].second[j] == v && more[d].second[j] != v &&
            (!only || *only == more[d].first)) {
          more[d].second[j] = v;
          if (names.find(more[d].first) == std::string::npos)
            names += (names.empty() ? "" : ", ") + more[d].first;
        }
    if (names.empty() || elements(more) > kMaxElements) return;
    for (const auto& [seen, why] : out)
      if (seen == more) return;
    out.push_back({std::move(more), names + " " + kAtFileValue});
  };
  for (int64_t v : values) {
    at_value(v, nullptr);
    for (const auto& [name, vs] : file)
      if (std::find(vs.begin(), vs.end(), v) != vs.end()) at_value(v, &name);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return elements(a.first) < elements(b.first);
  });
  return out;
}

}  // namespace keq::verify::internal
