import torch
import torch.nn as nn
import triton
import triton.language as tl


# exp(x) as exp2(x * log2 e) with log2 e cut to 1.4427: 2e-6 relative off, more than one fp32
# ulp, so keq does not take it as log2 e, and the rows no longer sum to 1.
LOG2E = tl.constexpr(1.4427)


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    m = -float("inf")  # a scalar running max
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp2((m - m_new) * LOG2E) + tl.sum(tl.exp2((x - m_new) * LOG2E), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf"))
        tl.store(y_ptr + base + offs, tl.exp2((x - m) * LOG2E) / l, mask=offs < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        online_softmax_kernel[(rows,)](x, y, cols, BLOCK=4)
        return y
