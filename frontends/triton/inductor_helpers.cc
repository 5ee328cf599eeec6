// keq's model of torch._inductor.runtime.triton_helpers (torch 2.11): the Triton functions that
// torch.compile's generated kernels call, and LLM-written kernels copied from them. Written in
// Python from what each computes, and read like any imported module; a helper torch has and
// this text lacks (welford, bucketize, sort, scans) is UNSUPPORTED where used.
#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

namespace {

constexpr const char* kTritonHelpers = R"PY(
import triton
import triton.language as tl
from triton.language.extra import libdevice

math = tl.math


@triton.jit
def promote_to_tensor(x):
    # A scalar becomes a one-element block; a block is unchanged.
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def div_floor_integer(a, b):
    # Python's floor division (Triton's // truncates toward zero).
    q = a // b
    signs_differ = (a < 0) != (b < 0)
    return tl.where(signs_differ & (a % b != 0), q - 1, q)


@triton.jit
def remainder_integer(a, b):
    # Python's modulo: a nonzero remainder takes the divisor's sign.
    r = a % b
    return tl.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


@triton.jit
def _multiply(a, b):
    return a * b


@triton.jit
def prod(input, axis):
    return tl.reduce(input, axis, _multiply)


@triton.jit
def maximum(a, b):
    # a when it is larger or NaN: a NaN in either operand propagates (torch.maximum).
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def minimum(a, b):
    return tl.where((a < b) | (a != a), a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)


@triton.jit
def _either(a, b):
    return a | b


@triton.jit
def any(a, dim):
    return tl.reduce(a, dim, _either)


@triton.jit
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return libdevice.exp2(x * 1.4426950408889634)
    else:
        return math.exp(x)
)PY";

}  // namespace

void register_inductor_helpers(python::Interp& in) {
  in.register_model_source("torch._inductor.runtime.triton_helpers", kTritonHelpers);
}

}  // namespace keq::triton::impl
