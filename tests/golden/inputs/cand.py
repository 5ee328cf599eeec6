# The stable softplus without torch's threshold: equal over [0, 1), not past 20.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.maximum(x, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(x)))
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        softplus[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        return y
