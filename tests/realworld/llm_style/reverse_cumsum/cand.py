import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rev_cumsum_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    total = tl.sum(x, axis=0)
    # suffix sum: total - prefix + x
    y = total - tl.cumsum(x, axis=0) + x
    tl.store(y_ptr + base + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        rev_cumsum_kernel[(M,)](x, y, N, BLOCK=triton.next_power_of_2(N))
        return y
