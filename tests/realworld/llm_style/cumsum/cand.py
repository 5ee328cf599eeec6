import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
        c = tl.cumsum(x, axis=0) + carry
        tl.store(y_ptr + row * stride + offs, c, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim == 1 and x.dim() == 2
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        cumsum_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK_SIZE=1024)
        return y
