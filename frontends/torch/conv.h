// Convolutions and pooling over N spatial dimensions.
#pragma once

#include "frontends/torch/tensor_ops.h"

namespace keq::torch::detail {

struct ConvSpec {
  std::vector<int64_t> stride, padding, dilation, output_padding;  // one per spatial dimension
  int64_t groups = 1;
  bool transposed = false;
};
// x: [N, C_in, spatial...]; w: [C_out, C_in/groups, k...] (transposed: [C_in, C_out/groups, k...]).
// `one_product` (when given) gets the products that are an output's whole sum, whose zero's sign
// is the kernel's (Torch::sum_of_products).
TensorPtr convolution(Interp& in, const TensorPtr& x, const TensorPtr& w, const TensorPtr& bias,
                      const ConvSpec& c, Span at, std::vector<ir::TermId>* one_product = nullptr);

struct PoolSpec {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool max = true, ceil_mode = false, count_include_pad = true;
  int64_t divisor_override = 0;
};
// Pools the last kernel.size() dimensions. For max pooling, `indices` (when given) gets
// return_indices' tensor: each window's argmax as a flat index into its input plane, the first
// maximum winning and a NaN taking the place (as torch's kernels compare: v > max || isnan(v)).
TensorPtr pooling(Interp& in, const TensorPtr& x, const PoolSpec& p, Span at,
                  TensorPtr* indices = nullptr);

}  // namespace keq::torch::detail
