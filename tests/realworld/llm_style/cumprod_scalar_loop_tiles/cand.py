# Cumulative product along a row in two passes, in the style of LLM-written KernelBench
# submissions: each program walks its tile one element at a time with a scalar running product
# and a scalar mask `(pid_m < M) & (col < N)` (Python's bool & bool), then a second kernel
# multiplies each tile by the product of the tiles before it.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tile_scan(x_ptr, y_ptr, tile_ptr, M: tl.constexpr, N: tl.constexpr, T: tl.constexpr,
              BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_t = tl.program_id(1)
    carry = 1.0
    i = 0
    while i < BLOCK_N:
        col = pid_t * BLOCK_N + i
        mask = (pid_m < M) & (col < N)
        carry = carry * tl.load(x_ptr + pid_m * N + col, mask=mask, other=1.0)
        tl.store(y_ptr + pid_m * N + col, carry, mask=mask)
        i += 1
    if pid_m < M:
        tl.store(tile_ptr + pid_m * T + pid_t, carry)


@triton.jit
def apply_carry(y_ptr, tile_ptr, N: tl.constexpr, T: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    carry = 1.0
    t = 0
    while t < T:
        offs = t * BLOCK_N + tl.arange(0, BLOCK_N)
        mask = offs < N
        y = tl.load(y_ptr + pid_m * N + offs, mask=mask, other=1.0)
        tl.store(y_ptr + pid_m * N + offs, y * carry, mask=mask)
        carry = carry * tl.load(tile_ptr + pid_m * T + t)
        t += 1


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x2 = x.movedim(self.dim, -1).contiguous()
        N = x2.shape[-1]
        M = x2.numel() // N
        BLOCK_N = 1024
        T = triton.cdiv(N, BLOCK_N)
        out = torch.empty_like(x2)
        tiles = torch.empty((M, T), device=x.device, dtype=x.dtype)
        tile_scan[(M, T)](x2, out, tiles, M, N, T, BLOCK_N=BLOCK_N)
        apply_carry[(M,)](out, tiles, N, T, BLOCK_N=BLOCK_N)
        return out.movedim(-1, self.dim)
