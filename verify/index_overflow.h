// int32 offsets at the file's own sizes: keq runs a kernel at small sizes, where an int32 index
// never wraps, but a user runs it at the sizes the file writes. An offset a kernel computes in
// int32 (tl.program_id(0) * BLOCK, row * n_cols: Triton's ints are int32 unless cast) that spans
// its buffer at the bound reaches the end of that buffer at the file's sizes too; past 2^31 - 1
// elements it wraps. That is the reason library kernels write tl.program_id(0).to(tl.int64).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontends/torch/torch.h"
#include "frontends/triton/program.h"

namespace keq::verify {

// One finding per access site whose int32 offsets reach at least half of their buffer here and
// whose buffer, its sizes traced to the dimensions by value (the bound's sizes are distinct;
// where a size matches several, the smallest of their file sizes counts), has more than
// 2^31 - 1 elements at `file`'s sizes. Sizes that match no dimension keep their value.
std::vector<std::string> int32_offset_findings(
    const std::map<std::string, torch::TorchState::Int32Offset>& offsets, const torch::Dims& bound,
    const torch::Dims& file);

// One finding per site where a kernel multiplies two runtime int arguments (int32 by their values:
// n_rows * n_cols for a flat mask) whose factors, traced to the dimensions as above, make a
// product past 2^31 - 1 at `file`'s sizes while each factor still fits int32: the product wraps.
std::vector<std::string> int32_product_findings(
    const std::map<std::string, std::pair<int64_t, int64_t>>& products, const torch::Dims& bound,
    const torch::Dims& file);

}  // namespace keq::verify
