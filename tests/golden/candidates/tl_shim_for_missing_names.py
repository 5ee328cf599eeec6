import torch
import torch.nn as nn
import triton
import triton.language as tl


def _tanh(x):
    e2x = tl.exp(2 * x)
    return (e2x - 1) / (e2x + 1)


# Compatibility shims as LLM-written files add them: Triton 3.6's tl has sigmoid, not tanh.
if not hasattr(tl, "tanh"):
    tl.tanh = _tanh
HAS_SIGMOID = hasattr(tl, "sigmoid")
# tl.math holds Triton's own math (exp, sin, ...) in 3.6; pow and cosh live in libdevice only.
HAS_MATH = hasattr(tl.math, "sin") and not hasattr(tl.math, "pow") and not hasattr(tl.math, "cosh")
# tl.softmax exists in Triton 3.6 (keq does not model it): hasattr is True, the shim not bound.
if not hasattr(tl, "softmax"):
    tl.softmax = _tanh


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        assert HAS_SIGMOID and HAS_MATH and tl.tanh is _tanh
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128)
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
