import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # libdevice's log1p on one side of the row, log(1 + e) on the other: equal over the reals.
    e = tl.exp(x)
    y = tl.where(offs % 2 == 0, libdevice.log1p(e), tl.log(1.0 + e))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 4),)](x, y, n, BLOCK=4)
        return y
