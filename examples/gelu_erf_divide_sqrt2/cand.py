import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # x / sqrt(2) where torch multiplies by 1/sqrt(2): the two fp32 literals differ over the
    # reals; keq takes each as the constant it rounds (DESIGN.md) and says so in the report.
    y = x * 0.5 * (1.0 + tl.erf(x / 1.4142135623730951))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 8),)](x, y, n, BLOCK=8)
        return y
