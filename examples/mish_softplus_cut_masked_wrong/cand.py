# The softplus cut at 20 under the hardtanh (proved in mish_softplus_cut_hardtanh), but the
# kernel also writes the saturated value 2 * 1 for x in (-1, -0.9), where the reference is about
# 0.4. The comparisons in the `|` must be pieces of the case split too: resolving them with a
# value from a piece that spans (-1, -0.9) proved this pair (found in review, never released).
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
    y = tl.where((x <= -1.0) | (x >= -0.9), y, scale)
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
