import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def third_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    # Triton's fp32 `/` is div.full.f32, an approximation: neither torch's bits nor x / 3's
    tl.store(y_ptr + offs, x / 3.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        third_kernel[(triton.cdiv(n, 4),)](x, y, n, BLOCK=4)
        return y
