# A row sum split over program instances along the row, each adding its block with atomic_add.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    offs = part * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.atomic_add(out_ptr + row, tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        out = torch.zeros(rows, device=x.device, dtype=x.dtype)
        row_sum_kernel[(rows, triton.cdiv(cols, 256))](x, out, cols, BLOCK=256)
        return out
