import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def norm_clamp_scale(x_ptr, scale_ptr, y_ptr, C, S, eps, lo, hi, BLOCK: tl.constexpr):
    # One program per (sample, channel): sums of the scaled plane, then its normalized values.
    pid = tl.program_id(0)
    s = tl.load(scale_ptr + pid % C)
    base = pid * S
    offs = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    squares = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = start + offs < S
        v = tl.load(x_ptr + base + start + offs, mask=m, other=0.0) * s
        total += v
        squares += v * v
    mean = tl.sum(total, axis=0) / S
    var = tl.sum(squares, axis=0) / S - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, S, BLOCK):
        m = start + offs < S
        v = tl.load(x_ptr + base + start + offs, mask=m, other=0.0) * s
        z = tl.minimum(tl.maximum((v - mean) * rstd, lo), hi)
        tl.store(y_ptr + base + start + offs, z * s, mask=m)


@triton.jit
def channel_max(y_ptr, out_ptr, C, S, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    n = offs // S
    p = offs % S
    best = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for c in range(0, C):
        best = tl.maximum(best, tl.load(y_ptr + (n * C + c) * S + p, mask=m, other=float("-inf")))
    tl.store(out_ptr + offs, best, mask=m)


class ModelNew(nn.Module):
    def __init__(self, channels, clamp_min, clamp_max):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(channels, 1, 1))
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        x = x.contiguous()
        n, c, h, w = x.shape
        s = h * w
        y = torch.empty_like(x)
        norm_clamp_scale[(n * c,)](x, self.scale, y, c, s, 1e-5, self.clamp_min, self.clamp_max,
                                   BLOCK=64)
        out = torch.empty((n, h, w), device=x.device, dtype=x.dtype)
        channel_max[(triton.cdiv(n * s, 128),)](y, out, c, s, n * s, BLOCK=128)
        return out
