# Softplus cut off at 20 with no clamp after it: over the reals the cut changes mish(x) for every
# x > 20 (by about x e^-2x), so no case split proves this one.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mish_shift_kernel(x_ptr, out_ptr, n, add_value, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    softplus = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))
    e = tl.exp(2.0 * softplus)
    mish = x * (e - 1.0) / (e + 1.0)
    y = (mish + add_value) * scale
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, add_value, scale):
        super().__init__()
        self.add_value = add_value
        self.scale = scale

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 256
        mish_shift_kernel[(triton.cdiv(n, BLOCK),)](
            x, out, n, self.add_value, self.scale, BLOCK=BLOCK)
        return out
