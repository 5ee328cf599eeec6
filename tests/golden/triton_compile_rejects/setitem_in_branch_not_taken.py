import torch
import torch.nn as nn
import triton
import triton.language as tl


# `mode` is a runtime int, so Triton compiles both branches of the if: the store into a block's
# element in the branch keq does not run is refused all the same.
@triton.jit
def kernel(x_ptr, out_ptr, n, mode, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if mode == 1:
        x[0] = 0.0
    tl.store(out_ptr + offs, x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, 0, BLOCK=8)
        return out
