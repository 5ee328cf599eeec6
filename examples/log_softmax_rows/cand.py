import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    # x - m - log(sum(exp(x - m))), with the max and the sum taken block by block.
    row = tl.program_id(0)
    base = row * n_cols
    mx = tl.full((BLOCK,), -float("inf"), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mx = tl.maximum(mx, tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf")))
    m = tl.max(mx, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=-float("inf"))
        s += tl.exp(x - m)
    lse = m + tl.log(tl.sum(s, axis=0))
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < n_cols, other=0.0)
        tl.store(y_ptr + base + offs, x - lse, mask=offs < n_cols)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        log_softmax_kernel[(rows,)](x, y, cols, BLOCK=4)
        return y
