#include "verify/index_overflow.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "verify/verify.h"

namespace keq::verify {

namespace {

// The file's size for a size the bound gave value v: the smallest file size among the bound's
// entries equal to v (so the estimate never exceeds what the file writes), else v itself.
int64_t at_file_sizes(int64_t v, const torch::Dims& bound, const torch::Dims& file) {
  std::optional<int64_t> least;
  for (const auto& [name, values] : bound)
    for (size_t j = 0; j < values.size(); ++j) {
      if (values[j] != v) continue;
      auto f = std::find_if(file.begin(), file.end(),
                            [&](const auto& entry) { return entry.first == name; });
      if (f == file.end() || j >= f->second.size()) continue;
      least = std::min(least.value_or(f->second[j]), f->second[j]);
    }
  return least.value_or(v);
}

}  // namespace

std::vector<std::string> int32_offset_findings(
    const std::map<std::string, torch::TorchState::Int32Offset>& offsets, const torch::Dims& bound,
    const torch::Dims& file) {
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  std::vector<std::string> out;
  for (const auto& [site, o] : offsets) {
    int64_t here = 1, there = 1;
    bool huge = false;  // past int64: certainly past int32
    for (int64_t d : o.buffer_shape) {
      here *= d;
      huge = huge || __builtin_mul_overflow(there, at_file_sizes(d, bound, file), &there);
    }
    // An offset that reaches only a corner of its buffer (a pointer advanced block by block,
    // each step a small int32) need not grow with the sizes. The last element's index is
    // numel - 1: a buffer of 2^31 elements is still addressable.
    if (here < 2 || 2 * (o.max_offset + 1) < here || (!huge && there - 1 <= kInt32Max)) continue;
    out.push_back(site + ": an offset computed in int32 spans its buffer (" + std::to_string(here) +
                  " elements at " + dims_str(bound) + "); at the file's sizes (" + dims_str(file) +
                  ") the buffer has " + (huge ? "more than 2^63" : std::to_string(there)) +
                  " elements, past int32's 2147483647, so its offsets wrap there (compute them "
                  "in int64, e.g. tl.program_id(0).to(tl.int64))");
  }
  return out;
}

std::vector<std::string> int32_product_findings(
    const std::map<std::string, std::pair<int64_t, int64_t>>& products, const torch::Dims& bound,
    const torch::Dims& file) {
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  std::vector<std::string> out;
  for (const auto& [site, factors] : products) {
    const auto [a, b] = factors;
    const int64_t fa = at_file_sizes(a, bound, file), fb = at_file_sizes(b, bound, file);
    if (std::abs(fa) > kInt32Max || std::abs(fb) > kInt32Max) continue;  // int64 there
    const int64_t there = fa * fb;  // both within int32: no int64 overflow
    if (std::abs(there) <= kInt32Max) continue;
    out.push_back(site + ": a product of two int32 kernel arguments (" + std::to_string(a) + " x " +
                  std::to_string(b) + " at " + dims_str(bound) + "); at the file's sizes (" +
                  dims_str(file) + ") it is " + std::to_string(fa) + " x " + std::to_string(fb) +
                  " = " + std::to_string(there) +
                  ", past int32's 2147483647, so it wraps there (cast a factor to tl.int64)");
  }
  return out;
}

}  // namespace keq::verify
