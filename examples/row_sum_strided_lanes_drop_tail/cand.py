import torch
import torch.nn as nn
import triton
import triton.language as tl


# Each of 16 lanes sums 8 consecutive columns (lanes 8 apart, a loop over the 8): 128 columns a
# row, the file's width. Columns past 128 are never loaded. The default bound once took only
# the block of 16 lanes around the width (15, 17, 33 columns), where nothing is dropped.
@triton.jit
def row_sum_kernel(X, Y, n_cols, BLOCK: tl.constexpr, PER_LANE: tl.constexpr):
    row = tl.program_id(0)
    base = tl.arange(0, BLOCK) * PER_LANE
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(PER_LANE):
        cols = base + i
        acc += tl.load(X + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(Y + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, n_cols = x.shape
        y = torch.empty(rows, device=x.device, dtype=x.dtype)
        row_sum_kernel[(rows,)](x, y, n_cols, BLOCK=16, PER_LANE=8)
        return y


rows = 8
cols = 128


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
