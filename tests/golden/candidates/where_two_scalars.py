import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sign_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * tl.where(x >= 0, 1.0, -1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, y):
        out = torch.empty_like(y)
        n = y.numel()
        sign_kernel[(triton.cdiv(n, 32),)](y, out, n, BLOCK=32)
        return out
