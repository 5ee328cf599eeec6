import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ident_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        ident_kernel[(triton.cdiv(n, 4),)](x, y, n, BLOCK=4)
        return y
