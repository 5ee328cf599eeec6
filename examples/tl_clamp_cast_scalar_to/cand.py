import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK: tl.constexpr = tl.constexpr(8)


# The idioms LLM-written and library kernels use: a module-level constexpr, program_id widened
# to int64, a scalar argument cast with .to, tl.clamp (maxnum then minnum: NaN gives min, which
# only --nonfinite-inputs reaches) and tl.cast.
@triton.jit
def k(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = scale.to(tl.float32)
    y = tl.clamp(x * s, -1.0, 1.0)
    y = tl.cast(y, tl.float32)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        k[(triton.cdiv(n, 8),)](x, y, n, 2.0, BLOCK=8)
        return y
