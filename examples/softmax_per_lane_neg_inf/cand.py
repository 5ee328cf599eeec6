import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    # Per-lane running max and sum, every lane starting at -inf.
    m = tl.full((BLOCK,), -float("inf"), dtype=tl.float32)
    l = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        # A lane masked in every block has m = m_new = -inf: exp(-inf - -inf) is NaN.
        l = l * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(l * tl.exp(m - row_max), axis=0)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf"))
        tl.store(y_ptr + base + offs, tl.exp(x - row_max) / row_sum, mask=offs < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        online_softmax_kernel[(rows,)](x, y, cols, BLOCK=8)
        return y
