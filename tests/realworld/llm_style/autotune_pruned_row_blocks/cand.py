# One program per row, the row in one block: only a config whose BLOCK covers the row is right,
# and prune_configs_by's early_config_prune keeps just those (the host refuses rows past the
# largest). Every config run regardless of the pruning reads a row short and leaves the rest of
# it unwritten: keq used to, and refuted this candidate at 257 columns with BLOCK 256.
import math
from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class RowShape(NamedTuple):
    rows: int
    cols: int


def _covering(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] >= named_args["n_cols"]]


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (256, 512, 1024) for w in (2, 4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _covering},
)
@triton.jit
def rms_row_kernel(x_ptr, w_ptr, y_ptr, stride_x, stride_y, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.math.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride_y + cols, x * r * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        shape = RowShape(math.prod(x.shape[:-1]), x.shape[-1])
        assert shape.cols <= 1024, "rows wider than 1024 are not supported"
        x2 = x.view(shape.rows, shape.cols)
        y = torch.empty_like(x2)
        rms_row_kernel[(shape.rows,)](x2, self.weight, y, x2.stride(0), y.stride(0), shape.cols,
                                      self.eps)
        return y.view(x.shape)


batch, seq, dim = 2, 8, 1000


def get_inputs():
    return [torch.randn(batch, seq, dim)]


def get_init_inputs():
    return [dim, 1e-6]
