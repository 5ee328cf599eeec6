import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * factor, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, y):
        # Python's integers do not wrap: (2**64 + 1) % 7 is 3, not 1.
        factor = 1
        assert y.numel() % 4 == 0, "the size must be a multiple of 4"
        out = torch.empty_like(y)
        n = y.numel()
        scale_kernel[(triton.cdiv(n, 32),)](y, out, n, float(factor), BLOCK=32)
        return out
