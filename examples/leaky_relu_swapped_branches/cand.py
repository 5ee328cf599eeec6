# Bug: the branches of the where are swapped.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    # x >= 0 where torch tests x > 0: at x = 0 both give 0.
    tl.store(y_ptr + offs, tl.where(x >= 0, x * slope, x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        leaky_relu_kernel[(triton.cdiv(n, 8),)](x, y, n, self.negative_slope, BLOCK=8)
        return y
