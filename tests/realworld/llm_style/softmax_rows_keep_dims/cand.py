import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def softmax_rows(x_ptr, y_ptr, R, C, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < R) & (cols[None, :] < C)
    x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=-float("inf"))
    m = tl.max(x, axis=1, keep_dims=True)
    e = tl.exp(x - m)
    s = tl.sum(e, axis=1, keep_dims=True)
    tl.store(y_ptr + rows[:, None] * C + cols[None, :], e / s, mask=mask)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        R, C = x.shape
        y = torch.empty_like(x)
        ROWS = 4
        softmax_rows[(triton.cdiv(R, ROWS),)](x, y, R, C, ROWS=ROWS, BLOCK=triton.next_power_of_2(C))
        return y
