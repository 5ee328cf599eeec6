// Shape arithmetic and element-wise construction shared by the torch ops.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "frontends/python/interp.h"
#include "frontends/torch/tensor.h"

namespace keq::torch::detail {

using python::Interp;
using python::Ref;
using python::Span;
using TensorPtr = std::shared_ptr<Tensor>;

ir::Type term_type(DType d);
// An op's result in d: rounded where d is narrower than fp32 (torch rounds after every op),
// except under NarrowRounding::Once; int8 and uint8 wrap either way.
ir::TermId round_to(ir::TermStore& s, DType d, ir::TermId t);
// A value converted or written into d (.to(), a store, an output): rounded under either policy.
ir::TermId rounded(ir::TermStore& s, DType d, ir::TermId t);
ir::TermId constant(ir::TermStore& s, DType d, double v);
// A torch sum over terms: torch's reductions (sum, mean, cumsum, pooling, convolution) start from
// a +0 accumulator, so terms that are all -0 sum to +0 where a fold over the terms alone gives
// -0 (measured on the CPU and on CUDA: tests/fixtures/gpu/signed_zero_sums.txt). The same value
// in real semantics.
ir::TermId sum_from_zero(ir::TermStore& s, std::span<const ir::TermId> terms);
// False where t is never -0 whatever the inputs (an exp, an abs, a square, a constant).
bool may_be_negative_zero(const ir::TermStore& s, ir::TermId t);
ir::TermId convert(ir::TermStore& s, ir::TermId t, DType from, DType to);
// Whether a term `roots` reaches is a parameter's variable (p0[...]): a value computed from
// weights (a root that is itself one counts too).
bool reaches_parameter(const ir::TermStore& s, std::span<const ir::TermId> roots);
// where(condition, then, otherwise) for one element; a constant condition (a mask built from
// torch.triu of ones) picks its branch, so masked scores are the reference's plain terms.
ir::TermId where_term(ir::TermStore& s, ir::TermId condition, ir::TermId then,
                      ir::TermId otherwise);

// A tensor for a value: tensors as they are, Python numbers as 0-d tensors of `like`'s kind.
TensorPtr as_tensor(Interp& in, const Ref& v, Span at, DType like = DType::F32);
DType promote(const Ref& a, const Ref& b, Interp& in, Span at);
// The type a Triton kernel gives a scalar: fp32 for a float, int1 for a bool, int32 for an
// int, or int64 past int32's range (Triton types an int argument by its value: a data_ptr()).
DType kernel_scalar_dtype(const Ref& v);
std::vector<int64_t> broadcast_shapes(Interp& in, const std::vector<int64_t>& a,
                                      const std::vector<int64_t>& b, Span at);
// Flat index into t of an output index under broadcasting.
int64_t broadcast_index(const Tensor& t, const std::vector<int64_t>& out_shape,
                        const std::vector<int64_t>& idx);

// r takes torch strides `strides`: contiguous when they are row-major over its dimensions longer
// than 1, else a layout of its own storage that kernels and stride() see (Tensor::write).
void adopt_strides(const TensorPtr& r, const std::vector<int64_t>& strides);
// *_like's preserve_format: r gets x's layout (x is dense, so its strides exactly).
void copy_layout(const TensorPtr& r, const Tensor& x);

// A memory_format argument: absent or None is `fallback`; torch.channels_last_3d is UNSUPPORTED.
enum class MemoryFormat { Contiguous, Preserve, ChannelsLast };
MemoryFormat memory_format(Interp& in, const Ref& f, MemoryFormat fallback, Span at);
// x laid out as `format` asks, as torch's .contiguous(memory_format=), .to(memory_format=) and
// .clone(memory_format=) lay out their result: x itself where it is laid out so already and
// `copy` is false, else a copy. channels_last takes a 4-D tensor (N, C, H, W) and puts C
// fastest, then W, H and N.
TensorPtr laid_out(Interp& in, const TensorPtr& x, MemoryFormat format, bool copy, Span at);
// torch's is_contiguous(memory_format=torch.channels_last): strides of the dimensions longer than
// 1 are those of the channels-last layout (compute_channels_last_contiguous_2d).
bool is_channels_last(Interp& in, const Tensor& x, Span at);

TensorPtr map1(Interp& in, const TensorPtr& a, DType out,
               const std::function<ir::TermId(ir::TermId)>& f, Span at);
TensorPtr map2(Interp& in, const TensorPtr& a, const TensorPtr& b, DType out,
               const std::function<ir::TermId(ir::TermId, ir::TermId)>& f, Span at);
TensorPtr map3(Interp& in, const TensorPtr& a, const TensorPtr& b, const TensorPtr& c, DType out,
               const std::function<ir::TermId(ir::TermId, ir::TermId, ir::TermId)>& f, Span at);
// Reduces the given dims (sorted, normalized) with f over each group's elements.
TensorPtr reduce(Interp& in, const TensorPtr& a, std::vector<int64_t> dims, bool keepdim, DType out,
                 const std::function<ir::TermId(std::vector<ir::TermId>&)>& f, Span at);
int64_t norm_dim(Interp& in, int64_t d, size_t rank, Span at);
// t's elements with its dimensions in the order `perm` (row-major in the new shape).
std::vector<ir::TermId> permuted_elems(const Tensor& t, const std::vector<int64_t>& perm);
// The strides a view of `shape` over a tensor of `old_shape` at `old_strides` has, or none
// where no view has it (torch's computeStride: reshape then copies, view raises).
std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& old_shape,
                                                 const std::vector<int64_t>& old_strides,
                                                 const std::vector<int64_t>& shape);

// Calls f(index, flat) for every index of `shape`, in row-major order.
template <class F>
void for_each_index(const std::vector<int64_t>& shape, F&& f) {
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  for (int64_t k = 0; k < n; ++k) {
    f(static_cast<const std::vector<int64_t>&>(idx), k);
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}
// Reads of elements nothing wrote: each becomes an undefined value (a finding if it reaches an
// output), kept by the tensor.
void define_unwritten(Interp& in, Tensor& t, Span at);

}  // namespace keq::torch::detail
