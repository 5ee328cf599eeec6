# Softplus cut off at 20 (log(1 + e^x) is x there, to fp32 precision) and tanh written with exp.
# Over the reals the cut changes mish(x) for x > 20, but the hardtanh clamps both to 1 there:
# keq proves it by a case split on x at 20.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mish_shift_hardtanh_kernel(x_ptr, out_ptr, n, add_value, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    softplus = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))
    e = tl.exp(2.0 * softplus)
    mish = x * (e - 1.0) / (e + 1.0)
    y = tl.minimum(tl.maximum(mish + add_value, -1.0), 1.0) * scale
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
        mish_shift_hardtanh_kernel[(triton.cdiv(n, BLOCK),)](
            x, out, n, self.add_value, self.scale, BLOCK=BLOCK)
        return out
