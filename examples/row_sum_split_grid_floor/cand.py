# Bug: the grid rounds down, so the last partial block of each row is never summed.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def split_row_sum_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    # Program (row, split) sums one BLOCK of its row and adds it into y atomically: the order of
    # the additions between programs is unspecified.
    row = tl.program_id(0)
    split = tl.program_id(1)
    offs = split * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.atomic_add(y_ptr + row, tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.zeros(rows, device=x.device, dtype=torch.float32)
        split_row_sum_kernel[(rows, cols // 4)](x, y, cols, BLOCK=4)
        return y
