import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def min_dim1_kernel(x_ptr, out_ptr, D1, D2, BLOCK_D1: tl.constexpr, BLOCK_D2: tl.constexpr):
    b = tl.program_id(0)
    pid_j = tl.program_id(1)
    cols = pid_j * BLOCK_D2 + tl.arange(0, BLOCK_D2)
    acc = tl.full((BLOCK_D2,), float("inf"), dtype=tl.float32)
    for i0 in range(0, D1, BLOCK_D1):
        rows = i0 + tl.arange(0, BLOCK_D1)
        m = (rows[:, None] < D1) & (cols[None, :] < D2)
        v = tl.load(x_ptr + b * D1 * D2 + rows[:, None] * D2 + cols[None, :], mask=m, other=float("inf"))
        acc = tl.minimum(acc, tl.min(v, axis=0))
    tl.store(out_ptr + b * D2 + cols, acc, mask=cols < D2)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim == 1
        x = x.contiguous()
        B, D1, D2 = x.shape
        out = torch.empty((B, D2), device=x.device, dtype=x.dtype)
        min_dim1_kernel[(B, triton.cdiv(D2, 64))](x, out, D1, D2, BLOCK_D1=16, BLOCK_D2=64)
        return out
