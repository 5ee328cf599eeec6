// Triton 3.6's compile-time checks, in one place: what `triton.jit` rejects before a kernel runs
// (triton/language/semantic.py and _utils.validate_block_shape). Each throws the program's own
// error (python::ProgramError) with Triton's message, so a candidate that would not compile is
// a candidate that does not run. tests/golden/triton_rejects/ holds one kernel per check, and
// tests/crosscheck/triton_rejects.py shows Triton's interpreter rejecting each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontends/python/interp.h"
#include "frontends/torch/tensor.h"

namespace keq::triton {

inline constexpr int64_t kMaxTensorNumel = 1 << 20;  // TRITON_MAX_TENSOR_NUMEL
// Programs keq runs one by one: past this the grid is a size limit (UNSUPPORTED), not a hang.
inline constexpr int64_t kMaxPrograms = 1 << 20;

// An int kernel argument not annotated tl.constexpr is a runtime scalar: Triton refuses it
// where a constexpr is needed. keq marks such ints (and ints computed from them).
python::Ref runtime_int(int64_t v);
bool is_runtime_int(const python::Ref& v);
// An int argument equal to 1, which Triton specializes into the constexpr 1 (value.h: Int's `f`):
// a runtime int to keq's control flow, a constexpr to typing and to the compile checks.
python::Ref specialized_one();
bool is_specialized_one(const python::Ref& v);

void check_arange(python::Interp& in, python::Span at, const python::Ref& start,
                  const python::Ref& end);
// validate_block_shape: constexpr ints, powers of two, at most kMaxTensorNumel elements.
void check_block_shape(python::Interp& in, python::Span at, const std::vector<python::Ref>& dims);
// Pointer arithmetic: the offset must be an integer block (IncompatibleTypeErrorImpl).
void check_pointer_offset(python::Interp& in, python::Span at, torch::DType pointee,
                          torch::DType offset);
// One operand of a binary operator as Triton types it: a pointer to `dtype`, or a value of it.
struct OperandType {
  bool pointer = false;
  torch::DType dtype = torch::DType::F32;
};
// binary_op_type_checking_impl's pointer rules for an operator with at least one pointer
// operand: a pointer may stand on either side of +, on the left of -, and next to an integer
// only; anything else (a pointer times 2, a float minus a pointer given a 0-d tensor) does not
// compile (IncompatibleTypeErrorImpl), and two pointers added are Triton's TypeError.
void check_pointer_operands(python::Interp& in, python::Span at, const std::string& op,
                            OperandType lhs, OperandType rhs);
// tl.dot: [..., M, K] x [..., K, N] of `element` (core.dot's shape asserts: leading batch
// dimensions equal, any rank >= 2), and K >= 16, or 32 for 8-bit elements (the interpreter
// does not check that; compiling for the H200 does: measured,
// tests/golden/candidates/dot_small_k.py and examples/fp8_block_scaled_matmul).
void check_dot(python::Interp& in, python::Span at, const std::vector<int64_t>& a,
               const std::vector<int64_t>& b, torch::DType element, torch::DType other);
// Two blocks in one expression: equal sizes or 1, aligned from the right (Triton's
// make_shape_compatible).
void check_broadcast(python::Interp& in, python::Span at, const std::vector<int64_t>& a,
                     const std::vector<int64_t>& b);
void check_reshape(python::Interp& in, python::Span at, int64_t from_numel, int64_t to_numel);
void check_grid(python::Interp& in, python::Span at, const int64_t (&grid)[3]);
// A launch's num_warps (by keyword or a triton.Config's): a power of two, else the compiled
// launch's AssertionError, and at most 32 (1,024 threads), else OutOfResources. Measured on the
// H200 (tests/fixtures/gpu/launch_num_warps.txt); the interpreter ignores num_warps, so the
// crosscheck cannot say it. An LLM-written wrapper's BLOCK // 32 is 0 at a small block.
void check_num_warps(python::Interp& in, python::Span at, const python::Ref& num_warps);
// A block's subscript in a kernel: only None (a new axis) and a bare `:` (tensor.__getitem__);
// an integer, a slice with bounds or a block index is rejected at compile time.
void check_tensor_index(python::Interp& in, python::Span at, const python::Ref& index);
// The string options of tl.load, tl.store and the atomics as semantic.py reads them
// (cache_modifier, eviction_policy, padding_option, sem, scope): a name off Triton's list, such
// as "cg" for ".cg", raises ValueError when the kernel compiles.
enum class MemoryCall { Load, Store, Atomic };
void check_memory_options(python::Interp& in, const python::CallArgs& a, MemoryCall call);
// Triton's math functions take the dtypes libdevice has (math.py's _check_dtype): exp, log,
// sqrt and the rest only fp32 (or fp64) tensors, sqrt_rn fp32; fdiv floats. `name` is the
// function's (exp), `arg` a tensor argument's dtype (a Python number is not checked).
void check_math_dtype(python::Interp& in, python::Span at, const std::string& name,
                      torch::DType arg);
// A value, mask or `other` beside a pointer block in tl.load / tl.store (semantic._load_legacy,
// _store_legacy): broadcast to the pointer's shape. A block beside a scalar pointer, or shapes
// that do not broadcast, do not compile; wider than the pointer, a store does not compile and a
// load widens the pointer: the result is whether it does. `role` is Triton's word: "Value",
// "Mask", "Other".
bool check_beside_pointer(python::Interp& in, python::Span at, const std::vector<int64_t>& pointer,
                          const std::vector<int64_t>& other, const std::string& role,
                          bool is_store);
// An atomic's value or mask beside its pointer block (broadcast_impl_shape): the same rank, each
// size equal or 1.
// A float axis of a reduction (tl.max(x, 0.0), a slip for tl.maximum): in range, the IR
// builder's TypeError (Triton 3.6 passes it on to create_reduce); out of it, _wrap_axis's.
void check_reduce_axis(python::Interp& in, python::Span at, const python::Ref& axis, size_t rank);
void check_broadcast_to(python::Interp& in, python::Span at, const std::vector<int64_t>& from,
                        const std::vector<int64_t>& to);
// A reduction's axis in a block of `rank` dimensions (semantic's _wrap_axis).
void check_axis(python::Interp& in, python::Span at, int64_t axis, size_t rank);
// _load_legacy and store's first check: a value where the pointer belongs (an int from
// data_ptr(), as LLM-written wrappers pass, plus offsets) does not compile. Returns only where
// `p` is no kernel value (a tuple, None), which the caller reports.
void check_pointer_operand(python::Interp& in, python::Span at, const python::Ref& p,
                           const std::string& op);
// A kernel value's type as Triton's code generator compares it (TensorHooks::kernel_type).
std::optional<python::KernelType> kernel_type(const python::Ref& v);
// semantic.cast's fp_downcast_rounding (Triton 3.6): ignored where the types are the same;
// 'rtne' or 'rtz' only, and only on a float conversion to fewer bits (else ValueError). Returns
// whether the rounding is round-toward-zero, which differs from the conversion keq models.
bool check_fp_downcast_rounding(python::Interp& in, python::Span at, const python::Ref& rounding,
                                torch::DType from, torch::DType to);
// tl.multiple_of, tl.max_contiguous and tl.max_constancy (`hint`): compiler hints on a block,
// whose values are constexpr ints, one per dimension (multiple_of takes one for a 0-d block
// too). A constexpr input (tl.multiple_of(BLOCK_K, 8)) has no shape and does not compile; the
// interpreter skips hints, so compiling shows these (tests/crosscheck/triton_compile_rejects.py).
void check_hint(python::Interp& in, python::Span at, const std::string& hint,
                const python::Ref& input, const python::Ref& values);

}  // namespace keq::triton
