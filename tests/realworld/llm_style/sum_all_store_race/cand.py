import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    partial = tl.sum(x, axis=0)
    # BUG: programs of one row overwrite each other instead of accumulating
    prev = tl.load(out_ptr + row)
    tl.store(out_ptr + row, prev + partial)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        M, N = x.shape
        out = torch.zeros(M, device=x.device, dtype=x.dtype)
        BLOCK = 1024
        row_sum_kernel[(M, triton.cdiv(N, BLOCK))](x, out, N, BLOCK=BLOCK)
        return out
