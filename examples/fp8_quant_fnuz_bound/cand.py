import torch
import torch.nn as nn
import triton
import triton.language as tl

FP8_MAX = 240.0  # the e4m3fnuz (AMD) maximum, not e4m3fn's 448


@triton.jit
def quant_kernel(x_ptr, y_ptr, n, scale, fp8_max, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.minimum(tl.maximum(x * scale, -fp8_max), fp8_max)
    # The store converts to e4m3 with saturation (cvt.rn.satfinite on the H200).
    tl.store(y_ptr + offs, y.to(tl.float8e4nv), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        y = torch.empty(x.shape, dtype=torch.float8_e4m3fn, device=x.device)
        n = x.numel()
        quant_kernel[(triton.cdiv(n, 8),)](x, y, n, self.scale, FP8_MAX, BLOCK=8)
        return y
