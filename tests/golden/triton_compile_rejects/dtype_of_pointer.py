import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=tl.zeros([1], dtype=tl.dtype(x_ptr)))
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
