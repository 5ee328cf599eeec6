import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_combine(a, b):
    return a + b


@triton.jit
def cumsum_rows(x_ptr, out_ptr, n_cols: tl.constexpr, BLOCK: tl.constexpr):
    # One program per row: an inclusive scan of each block, plus the sum of the blocks before.
    # (n_cols is a constexpr so that Triton's interpreter can run the loop: tests/crosscheck.)
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        scanned = tl.associative_scan(x, 0, add_combine) + carry
        tl.store(out_ptr + row * n_cols + cols, scanned, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim == 1 and x.dim() == 2
        x = x.contiguous()
        out = torch.empty_like(x)
        cumsum_rows[(x.shape[0],)](x, out, n_cols=x.shape[1], BLOCK=4)
        return out
