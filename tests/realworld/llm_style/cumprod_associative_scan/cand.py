import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def mul_combine(a, b):
    return a * b

@triton.jit
def cumprod_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=1.0)
    y = tl.associative_scan(x, 0, mul_combine)
    tl.store(y_ptr + row * stride + offs, y, mask=mask)

class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
    def forward(self, x):
        assert self.dim == 1
        x = x.contiguous()
        y = torch.empty_like(x)
        B, N = x.shape
        BLOCK = triton.next_power_of_2(N)
        cumprod_kernel[(B,)](x, y, N, x.stride(0), BLOCK=BLOCK)
        return y
