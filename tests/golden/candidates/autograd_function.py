import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class _Relu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        assert x.is_cuda and x.is_contiguous(), "x must be a contiguous CUDA tensor"
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 16),)](x, out, n, BLOCK=16)
        ctx.save_for_backward(x)
        ctx.mark_non_differentiable(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x > 0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _Relu.apply(x)
